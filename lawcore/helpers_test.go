package lawcore

import "math"

// closeRel reports whether a and b agree to a relative tolerance (absolute near zero).
func closeRel(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// CloseRel is closeRel for the external tests (package lawcore_test).
var CloseRel = closeRel

// ThinAbove is thinAbove for the external tests.
const ThinAbove = thinAbove
