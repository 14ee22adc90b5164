package numeric

import "math"

// Linspace returns n evenly spaced values from a to b (a alone when n is 1).
func Linspace(a, b float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		if n == 1 {
			out[i] = a
			continue
		}
		out[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	return out
}

// Logspace returns n values from a to b evenly spaced in log (a, b > 0).
func Logspace(a, b float64, n int) []float64 {
	out := Linspace(math.Log(a), math.Log(b), n)
	for i := range out {
		out[i] = math.Exp(out[i])
	}
	return out
}
