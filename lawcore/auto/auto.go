package auto

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// tieTolerance is the smallest relative difference of held-out errors that separates two
// candidates: below it the difference is within what a re-run of training would change.
const tieTolerance = 0.03

// forecastHoldOuts are the shares of each curve's observed steps that forecast folds hold
// out, one fold per curve and share: the last half with several fit curves, the last third
// and the last half with one.
var (
	forecastHoldOuts    = []float64{1.0 / 2}
	oneCurveForecastOut = []float64{1.0 / 3, 1.0 / 2}
)

// The designs of the held-out data.
const (
	designBoth     = "leave one curve out and forecast"
	designForecast = "forecast"
)

// maxFoldError is the most a fold's error counts in a score.
const maxFoldError = 1.0

// foldFitPoints is about the most points of each curve's window a fold fit is fitted on (see
// binned): as many as the logs the paper and the MultiPowerLaw release fit (100-550 points a
// curve), which it leaves as they are; a curve held out is scored on an even sample of at
// most heldOutPoints of its points (see autoFolds).
const foldFitPoints = 500

// binSpan is the widest a run of points binned averages, relative to its first step: over
// 5% of a power law's steps its mean is above its middle value by 1e-4 of its reducible part.
const binSpan = 0.05

// minForecastPoints is the fewest points in a curve's fit window from which a forecast fold
// is made: at least three to fit and two held out.
const minForecastPoints = 6

// Candidates lists the candidates auto compares: the annealing law with lambda held at its
// default and fitted, each under both warmup conventions; then every other registered law
// under its own convention, with its decay factor (if any) held, and with each of its own
// searches.
func Candidates() []lawcore.Candidate {
	var out []lawcore.Candidate
	for _, law := range lawcore.Laws() {
		spec := law.Spec()
		free := 0
		hasLambda := false
		for _, p := range spec.Params {
			if !p.Held {
				free++
			}
			hasLambda = hasLambda || p.Name == "lambda"
		}
		convs := []schedule.Convention{spec.Convention}
		if spec.Name == annealing.Name {
			convs = []schedule.Convention{schedule.WarmupPeak, schedule.WarmupActual}
		}
		searches := []string{lawcore.SearchOptimum}
		if s, ok := law.(lawcore.Searcher); ok {
			searches = append(searches, s.Searches()...)
		}
		for _, conv := range convs {
			for _, search := range searches {
				c := lawcore.Candidate{Law: spec.Name, Convention: conv, Free: free}
				if search != lawcore.SearchOptimum {
					c.Search = search
				}
				if !hasLambda {
					c.Label = candidateLabel(spec, conv, nil, c.Search)
					out = append(out, c)
					continue
				}
				held := lawcore.FixedLambda(lawcore.DefaultLambda)
				c.Lambda, c.Label = &held, candidateLabel(spec, conv, &held, c.Search)
				out = append(out, c)
				if spec.Name == annealing.Name {
					fitted := lawcore.FittedLambda()
					f := lawcore.Candidate{Law: spec.Name, Convention: conv, Lambda: &fitted, Free: free + 1,
						Label: candidateLabel(spec, conv, &fitted, c.Search)}
					out = append(out, f)
				}
			}
		}
	}
	return out
}

func candidateLabel(spec *lawcore.Spec, conv schedule.Convention, lambda *lawcore.LambdaSetting, search string) string {
	s := spec.Title
	if lambda != nil {
		if lambda.Fit {
			s += ", λ fitted"
		} else {
			s += fmt.Sprintf(", λ %g", lambda.Fixed())
		}
	}
	s += ", warmup " + map[schedule.Convention]string{schedule.WarmupPeak: "at the peak", schedule.WarmupActual: "as run"}[conv]
	if search != "" {
		s += ", " + search + " search"
	}
	return s
}

// applicable keeps the candidates that can compete on req's curves: a law fitted across
// model sizes needs every curve's size and two sizes among them; with a single fit curve,
// only the annealing law's (see the package's note on auto).
func applicable(cands []lawcore.Candidate, req lawcore.FitRequest) []lawcore.Candidate {
	sizes := map[float64]bool{}
	sized, fitCurves := true, 0
	for _, c := range req.Curves {
		sized = sized && c.Size > 0
		sizes[c.Size] = true
		if c.Role == "" || c.Role == lawcore.RoleFit {
			fitCurves++
		}
	}
	var out []lawcore.Candidate
	for _, c := range cands {
		if law, err := lawcore.Lookup(c.Law); err == nil && law.Spec().NeedsSize && !(sized && len(sizes) >= 2) {
			continue
		}
		if fitCurves == 1 && c.Law != annealing.Name {
			continue
		}
		out = append(out, c)
	}
	return out
}

// autoFold is one split of the fit curves into fitted and held-out data.
type autoFold struct {
	label string
	req   lawcore.FitRequest // the fold's fit curves, and its held-out curves as role "validate"
	curve int                // the index among the fit curves of the curve it holds out (some of)
}

// windowStart is the index of a curve's first point in its fit window (from its From): auto
// holds points out of what follows, and says so by this count when there are too few.
func windowStart(c lawcore.Curve) int {
	return sort.SearchFloat64s(c.Steps, c.From)
}

// autoFolds splits the request's fit curves (roles as given; other curves are left out). Each
// curve held out keeps an even sample of at most scored points of its window (every point
// when scored is 0): auto only ranks laws by their mean error there, which such a sample
// estimates as well as every point (see heldOutPoints); on three dense runs of 30,000 points
// scoring the Multi-Power Law at every held-out point was 41% of auto's time. A validation,
// whose table gives each curve's metrics, scores every point.
func autoFolds(req lawcore.FitRequest, scored int) (design string, folds []autoFold) {
	var fit []lawcore.Curve
	for _, c := range req.Curves {
		if c.Role == "" || c.Role == lawcore.RoleFit {
			c.Role = lawcore.RoleFit
			fit = append(fit, c)
		}
	}
	// a fold fit only scores a candidate: its lines and intervals (ten more polishes each)
	// would go unused; the chosen candidate's final fit gives them
	base := req
	base.Lines, base.Intervals = false, false
	// the curves as every fold that fits them whole fits them (binned), once
	fitted := make([]lawcore.Curve, len(fit))
	for i, c := range fit {
		fitted[i] = binned(c, foldFitPoints)
	}
	design = designForecast
	if len(fit) >= 2 {
		design = designBoth
		for i := range fit {
			f := base
			f.Curves = slices.Clone(fitted)
			f.Curves[i] = evenSample(fit[i], scored)
			f.Curves[i].Role = lawcore.RoleValidate
			folds = append(folds, autoFold{label: fmt.Sprintf("%s left out", lawcore.CurveLabel(i, fit[i].Name)), req: f, curve: i})
		}
	}
	shares := forecastHoldOuts
	if len(fit) == 1 {
		shares = oneCurveForecastOut
	}
	for i, c := range fit {
		w := windowStart(c)
		if len(c.Steps)-w < minForecastPoints {
			continue // too few points to hold any out
		}
		for _, share := range shares {
			first, last := c.Steps[w], c.Steps[len(c.Steps)-1]
			cut := last - share*(last-first)
			k := sort.SearchFloat64s(c.Steps, cut)
			k = min(max(k, w+3), len(c.Steps)-2)
			early, late := c, c
			early.Steps, early.Loss = c.Steps[:k], c.Loss[:k]
			late.Steps, late.Loss, late.Role = c.Steps[k:], c.Loss[k:], lawcore.RoleValidate
			late.Name = c.Name + " (held out)"
			late = evenSample(late, scored)
			f := base
			f.Curves = append(slices.Clone(fitted), late)
			f.Curves[i] = binned(early, foldFitPoints)
			folds = append(folds, autoFold{label: fmt.Sprintf("%s after step %.0f forecast", lawcore.CurveLabel(i, c.Name), c.Steps[k-1]), req: f, curve: i})
		}
	}
	return design, folds
}

// evenSample is the curve with most points of its window, evenly spread from its first to its
// last (where a forecast misses most), and the points before its window, when its window has
// more than most points (most > 1); else the curve.
func evenSample(c lawcore.Curve, most int) lawcore.Curve {
	w := windowStart(c)
	n := len(c.Steps) - w
	if most <= 1 || n <= most {
		return c
	}
	steps := slices.Grow(slices.Clone(c.Steps[:w]), most)
	loss := slices.Grow(slices.Clone(c.Loss[:w]), most)
	for j := range most {
		k := w + j*(n-1)/(most-1)
		steps = append(steps, c.Steps[k])
		loss = append(loss, c.Loss[k])
	}
	c.Steps, c.Loss = steps, loss
	return c
}

// binned is the curve with the points of its window averaged in runs of consecutive points
// down to about most of them (each mean at its run's middle step), when it has more. A fold
// fit only ranks laws: on a dense log (a loss every step) the means carry what its points do,
// at a fraction of the cost, which is the Multi-Power Law's above all, its loss-drop term
// summed at every point. A run spans at
// most binSpan of its first step, where the curve bends most (early): a mean over a span where
// it bends is not its value at the middle; those narrower runs add at most
// ln(last/first)/ln(1+binSpan) means.
func binned(c lawcore.Curve, most int) lawcore.Curve {
	w := windowStart(c)
	n := len(c.Steps) - w
	if n <= most {
		return c
	}
	per := (n + most - 1) / most
	steps := slices.Clip(slices.Clone(c.Steps[:w]))
	loss := slices.Clip(slices.Clone(c.Loss[:w]))
	for i := w; i < len(c.Steps); {
		j := min(i+per, len(c.Steps))
		limit := c.Steps[i] * (1 + binSpan)
		j = max(i+1, i+sort.SearchFloat64s(c.Steps[i:j], math.Nextafter(limit, math.Inf(1))))
		sum := 0.0
		for _, l := range c.Loss[i:j] {
			sum += l
		}
		steps = append(steps, c.Steps[(i+j-1)/2])
		loss = append(loss, sum/float64(j-i))
		i = j
	}
	c.Steps, c.Loss = steps, loss
	return c
}

// averageWeights returns the weights of the average of the scored candidates that predicts
// the held-out data best, and its held-out error, when that error is below the candidate
// pick's by more than tieTolerance (ok false otherwise: the single candidate stands). The
// weights are pruned (minMemberWeight), and the average scored again with them.
func averageWeights(scores []lawcore.CandidateScore, samples [][][]bandSample, pick int) (weights []float64, err float64, ok bool) {
	var scored []int
	for i, s := range scores {
		if s.Error == "" {
			scored = append(scored, i)
		}
	}
	if len(scored) < 2 {
		return nil, 0, false
	}
	folds := len(samples[pick])
	byFold := make([][][]bandSample, folds)
	for f := range byFold {
		for _, i := range scored {
			byFold[f] = append(byFold[f], samples[i][f])
		}
	}
	start := slices.Index(scored, pick)
	alone := make([]float64, len(scored))
	alone[start] = 1
	single := meanFoldError(alone, byFold)
	w := pruneWeights(stackWeights(byFold, len(scored), start))
	avg := meanFoldError(w, byFold)
	if !(avg < (1-tieTolerance)*single) || w[start] == 1 {
		return nil, 0, false
	}
	weights = make([]float64, len(scores))
	for k, i := range scored {
		weights[i] = w[k]
	}
	return weights, avg, true
}

// fitMembers fits the candidates with a positive weight on every curve, heaviest first, each
// with its intervals (their replicates give the band its parameters' spread), and returns the
// fit of their average (or of the one, when one has all the weight) and each member's fit. A
// member whose fit fails, or leaves a parameter on its bound, is left out (its score says
// why) and the others' weights scaled up; should every one be left out, the next candidate
// that chooseCandidate would pick is fitted instead.
func fitMembers(ctx context.Context, req lawcore.FitRequest, scores []lawcore.CandidateScore, weights []float64, report func(float64)) (*lawcore.FitResult, []lawcore.Member, []*lawcore.FitResult, error) {
	var members []lawcore.Member
	for i, w := range weights {
		if w > 0 {
			members = append(members, lawcore.Member{Candidate: scores[i].Candidate, Weight: w})
		}
	}
	sortMembers(members)
	var kept []lawcore.Member
	var fits []*lawcore.FitResult
	sum := 0.0
	for k, m := range members {
		r := m.Apply(req)
		r.Lines, r.Intervals = false, true
		// the members share the last step of auto's progress
		res, err := lawcore.Fit(ctx, r, func(f float64) { report((float64(k) + f) / float64(len(members))) })
		if ctx.Err() != nil {
			return nil, nil, nil, ctx.Err()
		}
		if err == nil {
			if w := slices.IndexFunc(res.Warnings, func(w lawcore.Warning) bool { return w.Kind == "bound" }); w >= 0 {
				err = errors.New(res.Warnings[w].Message)
			}
		}
		if err != nil {
			i := slices.IndexFunc(scores, func(s lawcore.CandidateScore) bool { return s.Label == m.Label })
			scores[i].Error = "left out: fitted on every curve, " + err.Error()
			continue
		}
		m.Params = res.Params
		kept, fits, sum = append(kept, m), append(fits, res), sum+m.Weight
	}
	if len(kept) == 0 {
		next := chooseCandidate(scores)
		if next < 0 {
			return nil, nil, nil, input.Errorf("", "curves", "no law could be fitted to these curves and scored on held-out data: %s", scores[0].Error)
		}
		w := make([]float64, len(scores))
		w[next] = 1
		return fitMembers(ctx, req, scores, w, report)
	}
	for k := range kept {
		kept[k].Weight /= sum
	}
	res := fits[0]
	if len(kept) > 1 {
		var err error
		if res, err = averageFits(req, kept, fits); err != nil {
			return nil, nil, nil, err
		}
	}
	if !req.Intervals {
		res.Intervals = nil
	}
	if req.Lines {
		var err error
		if res.Lines, err = lawcore.FitLines(req, res); err != nil {
			return nil, nil, nil, err
		}
	}
	return res, kept, fits, nil
}

// meanAndStdErr is the mean of xs and its standard error (0 for one value).
func meanAndStdErr(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// strongEvidence is the ratio of weights of evidence beyond which the held-out data favour one
// law over another strongly (Kass and Raftery 1995: a Bayes factor of 20 or more).
const strongEvidence = 20

// tied reports whether candidate a's held-out errors are within the noise of best's: the
// held-out data do not favour best strongly (see strongEvidence), or the mean paired
// difference over folds is at most one standard error of it, or at most tieTolerance of
// best's score.
func tied(a, best lawcore.CandidateScore) bool {
	if a.Error != "" || len(a.Folds) != len(best.Folds) {
		return false
	}
	if a.Evidence*strongEvidence >= best.Evidence {
		return true
	}
	d := make([]float64, len(a.Folds))
	for i := range d {
		d[i] = a.Folds[i] - best.Folds[i]
	}
	mean, se := meanAndStdErr(d)
	return mean <= se || mean <= tieTolerance*best.HeldOut
}

// chooseCandidate returns the index of the candidate picked: among those tied with the
// lowest held-out error, the one with the fewest fitted parameters, and among those with as
// many, the lowest held-out error; -1 when none could be scored.
func chooseCandidate(scores []lawcore.CandidateScore) int {
	best := -1
	for i, s := range scores {
		if s.Error == "" && (best < 0 || s.HeldOut < scores[best].HeldOut) {
			best = i
		}
	}
	if best < 0 {
		return -1
	}
	pick := best
	for i, s := range scores {
		if i != best && tied(s, scores[best]) && (s.Free < scores[pick].Free || s.Free == scores[pick].Free && s.HeldOut < scores[pick].HeldOut) {
			pick = i
		}
	}
	return pick
}

// autoReason says in one sentence why the candidate was picked (and, with one fit curve, why
// only the simplest laws competed).
func autoReason(scores []lawcore.CandidateScore, pick int, design string, folds int) string {
	why := whyPicked(scores, pick, design, folds)
	if design == designForecast {
		why += " With one fit curve only the annealing law competes: one schedule cannot show how a law carries over to others, which is where the other laws differ from it."
	}
	return why
}

func whyPicked(scores []lawcore.CandidateScore, pick int, design string, folds int) string {
	best := 0
	for i, s := range scores {
		if s.Error == "" && s.HeldOut < scores[best].HeldOut || scores[best].Error != "" {
			best = i
		}
	}
	how := fmt.Sprintf("held-out error %.3f%% (%s, %d folds)", 100*scores[pick].HeldOut, design, folds)
	if pick == best {
		runner := -1
		for i, s := range scores {
			if i != pick && s.Error == "" && (runner < 0 || s.HeldOut < scores[runner].HeldOut) {
				runner = i
			}
		}
		if runner < 0 {
			return fmt.Sprintf("%s: the only law that could be scored, %s.", scores[pick].Label, how)
		}
		return fmt.Sprintf("%s predicts the held-out data best: %s, against %.3f%% for the next (%s).",
			scores[pick].Label, how, 100*scores[runner].HeldOut, scores[runner].Label)
	}
	why := fmt.Sprintf("which fits %d more parameter(s)", scores[best].Free-scores[pick].Free)
	return fmt.Sprintf("%s: %s, within the noise of the best (%.3f%%, %s: the held-out data favour it by a factor %.1f of evidence, not the %d that would be strong), %s.",
		scores[pick].Label, how, 100*scores[best].HeldOut, strings.TrimSpace(scores[best].Label),
		scores[best].Evidence/scores[pick].Evidence, strongEvidence, why)
}

// averageReason says in one sentence why auto predicts with the average of members.
func averageReason(scores []lawcore.CandidateScore, members []lawcore.Member, averaged float64, design string, folds int) string {
	best := -1
	for i, s := range scores {
		if s.Error == "" && (best < 0 || s.HeldOut < scores[best].HeldOut) {
			best = i
		}
	}
	parts := make([]string, len(members))
	for k, m := range members {
		parts[k] = fmt.Sprintf("%s (%.0f%%)", m.Label, 100*m.Weight)
	}
	return fmt.Sprintf("The average of %s predicts the held-out data best: held-out error %.3f%% (%s, %d folds), against %.3f%% for the best single law (%s); laws that miss in different directions average out.",
		input.Listed(parts), 100*averaged, design, folds, 100*scores[best].HeldOut, scores[best].Label)
}
