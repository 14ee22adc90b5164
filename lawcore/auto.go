package lawcore

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// Auto: choosing the law and its settings by how well they predict. A law that fits the
// user's curves better may predict their other schedules worse (a fitted lambda bends to the
// noise of two curves; seven parameters fit anything), so the in-sample objective never
// decides. Each candidate is fitted on part of the user's fit curves and scored on the part
// held out:
//
//   - with two fit curves or more, each curve in turn is left out and predicted from the
//     others (leave one curve out: a schedule the fit has not seen);
//   - and each curve's last third, then its last half, is held out and forecast from its
//     first part and the other curves (the question users ask most: what will a longer run
//     reach?).
//
// The score is the mean relative error of the held-out points (each fold weighing the same).
// Between candidates whose scores differ by less than the noise of that difference (one
// standard error of the paired differences over folds, and at least tieTolerance of the
// best score), the one with fewer fitted parameters wins: a simpler law is preferred unless
// the data show that the complex one predicts better.

// Candidate is one law with its settings, as auto compares them.
type Candidate struct {
	// Law names the law; Convention and Lambda are its warmup convention and decay factor
	// (nil for a law without one); Search its search.
	Law        string         `json:"law"`
	Convention Convention     `json:"warmupConvention"`
	Lambda     *LambdaSetting `json:"lambda,omitempty"`
	Search     string         `json:"search,omitempty"`
	// Label says it in words; Free counts the parameters it fits.
	Label string `json:"label"`
	Free  int    `json:"free"`
}

// CandidateScore is a candidate's record in an auto fit.
type CandidateScore struct {
	Candidate
	// HeldOut is the mean relative error of the held-out points over the folds; StdErr the
	// standard error of that mean; Folds the error of each fold (all zero when Error says
	// the candidate could not be scored).
	HeldOut float64   `json:"heldOut"`
	StdErr  float64   `json:"stdErr"`
	Folds   []float64 `json:"folds"`
	// InSample is the mean relative error of the fit on every fit curve, and Objective its
	// objective (zero when the candidate could not be fitted on all of them).
	InSample  float64 `json:"inSample"`
	Objective float64 `json:"objective"`
	// Validate scores that fit on the request's curves with role "validate", when there are
	// any: what the user's own held-out curves say of each candidate.
	Validate *Metrics `json:"validate,omitempty"`
	// Error says why the candidate could not be scored ("" when it was).
	Error string `json:"error,omitempty"`
}

// AutoChoice reports what an "auto" fit compared, what it picked and why.
type AutoChoice struct {
	// Chosen is the candidate picked; Candidates are all of them, scored, best first.
	Chosen     Candidate        `json:"chosen"`
	Candidates []CandidateScore `json:"candidates"`
	// Design says how the held-out data were made: "leave one curve out and forecast", or
	// with one curve "forecast".
	Design string `json:"design"`
	// Folds describes each fold in words.
	Folds []string `json:"folds"`
	// Reason says why, in one sentence.
	Reason string `json:"reason"`
}

// tieTolerance is the smallest relative difference of held-out errors that separates two
// candidates: below it the difference is within what a re-run of training would change.
const tieTolerance = 0.03

// forecastHoldOuts are the shares of each curve's observed steps that forecast folds hold
// out, one fold per curve and share.
var forecastHoldOuts = []float64{1.0 / 3, 1.0 / 2}

// Candidates lists the candidates auto compares: the annealing law with lambda held at its
// default and fitted, each under both warmup conventions; then every other registered law
// under its own convention, with its decay factor (if any) held, and with each of its own
// searches.
func Candidates() []Candidate {
	var out []Candidate
	for _, law := range Laws() {
		spec := law.Spec()
		free := 0
		hasLambda := false
		for _, p := range spec.Params {
			if !p.Held {
				free++
			}
			hasLambda = hasLambda || p.Name == "lambda"
		}
		convs := []Convention{spec.Convention}
		if spec.Name == LawAnnealing {
			convs = []Convention{WarmupPeak, WarmupActual}
		}
		searches := []string{SearchOptimum}
		if s, ok := law.(Searcher); ok {
			searches = append(searches, s.Searches()...)
		}
		for _, conv := range convs {
			for _, search := range searches {
				c := Candidate{Law: spec.Name, Convention: conv, Free: free}
				if search != SearchOptimum {
					c.Search = search
				}
				if !hasLambda {
					c.Label = candidateLabel(spec, conv, nil, c.Search)
					out = append(out, c)
					continue
				}
				held := FixedLambda(DefaultLambda)
				c.Lambda, c.Label = &held, candidateLabel(spec, conv, &held, c.Search)
				out = append(out, c)
				if spec.Name == LawAnnealing {
					fitted := FittedLambda()
					f := Candidate{Law: spec.Name, Convention: conv, Lambda: &fitted, Free: free + 1,
						Label: candidateLabel(spec, conv, &fitted, c.Search)}
					out = append(out, f)
				}
			}
		}
	}
	return out
}

func candidateLabel(spec *Spec, conv Convention, lambda *LambdaSetting, search string) string {
	s := spec.Title
	if lambda != nil {
		if lambda.Fit {
			s += ", λ fitted"
		} else {
			s += fmt.Sprintf(", λ %g", lambda.Fixed())
		}
	}
	s += ", warmup " + map[Convention]string{WarmupPeak: "at the peak", WarmupActual: "as run"}[conv]
	if search != "" {
		s += ", " + search + " search"
	}
	return s
}

// applicable keeps the candidates whose law can be fitted to req's curves at all: a law
// fitted across model sizes needs every curve's size and two sizes among them.
func applicable(cands []Candidate, req FitRequest) []Candidate {
	sizes := map[float64]bool{}
	sized := true
	for _, c := range req.Curves {
		sized = sized && c.Size > 0
		sizes[c.Size] = true
	}
	var out []Candidate
	for _, c := range cands {
		if law, err := Lookup(c.Law); err == nil && law.Spec().NeedsSize && !(sized && len(sizes) >= 2) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// apply is req with the candidate's law and settings.
func (c Candidate) apply(req FitRequest) FitRequest {
	req.Auto, req.Law, req.WarmupConvention, req.Search = false, c.Law, string(c.Convention), c.Search
	if c.Lambda != nil {
		req.Lambda = *c.Lambda
	}
	return req
}

// autoFold is one split of the fit curves into fitted and held-out data.
type autoFold struct {
	label string
	req   FitRequest // the fold's fit curves, and its held-out curves as role "validate"
}

// autoFolds splits the request's fit curves (roles as given; other curves are left out).
func autoFolds(req FitRequest) (design string, folds []autoFold) {
	var fit []Curve
	for _, c := range req.Curves {
		if c.Role == "" || c.Role == RoleFit {
			c.Role = RoleFit
			fit = append(fit, c)
		}
	}
	base := req
	design = "forecast"
	if len(fit) >= 2 {
		design = "leave one curve out and forecast"
		for i := range fit {
			f := base
			f.Curves = slices.Clone(fit)
			f.Curves[i].Role = RoleValidate
			folds = append(folds, autoFold{label: fmt.Sprintf("%s left out", curveLabel(i, fit[i].Name)), req: f})
		}
	}
	for i, c := range fit {
		if len(c.Steps) < 6 {
			continue // too few points to hold any out
		}
		for _, share := range forecastHoldOuts {
			first, last := c.Steps[0], c.Steps[len(c.Steps)-1]
			cut := last - share*(last-first)
			k := sort.SearchFloat64s(c.Steps, cut)
			k = min(max(k, 3), len(c.Steps)-2)
			early, late := c, c
			early.Steps, early.Loss = c.Steps[:k], c.Loss[:k]
			late.Steps, late.Loss, late.Role = c.Steps[k:], c.Loss[k:], RoleValidate
			late.Name = c.Name + " (held out)"
			f := base
			f.Curves = append(slices.Clone(fit[:i]), early)
			f.Curves = append(f.Curves, fit[i+1:]...)
			f.Curves = append(f.Curves, late)
			folds = append(folds, autoFold{label: fmt.Sprintf("%s after step %.0f forecast", curveLabel(i, c.Name), c.Steps[k-1]), req: f})
		}
	}
	return design, folds
}

// fitAuto fits every candidate on each fold, picks the one that predicts the held-out data
// best (the simplest among those tied), and fits it on every curve.
func fitAuto(ctx context.Context, req FitRequest, progress func(float64)) (*FitResult, error) {
	began := time.Now()
	// bad input is reported as the default fit would report it
	check := req
	check.Auto, check.Law = false, ""
	if _, err := check.job(); err != nil {
		return nil, err
	}
	design, folds := autoFolds(req)
	cands := applicable(Candidates(), req)
	jobs, done := len(cands)*(len(folds)+1), 0
	report := func(f float64) { progress((float64(done) + f) / float64(jobs)) }
	scores := make([]CandidateScore, len(cands))
	results := make([]*FitResult, len(cands))
	samples := make([][]bandSample, len(cands))
	for ci, c := range cands {
		sc := CandidateScore{Candidate: c}
		full, err := Fit(ctx, c.apply(req), report)
		done++
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			sc.Error = err.Error()
			done += len(folds)
			scores[ci] = sc
			continue
		}
		results[ci] = full
		sc.InSample, sc.Objective, sc.Validate = full.FitMetrics.PredE, full.Objective, full.ValidateMetrics
		for _, f := range folds {
			res, err := Fit(ctx, c.apply(f.req), report)
			done++
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil || res.ValidateMetrics == nil {
				msg := "no held-out points"
				if err != nil {
					msg = err.Error()
				}
				sc.Error, sc.Folds = fmt.Sprintf("%s: %s", f.label, msg), nil
				break
			}
			sc.Folds = append(sc.Folds, res.ValidateMetrics.PredE)
			held, err := heldOutSamples(c.apply(f.req), res)
			if err != nil {
				return nil, err
			}
			samples[ci] = append(samples[ci], held...)
		}
		if sc.Error == "" {
			sc.HeldOut, sc.StdErr = meanAndStdErr(sc.Folds)
		}
		scores[ci] = sc
	}
	best := chooseCandidate(scores)
	if best < 0 {
		return nil, Errorf("", "curves", "no law could be fitted to these curves and scored on held-out data: %s", scores[0].Error)
	}
	res := results[best]
	chosen := scores[best]
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	// scored candidates first, best first; those that could not be scored last
	sort.SliceStable(order, func(a, b int) bool {
		x, y := scores[order[a]], scores[order[b]]
		if (x.Error == "") != (y.Error == "") {
			return x.Error == ""
		}
		return x.HeldOut < y.HeldOut
	})
	sorted := make([]CandidateScore, len(order))
	for i, k := range order {
		sorted[i] = scores[k]
	}
	labels := make([]string, len(folds))
	for i, f := range folds {
		labels[i] = f.label
	}
	res.Auto = &AutoChoice{Chosen: chosen.Candidate, Candidates: sorted, Design: design, Folds: labels,
		Reason: autoReason(scores, best, design, len(folds))}
	if len(samples[best]) > 0 {
		band := calibrateBand(samples[best], DefaultBandLevel)
		band.Reach = res.Reach
		res.Band = &band
	}
	if req.Lines {
		lines, err := FitLines(chosen.apply(req), res)
		if err != nil {
			return nil, err
		}
		res.Lines = lines
	}
	progress(1)
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
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

// tied reports whether candidate a's held-out errors are within the noise of best's: the
// mean paired difference over folds is at most one standard error of it, or at most
// tieTolerance of best's score.
func tied(a, best CandidateScore) bool {
	if a.Error != "" || len(a.Folds) != len(best.Folds) {
		return false
	}
	d := make([]float64, len(a.Folds))
	for i := range d {
		d[i] = a.Folds[i] - best.Folds[i]
	}
	mean, se := meanAndStdErr(d)
	return mean <= se || mean <= tieTolerance*best.HeldOut
}

// chooseCandidate returns the index of the candidate picked: among those tied with the
// lowest held-out error, the one with the fewest fitted parameters (the earliest listed on
// equal counts); -1 when none could be scored.
func chooseCandidate(scores []CandidateScore) int {
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
		if i != best && tied(s, scores[best]) && (s.Free < scores[pick].Free || s.Free == scores[pick].Free && i < pick) {
			pick = i
		}
	}
	return pick
}

// autoReason says in one sentence why the candidate was picked.
func autoReason(scores []CandidateScore, pick int, design string, folds int) string {
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
	if scores[best].Free == scores[pick].Free {
		why = "and comes later in the order of preference (the paper's setting first)"
	}
	return fmt.Sprintf("%s: %s, within the noise of the best (%.3f%%, %s), %s.",
		scores[pick].Label, how, 100*scores[best].HeldOut, strings.TrimSpace(scores[best].Label), why)
}
