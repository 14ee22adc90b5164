package analysis

import (
	"math"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/multipower"
)

// The highest loss after a step, found without predicting every step under the Multi-Power
// Law (about 23 μs a step natively, 2.3 s for a 100,000-step run).
//
// The search predicts a coarse grid of steps, then bisects every gap between two predicted
// steps a and b whose upper bound over the steps inside is not below the highest loss
// predicted so far; a gap is left out once its bound is below that loss (so none of its steps
// can reach it, nor tie it: the dense search keeps the first step of the highest loss), and
// predicted step by step once it is short. Every step it predicts is predicted as the dense
// search predicts it (a law's loss at a step does not depend on the other steps asked for), so
// the answer is the dense search's bit for bit.
//
// The bound. Under the Multi-Power Law, for a <= t <= b,
//
//	L(t) - L(a) = A((S(t))^-α - S(a)^-α) - B Σ_{k<=a} d_k (G(x_k(t)) - G(x_k(a))) - B Σ_{a<k<=t} d_k G(x_k(t)),
//
// with d_k = η_{k-1} - η_k and x_k(t) = η_k^-γ (P_t - P_{k-1}) nondecreasing in t. With A, α,
// B, C, β, γ > 0 (the law's domains), the power term does not rise, G rises, and so every
// decrease (d_k > 0) only lowers the loss, and every increase raises it by at most its term at
// b: L(t) <= L(a) + B (I(b) - I(a)), I(t) = Σ_{k<=t, d_k<0} |d_k| G(x_k(t)) summed exactly.
// The law's prediction groups the loss-drop sum to within multipower.Tolerance times B times
// the summed |d_k| (the package's bound), which the bound adds twice (at a and at t), with a
// margin for rounding. An average of laws is bounded member by member: a Multi-Power member
// by that bound, any other member (the annealing law and its variants, linear in the steps)
// by its own loss predicted at every step. A setup without a Multi-Power member, a short
// run, or a prediction that is not finite takes the dense search.

// bumpGrid is about how many steps the search predicts first; bumpDense is the gap up to
// which it predicts every step of a gap it keeps, a longer one being split in bumpSplit.
const (
	bumpGrid  = 256
	bumpDense = 32
	bumpSplit = 8
)

// bumpSlack is the relative margin the bound adds for rounding (the sums' rounding errors are
// near 1e-13 of their terms' magnitudes).
const bumpSlack = 1e-9

// highestAfter is highestLossAfter of the loss at every step of lr (as run), predicting only
// the steps that can hold the highest loss where the evaluator's law allows a bound (see
// above).
func (e *evaluator) highestAfter(lr []float64, warmup, from int) (startLoss float64, step int, loss float64, err error) {
	denseSearch := func() (float64, int, float64, error) {
		dense, err := e.dense(lr, warmup)
		if err != nil {
			return 0, 0, 0, err
		}
		startLoss, step, loss := highestLossAfter(dense, from)
		return startLoss, step, loss, nil
	}
	known := map[int]float64{}
	bounds := e.riseBounds(lr, warmup, known)
	last := len(lr) - 1
	if bounds == nil || last-from <= 4*bumpGrid {
		return denseSearch()
	}
	// predictAt predicts the steps (increasing, not yet known), and the members' bounds there
	// when bounded; false when a loss is not finite
	predictAt := func(steps []int, bounded bool) (bool, error) {
		if err := e.w.check(); err != nil {
			return false, err
		}
		pr, err := e.predict("", lr, warmup, steps)
		if err != nil {
			return false, err
		}
		if len(pr.Loss) != len(steps) {
			return false, nil
		}
		for k, st := range steps {
			if math.IsNaN(pr.Loss[k]) || math.IsInf(pr.Loss[k], 0) {
				return false, nil
			}
			known[st] = pr.Loss[k]
		}
		for _, b := range bounds {
			if !bounded {
				break
			}
			if ok, err := b.at(steps); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	}
	h := max(1, (last-from)/bumpGrid)
	var grid []int
	for st := from; st < last; st += h {
		grid = append(grid, st)
	}
	grid = append(grid, last)
	ok, err := predictAt(grid, true)
	if err != nil {
		return 0, 0, 0, err
	}
	best := math.Inf(-1)
	for _, st := range grid {
		best = math.Max(best, known[st])
	}
	type gap struct{ a, b int }
	var gaps, every []gap
	for i := 1; ok && i < len(grid); i++ {
		gaps = append(gaps, gap{grid[i-1], grid[i]})
	}
	for ok && len(gaps) > 0 {
		var next []gap
		var mids []int
		for _, g := range gaps {
			if g.b-g.a < 2 {
				continue
			}
			bound, weightSum := 0.0, 0.0
			for _, b := range bounds {
				bound += b.weight * b.upTo(g.a, g.b)
				weightSum += b.weight * math.Abs(b.scale)
			}
			if bound+bumpSlack*weightSum < best {
				continue
			}
			if g.b-g.a <= bumpDense {
				every = append(every, g)
				continue
			}
			// split in bumpSplit gaps: fewer rounds of predictions, each preparing the schedule
			a := g.a
			for k := 1; k <= bumpSplit; k++ {
				m := g.a + (g.b-g.a)*k/bumpSplit
				if k < bumpSplit {
					mids = append(mids, m)
				}
				next = append(next, gap{a, m})
				a = m
			}
		}
		if len(mids) > 0 {
			if ok, err = predictAt(mids, true); err != nil {
				return 0, 0, 0, err
			}
			for _, st := range mids {
				best = math.Max(best, known[st])
			}
		}
		gaps = next
	}
	if ok && len(every) > 0 {
		var steps []int
		for _, g := range every {
			for st := g.a + 1; st < g.b; st++ {
				steps = append(steps, st)
			}
		}
		if ok, err = predictAt(steps, false); err != nil {
			return 0, 0, 0, err
		}
	}
	if !ok {
		return denseSearch()
	}
	loss, step = math.Inf(-1), from
	for st := from; st <= last; st++ {
		if l, ok := known[st]; ok && l > loss {
			step, loss = st, l
		}
	}
	return known[from], step, loss, nil
}

// riseBound bounds one member's loss over the steps between two predicted ones.
type riseBound struct {
	weight float64
	// scale is a magnitude of the member's loss, for the rounding margin.
	scale float64
	// at predicts the member at steps (increasing); false when its loss is not finite there.
	at func(steps []int) (bool, error)
	// upTo bounds the member's loss at the steps strictly between a and b (predicted both).
	upTo func(a, b int) float64
}

// riseBounds are the bounds of the evaluator's members (of its law alone, of weight 1), or nil
// when none is the Multi-Power Law (whose dense search is not the slow part) or a member's
// bound cannot be had.
// known is the evaluator's loss at the steps predicted, which a law alone shares.
func (e *evaluator) riseBounds(lr []float64, warmup int, known map[int]float64) []riseBound {
	members := e.members
	if members == nil {
		members = []member{{law: e.law, theta: e.theta, conv: e.conv, weight: 1}}
	}
	anyMPL := false
	for _, m := range members {
		anyMPL = anyMPL || m.law.Spec().Name == multipower.Name
	}
	if !anyMPL {
		return nil
	}
	var out []riseBound
	for _, m := range members {
		counted := append([]float64(nil), e.runAs(m.conv, "", lr, warmup, nil).LR...)
		var b riseBound
		if m.law.Spec().Name == multipower.Name {
			p, err := multipower.ParamsOf(m.law.Spec().Values(m.theta))
			if err != nil {
				return nil
			}
			if e.members == nil {
				b = mplRiseBound(m, p, counted, lr, known, true)
			} else {
				b = mplRiseBound(m, p, counted, lr, map[int]float64{}, false)
			}
		} else {
			b = denseRiseBound(m, counted, lr)
		}
		b.weight = m.weight
		out = append(out, b)
	}
	return out
}

// memberLoss predicts one member at steps, false unless every step is trained and finite.
func memberLoss(m member, counted, lr []float64, steps []int, into map[int]float64) (bool, error) {
	pr, err := lawcore.PredictRun(m.law, m.theta, lawcore.Run{LR: counted, Steps: steps}, lr)
	if err != nil {
		return false, err
	}
	if len(pr.Loss) != len(steps) {
		return false, nil
	}
	for k, st := range steps {
		l := pr.Loss[k]
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return false, nil
		}
		into[st] = l
	}
	return true, nil
}

// denseRiseBound bounds a member by its own loss at every step of the gap (predicted once,
// at the first steps asked for, from there to the last step).
func denseRiseBound(m member, counted, lr []float64) riseBound {
	loss := map[int]float64{}
	var dense []float64
	var from int
	b := riseBound{}
	b.at = func(steps []int) (bool, error) {
		if dense != nil {
			return true, nil
		}
		from = steps[0]
		all := make([]int, 0, len(lr)-from)
		for st := from; st < len(lr); st++ {
			all = append(all, st)
		}
		if ok, err := memberLoss(m, counted, lr, all, loss); err != nil || !ok {
			return ok, err
		}
		dense = make([]float64, len(lr)-from)
		for st := from; st < len(lr); st++ {
			dense[st-from] = loss[st]
			b.scale = math.Max(b.scale, math.Abs(loss[st]))
		}
		return true, nil
	}
	b.upTo = func(a, c int) float64 {
		hi := math.Inf(-1)
		for st := a + 1; st < c; st++ {
			hi = math.Max(hi, dense[st-from])
		}
		return hi
	}
	return b
}

// mplRiseBound bounds a Multi-Power member by L(a) + B (I(b) - I(a)) plus the prediction's
// grouping error at both ends (see above); counted are the rates as the member counts them.
// loss holds the member's loss at the steps predicted: shared, the evaluator's own (of its law
// alone), else the bound predicts the member into it.
func mplRiseBound(m member, p multipower.Params, counted, lr []float64, loss map[int]float64, shared bool) riseBound {
	// the increases: their size, η_k^-γ and P_{k-1}
	var size, factor, before []float64
	prefix := make([]float64, len(counted))
	sum, changes := 0.0, 0.0
	for k, eta := range counted {
		sum += eta
		prefix[k] = sum
		if k == 0 {
			continue
		}
		d := counted[k-1] - eta
		changes += math.Abs(d)
		if d < 0 {
			size = append(size, -d)
			factor = append(factor, math.Pow(eta, -p.Gamma))
			before = append(before, prefix[k-1])
		}
	}
	inc := map[int]float64{}
	grouping := 2 * multipower.Tolerance * p.B * changes
	b := riseBound{scale: math.Abs(p.L0) + p.A + p.B*changes}
	b.at = func(steps []int) (bool, error) {
		if !shared {
			if ok, err := memberLoss(m, counted, lr, steps, loss); err != nil || !ok {
				return ok, err
			}
		}
		for _, st := range steps {
			inc[st] = increaseUpTo(st, prefix, size, factor, before, p)
		}
		return true, nil
	}
	b.upTo = func(a, c int) float64 {
		return loss[a] + p.B*(inc[c]-inc[a]) + grouping
	}
	return b
}

// increaseUpTo is I(t) = Σ_{k<=t, d_k<0} |d_k| G(η_k^-γ (P_t - P_{k-1})), the increases
// being given in order by their size, η_k^-γ and P_{k-1}.
func increaseUpTo(t int, prefix, size, factor, before []float64, p multipower.Params) float64 {
	s := 0.0
	for j := range size {
		r := prefix[t] - before[j]
		if !(r > 0) {
			if before[j] >= prefix[t] {
				break // this increase and every later one are after t
			}
			continue
		}
		s += size[j] * -math.Expm1(-p.Beta*math.Log1p(p.C*factor[j]*r))
	}
	return s
}
