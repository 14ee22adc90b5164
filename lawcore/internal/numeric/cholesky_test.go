package numeric

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The small Cholesky solves as gonum's mat.Cholesky does, and refuses what it refuses.
func TestCholeskySolveMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		n := 1 + rng.IntN(7)
		// A = M M' + ridge: positive definite, of every conditioning from good to awful.
		m := Square(n)
		for i := range m {
			for j := range m[i] {
				m[i][j] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
			}
		}
		a := Square(n)
		sym := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				for k := 0; k < n; k++ {
					a[i][j] += m[i][k] * m[j][k]
				}
				if i == j {
					a[i][j] += 1e-9 * rng.Float64()
				}
				sym.SetSym(i, j, a[i][j])
			}
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		x := make([]float64, n)
		ok := choleskySolve(a, b, x)

		var chol mat.Cholesky
		var sol mat.VecDense
		want := chol.Factorize(sym) && chol.SolveVecTo(&sol, mat.NewVecDense(n, append([]float64(nil), b...))) == nil
		cond := mat.Cond(sym, 1)
		if ok != want {
			// Condition numbers near the tolerance: gonum estimates, this computes.
			if cond > 1e14 && cond < 1e18 {
				continue
			}
			t.Fatalf("trial %d (n %d, cond %.3g): solved %v, gonum %v", trial, n, cond, ok, want)
		}
		if !ok {
			continue
		}
		for i := range x {
			// Both are backward stable: they agree to about cond·ε.
			if d := math.Abs(x[i] - sol.AtVec(i)); d > (1e-9+1e-14*cond)*(1+math.Abs(sol.AtVec(i))) {
				t.Fatalf("trial %d (n %d, cond %.3g): x[%d] = %v, gonum %v", trial, n, cond, i, x[i], sol.AtVec(i))
			}
		}
	}
}

func TestCholeskyRefusesIndefinite(t *testing.T) {
	x := make([]float64, 2)
	for _, a := range [][][]float64{
		{{1, 2}, {2, 1}},          // indefinite
		{{0, 0}, {0, 1}},          // singular
		{{math.NaN(), 0}, {0, 1}}, // not a number
		{{1, 1}, {1, 1 + 1e-300}}, // singular in floating point
	} {
		if choleskySolve(a, []float64{1, 1}, x) {
			t.Errorf("%v: solved", a)
		}
	}
}
