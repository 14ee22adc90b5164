package numeric

import "math"

// DampedStep solves the Levenberg-Marquardt system (H + lambda*diag(H)) step = -g for the
// Gauss-Newton Hessian h and the gradient g, writing step; it returns false when that fails
// (no curvature, a singular system, or a step that is not finite).
func DampedStep(h [][]float64, g []float64, lambda float64, step []float64) bool {
	n := len(g)
	maxDiag := 0.0
	for i := 0; i < n; i++ {
		maxDiag = math.Max(maxDiag, h[i][i])
	}
	if !(maxDiag > 0) || math.IsInf(maxDiag, 0) {
		return false
	}
	a := Square(n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := h[i][j]
			if i == j {
				v += lambda*h[i][i] + 1e-12*maxDiag
			}
			a[i][j] = v
		}
	}
	b := make([]float64, n)
	for i := range g {
		b[i] = -g[i]
	}
	if !choleskySolve(a, b, step) {
		return false
	}
	for i := range step {
		if math.IsNaN(step[i]) || math.IsInf(step[i], 0) {
			return false
		}
	}
	return true
}

// Square allocates an n x n matrix.
func Square(n int) [][]float64 {
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	return h
}
