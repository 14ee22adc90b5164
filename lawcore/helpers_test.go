package lawcore

import (
	"math"
	"testing"
)

// closeRel reports whether a and b agree to a relative tolerance (absolute near zero).
func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// annealingParams types the parameters of an annealing-law fit, failing the test if they are
// not the annealing law's.
func annealingParams(t testing.TB, res *FitResult) Params {
	t.Helper()
	p, err := AnnealingParams(res.Params)
	if err != nil {
		t.Fatalf("%s fit: %v", res.Law, err)
	}
	return p
}
