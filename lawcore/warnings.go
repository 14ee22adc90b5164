package lawcore

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// Warnings. A fit always returns parameters; whether to trust them is another matter, and a
// user who is not told takes a degenerate fit for an answer. The engine checks what it can see
// without knowing the law: a parameter pushed to the edge of its domain (the objective wanted
// it beyond: usually the first steps of a run, or a term the curves cannot inform), a curve
// the law fits poorly, and held-out curves predicted far worse than the fitted ones.

// Warning is one thing to know about a fit before trusting it.
type Warning struct {
	// Kind is "bound" (a parameter at the edge of its domain), "prior" (parameters whose values
	// come from their priors more than from the curves), "poor-fit" (a fit curve the
	// law does not follow), "held-out" (held-out error far above in-sample error),
	// "few-points" (no more points to fit than parameters), "no-annealing" (no fit curve
	// anneals, so the annealing term is not determined), "auto" (auto could not compare
	// laws, and the settings given were fitted), "size-unused" (curves carry model sizes
	// that the law takes no account of), "guessed-start" (a logged schedule starts late,
	// and the learning rates before it, a guess, weigh in S1) or "undetermined" (parameters
	// whose 90% intervals reach beyond ten times their values: the curves leave them open).
	Kind string `json:"kind"`
	// Param and Curve name the parameter or the curve concerned, when there is one.
	Param string `json:"param,omitempty"`
	Curve string `json:"curve,omitempty"`
	// Message says it in words, with the likely cause and the fix.
	Message string `json:"message"`
	// From, when not 0, is the first step of a window that would likely fix it (the end of
	// the warmup): the fit's curves' From.
	From float64 `json:"from,omitempty"`
}

// Thresholds of the warnings.
const (
	// A positive parameter below boundLow times its typical value sits at 0; above boundHigh
	// times, it runs off (the objective is flat that way: the data do not pin it).
	boundLow  = 1e-3
	boundHigh = 1e4
	// unitEdge is how close to 0 or 1 a parameter in (0, 1) sits at its edge.
	unitEdge = 1e-6
	// poorR2: the paper's fits reach R² 0.999 and more; below 0.99 the law misses the
	// curve's shape, not its noise.
	poorR2 = 0.99
	// heldOutRatio: held-out error this many times the in-sample error.
	heldOutRatio = 3
	// heldOutFloor: a held-out PredE at or below the paper's own on unseen schedules (about
	// 0.2%) is no cause for a warning, however small the in-sample error beside it (a smooth
	// or noise-free curve fits to 0.00%, and any prediction is then "many times worse").
	heldOutFloor = 0.002
	// annealDrop: a curve anneals when its LR falls more than this share below its highest
	// so far; a constant LR logged with rounding (0.1%) does not.
	annealDrop = 0.01
	// openSpan: a parameter whose 90% interval reaches beyond this many times its value is
	// not determined by the curves, not even its order of magnitude.
	openSpan = 10
	// priorShare: a parameter whose prior variance the curves narrow by less than this share
	// (its posterior variance above 1-priorShare of its prior's) has its value from its prior.
	priorShare = 0.5
	// guessedShare: a share of S1 that a schedule guessed before its first logged LR may
	// hold. S1 off by a share d moves the law's A·S1^-α by about α·d of itself: with the
	// paper's α near 0.5 and that term near 0.4, 1% of S1 moves the loss by about 0.002, a
	// third of the paper's mean error on unseen schedules (0.2% of a loss near 3).
	guessedShare = 0.01
)

// anneals says whether the curve's LR falls by more than annealDrop of its highest before
// its last fitted point: the annealing term of every law (the annealing law's C·S2, the
// Multi-Power Law's reduction) is zero on a curve that does not, whatever its parameter.
// Not inlined: see the package doc on loops.
//
//go:noinline
func (p *preparedCurve) anneals() bool {
	index, _ := p.window()
	if len(index) == 0 {
		return false
	}
	top := 0.0
	for _, eta := range p.lr[:index[len(index)-1]+1] {
		top = max(top, eta)
		if eta < (1-annealDrop)*top {
			return true
		}
	}
	return false
}

// annealed says whether any fit curve anneals: without one, the data cannot determine the
// annealing term.
func (j *fitJob) annealed() bool {
	return slices.ContainsFunc(j.curves, func(c *preparedCurve) bool { return c.role == RoleFit && c.anneals() })
}

// warnings checks a fit of the job with theta and its result.
func (j *fitJob) warnings(theta []float64, res *FitResult) []Warning {
	var out []Warning
	from := j.suggestedFrom()
	fix := ""
	if from > 0 {
		fix = fmt.Sprintf("; the first steps (the warmup, up to step %.0f) may drive it: fit from step %.0f?", from, from)
	}
	annealed := j.annealed()
	term := j.spec.Terms[1].Param
	if !annealed && slices.Contains(j.free, j.spec.Index(term)) {
		out = append(out, Warning{Kind: "no-annealing", Param: term, Message: fmt.Sprintf(
			"no fitted curve anneals (the LR of each stays within %.0f%% of its peak up to its last fitted point): the %s's annealing term (%s) is not determined by these curves, so %s = %.3g means nothing and has no interval, and a prediction of a schedule that decays its LR is not supported by them; fit a run that decays its LR as well",
			100*annealDrop, j.spec.Title, j.spec.Terms[1].Label, j.spec.Params[j.spec.Index(term)].Symbol, theta[j.spec.Index(term)])})
	}
	for _, i := range j.free {
		p, v := j.spec.Params[i], theta[i]
		if !annealed && p.Name == term {
			continue // no-annealing says why
		}
		var what string
		switch {
		case p.Domain == UnitInterval && (v < unitEdge || v > 1-unitEdge):
			what = fmt.Sprintf("%s went to %g, the edge of (0, 1)", p.Symbol, v)
		case p.Domain == Positive && p.Default > 0 && v < boundLow*p.Default:
			what = fmt.Sprintf("%s went to %.3g, its lower bound 0", p.Symbol, v)
		case p.Domain == Positive && p.Default > 0 && v > boundHigh*p.Default:
			what = fmt.Sprintf("%s ran off to %.3g: the curves do not pin it", p.Symbol, v)
		default:
			continue
		}
		remedy := fix
		switch {
		case remedy != "":
		case p.Prior != nil && j.priors == PriorsNone:
			remedy = "; fit with the weakly informative priors (priors weak), which hold it near published fits' values, or fit longer or more varied curves"
		case p.Prior != nil:
			remedy = "; the curves push it there against its prior: fit longer or more varied curves (a run that anneals, and one that runs longer), or hold it at a value you trust (fixed)"
		default:
			remedy = "; fit longer or more varied curves, or hold it at a value you trust (fixed)"
		}
		out = append(out, Warning{Kind: "bound", Param: p.Name, Message: what + remedy, From: from})
	}
	points := 0
	for _, c := range res.Curves {
		if c.Role == RoleFit {
			points += c.Metrics.Points
		}
	}
	if points <= len(j.free) {
		out = append(out, Warning{Kind: "few-points", Message: fmt.Sprintf(
			"%d point(s) to fit %d parameters: the %s passes through them whatever the truth, so its parameters and R² say nothing; fit more of the curve (a longer run, or more evaluations)",
			points, len(j.free), j.spec.Title)})
	}
	for _, c := range res.Curves {
		if r2 := c.Metrics.R2; c.Role == RoleFit && c.Metrics.Points >= 5 && r2 != nil && *r2 < poorR2 {
			out = append(out, Warning{Kind: "poor-fit", Curve: c.Name, From: from,
				Message: fmt.Sprintf("the %s fits curve %q poorly (R² %.3f, worst error %.1f%%)%s", j.spec.Title, c.Name, *r2, 100*c.Metrics.WorstE, fix)})
		}
	}
	for _, c := range j.curves {
		if w, ok := c.guessedStart(); ok {
			out = append(out, w)
		}
	}
	if !j.spec.NeedsSize && slices.ContainsFunc(j.curves, func(c *preparedCurve) bool { return c.size != 0 }) {
		out = append(out, Warning{Kind: "size-unused", Message: fmt.Sprintf(
			"the curves carry model sizes, but the %s takes none: they are not used (the model-size law, \"size\", fits curves of several sizes together)", j.spec.Title)})
	}
	if v := res.ValidateMetrics; v != nil && PredictsWorse(v.PredE, res.FitMetrics.PredE) {
		out = append(out, Warning{Kind: "held-out", Message: fmt.Sprintf(
			"the held-out curves are predicted %.0f times worse than the fitted ones are fitted (PredE %.2f%% against %.2f%%): the law fits these curves better than it predicts others",
			v.PredE/res.FitMetrics.PredE, 100*v.PredE, 100*res.FitMetrics.PredE)})
	}
	return out
}

// priorWarning names the free parameters whose fitted values come from their priors more than
// from the curves (their posterior variance in the Gauss-Newton approximation at theta, obj's
// optimum, above 1-priorShare of their prior's): the curves leave them open, and a prediction
// that depends on them rests on published fits of other runs.
func (j *fitJob) priorWarning(obj *Objective, theta []float64) (Warning, bool) {
	if j.prior == nil || j.prior.weight == 0 {
		return Warning{}, false
	}
	for _, i := range j.free {
		if !(theta[i] > 0) || j.spec.Params[i].Domain == UnitInterval && !(theta[i] < 1) {
			return Warning{}, false // on its bound: the bound warning says so
		}
	}
	n := len(j.free)
	gx, hx := make([]float64, n), numeric.Square(n)
	obj.inX(obj.coordinates(theta), gx, hx, make([]float64, len(theta)), numeric.Square(len(theta)))
	inv, ok := numeric.InverseSPD(hx)
	if !ok {
		return Warning{}, false
	}
	var names, sources []string
	for _, t := range j.prior.terms {
		a := slices.Index(j.free, t.j)
		// dz/dx in the optimiser's coordinate: 1/spread for a log, lambda/spread for a logit
		dzdx := 1 / t.sd
		if t.memory {
			dzdx = theta[t.j] / t.sd
		}
		if j.prior.weight*inv[a][a]*dzdx*dzdx > 1-priorShare {
			p := j.spec.Params[t.j]
			names, sources = append(names, p.Symbol), append(sources, p.Prior.Source)
		}
	}
	if len(names) == 0 {
		return Warning{}, false
	}
	return Warning{Kind: "prior", Message: fmt.Sprintf(
		"the curves leave %s open: their values come mostly from weakly informative priors (%s), and a prediction of a schedule unlike these curves rests on them; fit longer or more varied curves to determine them (or fit with priors none to see what the curves alone give)",
		input.Listed(names), strings.Join(sources, "; "))}, true
}

// undetermined warns of the free parameters whose 90% interval reaches beyond openSpan times
// their value: the curves do not fix even the order of magnitude (a Multi-Power Law fitted to
// one run and one cooldown: B from 0 to over 1e11 around 7e3). The fit still follows the
// curves, trading such parameters off against each other, but a prediction of a schedule
// unlike them rests on values they leave open. Two parameters that trade off within a factor
// of a few (the Multi-Power Law's C and β on its release's three runs, C up to 5 times its
// value) are a correlation the curves bound, and the band says what it costs.
func (j *fitJob) undetermined(theta []float64, intervals map[string]Interval) (Warning, bool) {
	var names, spans []string
	for _, i := range j.free {
		p := j.spec.Params[i]
		iv, ok := intervals[p.Name]
		if !ok || !(math.Max(iv.High, -iv.Low) > openSpan*math.Abs(theta[i])) {
			continue
		}
		names = append(names, p.Symbol)
		spans = append(spans, fmt.Sprintf("%s %.3g to %.3g", p.Symbol, iv.Low, iv.High))
	}
	if len(names) == 0 {
		return Warning{}, false
	}
	return Warning{Kind: "undetermined", Message: fmt.Sprintf(
		"these curves do not fix even the order of magnitude of %s (90%% intervals: %s): the %s follows them, but a prediction of a schedule unlike them rests on values they leave open; fit curves of more varied schedules, or let held-out curves judge the laws (validation, or auto)",
		input.Listed(names), strings.Join(spans, ", "), j.spec.Title)}, true
}

// guessedStart warns of a curve whose schedule starts with learning rates nobody logged (see
// preparedCurve.unlogged) when they make more than guessedShare of S1 at its last point: the
// guess then moves the fit. A run that warmed up has less area there than the guess.
func (p *preparedCurve) guessedStart() (Warning, bool) {
	last := p.index[len(p.index)-1]
	if p.unlogged == 0 || p.unlogged > last {
		return Warning{}, false
	}
	guessed, s1 := 0.0, 0.0
	for i := 0; i <= last; i++ { // S1 as AreaWalker sums it, from step 0
		if i < p.unlogged {
			guessed += p.lr[i]
		}
		s1 += p.lr[i]
	}
	if !(guessed > guessedShare*s1) {
		return Warning{}, false
	}
	return Warning{Kind: "guessed-start", Curve: p.name, Message: fmt.Sprintf(
		"the learning rates of curve %q are logged from step %d on: its schedule holds the first logged value (%.3g) back to step 0, a guess that makes %.0f%% of S1 at its last point; if the run warmed up, give it its warmup (the warmup setting, or the schedule's own)",
		p.name, p.unlogged, p.lr[p.unlogged], 100*guessed/s1)}, true
}

// suggestedFrom is the step a fit window would start at to leave the warmup out: the largest
// end of warmup (the first step at the peak learning rate) among fit curves that have points
// before it, or 0 when none has.
func (j *fitJob) suggestedFrom() float64 {
	from := 0
	for _, c := range j.curves {
		if c.role != RoleFit {
			continue
		}
		peak := slices.Max(c.lr)
		end := slices.IndexFunc(c.lr, func(eta float64) bool { return eta >= peak*(1-1e-9) })
		index, _ := c.window()
		if end > index[0] && end < index[len(index)-1] {
			from = max(from, end)
		}
	}
	return float64(from)
}

// PredictsWorse says whether a held-out error is cause for a warning beside the in-sample
// error (NaN: none) of the same fits: heldOutRatio times it, and above heldOutFloor.
func PredictsWorse(heldOut, inSample float64) bool {
	return heldOut > heldOutRatio*inSample && heldOut > heldOutFloor
}
