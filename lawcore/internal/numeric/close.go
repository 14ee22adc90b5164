package numeric

import "math"

// CloseRel reports whether a and b agree to the relative tolerance tol (absolute within 1 of
// zero), as tests compare computed figures with expected ones.
func CloseRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
