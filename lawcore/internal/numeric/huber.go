package numeric

import "math"

// Huber is the Huber loss of a residual r: r*r/2 inside [-delta, delta], linear outside.
func Huber(r, delta float64) float64 {
	if a := math.Abs(r); a >= delta {
		return delta*a - 0.5*delta*delta
	}
	return 0.5 * r * r
}

// HuberSlope is the derivative of Huber in r.
func HuberSlope(r, delta float64) float64 {
	switch {
	case r >= delta:
		return delta
	case r <= -delta:
		return -delta
	}
	return r
}

// MinPredicted is where SafeLog stops taking the log of a predicted loss and continues it
// linearly, so that an objective built on it is defined (and smooth) for any parameters, even
// those that predict a loss of zero or less.
const MinPredicted = 1e-9

// SafeLog is log(x) for x >= MinPredicted, and its tangent line below; it also returns the
// derivative.
func SafeLog(x float64) (float64, float64) {
	if x >= MinPredicted {
		return MathLog(x), 1 / x
	}
	return math.Log(MinPredicted) + (x-MinPredicted)/MinPredicted, 1 / MinPredicted
}
