package lawcore

import (
	"context"
	"math"
)

// closeRel reports whether a and b agree to a relative tolerance (absolute near zero).
func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// CloseRel is closeRel for the external tests (package lawcore_test).
var CloseRel = closeRel

// ThinAbove is thinAbove for the external tests.
const ThinAbove = thinAbove

// FitThinnedOnly fits req as auto's fold fits do: past thinAbove points, polished on the
// thinned objective only.
func FitThinnedOnly(ctx context.Context, req FitRequest) (*FitResult, error) {
	req.thinnedOnly = true
	return Fit(ctx, req, nil)
}
