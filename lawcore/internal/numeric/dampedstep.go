package numeric

import "math"

// DampedStep solves the Levenberg-Marquardt system (H + lambda*diag(H)) step = -g for the
// Gauss-Newton Hessian h and the gradient g, writing step; it returns false when that fails
// (no curvature, a singular system, or a step that is not finite).
func DampedStep(h [][]float64, g []float64, lambda float64, step []float64) bool {
	n := len(g)
	t, ok := factorDamped(h, lambda, 1e-12)
	if !ok {
		return false
	}
	sol := make([]float64, n)
	for i := range g {
		sol[i] = -g[i]
	}
	choleskySolve(t, n, sol)
	for i := range step {
		step[i] = sol[i]
		if math.IsNaN(step[i]) || math.IsInf(step[i], 0) {
			return false
		}
	}
	return true
}

// conditionLimit is the estimate of a system's condition number past which it is treated as
// singular: mat.ConditionTolerance, the limit mat's solvers use.
const conditionLimit = 1e16

// factorDamped factorises h + lambda*diag(h) + ridge*max(diag h)*I = U'U (choleskyUpper: U
// row-major, n x n, in the upper triangle), and reports false when h has no curvature, or the
// system is not positive definite or is near-singular: (max U_ii / min U_ii)^2, a lower bound on
// its condition number, passes conditionLimit. The ridge keeps directions the data do not
// determine solvable. These systems are at most a few parameters across: neither mat.Cholesky
// nor gonum's LAPACK is needed for them, and both would add their matrix types to the page's
// first download.
func factorDamped(h [][]float64, lambda, ridge float64) ([]float64, bool) {
	n := len(h)
	maxDiag := 0.0
	for i := 0; i < n; i++ {
		maxDiag = math.Max(maxDiag, h[i][i])
	}
	if !(maxDiag > 0) || math.IsInf(maxDiag, 0) {
		return nil, false
	}
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := h[i][j]
			if i == j {
				v += lambda*h[i][i] + ridge*maxDiag
			}
			a[i*n+j] = v
		}
	}
	if !choleskyUpper(a, n) {
		return a, false
	}
	lo, hi := math.Inf(1), 0.0
	for i := 0; i < n; i++ {
		d := math.Abs(a[i*n+i])
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	if !(lo > 0) || (hi/lo)*(hi/lo) > conditionLimit {
		return a, false
	}
	return a, true
}

// Square allocates an n x n matrix.
func Square(n int) [][]float64 {
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	return h
}
