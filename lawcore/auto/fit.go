package auto

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/order"
)

// Fit fits the candidates on each fold of the request's fit curves, picks the one that
// predicts the held-out data best (the simplest among those tied) or, where it predicts better
// still, a weighted average of several, and fits the chosen on every curve. The result is
// lawcore.Fit's with its Auto report, its Members when it averages, and its Band: the
// members' replicates with the discrepancy learnt from the folds. req.Auto need not be set;
// its Law, Lambda and WarmupConvention are ignored. progress and cancelling ctx work as for
// lawcore.Fit.
//
// Only informative folds count: a fold whose fit of the simplest candidate leaves a parameter
// on its bound, its annealing term undetermined (no fit curve of the fold anneals), too few
// points or values to its priors says nothing of how a law predicts, and is left out of the
// scores, the weights and the band; a candidate whose fit on an informative fold does so gets
// no weight.
func Fit(ctx context.Context, req lawcore.FitRequest, progress func(float64)) (*lawcore.FitResult, error) {
	began := time.Now()
	if progress == nil {
		progress = func(float64) {}
	}
	// bad input is reported as the default fit would report it
	check := req
	check.Auto, check.Law = false, ""
	if err := check.Check(); err != nil {
		return nil, err
	}
	design, folds := autoFolds(req, heldOutPoints)
	if len(folds) == 0 {
		return fitWithoutHeldOut(ctx, req, progress)
	}
	cands := applicable(Candidates(), req)
	// progress: the simplest candidate on every fold, the others on the informative ones, then
	// the members on every curve (counted as one fold fit each, with their intervals)
	jobs, done := len(folds)*len(cands)+1, 0
	report := func(f float64) { progress(math.Min(1, (float64(done)+f)/float64(jobs))) }
	all := make([]int, len(folds))
	for fi := range all {
		all[fi] = fi
	}
	baseline := scoreCandidate(ctx, cands[0], folds, all, true, func() { done++ }, report)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var informative []int
	var leftOut []string
	for fi, why := range baseline.uninformative {
		if why == "" && baseline.samples[fi] != nil {
			informative = append(informative, fi)
		} else if why != "" {
			leftOut = append(leftOut, fmt.Sprintf("%s: %s", folds[fi].label, why))
		}
	}
	if len(informative) == 0 {
		return fitWithoutEvidence(ctx, req, cands[0], design, folds, leftOut, began, progress)
	}
	jobs = len(folds) + (len(cands)-1)*len(informative) + 1
	scores := make([]lawcore.CandidateScore, len(cands))
	samples := make([][][]bandSample, len(cands)) // by candidate, then informative fold
	for ci, c := range cands {
		sc := baseline
		if ci > 0 {
			sc = scoreCandidate(ctx, c, folds, informative, false, func() { done++ }, report)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
		scores[ci] = sc.score(informative)
		for _, fi := range informative {
			samples[ci] = append(samples[ci], sc.samples[fi])
		}
	}
	acc := newHeldOutAccuracy(scores, samples, baseline, folds, informative)
	for i, e := range evidence(scores, samples, acc) {
		scores[i].Evidence = e
	}
	pick := chooseCandidate(scores)
	if pick < 0 {
		return nil, input.Errorf("", "curves", "no law could be fitted to these curves and scored on held-out data: %s", scores[0].Error)
	}
	weights := make([]float64, len(cands))
	weights[pick] = 1
	averaged := 0.0
	if design != designForecast && len(informative) >= minStackFolds {
		if w, e, ok := averageWeights(scores, samples, pick); ok {
			weights, averaged = w, e
		}
	}
	res, members, fits, err := fitMembers(ctx, req, scores, weights, report)
	if err != nil {
		return nil, err
	}
	if len(members) < 2 {
		averaged = 0
	}
	for i := range scores {
		scores[i].Weight = 0
		for _, m := range members {
			if m.Label == scores[i].Label {
				scores[i].Weight = m.Weight
			}
		}
	}
	best := slices.IndexFunc(scores, func(s lawcore.CandidateScore) bool { return s.Label == members[0].Label })
	chosen := scores[best]
	if w, ok := autoWarning(chosen); ok {
		res.Warnings = append(res.Warnings, w)
	}
	reason := autoReason(scores, best, design, len(informative))
	if len(members) > 1 {
		reason = averageReason(scores, members, averaged, design, len(informative))
	}
	res.Auto = &lawcore.AutoChoice{Chosen: chosen.Candidate, Candidates: ranked(scores), Design: design, Folds: labels(folds),
		LeftOut: leftOut, Averaged: averaged, Reason: reason}
	// the band: the discrepancy from the held-out errors of what predicts (the average, or the
	// one chosen), the members' replicates
	final := make([]float64, len(scores))
	for i, sc := range scores {
		final[i] = sc.Weight
	}
	var draws []foldDraw
	for k, held := range averageSamples(final, samples) {
		d, ok := farthest(held)
		if spread, has := farthest(baseline.samples[informative[k]]); ok && has {
			// the parameters' spread of the simplest law's fit of the fold
			d.par, d.curve = spread.par, folds[informative[k]].curve
			draws = append(draws, d)
		}
	}
	res.Band = memberBand(res, fits, calibrateDiscrepancy(draws, lawcore.DefaultBandLevel), len(draws), design)
	if res.Band.Alternatives, err = alternatives(ctx, req, scores, samples, baseline, informative, members); err != nil {
		return nil, err
	}
	progress(1)
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
}

// memberBand is the band of an auto fit's prediction (res, the average of fits or the one
// chosen): the discrepancy given, learnt from folds held-out folds, and each member's
// replicates (none when a member has none: the curves were too short to cut into blocks).
func memberBand(res *lawcore.FitResult, fits []*lawcore.FitResult, discrepancy []lawcore.BandNode, folds int, design string) *lawcore.Band {
	band := &lawcore.Band{Level: lawcore.DefaultBandLevel, Discrepancy: discrepancy, Reach: res.Reach,
		Base: discrepancy[0].HalfWidth, Folds: folds, Design: design}
	for _, f := range fits {
		if len(f.Replicates) == 0 {
			band.Replicates = nil
			break
		}
		band.Replicates = append(band.Replicates, f.ReplicatesOf())
		band.Quantile = lawcore.TQuantile(len(f.Replicates))
	}
	return band
}

// ranked are the scores in the order a reader takes them: what predicts first (the one chosen,
// or the average's members, heaviest first), then the other scored candidates, best held-out
// error first (one that predicts better but lost on the tie rule shows there), then those that
// could not be scored.
func ranked(scores []lawcore.CandidateScore) []lawcore.CandidateScore {
	out := slices.Clone(scores)
	order.Stable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.Weight != y.Weight {
			return x.Weight > y.Weight
		}
		if (x.Error == "") != (y.Error == "") {
			return x.Error == ""
		}
		return x.HeldOut < y.HeldOut
	})
	return out
}

// labels are the folds' descriptions.
func labels(folds []autoFold) []string {
	out := make([]string, len(folds))
	for i, f := range folds {
		out[i] = f.label
	}
	return out
}

// candidateFolds is a candidate fitted on some of the folds: for each fold (indexed as the
// folds), its held-out samples (nil where not fitted or when the fit failed), its held-out
// and in-sample errors, and why its fit says nothing of how the law predicts ("" when it does).
type candidateFolds struct {
	c             lawcore.Candidate
	samples       [][]bandSample
	heldOut       []float64
	inSample      []float64
	uninformative []string
	err           string
}

// scoreCandidate fits c on the folds at the indices which, each fit polishing its best start
// only (it ranks a law, not the last digit of its parameters); with spread, each fit has its
// replicates too, and its farthest held-out sample their spread (withSpread). tick is called
// after each fold.
func scoreCandidate(ctx context.Context, c lawcore.Candidate, folds []autoFold, which []int, spread bool, tick func(), report func(float64)) candidateFolds {
	out := candidateFolds{c: c, samples: make([][]bandSample, len(folds)), heldOut: make([]float64, len(folds)),
		inSample: make([]float64, len(folds)), uninformative: make([]string, len(folds))}
	for _, fi := range which {
		f := folds[fi]
		fold := c.Apply(f.req)
		fold.Effort = lawcore.Effort{Starts: 1, ThinnedOnly: true}
		fold.Intervals = spread
		res, err := lawcore.Fit(ctx, fold, report)
		tick()
		if ctx.Err() != nil {
			return out
		}
		if err != nil || res.ValidateMetrics == nil {
			msg := "no held-out points"
			if err != nil {
				msg = err.Error()
			}
			out.err = fmt.Sprintf("%s: %s", f.label, msg)
			return out
		}
		held, err := heldOutSamples(fold, res, fi)
		if err != nil {
			out.err = fmt.Sprintf("%s: %s", f.label, err)
			return out
		}
		if spread {
			if err := withSpread(fold, res, held); err != nil {
				out.err = fmt.Sprintf("%s: %s", f.label, err)
				return out
			}
		}
		out.samples[fi] = held
		out.heldOut[fi] = math.Min(res.ValidateMetrics.PredE, maxFoldError)
		out.inSample[fi] = res.FitMetrics.PredE
		out.uninformative[fi] = uninformative(res)
		if out.uninformative[fi] != "" && !spread {
			return out // scored on the informative folds alone: one such fit leaves it out (score)
		}
	}
	return out
}

// score is the candidate's record over the folds at the indices which (the informative ones):
// an error when a fit failed or left a parameter open on one of them.
func (cf candidateFolds) score(which []int) lawcore.CandidateScore {
	sc := lawcore.CandidateScore{Candidate: cf.c, Error: cf.err}
	if sc.Error != "" {
		return sc
	}
	var inSample []float64
	for _, fi := range which {
		if why := cf.uninformative[fi]; why != "" {
			sc.Error, sc.Folds = "left out: its fit of a fold the simplest law fits determined "+why, nil
			return sc
		}
		sc.Folds = append(sc.Folds, cf.heldOut[fi])
		inSample = append(inSample, cf.inSample[fi])
	}
	sc.HeldOut, sc.StdErr = meanAndStdErr(sc.Folds)
	sc.InSample, _ = meanAndStdErr(inSample)
	return sc
}

// uninformativeKinds are the warnings of a fold's fit that make it say nothing of how its law
// predicts: a parameter on its bound, an annealing term no fit curve determines, no more
// points than parameters, values that come from the priors rather than the curves.
var uninformativeKinds = []string{"bound", "no-annealing", "few-points", "prior"}

// uninformative says why a fold's fit says nothing of how its law predicts ("" when it does).
func uninformative(res *lawcore.FitResult) string {
	for _, w := range res.Warnings {
		if slices.Contains(uninformativeKinds, w.Kind) {
			return "(" + w.Kind + ": " + w.Message + ")"
		}
	}
	return ""
}

// fitWithoutEvidence fits the simplest candidate when no fold was informative: the curves
// cannot show how any law predicts, and the answer says so; its band is the prior's.
func fitWithoutEvidence(ctx context.Context, req lawcore.FitRequest, c lawcore.Candidate, design string, folds []autoFold,
	leftOut []string, began time.Time, progress func(float64)) (*lawcore.FitResult, error) {
	r := c.Apply(req)
	r.Intervals = true
	res, err := lawcore.Fit(ctx, r, progress)
	if err != nil {
		return nil, err
	}
	if req.Lines && res.Lines == nil {
		if res.Lines, err = lawcore.FitLines(req, res); err != nil {
			return nil, err
		}
	}
	reason := fmt.Sprintf("No fold could show how a law predicts these curves: on every one the fit left a parameter open (%s). The simplest candidate, the %s, was fitted; its band has the parameters' spread and the paper's error on unseen schedules, learnt from no held-out data.",
		input.Listed(leftOut), c.Label)
	res.Auto = &lawcore.AutoChoice{Chosen: c, Candidates: []lawcore.CandidateScore{{Candidate: c, Weight: 1}}, Design: design,
		Folds: labels(folds), LeftOut: leftOut, Reason: reason}
	res.Warnings = append(res.Warnings, lawcore.Warning{Kind: "auto", Message: reason})
	res.Band = memberBand(res, []*lawcore.FitResult{res}, lawcore.PriorDiscrepancy(lawcore.DefaultBandLevel), 0, design)
	progress(1)
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
}

// fitWithoutHeldOut fits the request's own settings, auto aside, when its one fit curve has
// too few points in its fit window to hold any out: auto has nothing to compare laws on, and
// the answer says so.
func fitWithoutHeldOut(ctx context.Context, req lawcore.FitRequest, progress func(float64)) (*lawcore.FitResult, error) {
	plain := req
	plain.Auto = false
	res, err := lawcore.Fit(ctx, plain, progress)
	if err != nil {
		return nil, err
	}
	title := res.Law
	if law, err := lawcore.Lookup(res.Law); err == nil {
		title = law.Spec().Title
	}
	name, points := "", 0
	for _, c := range req.Curves {
		if c.Role == "" || c.Role == lawcore.RoleFit {
			name, points = c.Name, len(c.Steps)-windowStart(c)
		}
	}
	res.Warnings = append(res.Warnings, lawcore.Warning{Kind: "auto", Curve: name, Message: fmt.Sprintf(
		"auto compares laws by how well they predict points held out of the fit, and curve %q has %d point(s) in its fit window, fewer than the %d that holding some out needs: the %s was fitted with the settings given instead",
		name, points, minForecastPoints, title)})
	return res, nil
}

// minStackFolds is the fewest informative folds that weigh an average of laws: weights fitted
// to fewer fit their noise (two folds of two curves both favour what fits those two best).
const minStackFolds = 3

// maxAlternatives bounds the laws a band weighs against the prediction.
const maxAlternatives = 4

// alternatives are the laws the held-out data leave plausible, with their weights of evidence
// (see evidenceWeights): the members' parameters where they are members, else fitted on every
// curve (the heaviest maxAlternatives).
func alternatives(ctx context.Context, req lawcore.FitRequest, scores []lawcore.CandidateScore, samples [][][]bandSample,
	baseline candidateFolds, informative []int, members []lawcore.Member) ([]lawcore.Member, error) {
	weights := make([]float64, len(scores))
	for i, s := range scores {
		weights[i] = s.Evidence
	}
	weights = pruneWeights(weights)
	var out []lawcore.Member
	for _, i := range topWeights(weights, maxAlternatives) {
		m := lawcore.Member{Candidate: scores[i].Candidate, Weight: weights[i]}
		if k := slices.IndexFunc(members, func(x lawcore.Member) bool { return x.Label == m.Label }); k >= 0 {
			m.Params = members[k].Params
		} else {
			r := m.Apply(req)
			r.Lines, r.Intervals = false, false
			res, err := lawcore.Fit(ctx, r, nil)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				continue
			}
			m.Params = res.Params
		}
		out = append(out, m)
	}
	if len(out) < 2 {
		return nil, nil // one plausible law: nothing to weigh the prediction against
	}
	return out, nil
}

// averageSamples are the samples of the weighted average of the candidates, by fold.
func averageSamples(weights []float64, samples [][][]bandSample) [][]bandSample {
	out := make([][]bandSample, len(samples[0]))
	for k := range out {
		var byCand [][]bandSample
		var ws []float64
		for ci, w := range weights {
			if w > 0 {
				byCand, ws = append(byCand, samples[ci][k]), append(ws, w)
			}
		}
		out[k] = averageFold(ws, byCand)
	}
	return out
}

// heldOutAccuracy is what the held-out data say of how far a law misses: at each informative
// fold's farthest point, the variance of an error there, the discrepancy's that the draws of
// the candidate with the least held-out error give (see posterior) plus the fold's
// parameters' spread (the simplest law's fit's).
type heldOutAccuracy struct {
	variance []float64 // by informative fold
}

// newHeldOutAccuracy is the accuracy of the best candidate's fits of the informative folds
// (samples by candidate, then informative fold: the indices informative of folds), with the
// simplest law's parameters' spread.
func newHeldOutAccuracy(scores []lawcore.CandidateScore, samples [][][]bandSample, baseline candidateFolds, folds []autoFold, informative []int) heldOutAccuracy {
	best := -1
	for i, s := range scores {
		if s.Error == "" && (best < 0 || s.HeldOut < scores[best].HeldOut) {
			best = i
		}
	}
	acc := heldOutAccuracy{variance: make([]float64, len(informative))}
	if best < 0 {
		return acc
	}
	var draws []foldDraw
	for k, fi := range informative {
		d, ok := farthest(samples[best][k])
		spread, has := farthest(baseline.samples[fi])
		if ok && has {
			d.par, d.curve = spread.par, folds[fi].curve
			draws = append(draws, d)
		}
	}
	post := newPosterior(draws)
	for k, fi := range informative {
		d, _ := farthest(samples[best][k])
		spread, _ := farthest(baseline.samples[fi])
		acc.variance[k] = post.variance(d.dist) + spread.par*spread.par
	}
	return acc
}

// logLikelihood is the log of the density of a predictor's errors at the informative folds'
// farthest points (its samples by informative fold), less the constant every predictor shares.
func (a heldOutAccuracy) logLikelihood(byFold [][]bandSample) float64 {
	sum := 0.0
	for k, samples := range byFold {
		if d, ok := farthest(samples); ok {
			sum += -d.err * d.err / (2 * a.variance[k])
		}
	}
	return sum
}

// evidence are the weights of evidence of the scored candidates (0 for the others): each
// one's likelihood given its held-out errors (heldOutAccuracy) times its prior, normalised,
// as Bayesian model averaging weighs laws (Hoeting et al. 1999). The prior charges each fitted
// parameter a factor e, as Akaike's criterion does (Burnham and Anderson 2002): the held-out
// folds of a study are few and unlike its question, and a law with more parameters has more
// ways to fit them by chance. A law whose errors that accuracy makes as likely as another's
// keeps its weight; one that errs many times more does not.
func evidence(scores []lawcore.CandidateScore, samples [][][]bandSample, acc heldOutAccuracy) []float64 {
	logW := make([]float64, len(scores))
	top := math.Inf(-1)
	for ci, s := range scores {
		logW[ci] = math.Inf(-1)
		if s.Error == "" {
			logW[ci] = acc.logLikelihood(samples[ci]) - float64(s.Free)
			top = math.Max(top, logW[ci])
		}
	}
	w := make([]float64, len(scores))
	total := 0.0
	for i, l := range logW {
		w[i] = math.Exp(l - top)
		total += w[i]
	}
	for i := range w {
		w[i] /= total
	}
	return w
}

// topWeights are the indices of the at most n largest positive weights, largest first.
func topWeights(w []float64, n int) []int {
	var idx []int
	for i, x := range w {
		if x > 0 {
			idx = append(idx, i)
		}
	}
	order.Stable(idx, func(a, b int) bool { return w[idx[a]] > w[idx[b]] })
	return idx[:min(len(idx), n)]
}
