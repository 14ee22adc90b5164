package lawcore

import (
	"context"
	"math"
	"slices"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// Objective is a fit's objective for any law, as the authors define it: the summed Huber
// loss of log(observed) - log(predicted) over every observed point of the fitted curves. It
// evaluates a bound Model in chunks, so that its memory does not grow with the points, and
// checks for cancellation at every evaluation. The engine minimises it; a law's own search
// strategy (see Searcher) may too.
type Objective struct {
	model  Model
	spec   *Spec
	logObs []float64
	delta  float64
	// free are the indices of the parameters the fit varies; base holds the others' values.
	free []int
	base []float64

	pred, jac []float64 // chunk buffers
	logPred   []float64 // the log of each of pred >= MinPredicted (see SafeLog)
	gis, ws   []float64 // each point's factor of the gradient and weight in the Hessian
	// firstFour: the free parameters are the first four (gaussNewtonFirstFour)
	firstFour bool
	sums      []float64 // an evaluation's gradient and Hessian over the free parameters

	// prior, when set, adds the free parameters' priors (see Prior) to the objective.
	prior *penalty

	evaluations int
	ctx         context.Context
	cancelled   bool
	// tick, if set, is called at every evaluation (for progress reports).
	tick func()
}

// evalChunk is how many points an Objective evaluates at a time.
const evalChunk = 1024

// maxFree is the most free parameters an objective takes (the model-size law has 8).
const maxFree = 12

func newObjective(ctx context.Context, model Model, spec *Spec, logObs []float64, delta float64, free []int, base []float64) *Objective {
	d, nf := len(spec.Params), len(free)
	if nf > maxFree {
		panic("lawcore: more free parameters than an objective takes (maxFree)")
	}
	// the buffers in one allocation: pred, logPred, gis, ws, jac, sums
	buf := make([]float64, evalChunk*(4+d)+nf*(nf+3)/2)
	chunk := func(k int) []float64 { return buf[k*evalChunk : (k+1)*evalChunk : (k+1)*evalChunk] }
	return &Objective{model: model, spec: spec, logObs: logObs, delta: delta, free: free, base: base, ctx: ctx,
		pred: chunk(0), logPred: chunk(1), gis: chunk(2), ws: chunk(3), jac: buf[4*evalChunk : (4+d)*evalChunk : (4+d)*evalChunk],
		sums: buf[(4+d)*evalChunk:], firstFour: slices.Equal(free, []int{0, 1, 2, 3})}
}

// thinned returns the objective over every every-th point (the same law, context and tick):
// cheaper to evaluate, and on long curves as good a guide to the optimum's basin.
func (o *Objective) thinned(every int) *Objective {
	logObs := make([]float64, 0, (len(o.logObs)+every-1)/every)
	for k := 0; k < len(o.logObs); k += every {
		logObs = append(logObs, o.logObs[k])
	}
	t := newObjective(o.ctx, o.model.Thin(every), o.spec, logObs, o.delta, o.free, o.base)
	t.tick = o.tick
	t.prior = o.prior.scaled(float64(len(logObs)) / float64(len(o.logObs)))
	return t
}

// Model is the bound law the objective evaluates.
func (o *Objective) Model() Model { return o.model }

// Points is the number of observed points.
func (o *Objective) Points() int { return len(o.logObs) }

// LogObserved is the log of the observed loss at point k.
func (o *Objective) LogObserved(k int) float64 { return o.logObs[k] }

// Delta is the Huber delta.
func (o *Objective) Delta() float64 { return o.delta }

// Free reports whether the fit varies parameter j.
func (o *Objective) Free(j int) bool {
	for _, f := range o.free {
		if f == j {
			return true
		}
	}
	return false
}

// Cancelled reports whether the fit's context was cancelled (the objective then reads 0).
func (o *Objective) Cancelled() bool { return o.cancelled }

// Anchor re-anchors an Anchored model at theta (see Anchored); it reports whether the
// model changed.
func (o *Objective) Anchor(theta []float64, force bool) bool {
	if a, ok := o.model.(Anchored); ok {
		return a.Anchor(theta, force)
	}
	return false
}

// Value returns the objective at theta and, if grad is not nil, writes its gradient in
// theta's own coordinates (zero for the parameters the fit holds).
func (o *Objective) Value(theta, grad []float64) float64 {
	return o.evaluate(theta, grad, nil)
}

// evaluate returns the objective at theta; if grad is not nil it writes the gradient, and if
// h is not nil (with grad) the Gauss-Newton approximation of the Hessian, in theta's own
// coordinates: the sum over points of w J J', J the gradient of the log residual and
// w = min(1, delta/|r|) the weight that makes the Huber loss a weighted least squares
// (iteratively reweighted). An objective that is not a number reads +Inf.
func (o *Objective) evaluate(theta, grad []float64, h [][]float64) float64 {
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
		return 0 // a flat function ends an optimiser's run at once; the caller reports the cancel
	}
	d := len(theta)
	// the gradient and the Hessian's lower triangle over the free parameters, summed point by
	// point in the points' order: the same sums, to the last bit, as adding into grad and h
	nf := len(o.free)
	sums := o.sums[:nf+nf*(nf+1)/2]
	clear(sums)
	g, tri := sums[:nf], sums[nf:]
	f := 0.0
	for from := 0; from < len(o.logObs); from += evalChunk {
		m := min(evalChunk, len(o.logObs)-from)
		pred, logPred := o.pred[:m], o.logPred[:m]
		logObs := o.logObs[from : from+m]
		var jac []float64
		if grad != nil {
			jac = o.jac[:m*d]
		}
		o.model.Eval(theta, from, pred, jac)
		numeric.MathLogTo(logPred, pred)
		// each point's loss, gradient factor and weight, then the sums over the points (the
		// Hessian's also when only the gradient is asked for: L-BFGS's few evaluations)
		gis, ws := o.gis[:m], o.ws[:m]
		f = huberWeights(logObs, pred, logPred, o.delta, f, gis, ws)
		switch {
		case grad == nil:
		case o.firstFour:
			gaussNewtonFirstFour(jac, gis, ws, d, (*[4]float64)(g), (*[10]float64)(tri))
		default:
			gaussNewtonSums(jac, gis, ws, o.free, d, g, tri)
		}
	}
	if grad != nil {
		for ia, a := range o.free {
			grad[a] = g[ia]
		}
	}
	if h != nil {
		k := 0
		for ia, a := range o.free {
			for _, b := range o.free[:ia+1] {
				h[a][b] = tri[k]
				k++
			}
		}
	}
	f += o.prior.add(theta, grad, h)
	if h != nil {
		for ia, a := range o.free {
			for _, b := range o.free[:ia] {
				h[b][a] = h[a][b]
			}
		}
	}
	if math.IsNaN(f) {
		return math.Inf(1)
	}
	return f
}

// safeLog is numeric.SafeLog(p) given math.Log(p) (logP, any number when p < MinPredicted).
func safeLog(p, logP float64) (float64, float64) {
	if p >= numeric.MinPredicted {
		return logP, 1 / p
	}
	return numeric.SafeLog(p)
}

// huberWeights adds each point's Huber loss to f and sets its factor of the gradient, gis
// (d f / d pred_i = huber'(r) * d r / d pred_i, with d r / d pred_i = -dlog), and its weight
// in the Gauss-Newton Hessian, ws: dlog^2 min(1, delta/|r|), the weight that makes the Huber
// loss a weighted least squares. A loop apart from the sums (gaussNewtonSums): fewer values
// live at once, which in wasm keeps them out of memory. The loops over a chunk's points are
// functions of their own: see the package doc on loops.
//
//go:noinline
func huberWeights(logObs, pred, logPreds []float64, delta, f float64, gis, ws []float64) float64 {
	logObs, logPreds, gis, ws = logObs[:len(pred)], logPreds[:len(pred)], gis[:len(pred)], ws[:len(pred)]
	for i, p := range pred {
		logPred, dlog := safeLog(p, logPreds[i])
		r := logObs[i] - logPred
		f += numeric.Huber(r, delta)
		gis[i] = -numeric.HuberSlope(r, delta) * dlog
		ws[i] = dlog * dlog * minOne(delta/math.Abs(r))
	}
	return f
}

// gaussNewtonSums adds each point's gradient, gis[i] J, to g and w J J' to the lower triangle
// tri (row by row) of the Gauss-Newton Hessian over the free parameters, J the point's row of
// jac (d pred / d theta).
//
//go:noinline
func gaussNewtonSums(jac, gis, ws []float64, free []int, d int, g, tri []float64) {
	var buf [maxFree]float64
	x := buf[:len(free)]
	g = g[:len(x)]
	tri = tri[:len(x)*(len(x)+1)/2]
	ws = ws[:len(gis)]
	for i, gi := range gis {
		row := jac[i*d : i*d+d]
		for ia, a := range free {
			x[ia] = row[a]
		}
		for ia, xa := range x {
			g[ia] += gi * xa
		}
		w := ws[i]
		k := 0
		for ia, xa := range x {
			wa := w * xa
			for _, xb := range x[:ia+1] {
				tri[k] += wa * xb
				k++
			}
		}
	}
}

// gaussNewtonFirstFour is gaussNewtonSums when the free parameters are the first four (the
// annealing law's with lambda held: the page's fits, most fits), its sums in local variables:
// the same operations in the same order.
//
//go:noinline
func gaussNewtonFirstFour(jac, gis, ws []float64, d int, g *[4]float64, tri *[10]float64) {
	g0, g1, g2, g3 := g[0], g[1], g[2], g[3]
	h00, h10, h11, h20, h21, h22, h30, h31, h32, h33 := tri[0], tri[1], tri[2], tri[3], tri[4], tri[5], tri[6], tri[7], tri[8], tri[9]
	ws = ws[:len(gis)]
	for i, gi := range gis {
		row := jac[i*d : i*d+4]
		x0, x1, x2, x3 := row[0], row[1], row[2], row[3]
		g0 += gi * x0
		g1 += gi * x1
		g2 += gi * x2
		g3 += gi * x3
		w := ws[i]
		wa := w * x0
		h00 += wa * x0
		wa = w * x1
		h10 += wa * x0
		h11 += wa * x1
		wa = w * x2
		h20 += wa * x0
		h21 += wa * x1
		h22 += wa * x2
		wa = w * x3
		h30 += wa * x0
		h31 += wa * x1
		h32 += wa * x2
		h33 += wa * x3
	}
	g[0], g[1], g[2], g[3] = g0, g1, g2, g3
	tri[0], tri[1], tri[2], tri[3], tri[4], tri[5], tri[6], tri[7], tri[8], tri[9] = h00, h10, h11, h20, h21, h22, h30, h31, h32, h33
}

// minOne is math.Min(1, x) for x >= 0 or NaN, without its call in wasm.
func minOne(x float64) float64 {
	if x >= 1 {
		return 1
	}
	return x
}

// The optimiser works in coordinates x, one per free parameter, in which the parameters'
// domains are the whole line: x = ln(theta) for a Positive parameter, the logit for one in
// the UnitInterval.

// theta maps optimiser coordinates to a parameter vector.
func (o *Objective) theta(x []float64) []float64 {
	theta := append([]float64(nil), o.base...)
	for a, j := range o.free {
		switch o.spec.Params[j].Domain {
		case UnitInterval:
			theta[j] = 1 / (1 + math.Exp(-x[a]))
		default:
			theta[j] = math.Exp(x[a])
		}
	}
	return theta
}

// coordinates maps a parameter vector (free parameters strictly inside their domains) to
// optimiser coordinates.
func (o *Objective) coordinates(theta []float64) []float64 {
	x := make([]float64, len(o.free))
	for a, j := range o.free {
		switch o.spec.Params[j].Domain {
		case UnitInterval:
			x[a] = math.Log(theta[j] / (1 - theta[j]))
		default:
			x[a] = math.Log(theta[j])
		}
	}
	return x
}

// chain is d theta_j / d x_a for each free parameter at theta.
func (o *Objective) chain(theta []float64) []float64 {
	s := make([]float64, len(o.free))
	for a, j := range o.free {
		switch o.spec.Params[j].Domain {
		case UnitInterval:
			s[a] = theta[j] * (1 - theta[j])
		default:
			s[a] = theta[j]
		}
	}
	return s
}

// inX evaluates the objective at optimiser coordinates x, with its gradient gx (if not nil)
// and the Gauss-Newton Hessian hx (if not nil, with gx) in those coordinates. The scratch
// buffers gt and ht (full size in theta) are reused.
func (o *Objective) inX(x, gx []float64, hx [][]float64, gt []float64, ht [][]float64) float64 {
	theta := o.theta(x)
	if gx == nil {
		return o.evaluate(theta, nil, nil)
	}
	if hx == nil {
		ht = nil
	}
	f := o.evaluate(theta, gt, ht)
	s := o.chain(theta)
	for a, j := range o.free {
		gx[a] = gt[j] * s[a]
		if hx != nil {
			for b, k := range o.free {
				hx[a][b] = ht[j][k] * s[a] * s[b]
			}
		}
	}
	return f
}

// huberSum is the objective's sum over observed losses and their predictions.
func huberSum(observed, predicted []float64, delta float64) float64 {
	f := 0.0
	for k, obs := range observed {
		logPred, _ := numeric.SafeLog(predicted[k])
		f += numeric.Huber(numeric.MathLog(obs)-logPred, delta)
	}
	return f
}

// penalty is the priors of a fit's free parameters as a term of its objective: weight times
// the sum of z²/2, z = (ln x - mu)/spread for each parameter's scaled value x (see Prior).
// The objective is the log posterior's negative in its own units when weight is the Huber
// loss's scale (see huberScale); a weight of 0 leaves the curves alone.
type penalty struct {
	weight float64
	terms  []priorTerm
}

// priorTerm is one parameter's prior: z = (ln(theta[j]*factor) - mu)/spread, or with memory
// set z = (-ln(1-theta[j]) - mu)/spread.
type priorTerm struct {
	j              int
	factor, mu, sd float64
	memory         bool
}

// newPenalty is the prior term of each free parameter that has a prior, scaled by the fitted
// curves' lowest loss and highest learning rate; nil when none has.
func newPenalty(spec *Spec, free []int, lowestLoss, peakLR float64) *penalty {
	var terms []priorTerm
	for _, j := range free {
		p := spec.Params[j].Prior
		if p == nil {
			continue
		}
		t := priorTerm{j: j, factor: 1, mu: math.Log(p.Median), sd: p.Spread}
		switch p.Scale {
		case ScaleLowestLoss:
			t.factor = 1 / lowestLoss
		case ScalePeakLR:
			t.factor = peakLR
		case ScaleMemory:
			t.memory = true
		}
		terms = append(terms, t)
	}
	if len(terms) == 0 {
		return nil
	}
	return &penalty{terms: terms}
}

// z is the term's standard score at theta and its derivative in theta[j].
func (t priorTerm) z(theta []float64) (z, dz float64) {
	x := theta[t.j]
	if t.memory {
		return (-math.Log1p(-x) - t.mu) / t.sd, 1 / ((1 - x) * t.sd)
	}
	return (math.Log(x*t.factor) - t.mu) / t.sd, 1 / (x * t.sd)
}

// add returns the penalty at theta, adding its gradient to grad and its curvature to the
// diagonal of h (either may be nil). A nil penalty adds nothing.
func (p *penalty) add(theta, grad []float64, h [][]float64) float64 {
	if p == nil || p.weight == 0 {
		return 0
	}
	f := 0.0
	for _, t := range p.terms {
		z, dz := t.z(theta)
		f += p.weight * z * z / 2
		if grad != nil {
			grad[t.j] += p.weight * z * dz
		}
		if h != nil {
			h[t.j][t.j] += p.weight * dz * dz
		}
	}
	return f
}

// scaled is the penalty with its weight times share (for an objective over share of the
// points: the same posterior's mode); nil stays nil.
func (p *penalty) scaled(share float64) *penalty {
	if p == nil {
		return nil
	}
	return &penalty{weight: p.weight * share, terms: p.terms}
}

// huberScale is the scale of the Huber loss of the objective's residuals at theta: the factor
// that makes the summed Huber loss a negative log likelihood's multiple, mean min(r², δ²) over
// the mean curvature min(1, δ/|r|) (for residuals within δ, their mean square). A prior's
// negative log density times it weighs against the curves as one more likelihood would.
func (o *Objective) huberScale(theta []float64) float64 {
	var num, den float64
	for from := 0; from < len(o.logObs); from += evalChunk {
		m := min(evalChunk, len(o.logObs)-from)
		pred := o.pred[:m]
		o.model.Eval(theta, from, pred, nil)
		num, den = huberMoments(o.logObs[from:from+m], pred, o.delta, num, den)
	}
	if !(den > 0) || math.IsNaN(num) {
		return 0
	}
	return num / den
}

// huberMoments adds each point's min(r², δ²) to num and min(1, δ/|r|) to den. Not inlined:
// see the package doc on loops.
//
//go:noinline
func huberMoments(logObs, pred []float64, delta, num, den float64) (float64, float64) {
	for i, p := range pred {
		logPred, _ := numeric.SafeLog(p)
		r := math.Abs(logObs[i] - logPred)
		num += math.Min(r*r, delta*delta)
		den += math.Min(1, delta/r)
	}
	return num, den
}
