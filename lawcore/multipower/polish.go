package lawcore

import (
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
)

// Polishing a Multi-Power start. The objective is a sum of Huber losses of residuals, so
// Levenberg-Marquardt on its iteratively reweighted Gauss-Newton model converges in a few
// dozen evaluations where plain L-BFGS needs hundreds (B, C and beta trade off strongly and
// the curvature changes along the way). Should it stop short (out of evaluations, or out of
// usable steps), gonum's L-BFGS takes over, in log coordinates whitened by the Gauss-Newton
// Hessian at the Levenberg-Marquardt point (x = x0 + W z with W W' = H^-1). The loss-drop grouping is
// chosen again (freeze) whenever C, beta or gamma have moved by more than mpowRefreeze in
// log since it was chosen, so the objective is smooth between those points and the grouping
// always fits the current parameters.

// Levenberg-Marquardt settings.
const (
	mpowMaxStep       = 2    // largest change of a log parameter in one step
	mpowMaxLog        = 300  // |ln parameter| stays below this
	mpowMaxIterations = 200  // evaluations of one Levenberg-Marquardt run, at most
	mpowRefreeze      = 0.5  // change of ln C, ln beta or ln gamma that calls for a new grouping
	mpowConverged     = 1e-9 // relative decrease of the objective that ends the iterations
)

// polish improves the start s; it returns s itself if nothing better is found.
func (o *mpowObjective) polish(s mpowStart) (mpowStart, error) {
	best, converged := o.levenbergMarquardt(s)
	if o.cancelled {
		return mpowStart{}, o.ctx.Err()
	}
	if !converged {
		best = o.lbfgs(best.x, best.f)
		if o.cancelled {
			return mpowStart{}, o.ctx.Err()
		}
	}
	o.found = append(o.found, best)
	return best, nil
}

// levenbergMarquardt runs damped Gauss-Newton steps from s (damping updated from the ratio
// of actual to predicted decrease, after Nielsen) until the objective stops decreasing; it
// says whether it converged rather than ran out of evaluations or of usable steps.
func (o *mpowObjective) levenbergMarquardt(s mpowStart) (mpowStart, bool) {
	x := append([]float64(nil), s.x...)
	frozenAt := append([]float64(nil), x...)
	o.freeze(mpowFromX(x))
	g, h := make([]float64, mpowDims), mpowSquare(mpowDims)
	gn, hn := make([]float64, mpowDims), mpowSquare(mpowDims)
	f := o.evaluate(x, g, h)
	lambda, nu := 1e-3, 2.0
	xn, step := make([]float64, mpowDims), make([]float64, mpowDims)
	for it := 0; it < mpowMaxIterations && !o.cancelled; it++ {
		if lambda > 1e12 {
			return mpowStart{x: x, f: f}, false
		}
		if !mpowDampedStep(h, g, lambda, step) {
			lambda, nu = lambda*nu, nu*2
			continue
		}
		// a step may not take a parameter past e^(+-mpowMaxLog): where the objective is flat
		// (as in B, C, beta and gamma when nothing drops) rounding must not run them away
		scale := 1.0
		for i := range step {
			scale = math.Min(scale, mpowMaxStep/math.Abs(step[i]))
		}
		inside := true
		for i := range xn {
			xn[i] = x[i] + scale*step[i]
			inside = inside && math.Abs(xn[i]) <= mpowMaxLog
		}
		if !inside {
			lambda, nu = lambda*nu, nu*2
			continue
		}
		for i := range step {
			step[i] *= scale
		}
		// the decrease the quadratic model promises: -(g'd + d'Hd/2)
		predicted := 0.0
		for i := range step {
			hd := 0.0
			for j := range step {
				hd += h[i][j] * step[j]
			}
			predicted -= step[i] * (g[i] + 0.5*hd)
		}
		fn := o.evaluate(xn, gn, hn)
		if !(fn < f) {
			lambda, nu = lambda*nu, nu*2
			continue
		}
		decrease := f - fn
		rho := decrease / predicted
		lambda *= math.Max(1.0/3, 1-math.Pow(2*rho-1, 3))
		nu = 2
		copy(x, xn)
		f, g, h, gn, hn = fn, gn, hn, g, h
		if math.Abs(x[mpowC]-frozenAt[mpowC]) > mpowRefreeze || math.Abs(x[mpowBeta]-frozenAt[mpowBeta]) > mpowRefreeze ||
			math.Abs(x[mpowGamma]-frozenAt[mpowGamma]) > mpowRefreeze {
			// the new grouping moves the objective by far less than the steps do: keep the
			// model (g, h), and re-evaluate only f, which later steps are compared with
			copy(frozenAt, x)
			o.freeze(mpowFromX(x))
			f = o.value(x, nil)
		}
		if decrease <= mpowConverged*f {
			return mpowStart{x: x, f: f}, true
		}
		if near, ok := o.nearFound(x); ok {
			return near, true
		}
	}
	return mpowStart{x: x, f: f}, false
}

// mpowSameOptimum is how close (in every log coordinate) a run must come to an optimum found
// from an earlier start to be taken as bound for it.
const mpowSameOptimum = 0.03

// nearFound returns the optimum found earlier that x is on its way to, if any.
func (o *mpowObjective) nearFound(x []float64) (mpowStart, bool) {
	for _, s := range o.found {
		close := true
		for i := range x {
			close = close && math.Abs(x[i]-s.x[i]) < mpowSameOptimum
		}
		if close {
			return s, true
		}
	}
	return mpowStart{}, false
}

// mpowDampedStep solves (H + lambda*diag(H)) step = -g; false if that fails.
func mpowDampedStep(h [][]float64, g []float64, lambda float64, step []float64) bool {
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

// mpowSquare allocates an n x n matrix.
func mpowSquare(n int) [][]float64 {
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	return h
}

// lbfgs runs one whitened L-BFGS pass (see whitenedMinimize) from x0 (objective f0).
func (o *mpowObjective) lbfgs(x0 []float64, f0 float64) mpowStart {
	scale := 1 / (o.delta * o.delta * float64(len(o.points)))
	// in whitened, scaled coordinates a gradient of norm 1e-5 promises a decrease of about
	// 5e-11 of an objective of order one: a converged start ends at once
	settings := &optimize.Settings{
		FuncEvaluations:   500,
		GradientThreshold: 1e-5,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-10, Iterations: 4},
	}
	xs, ok, _ := whitenedMinimize(x0, o.gaussNewton(x0), o.value, scale, settings, func() bool { return o.cancelled }, o.ctx)
	if !ok {
		return mpowStart{x: x0, f: f0}
	}
	for _, v := range xs {
		if !(math.Abs(v) <= mpowMaxLog) {
			return mpowStart{x: x0, f: f0}
		}
	}
	f := o.value(xs, nil)
	if !(f <= f0) {
		return mpowStart{x: x0, f: f0}
	}
	return mpowStart{x: xs, f: f}
}
