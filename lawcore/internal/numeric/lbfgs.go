package numeric

import (
	"context"
	"math"

	"gonum.org/v1/gonum/optimize"
)

// WhitenedMinimize runs gonum's L-BFGS from x0 in coordinates whitened by the Gauss-Newton
// Hessian h at x0: x = x0 + W z with W W' = h^-1, so that L-BFGS sees a problem of condition
// near one and needs a few dozen evaluations, not hundreds. f returns the objective at x and,
// when grad is not nil, writes its gradient there; scale brings the objective to order one so
// that the tolerances in settings mean something. It returns the point reached, or ok false
// when the run produced no finite point; err is the context's error when cancelled says so.
func WhitenedMinimize(x0 []float64, h [][]float64, f func(x, grad []float64) float64, scale float64,
	settings *optimize.Settings, cancelled func() bool, ctx context.Context) (x []float64, ok bool, err error) {
	n := len(x0)
	w := Whitening(h)
	xs := make([]float64, n)
	toX := func(z []float64) []float64 {
		for i := range xs {
			xs[i] = x0[i]
			for j := range z {
				xs[i] += w[i][j] * z[j]
			}
		}
		return xs
	}
	// gonum asks for the value and the gradient at the same point in separate calls; one pass
	// computes both, so the last point's are kept
	lastZ, lastGrad, gx := make([]float64, n), make([]float64, n), make([]float64, n)
	lastF, have := 0.0, false
	eval := func(z []float64) {
		if have && FloatsEqual(z, lastZ) {
			return
		}
		lastF = scale * f(toX(z), gx)
		// d f / d z = W' d f / d x
		for j := range lastGrad {
			lastGrad[j] = 0
			for i := range gx {
				lastGrad[j] += w[i][j] * gx[i] * scale
			}
		}
		copy(lastZ, z)
		have = true
	}
	problem := optimize.Problem{
		Func: func(z []float64) float64 { eval(z); return lastF },
		Grad: func(grad, z []float64) { eval(z); copy(grad, lastGrad) },
		Status: func() (optimize.Status, error) {
			if cancelled() {
				return optimize.Failure, ctx.Err()
			}
			return optimize.NotTerminated, nil
		},
	}
	// gonum reports "no progress" (and other line-search failures) at points that did
	// converge, so its error is not the verdict: the caller compares the objectives.
	res, _ := optimize.Minimize(problem, make([]float64, n), settings, &optimize.LBFGS{})
	if cancelled() {
		return nil, false, ctx.Err()
	}
	if res == nil || math.IsNaN(res.F) || math.IsInf(res.F, 0) {
		return nil, false, nil
	}
	return append([]float64(nil), toX(res.X)...), true, nil
}

// Whitening returns W with W W' = (H + mu I)^-1 (mu a small ridge for directions the data do
// not determine), or the identity if H is not usable.
func Whitening(h [][]float64) [][]float64 {
	n := len(h)
	w := make([][]float64, n)
	for i := range w {
		w[i] = make([]float64, n)
		w[i][i] = 1
	}
	// H + ridge = U'U, so W = U^-1 gives W W' = (U'U)^-1
	u, ok := factorDamped(h, 0, 1e-10)
	if !ok {
		return w
	}
	if !invertUpper(u, n) {
		return w
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			w[i][j] = 0
			if j >= i {
				w[i][j] = u[i*n+j]
			}
		}
	}
	return w
}

// FloatsEqual reports whether a and b (b at least as long as a) hold the same values.
func FloatsEqual(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
