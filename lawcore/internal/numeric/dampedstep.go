package numeric

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

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
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := h[i][j]
			if i == j {
				v += lambda*h[i][i] + 1e-12*maxDiag
			}
			a.SetSym(i, j, v)
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(a) {
		return false
	}
	b := mat.NewVecDense(n, nil)
	for i := range g {
		b.SetVec(i, -g[i])
	}
	var sol mat.VecDense
	if err := chol.SolveVecTo(&sol, b); err != nil {
		return false
	}
	for i := range step {
		step[i] = sol.AtVec(i)
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
