package lawcore

import (
	"context"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// CloseRel is closeRel for the external tests (package lawcore_test).
var CloseRel = numeric.CloseRel

// ThinAbove is thinAbove for the external tests.
const ThinAbove = thinAbove

// FitThinnedOnly fits req as auto's fold fits do: past thinAbove points, polished on the
// thinned objective only.
func FitThinnedOnly(ctx context.Context, req FitRequest) (*FitResult, error) {
	req.Effort.ThinnedOnly = true
	return Fit(ctx, req, nil)
}
