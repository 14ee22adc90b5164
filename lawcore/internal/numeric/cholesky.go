package numeric

import "math"

// The fits' systems are a few parameters across, so their Cholesky factor, solve and
// triangular inverse are done here rather than through gonum's lapack64, whose blocked routines,
// Ilaenv and level-3 BLAS would add to the page's first download. Each routine does LAPACK's unblocked algorithm (dpotf2, dpotrs, dtrti2, upper
// triangle, row-major) with gonum's operations in gonum's order, so that the results are those
// of gonum's pure-Go BLAS (the one wasm runs) to the last bit; natively on amd64 gonum's
// assembly dot product sums in another order (TestCholeskyAsGonum).
//
// Matrices are n x n, row-major in a slice of n*n: a[i*n+j].

// choleskyUpper factorises the symmetric matrix whose upper triangle is in a into A = U'U in
// place (U in the upper triangle; the strict lower triangle is not read or written), as
// LAPACK's dpotf2. It returns false when A is not positive definite: a pivot is not positive or
// is NaN, left in its place on the diagonal.
func choleskyUpper(a []float64, n int) bool {
	for j := 0; j < n; j++ {
		ajj := a[j*n+j]
		if j != 0 {
			s := 0.0
			for k := 0; k < j; k++ {
				s += a[k*n+j] * a[k*n+j]
			}
			ajj -= s
		}
		if ajj <= 0 || math.IsNaN(ajj) {
			a[j*n+j] = ajj
			return false
		}
		ajj = math.Sqrt(ajj)
		a[j*n+j] = ajj
		if j < n-1 {
			// row j right of the diagonal: (a_jk - sum_i<j u_ij u_ik) / u_jj
			for i := 0; i < j; i++ {
				t := -a[i*n+j]
				for k := j + 1; k < n; k++ {
					a[j*n+k] += t * a[i*n+k]
				}
			}
			r := 1 / ajj
			for k := j + 1; k < n; k++ {
				a[j*n+k] *= r
			}
		}
	}
	return true
}

// choleskySolve solves U'U x = b for the factor u of choleskyUpper, overwriting b with x, as
// LAPACK's dpotrs with one right-hand side.
func choleskySolve(u []float64, n int, b []float64) {
	// U' y = b
	for k := 0; k < n; k++ {
		b[k] *= 1 / u[k*n+k]
		for i := k + 1; i < n; i++ {
			if v := u[k*n+i]; v != 0 {
				b[i] += -v * b[k]
			}
		}
	}
	// U x = y
	for i := n - 1; i >= 0; i-- {
		for k := i + 1; k < n; k++ {
			if v := u[i*n+k]; v != 0 {
				b[i] += -v * b[k]
			}
		}
		b[i] *= 1 / u[i*n+i]
	}
}

// invertUpper replaces the upper triangular u (non-unit diagonal) by its inverse in place, as
// LAPACK's dtrtri (unblocked: dtrti2). It returns false, u untouched, when a diagonal element is
// zero.
func invertUpper(u []float64, n int) bool {
	for i := 0; i < n; i++ {
		if u[i*n+i] == 0 {
			return false
		}
	}
	for j := 0; j < n; j++ {
		u[j*n+j] = 1 / u[j*n+j]
		ajj := -u[j*n+j]
		// column j above the diagonal: x = U[:j,:j] x (U[:j,:j] already inverted), then x *= ajj
		if j == 1 {
			u[1] *= u[0]
		} else {
			for i := 0; i < j; i++ {
				t := u[i*n+i] * u[i*n+j]
				s := 0.0
				for k := i + 1; k < j; k++ {
					s += u[i*n+k] * u[k*n+j]
				}
				u[i*n+j] = t + s
			}
		}
		for i := 0; i < j; i++ {
			if ajj == 0 {
				u[i*n+j] = 0
			} else {
				u[i*n+j] *= ajj
			}
		}
	}
	return true
}

// InverseSPD is the inverse of the symmetric positive definite matrix h (its upper triangle is
// read), through its Cholesky factor: h⁻¹ = U⁻¹U⁻ᵀ. It returns false when h is not positive
// definite.
func InverseSPD(h [][]float64) ([][]float64, bool) {
	n := len(h)
	a := make([]float64, n*n)
	for i := range n {
		copy(a[i*n+i:i*n+n], h[i][i:])
	}
	if !choleskyUpper(a, n) || !invertUpper(a, n) {
		return nil, false
	}
	out := Square(n)
	for i := range n {
		for j := i; j < n; j++ {
			s := 0.0
			for k := j; k < n; k++ { // U⁻¹ is upper triangular: row i from column i, row j from j
				s += a[i*n+k] * a[j*n+k]
			}
			out[i][j], out[j][i] = s, s
		}
	}
	return out, true
}
