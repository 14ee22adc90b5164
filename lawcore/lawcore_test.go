package lawcore_test

import (
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
)

// closeRel reports whether a and b agree to a relative tolerance (absolute near zero).
var closeRel = lawcore.CloseRel

// annealingParams types the parameters of an annealing-law fit, failing the test if they are
// not the annealing law's.
func annealingParams(t testing.TB, res *lawcore.FitResult) annealing.Params {
	t.Helper()
	p, err := annealing.ParamsOf(res.Params)
	if err != nil {
		t.Fatalf("%s fit: %v", res.Law, err)
	}
	return p
}
