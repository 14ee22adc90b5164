package analysis

import (
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
	"gonum.org/v1/gonum/optimize"
)

// The free-form family of the schedule optimiser: any non-increasing schedule from the peak,
// drawn as a piecewise-linear curve through K+1 knots. The knots sit at steps
// t_k = warmup + (total-warmup)*(1-(1-k/K)^2), denser towards the end where annealing
// happens, and their learning rates are cumulative softplus decrements of the log learning
// rate:
//
//	v_0 = peak,  v_k = peak * exp(-sum_{j=1..k} softplus(z_j))
//
// which is non-increasing and positive for any real z, with no redundant direction. The
// gradient of the final loss in z follows from the per-step gradient of FinalLossGradient:
// G_k = sum_i dL/deta_i * deta_i/dv_k (the linear interpolation weights), and
// dL/dz_j = -sigmoid(z_j) * sum_{k>=j} G_k v_k.

// freeForm is the free-form parameterisation of one budget, of the final loss of the annealing
// law with p under conv or, when average is set, of the weighted average of its terms (the
// gradient of an average is the average of its laws' gradients).
type freeForm struct {
	total, warmup int
	peak          float64
	conv          schedule.Convention
	p             annealing.Params
	average       []annealingTerm
	scratch       []float64 // one law's gradient, for an average
	knots         []int     // K+1 steps, knots[0] = warmup, knots[K] = total
	lr, grad      []float64
	v, g          []float64 // knot values and dL/dv
}

// newFreeForm lays out k knots (k <= total - warmup).
func newFreeForm(p annealing.Params, conv schedule.Convention, total, warmup int, peak float64, k int) *freeForm {
	f := &freeForm{total: total, warmup: warmup, peak: peak, conv: conv, p: p,
		knots: make([]int, k+1), lr: make([]float64, total+1), grad: make([]float64, total+1),
		v: make([]float64, k+1), g: make([]float64, k+1)}
	span := float64(total - warmup)
	for j := range f.knots {
		u := 1 - float64(j)/float64(k)
		f.knots[j] = warmup + int(math.Round(span*(1-u*u)))
	}
	for j := 1; j <= k; j++ { // strictly increasing, last at total
		f.knots[j] = max(f.knots[j], f.knots[j-1]+1)
	}
	f.knots[k] = total
	for j := k - 1; j >= 0; j-- {
		f.knots[j] = min(f.knots[j], f.knots[j+1]-1)
	}
	return f
}

func softplus(z float64) float64 {
	if z > 30 {
		return z
	}
	return math.Log1p(math.Exp(z))
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// softplusInverse is z with softplus(z) = y (y > 0).
func softplusInverse(y float64) float64 {
	if y > 30 {
		return y
	}
	return math.Log(math.Expm1(y))
}

// setKnots computes the knot values from z (z[0] is unused) and fills the per-step rates.
func (f *freeForm) setKnots(z []float64) {
	f.v[0] = f.peak
	sum := 0.0
	for j := 1; j < len(f.v); j++ {
		sum += softplus(z[j])
		f.v[j] = f.peak * math.Exp(-sum)
	}
	for i := 0; i < f.warmup && i < len(f.lr); i++ {
		f.lr[i] = f.peak * float64(i) / float64(f.warmup)
	}
	for k := 0; k+1 < len(f.knots); k++ {
		a, b := f.knots[k], f.knots[k+1]
		for i := a; i < b; i++ {
			f.lr[i] = f.v[k] + (f.v[k+1]-f.v[k])*float64(i-a)/float64(b-a)
		}
	}
	f.lr[f.total] = f.v[len(f.v)-1]
}

// value returns the final loss at z and, if grad is not nil, its gradient in z.
func (f *freeForm) value(z, grad []float64) float64 {
	f.setKnots(z)
	if len(f.average) > 0 {
		return f.averageValue(z, grad)
	}
	if grad == nil {
		s1, s2 := schedule.FinalAreas(schedule.CountedLR(f.lr, f.warmup, f.conv), f.p.Lambda)
		return f.p.Loss(s1, s2)
	}
	loss := FinalLossGradient(f.p, f.lr, f.warmup, f.conv, f.grad)
	f.chain(z, grad)
	return loss
}

// averageValue is value for an average of annealing laws: the knots are set.
func (f *freeForm) averageValue(z, grad []float64) float64 {
	loss := 0.0
	if grad != nil {
		clear(f.grad)
		if len(f.scratch) != len(f.grad) {
			f.scratch = make([]float64, len(f.grad))
		}
	}
	for _, t := range f.average {
		if grad == nil {
			s1, s2 := schedule.FinalAreas(schedule.CountedLR(f.lr, f.warmup, t.conv), t.p.Lambda)
			loss += t.weight * t.p.Loss(s1, s2)
			continue
		}
		loss += t.weight * FinalLossGradient(t.p, f.lr, f.warmup, t.conv, f.scratch)
		for i, g := range f.scratch {
			f.grad[i] += t.weight * g
		}
	}
	if grad != nil {
		f.chain(z, grad)
	}
	return loss
}

// chain writes into grad the gradient in z of the final loss, from its gradient in each
// step's rate (f.grad).
func (f *freeForm) chain(z, grad []float64) {
	for k := range f.g {
		f.g[k] = 0
	}
	for k := 0; k+1 < len(f.knots); k++ {
		a, b := f.knots[k], f.knots[k+1]
		for i := a; i < b; i++ {
			u := float64(i-a) / float64(b-a)
			f.g[k] += f.grad[i] * (1 - u)
			f.g[k+1] += f.grad[i] * u
		}
	}
	f.g[len(f.g)-1] += f.grad[f.total]
	// dL/dz_j = -sigmoid(z_j) * sum_{k>=j} G_k v_k
	tail := 0.0
	for j := len(f.v) - 1; j >= 1; j-- {
		tail += f.g[j] * f.v[j]
		grad[j] = -sigmoid(z[j]) * tail
	}
	grad[0] = 0
}

// zFor returns the z whose knot values follow target (a function of the step giving a
// fraction of the peak, non-increasing), with decrements floored so that z stays finite.
func (f *freeForm) zFor(target func(step int) float64) []float64 {
	z := make([]float64, len(f.knots))
	prev := 0.0 // -log of the previous fraction
	for j := 1; j < len(f.knots); j++ {
		cur := -math.Log(math.Max(1e-4, math.Min(1, target(f.knots[j]))))
		z[j] = softplusInverse(math.Max(1e-6, cur-prev))
		prev += softplus(z[j])
	}
	return z
}

// schedule is the explicit schedule through the knots at z.
func (f *freeForm) schedule(z []float64) schedule.Schedule {
	f.setKnots(z)
	steps := make([]float64, len(f.knots))
	for j, k := range f.knots {
		steps[j] = float64(k)
	}
	return schedule.Schedule{Kind: schedule.KindExplicit, Total: f.total, Warmup: f.warmup, Steps: steps, Values: append([]float64(nil), f.v...)}
}

// minimize runs L-BFGS from z0 and returns the best z and its loss. Each evaluation reports
// to the call w first; once w is cancelled they are +Inf and the search stops.
func (f *freeForm) minimize(z0 []float64, evals *int, w *work) ([]float64, float64) {
	const scale = 1e3 // milli-loss: gradients of order one for the optimiser's tolerances
	problem := optimize.Problem{
		Func: func(z []float64) float64 {
			*evals++
			if w.check() != nil {
				return math.Inf(1)
			}
			return scale * f.value(z, nil)
		},
		Grad: func(g, z []float64) {
			*evals++
			if w.check() != nil {
				clear(g)
				return
			}
			f.value(z, g)
			for i := range g {
				g[i] *= scale
			}
		},
		Status: w.status,
	}
	settings := &optimize.Settings{FuncEvaluations: 1500, GradientThreshold: 1e-10,
		Converger: &optimize.FunctionConverge{Absolute: 1e-9, Relative: 1e-12, Iterations: 20}}
	res, _ := optimize.Minimize(problem, z0, settings, &optimize.LBFGS{})
	if w.err() != nil {
		return z0, math.Inf(1)
	}
	start := f.value(z0, nil)
	if res == nil || math.IsNaN(res.F) || res.F/scale > start {
		return z0, start
	}
	return res.X, res.F / scale
}

func (z *optimizer) free() OptimizedSchedule {
	o := z.o
	terms, _, _ := z.e.annealingTerms()
	f := newFreeForm(terms[0].p, terms[0].conv, o.Total, o.Warmup, o.Peak, o.Knots)
	if len(terms) > 1 {
		f.average = terms
	}
	tail := func(frac float64) func(int) float64 {
		return func(step int) float64 { return float64(o.Total-step) / (frac * float64(o.Total)) }
	}
	starts := [][]float64{
		f.zFor(tail(0.2)),  // WSD-like: linear decay over the last 20%
		f.zFor(tail(0.05)), // a short decay
		f.zFor(func(step int) float64 { // a cosine over the whole run
			return 0.5 * (1 + math.Cos(math.Pi*float64(step-o.Warmup)/float64(o.Total-o.Warmup)))
		}),
	}
	bestZ, bestL := starts[0], math.Inf(1) // the first start if every search is +Inf (cancelled)
	for _, z0 := range starts {
		zz, l := f.minimize(z0, &z.evaluations, z.e.w)
		if l < bestL {
			bestZ, bestL = zz, l
		}
	}
	s := f.schedule(bestZ)
	return OptimizedSchedule{Description: fmt.Sprintf("free-form non-increasing (%d knots)", o.Knots),
		Settings: map[string]float64{"knots": float64(o.Knots)}, Schedule: s}
}
