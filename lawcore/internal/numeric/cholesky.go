package numeric

import "math"

// A small dense Cholesky factorisation for the few-parameter systems of the fits (a law has at
// most a handful of parameters). It replaces gonum's mat.Cholesky here: for such sizes the
// LAPACK machinery behind it (blocked factorisation, condition estimators, BLAS level 3) does
// nothing faster, and it is a large part of the WebAssembly the page downloads.

// conditionTolerance is the 1-norm condition number past which a system is treated as singular,
// as gonum's mat does (mat.ConditionTolerance).
const conditionTolerance = 1e16

// cholesky factorises the symmetric matrix a (its upper triangle is read) as L L' and returns L
// (lower triangular, row-major), or false when a is not positive definite.
func cholesky(a [][]float64) ([][]float64, bool) {
	n := len(a)
	l := Square(n)
	for j := 0; j < n; j++ {
		d := a[j][j]
		for k := 0; k < j; k++ {
			d -= l[j][k] * l[j][k]
		}
		if !(d > 0) || math.IsInf(d, 0) {
			return nil, false
		}
		l[j][j] = math.Sqrt(d)
		for i := j + 1; i < n; i++ {
			s := a[j][i] // the upper triangle: a[j][i] = a[i][j]
			for k := 0; k < j; k++ {
				s -= l[i][k] * l[j][k]
			}
			l[i][j] = s / l[j][j]
		}
	}
	return l, true
}

// lowerInverse returns the inverse of the lower triangular l (itself lower triangular).
func lowerInverse(l [][]float64) [][]float64 {
	n := len(l)
	inv := Square(n)
	for j := 0; j < n; j++ {
		inv[j][j] = 1 / l[j][j]
		for i := j + 1; i < n; i++ {
			s := 0.0
			for k := j; k < i; k++ {
				s -= l[i][k] * inv[k][j]
			}
			inv[i][j] = s / l[i][i]
		}
	}
	return inv
}

// norm1 is the 1-norm of a (its largest column sum of magnitudes).
func norm1(a [][]float64) float64 {
	best := 0.0
	for j := range a {
		s := 0.0
		for i := range a {
			s += math.Abs(a[i][j])
		}
		best = math.Max(best, s)
	}
	return best
}

// symmetric fills a full matrix from the upper triangle of a.
func symmetric(a [][]float64) [][]float64 {
	n := len(a)
	s := Square(n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s[i][j], s[j][i] = a[i][j], a[i][j]
		}
	}
	return s
}

// choleskySolve solves a x = b for the symmetric positive definite a (upper triangle read),
// writing x; false when a is not positive definite or its condition number passes
// conditionTolerance (computed exactly from the inverse: the systems are tiny).
func choleskySolve(a [][]float64, b, x []float64) bool {
	l, ok := cholesky(a)
	if !ok {
		return false
	}
	inv := lowerInverse(l)
	n := len(a)
	// a^-1 = L'^-1 L^-1
	ainv := Square(n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for k := max(i, j); k < n; k++ {
				s += inv[k][i] * inv[k][j]
			}
			ainv[i][j] = s
		}
	}
	if cond := norm1(symmetric(a)) * norm1(ainv); !(cond <= conditionTolerance) {
		return false
	}
	// forward L y = b, then back L' x = y
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		s := b[i]
		for k := 0; k < i; k++ {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < n; k++ {
			s -= l[k][i] * x[k]
		}
		x[i] = s / l[i][i]
	}
	return true
}
