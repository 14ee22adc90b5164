package numeric

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// gonumExact: gonum's BLAS is pure Go but on amd64, where its dot product is assembly summing
// in two lanes; elsewhere (wasm, what the page runs) the results must be the same bits.
var gonumExact = runtime.GOARCH != "amd64"

// sameAsGonum reports whether got and want agree: bit for bit (NaN matching NaN) where gonum
// runs pure Go, within a few ulps of the matrix's scale otherwise.
func sameAsGonum(got, want []float64, scale float64) bool {
	for i := range want {
		g, w := got[i], want[i]
		if math.IsNaN(g) || math.IsNaN(w) {
			if math.IsNaN(g) != math.IsNaN(w) {
				return false
			}
			continue
		}
		if gonumExact {
			if math.Float64bits(g) != math.Float64bits(w) {
				return false
			}
		} else if math.Abs(g-w) > 1e-12*scale {
			return false
		}
	}
	return true
}

// randomSPD returns an n x n symmetric positive definite matrix, row-major: D (B'B + eps I) D
// with B normal and D's diagonal spread over span decades, as the fits' Hessians are.
func randomSPD(rng *rand.Rand, n int, span float64) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = math.Pow(10, span*(rng.Float64()-0.5))
	}
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for k := 0; k < n; k++ {
				s += b[k*n+i] * b[k*n+j]
			}
			if i == j {
				s += 0.1
			}
			a[i*n+j] = d[i] * s * d[j]
		}
	}
	return a
}

// gonumCholesky is lapack64's factor, solve and inverse of a (upper triangle), as the fits used
// them before cholesky.go.
func gonumCholesky(a []float64, n int, rhs []float64) (u []float64, ok bool, x, inv []float64, invOK bool) {
	sym := blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: append([]float64(nil), a...)}
	t, ok := lapack64.Potrf(sym)
	u = append([]float64(nil), t.Data...)
	if !ok {
		return u, false, nil, nil, false
	}
	b := blas64.General{Rows: n, Cols: 1, Stride: 1, Data: append([]float64(nil), rhs...)}
	lapack64.Potrs(t, b)
	invOK = lapack64.Trtri(t)
	return u, true, b.Data, t.Data, invOK
}

// TestCholeskyAsGonum: choleskyUpper, choleskySolve and invertUpper give what gonum's lapack64
// gave (Potrf, Potrs, Trtri) on random SPD matrices of the fits' sizes, well and badly scaled,
// and report the same failures on matrices that are not positive definite.
func TestCholeskyAsGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 400; trial++ {
		n := 1 + trial%8
		span := []float64{0, 2, 8}[trial%3]
		a := randomSPD(rng, n, span)
		rhs := make([]float64, n)
		for i := range rhs {
			rhs[i] = rng.NormFloat64()
		}
		wantU, wantOK, wantX, wantInv, wantInvOK := gonumCholesky(a, n, rhs)
		u := append([]float64(nil), a...)
		ok := choleskyUpper(u, n)
		if ok != wantOK || !wantOK {
			t.Fatalf("trial %d (n %d): choleskyUpper ok %v, gonum %v", trial, n, ok, wantOK)
		}
		// only the upper triangle is U; the lower is the input's, untouched by both
		scale := floats.Norm(wantU, math.Inf(1)) // the largest |element|
		if !sameAsGonum(u, wantU, scale) {
			t.Fatalf("trial %d (n %d): U = %v, gonum %v", trial, n, u, wantU)
		}
		x := append([]float64(nil), rhs...)
		choleskySolve(u, n, x)
		xScale := floats.Norm(wantX, math.Inf(1)) // the largest |element|
		if !sameAsGonum(x, wantX, xScale*1e3) {
			t.Fatalf("trial %d (n %d): solve = %v, gonum %v", trial, n, x, wantX)
		}
		invOK := invertUpper(u, n)
		if invOK != wantInvOK || !invOK {
			t.Fatalf("trial %d (n %d): invertUpper ok %v, gonum %v", trial, n, invOK, wantInvOK)
		}
		invScale := floats.Norm(wantInv, math.Inf(1)) // the largest |element|
		if !sameAsGonum(u, wantInv, invScale*1e3) {
			t.Fatalf("trial %d (n %d): inverse = %v, gonum %v", trial, n, u, wantInv)
		}
	}

	nan := math.NaN()
	for _, c := range []struct {
		name string
		n    int
		a    []float64
	}{
		{"indefinite", 2, []float64{1, 2, 2, 1}},
		{"negative pivot", 1, []float64{-1}},
		{"zero", 2, []float64{0, 0, 0, 0}},
		{"singular", 3, []float64{1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{"singular late", 3, []float64{4, 2, 2, 2, 5, 1, 2, 1, 1}},
		{"NaN", 2, []float64{1, nan, nan, 1}},
		{"NaN diagonal", 2, []float64{1, 0, 0, nan}},
	} {
		wantU, wantOK, _, _, _ := gonumCholesky(c.a, c.n, make([]float64, c.n))
		u := append([]float64(nil), c.a...)
		if ok := choleskyUpper(u, c.n); ok != wantOK || ok {
			t.Errorf("%s: choleskyUpper ok %v, gonum %v (want false)", c.name, ok, wantOK)
		}
		if !sameAsGonum(u, wantU, 10) {
			t.Errorf("%s: left %v, gonum %v", c.name, u, wantU)
		}
	}

	// a zero on the diagonal: no inverse, the matrix untouched
	z := []float64{1, 2, 0, 0}
	tri := blas64.Triangular{N: 2, Stride: 2, Uplo: blas.Upper, Diag: blas.NonUnit, Data: append([]float64(nil), z...)}
	wantOK := lapack64.Trtri(tri)
	u := append([]float64(nil), z...)
	if ok := invertUpper(u, 2); ok != wantOK || ok || !sameAsGonum(u, tri.Data, 1) {
		t.Errorf("invertUpper(%v) = %v, %v; gonum %v, %v", z, ok, u, wantOK, tri.Data)
	}
}

// TestInverseSPD: the inverse of a 3x3 matrix against its closed form (the adjugate over the
// determinant), and a matrix that is not positive definite refused.
func TestInverseSPD(t *testing.T) {
	h := [][]float64{{4, 2, 0.4}, {2, 3, 0.5}, {0.4, 0.5, 2}}
	// det = 4(6-0.25) - 2(4-0.2) + 0.4(1-1.2) = 23 - 7.6 - 0.08 = 15.32
	det := 15.32
	adj := [][]float64{{5.75, -3.8, -0.2}, {-3.8, 7.84, -1.2}, {-0.2, -1.2, 8}}
	inv, ok := InverseSPD(h)
	if !ok {
		t.Fatal("refused a positive definite matrix")
	}
	for i := range 3 {
		for j := range 3 {
			if want := adj[i][j] / det; math.Abs(inv[i][j]-want) > 1e-12 {
				t.Errorf("inverse[%d][%d] = %v, want %v", i, j, inv[i][j], want)
			}
		}
	}
	if _, ok := InverseSPD([][]float64{{1, 2}, {2, 1}}); ok {
		t.Error("inverted a matrix that is not positive definite")
	}
}
