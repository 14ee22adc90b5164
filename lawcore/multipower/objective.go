package lawcore

import (
	"context"
	"math"
)

// The Multi-Power Law's fit objective: the summed Huber loss of log(observed) -
// log(predicted) over the points of the fit curves, as for the annealing law, in the
// optimiser's coordinates x = ln of the seven parameters (which keeps every one positive).

// Coordinates of the optimiser's vector.
const (
	mpowL0 = iota
	mpowA
	mpowAlpha
	mpowB
	mpowC
	mpowBeta
	mpowGamma
	mpowDims
)

// mpowFitTolerance is the grouping tolerance of the loss-drop sum while fitting: a bound of
// 1e-3 of the largest possible loss drop, the errors measured at it being under 1e-5 of it
// (about 1e-6 of the loss on the release's curves, against residuals near 1e-3): the optimum
// comes out the same as with 1e-4, with a third fewer terms.
const mpowFitTolerance = 1e-3

// mpowPoint is one observed point of a fit curve.
type mpowPoint struct {
	lnP, logObs float64 // ln(S1 + S_W) at the step, ln(observed loss)
}

// mpowObjective evaluates the objective and its gradient.
type mpowObjective struct {
	series []*mpowSeries // one per fit curve
	steps  []mpowStep    // the fit curves' observed steps
	points []mpowPoint
	delta  float64
	tol    float64
	frozen *mpowFrozen // the loss drop at every point, grouped by freeze
	drops  []mpowDrop  // scratch
	found  []mpowStart // optima polished so far

	evaluations int
	ctx         context.Context
	cancelled   bool
	tick        func()
}

// newMpowObjective collects the fit curves' points.
func newMpowObjective(ctx context.Context, curves []*mpowCurve, delta float64) *mpowObjective {
	o := &mpowObjective{ctx: ctx, delta: delta, tol: mpowFitTolerance}
	for _, c := range curves {
		if c.role != RoleFit {
			continue
		}
		ci := len(o.series)
		o.series = append(o.series, c.series)
		for k, idx := range c.index {
			o.steps = append(o.steps, mpowStep{curve: ci, t: idx})
			o.points = append(o.points, mpowPoint{lnP: math.Log(c.series.prefix[idx]), logObs: math.Log(c.loss[k])})
		}
	}
	o.drops = make([]mpowDrop, len(o.points))
	return o
}

// mpowFromX maps the optimiser's vector to parameters.
func mpowFromX(x []float64) MultiPowerParams {
	return MultiPowerParams{L0: math.Exp(x[mpowL0]), A: math.Exp(x[mpowA]), Alpha: math.Exp(x[mpowAlpha]), B: math.Exp(x[mpowB]),
		C: math.Exp(x[mpowC]), Beta: math.Exp(x[mpowBeta]), Gamma: math.Exp(x[mpowGamma])}
}

// mpowToX maps parameters (each positive) to the optimiser's vector.
func mpowToX(p MultiPowerParams) []float64 {
	return []float64{math.Log(p.L0), math.Log(p.A), math.Log(p.Alpha), math.Log(p.B), math.Log(p.C), math.Log(p.Beta), math.Log(p.Gamma)}
}

// freeze chooses the groups of every point for the loss-drop shape of p. Until the next
// freeze the objective is then one smooth function of the parameters (the grouping does not
// jump as they move), which the line searches of L-BFGS need.
func (o *mpowObjective) freeze(p MultiPowerParams) {
	if o.frozen == nil {
		o.frozen = &mpowFrozen{}
	}
	o.frozen.group(o.series, o.steps, newMpowShape(p.C, p.Beta, p.Gamma, o.tol))
}

// mpowJacobian is d pred / d x at one point.
type mpowJacobian [mpowDims]float64

// predict returns the predicted loss at point pt, whose loss drop per unit B is drop, and if
// jac is not nil, its derivatives in the optimiser's coordinates.
func mpowPredict(p MultiPowerParams, pt *mpowPoint, drop *mpowDrop, jac *mpowJacobian) float64 {
	s1Term := p.A * mpowExp(-p.Alpha*pt.lnP)
	if jac != nil {
		jac[mpowL0] = p.L0
		jac[mpowA] = s1Term
		jac[mpowAlpha] = -p.Alpha * pt.lnP * s1Term
		jac[mpowB] = -p.B * drop.ld
		jac[mpowC] = -p.B * drop.dLnC
		jac[mpowBeta] = -p.B * p.Beta * drop.dBeta
		jac[mpowGamma] = -p.B * p.Gamma * drop.dGamma
	}
	return p.L0 + s1Term - p.B*drop.ld
}

// value returns the objective at x and, if grad is not nil, writes its gradient.
func (o *mpowObjective) value(x, grad []float64) float64 {
	return o.evaluate(x, grad, nil)
}

// gaussNewton is the Gauss-Newton approximation of the objective's Hessian at x (see
// evaluate).
func (o *mpowObjective) gaussNewton(x []float64) [][]float64 {
	h := make([][]float64, mpowDims)
	for i := range h {
		h[i] = make([]float64, mpowDims)
	}
	o.evaluate(x, make([]float64, mpowDims), h)
	return h
}

// evaluate returns the objective at x; if grad is not nil it writes the gradient, and if h
// is not nil (with grad) the Gauss-Newton approximation of the Hessian: the sum over points
// of w J J', J the gradient of the log residual r and w = min(1, delta/|r|) the weight that
// makes the Huber loss a weighted least squares (iteratively reweighted).
func (o *mpowObjective) evaluate(x, grad []float64, h [][]float64) float64 {
	o.evaluations++
	if o.ctx.Err() != nil {
		o.cancelled = true
	}
	if o.tick != nil {
		o.tick()
	}
	for i := range grad {
		grad[i] = 0
	}
	for _, row := range h {
		for j := range row {
			row[j] = 0
		}
	}
	if o.cancelled {
		return 0 // a flat function ends the optimiser's run at once
	}
	p := mpowFromX(x)
	o.frozen.eval(newMpowShape(p.C, p.Beta, p.Gamma, o.tol), o.drops, grad != nil)
	var jac mpowJacobian
	jp := &jac
	if grad == nil {
		jp = nil
	}
	f := 0.0
	for i := range o.points {
		pt := &o.points[i]
		pred := mpowPredict(p, pt, &o.drops[i], jp)
		logPred, dlog := safeLog(pred)
		r := pt.logObs - logPred
		f += Huber(r, o.delta)
		if grad == nil {
			continue
		}
		g := -huberSlope(r, o.delta) * dlog
		for j := range grad {
			grad[j] += g * jac[j]
		}
		if h != nil {
			w := dlog * dlog * math.Min(1, o.delta/math.Abs(r))
			for a := 0; a < mpowDims; a++ {
				for b := 0; b <= a; b++ {
					h[a][b] += w * jac[a] * jac[b]
				}
			}
		}
	}
	for a := range h {
		for b := 0; b < a; b++ {
			h[b][a] = h[a][b]
		}
	}
	if math.IsNaN(f) {
		return math.Inf(1)
	}
	return f
}
