package lawcore

import (
	"context"
	"math"
)

// Huber is the Huber loss of a residual r: r*r/2 inside [-delta, delta], linear outside.
func Huber(r, delta float64) float64 {
	if a := math.Abs(r); a >= delta {
		return delta*a - 0.5*delta*delta
	}
	return 0.5 * r * r
}

// huberSlope is the derivative of Huber in r.
func huberSlope(r, delta float64) float64 {
	switch {
	case r >= delta:
		return delta
	case r <= -delta:
		return -delta
	}
	return r
}

// minPredicted is where the objective stops taking the log of a predicted loss and continues
// it linearly, so that it is defined (and smooth) for any parameters, even those that predict
// a loss of zero or less.
const minPredicted = 1e-9

// safeLog is log(x) for x >= minPredicted, and its tangent line below; it also returns the
// derivative.
func safeLog(x float64) (float64, float64) {
	if x >= minPredicted {
		return math.Log(x), 1 / x
	}
	return math.Log(minPredicted) + (x-minPredicted)/minPredicted, 1 / minPredicted
}

// Parameter vector layout of the optimiser: logs keep L0, A, alpha and C positive; a logit
// keeps lambda in (0, 1).
const (
	iL0 = iota
	iA
	iAlpha
	iC
	iLambda
)

// objective is the fit's objective over the points of the fit curves, with everything the
// evaluation needs laid out flat.
type objective struct {
	curves    []*preparedCurve // role "fit" only
	conv      Convention
	delta     float64
	fitLambda bool
	lambda    float64 // lambda the areas currently hold

	// observed points, flat across curves: every point, or every `every`-th (thinned)
	logObs, invObs, s1, logS1, s2, ds2 []float64
	every                              int

	evaluations int
	ctx         context.Context
	cancelled   bool
	// tick, if set, is called at every evaluation (for progress reports).
	tick func()
}

func newObjective(ctx context.Context, curves []*preparedCurve, conv Convention, delta float64, fitLambda bool, lambda float64) *objective {
	o := &objective{conv: conv, delta: delta, fitLambda: fitLambda, ctx: ctx, lambda: math.NaN(), every: 1}
	for _, c := range curves {
		if c.role != RoleFit {
			continue
		}
		o.curves = append(o.curves, c)
		for _, l := range c.loss {
			o.logObs = append(o.logObs, math.Log(l))
			o.invObs = append(o.invObs, 1/l)
		}
	}
	o.allocateAreas()
	o.setLambda(lambda)
	return o
}

// thinned returns the objective over every `every`-th of o's points (the same curves, context
// and tick): cheaper to evaluate, and on long curves as good a guide to the optimum's basin.
func (o *objective) thinned(every int) *objective {
	t := &objective{curves: o.curves, conv: o.conv, delta: o.delta, fitLambda: o.fitLambda, ctx: o.ctx, tick: o.tick, lambda: math.NaN(), every: every}
	for k := 0; k < len(o.logObs); k += every {
		t.logObs = append(t.logObs, o.logObs[k])
		t.invObs = append(t.invObs, o.invObs[k])
	}
	t.allocateAreas()
	t.setLambda(o.lambda)
	return t
}

func (o *objective) allocateAreas() {
	n := len(o.logObs)
	o.s1, o.logS1, o.s2, o.ds2 = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
}

// setLambda recomputes the areas at the observed points for a new lambda (O(steps)).
func (o *objective) setLambda(lambda float64) {
	if lambda == o.lambda {
		return
	}
	o.lambda = lambda
	k, flat := 0, 0
	for _, c := range o.curves {
		c.computeAreas(lambda, o.conv, o.fitLambda)
		for _, idx := range c.index {
			if flat%o.every == 0 {
				o.s1[k] = c.s1[idx]
				o.logS1[k] = math.Log(c.s1[idx])
				o.s2[k] = c.s2[idx]
				if o.fitLambda {
					o.ds2[k] = c.ds2[idx]
				}
				k++
			}
			flat++
		}
	}
}

// params maps an optimiser vector to the law's parameters.
func (o *objective) params(x []float64) Params {
	p := Params{L0: math.Exp(x[iL0]), A: math.Exp(x[iA]), Alpha: math.Exp(x[iAlpha]), C: math.Exp(x[iC]), Lambda: o.lambda}
	if o.fitLambda {
		p.Lambda = 1 / (1 + math.Exp(-x[iLambda]))
	}
	return p
}

// vector maps parameters to an optimiser vector (each of L0, A, alpha, C must be positive).
func (o *objective) vector(p Params) []float64 {
	x := []float64{math.Log(p.L0), math.Log(p.A), math.Log(p.Alpha), math.Log(p.C)}
	if o.fitLambda {
		x = append(x, math.Log(p.Lambda/(1-p.Lambda)))
	}
	return x
}

// value returns the objective (the summed Huber loss of log residuals) at p, and if grad is
// not nil, writes the gradient in the optimiser's coordinates x.
func (o *objective) value(p Params, grad []float64) float64 {
	o.evaluations++
	if o.ctx.Err() != nil {
		o.cancelled = true
	}
	if o.tick != nil {
		o.tick()
	}
	if o.cancelled {
		// a flat function ends the optimiser's run at once; Fit reports the cancellation
		for i := range grad {
			grad[i] = 0
		}
		return 0
	}
	if o.fitLambda {
		o.setLambda(p.Lambda)
	}
	var f, gL0, gA, gAlpha, gC, gLambda float64
	for k, logObs := range o.logObs {
		term := p.A * math.Exp(-p.Alpha*o.logS1[k])
		pred := p.L0 + term - p.C*o.s2[k]
		logPred, dlog := safeLog(pred)
		r := logObs - logPred
		f += Huber(r, o.delta)
		if grad == nil {
			continue
		}
		// d f / d pred = huber'(r) * d r / d pred = -huber'(r) * dlog
		g := -huberSlope(r, o.delta) * dlog
		gL0 += g
		gA += g * term
		gAlpha += g * term * -o.logS1[k]
		gC += g * -o.s2[k]
		gLambda += g * -p.C * o.ds2[k]
	}
	if grad != nil {
		// chain rule to log / logit coordinates
		grad[iL0] = gL0 * p.L0
		grad[iA] = gA // term already is d pred / d log A
		grad[iAlpha] = gAlpha * p.Alpha
		grad[iC] = gC * p.C
		if o.fitLambda {
			grad[iLambda] = gLambda * p.Lambda * (1 - p.Lambda)
		}
	}
	return f
}

// gaussNewton returns the Gauss-Newton approximation of the objective's Hessian at p, in the
// optimiser's coordinates: the sum over points inside the Huber band of J J', J the gradient
// of the log residual. It is positive semi-definite, and the fit uses it to precondition.
func (o *objective) gaussNewton(p Params) [][]float64 {
	n := 4
	if o.fitLambda {
		n = 5
		o.setLambda(p.Lambda)
	}
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	var j [5]float64
	for k, logObs := range o.logObs {
		term := p.A * math.Exp(-p.Alpha*o.logS1[k])
		pred := p.L0 + term - p.C*o.s2[k]
		logPred, dlog := safeLog(pred)
		if math.Abs(logObs-logPred) >= o.delta {
			continue
		}
		// J = d r / d x = -dlog * d pred / d x
		j[iL0] = -dlog * p.L0
		j[iA] = -dlog * term
		j[iAlpha] = -dlog * term * -o.logS1[k] * p.Alpha
		j[iC] = -dlog * -o.s2[k] * p.C
		j[iLambda] = -dlog * -p.C * o.ds2[k] * p.Lambda * (1 - p.Lambda)
		for a := 0; a < n; a++ {
			for b := 0; b <= a; b++ {
				h[a][b] += j[a] * j[b]
			}
		}
	}
	for a := 0; a < n; a++ {
		for b := 0; b < a; b++ {
			h[b][a] = h[a][b]
		}
	}
	return h
}
