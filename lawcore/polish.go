package lawcore

import (
	"math"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"gonum.org/v1/gonum/optimize"
)

// Polishing a start. The objective is a sum of Huber losses of residuals, so
// Levenberg-Marquardt on its iteratively reweighted Gauss-Newton model converges in a few
// dozen evaluations where plain L-BFGS needs hundreds when parameters trade off strongly (as
// the Multi-Power Law's B, C and beta do). Should it stop short (out of evaluations, or out
// of usable steps), gonum's L-BFGS takes over, in coordinates whitened by the Gauss-Newton
// Hessian at the Levenberg-Marquardt point. An Anchored model is re-anchored at the start
// and after every step it takes, so that the objective stays smooth between anchors.

// Levenberg-Marquardt settings.
const (
	lmMaxStep       = 2    // largest change of an optimiser coordinate in one step
	lmMaxCoordinate = 300  // |x| stays below this (e^300 is past any parameter)
	lmMaxIterations = 200  // evaluations of one run, at most
	lmConverged     = 1e-9 // relative decrease of the objective that ends the iterations
	// liftGain is the relative decrease a descent from a parameter lifted off its floor must
	// bring to be kept: far above rounding, far below what a real optimum off the floor brings
	// (an objective of 1e-7 at the floor fell to 1e-30 on exact data).
	liftGain = 1e-6
	// sameOptimum is how close (in every coordinate) a run must come to an optimum found
	// from an earlier start to be taken as bound for it.
	sameOptimum = 0.03
)

// polisher polishes the starts of one fit on one objective, remembering the optima found.
type polisher struct {
	obj   *Objective
	found []start
	// scaled makes Levenberg-Marquardt model the objective's curvature as the Gauss-Newton
	// Hessian times a factor, curvature, set after every step it takes by the secant condition
	// along the step (Oren and Luenberger's self-scaling): with a Huber loss whose residuals
	// mostly lie beyond delta, the reweighted Hessian overstates the curvature several times
	// over, and unscaled steps fall short by the same factor, converging linearly. The factor
	// stays within [minCurvature, 1], 1 being the unscaled model; curvature is where the next
	// run starts from (0: at 1). The fit's own search leaves it unset.
	scaled    bool
	curvature float64
}

// minCurvature is the smallest factor a scaled polisher puts on the Gauss-Newton Hessian:
// steps at most 20 times the Gauss-Newton step's length.
const minCurvature = 0.05

// polish improves the start s; it returns s itself if nothing better is found, and the
// context's error when the fit was cancelled.
func (pl *polisher) polish(s start) (start, error) {
	o := pl.obj
	if len(o.free) == 0 {
		return s, nil
	}
	best, err := pl.descend(s)
	if err != nil {
		return start{}, err
	}
	if !(best.f <= s.f) {
		best = s
	}
	// A positive parameter at its floor (a linear one the start's least squares set to 0)
	// cannot leave it: the optimiser works on its log, whose gradient there is the parameter
	// times its own, some 1e-10 of it, so the iterations end at once. Descend again with each
	// such parameter at its typical value; a clearly lower objective stands (where nothing
	// informs the parameter, as C on a constant LR, the two are equal but for rounding, and the
	// floor stays, with its warning).
	if lifted, ok := pl.offFloor(best.theta); ok {
		again, err := pl.descend(start{theta: lifted, f: o.Value(lifted, nil)})
		if err != nil {
			return start{}, err
		}
		if again.f < best.f*(1-liftGain) {
			best = again
		}
	}
	pl.found = append(pl.found, best)
	return best, nil
}

// descend runs Levenberg-Marquardt from s, and L-BFGS after it should it stop short.
func (pl *polisher) descend(s start) (start, error) {
	o := pl.obj
	x, f, converged := pl.levenbergMarquardt(s)
	if o.cancelled {
		return start{}, o.ctx.Err()
	}
	if !converged {
		x, f = pl.lbfgs(x, f)
		if o.cancelled {
			return start{}, o.ctx.Err()
		}
	}
	return start{theta: o.theta(x), f: f}, nil
}

// offFloor returns theta with each free positive parameter that sits at its floor set to its
// typical value (its default), and whether there was one.
func (pl *polisher) offFloor(theta []float64) ([]float64, bool) {
	var lifted []float64
	for _, i := range pl.obj.free {
		p := pl.obj.spec.Params[i]
		if p.Domain == Positive && p.Default > 0 && theta[i] <= 10*paramFloor {
			if lifted == nil {
				lifted = append([]float64(nil), theta...)
			}
			lifted[i] = p.Default
		}
	}
	return lifted, lifted != nil
}

// levenbergMarquardt runs damped Gauss-Newton steps from s (the damping updated from the
// ratio of actual to predicted decrease, after Nielsen) until the objective stops
// decreasing; it says whether it converged rather than ran out of evaluations or of usable
// steps.
func (pl *polisher) levenbergMarquardt(s start) (x []float64, f float64, converged bool) {
	o := pl.obj
	n, d := len(o.free), len(o.base)
	x = o.coordinates(s.theta)
	o.Anchor(s.theta, true)
	gt, ht := make([]float64, d), numeric.Square(d)
	g, h := make([]float64, n), numeric.Square(n)
	gn, hn := make([]float64, n), numeric.Square(n)
	f = o.inX(x, g, h, gt, ht)
	lambda, nu := 1e-3, 2.0
	xn, step := make([]float64, n), make([]float64, n)
	// the steps are solved and promised with model: h itself, or when scaled (see
	// polisher.scaled) h times curvature, in a matrix of its own
	var scaled [][]float64
	curvature := 1.0
	if pl.scaled {
		scaled = numeric.Square(n)
		if pl.curvature > 0 {
			curvature = pl.curvature
		}
		defer func() { pl.curvature = curvature }()
	}
	for it := 0; it < lmMaxIterations && !o.cancelled; it++ {
		if lambda > 1e12 {
			return x, f, false
		}
		model := h
		if pl.scaled {
			scaleMatrix(scaled, h, curvature)
			model = scaled
		}
		if !numeric.DampedStep(model, g, lambda, step) {
			lambda, nu = lambda*nu, nu*2
			continue
		}
		// a step may not take a coordinate past +-lmMaxCoordinate: where the objective is flat
		// (as in a loss-drop term when nothing drops) rounding must not run it away
		if !boundedStep(xn, x, step) {
			lambda, nu = lambda*nu, nu*2
			continue
		}
		predicted := promisedDecrease(model, g, step)
		fn := o.inX(xn, gn, hn, gt, ht)
		if !(fn < f) {
			lambda, nu = lambda*nu, nu*2
			continue
		}
		decrease := f - fn
		rho := decrease / predicted
		if pl.scaled {
			curvature = secantCurvature(h, g, gn, step, curvature)
		}
		lambda *= math.Max(1.0/3, 1-math.Pow(2*rho-1, 3))
		nu = 2
		copy(x, xn)
		f, g, h, gn, hn = fn, gn, hn, g, h
		if o.Anchor(o.theta(x), false) {
			// the new anchor moves the objective by far less than the steps do: keep the
			// model (g, h), and re-evaluate only f, which later steps are compared with
			f = o.inX(x, nil, nil, nil, nil)
		}
		if decrease <= lmConverged*f {
			return x, f, true
		}
		if near, ok := pl.nearFound(x); ok {
			return o.coordinates(near.theta), near.f, true
		}
	}
	return x, f, false
}

// boundedStep shortens step so that no coordinate moves by more than lmMaxStep, and writes
// x + step into xn; false (step as it was) when a coordinate of xn would be past
// +-lmMaxCoordinate. Not inlined, as promisedDecrease: see the package doc on loops.
//
//go:noinline
func boundedStep(xn, x, step []float64) bool {
	scale := 1.0
	for i := range step {
		scale = math.Min(scale, lmMaxStep/math.Abs(step[i]))
	}
	for i := range xn {
		xn[i] = x[i] + scale*step[i]
		if !(math.Abs(xn[i]) <= lmMaxCoordinate) {
			return false
		}
	}
	for i := range step {
		step[i] *= scale
	}
	return true
}

// promisedDecrease is the decrease the quadratic model (gradient g, Hessian h) promises for
// step: -(g'd + d'Hd/2).
//
//go:noinline
func promisedDecrease(h [][]float64, g, step []float64) float64 {
	predicted := 0.0
	for i := range step {
		hd := 0.0
		for j := range step {
			hd += h[i][j] * step[j]
		}
		predicted -= step[i] * (g[i] + 0.5*hd)
	}
	return predicted
}

// scaleMatrix writes c times h into dst.
func scaleMatrix(dst, h [][]float64, c float64) {
	for i, row := range h {
		for j, v := range row {
			dst[i][j] = c * v
		}
	}
}

// secantCurvature is the factor on h that meets the secant condition along step, from a point
// of gradient g to one of gradient gn: (gn-g)'step / step'h step, within [minCurvature, 1];
// c, the factor so far, when the two gradients show no positive curvature along the step.
func secantCurvature(h [][]float64, g, gn, step []float64, c float64) float64 {
	ys, shs := 0.0, 0.0
	for i, si := range step {
		ys += (gn[i] - g[i]) * si
		for j, sj := range step {
			shs += si * h[i][j] * sj
		}
	}
	if !(ys > 0 && shs > 0) {
		return c
	}
	return math.Max(minCurvature, math.Min(1, ys/shs))
}

// nearFound returns the optimum found earlier that x is on its way to, if any.
func (pl *polisher) nearFound(x []float64) (start, bool) {
	for _, s := range pl.found {
		sx := pl.obj.coordinates(s.theta)
		close := true
		for i := range x {
			close = close && math.Abs(x[i]-sx[i]) < sameOptimum
		}
		if close {
			return s, true
		}
	}
	return start{}, false
}

// lbfgs runs one whitened L-BFGS pass (see numeric.WhitenedMinimize) from x0 (objective
// f0) and returns the better of where it ends and x0.
func (pl *polisher) lbfgs(x0 []float64, f0 float64) ([]float64, float64) {
	o := pl.obj
	n, d := len(o.free), len(o.base)
	gt, ht := make([]float64, d), numeric.Square(d)
	h := numeric.Square(n)
	o.inX(x0, make([]float64, n), h, gt, ht)
	scale := 1 / (o.delta * o.delta * float64(o.Points()))
	// in whitened, scaled coordinates a gradient of norm 1e-9 promises a decrease of about
	// 5e-19 of an objective of order one: a converged start ends at once
	settings := &optimize.Settings{
		FuncEvaluations:   2000,
		GradientThreshold: 1e-9,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-12, Iterations: 8},
	}
	value := func(x, grad []float64) float64 {
		if grad == nil {
			return o.inX(x, nil, nil, nil, nil)
		}
		return o.inX(x, grad, nil, gt, nil)
	}
	xs, ok, _ := numeric.WhitenedMinimize(x0, h, value, scale, settings, func() bool { return o.cancelled }, o.ctx)
	if !ok {
		return x0, f0
	}
	for _, v := range xs {
		if !(math.Abs(v) <= lmMaxCoordinate) {
			return x0, f0
		}
	}
	if f := o.inX(xs, nil, nil, nil, nil); f <= f0 {
		return xs, f
	}
	return x0, f0
}
