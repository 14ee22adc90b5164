package lawcore

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// The fit engine: one for every law. It expands the curves' schedules, counts their warmup
// by the convention, binds the law to the fitted points, minimises the objective (the
// engine's own search, or one of the law's) and scores every curve with the result.

// thinAbove is the number of points above which the engine searches and polishes the starts
// on about searchPoints of them before polishing the best on all: below it, the extra polish
// costs about what the thinning saves (BenchmarkFitMillionPoints measures a fit past it;
// TestFitLongCurveThinsTheSearch checks that it reaches the same optimum).
const (
	thinAbove    = 200_000
	searchPoints = 50_000
)

// searchShare is the share of a fit's progress that its search takes when the jackknife's
// ten refits follow (each a polish from the optimum: together about as long as the search).
const searchShare = 0.5

// fitJob is a fit request checked and prepared for its law.
type fitJob struct {
	law      Law
	spec     *Spec
	conv     schedule.Convention
	delta    float64
	lambda   LambdaSetting
	curves   []*preparedCurve
	fitRuns  []Run
	logObs   []float64
	base     []float64
	free     []int
	held     []string
	note     string
	strategy string
	warmup   int
	// priors is the request's Priors ("weak" or "none"); prior the free parameters' priors
	// when they are used, its weight set by the search (nil: none).
	priors string
	prior  *penalty
}

// Fit fits the request's law to its "fit" curves, minimising the summed Huber loss of
// log(observed) - log(predicted), and scores every curve with the result. progress, if not
// nil, is called with the fraction done. Cancelling ctx stops the fit promptly with ctx's
// error. Bad input is an *input.Error naming the curve and the field.
func Fit(ctx context.Context, req FitRequest, progress func(fraction float64)) (*FitResult, error) {
	began := time.Now()
	if progress == nil {
		progress = func(float64) {}
	}
	if req.Auto {
		return nil, input.Errorf("", "auto", "lawcore.Fit fits the law named; choosing one by held-out error is lawcore/auto's Fit")
	}
	job, err := req.job()
	if err != nil {
		return nil, err
	}
	model, err := job.law.Bind(job.fitRuns, BindOptions{Free: job.freeMask(), Theta: job.base})
	if err != nil {
		return nil, err
	}
	obj := job.objective(ctx, model, job.logObs)
	// the jackknife's ten refits take the last part of the progress (on dense curves they take
	// seconds, and a cancel gets in only when progress is reported)
	searchProgress, intervalsProgress := progress, progress
	if req.Intervals && job.hasIntervals() {
		searchProgress = func(f float64) { progress(searchShare * f) }
		intervalsProgress = func(f float64) { progress(searchShare + (1-searchShare)*f) }
	}
	theta, search, err := job.search(ctx, req.Effort, obj, searchProgress)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if theta == nil || job.spec.checkFitted(theta) != nil {
		return nil, input.Errorf("", "curves", "the %s could not be fitted to these curves", job.spec.Title)
	}
	res, err := job.score(theta)
	if err != nil {
		return nil, err
	}
	res.Search = search
	res.Warnings = job.warnings(theta, res)
	obj.tick = nil // the search's progress is done
	if w, ok := job.priorWarning(obj, theta); ok {
		res.Warnings = append(res.Warnings, w)
	}
	if req.Intervals {
		if res.Intervals, res.Replicates, err = job.intervals(ctx, theta, model, intervalsProgress); err != nil {
			return nil, err
		}
		res.Band = PriorBand(res)
		if !job.annealed() {
			// the jackknife refits put it where the first fit did: an interval would claim
			// a precision that the curves cannot give
			delete(res.Intervals, job.spec.Terms[1].Param)
		}
		if w, ok := job.undetermined(theta, res.Intervals); ok {
			res.Warnings = append(res.Warnings, w)
		}
	}
	if req.Lines {
		if res.Lines, err = FitLines(req, res); err != nil {
			return nil, err
		}
	}
	progress(1)
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
}

// search minimises obj, the job's objective, by the job's strategy with the request's effort.
func (j *fitJob) search(ctx context.Context, effort Effort, obj *Objective, progress func(float64)) ([]float64, Search, error) {
	if j.strategy != SearchOptimum {
		theta, err := j.law.(Searcher).Search(ctx, j.strategy, obj, progress)
		return theta, Search{Strategy: j.strategy, Evaluations: obj.evaluations}, err
	}
	starts := maxStarts
	if effort.Starts > 0 {
		starts = effort.Starts
	}
	return optimum(obj, progress, starts, effort.ThinnedOnly)
}

// objective is the job's objective (its Huber delta, free parameters, held values and priors)
// on model's points, whose log losses are logObs.
func (j *fitJob) objective(ctx context.Context, model Model, logObs []float64) *Objective {
	obj := newObjective(ctx, model, j.spec, logObs, j.delta, j.free, j.base)
	obj.prior = j.prior
	return obj
}

// job checks the request and prepares its curves for its law.
func (r FitRequest) job() (*fitJob, error) {
	law, err := Lookup(r.Law)
	if err != nil {
		return nil, err
	}
	spec := law.Spec()
	j := &fitJob{law: law, spec: spec, lambda: r.Lambda, warmup: r.WarmupSteps}
	if j.strategy, err = r.strategy(law); err != nil {
		return nil, err
	}
	if j.conv, err = schedule.ParseConvention(r.WarmupConvention, spec.Convention); err != nil {
		return nil, err
	}
	if j.delta, err = r.huberDelta(); err != nil {
		return nil, err
	}
	switch r.Priors {
	case "", PriorsWeak:
		j.priors = PriorsWeak
	case PriorsNone:
		j.priors = PriorsNone
	default:
		return nil, input.Errorf("", "priors", "must be %q or %q, got %q", PriorsWeak, PriorsNone, r.Priors)
	}
	if err := j.setParameters(r); err != nil {
		return nil, err
	}
	if j.curves, err = r.prepareCurves(); err != nil {
		return nil, err
	}
	for i, c := range j.curves {
		if c.role != RoleFit {
			continue
		}
		run, err := c.run(i, j.conv)
		if err != nil {
			return nil, err
		}
		index, loss := c.window()
		run.Steps = index
		j.fitRuns = append(j.fitRuns, run)
		for _, l := range loss {
			j.logObs = append(j.logObs, numeric.MathLog(l))
		}
	}
	if h, ok := law.(Holder); ok {
		names, note, err := h.Hold(j.fitRuns)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			if !slices.Contains(j.held, name) {
				j.held = append(j.held, name)
				j.note = note
			}
		}
	}
	j.free = nil
	for i, p := range spec.Params {
		if !slices.Contains(j.held, p.Name) {
			j.free = append(j.free, i)
		}
	}
	if j.priors == PriorsWeak && len(j.logObs) > 0 {
		j.prior = newPenalty(spec, j.free, math.Exp(slices.Min(j.logObs)), peakLR(j.fitRuns))
	}
	return j, nil
}

// peakLR is the highest learning rate of the runs.
func peakLR(runs []Run) float64 {
	peak := 0.0
	for _, r := range runs {
		peak = math.Max(peak, slices.Max(r.LR))
	}
	return peak
}

// strategy checks the request's search against the law's.
func (r FitRequest) strategy(law Law) (string, error) {
	if r.Search == "" || r.Search == SearchOptimum {
		return SearchOptimum, nil
	}
	names := []string{SearchOptimum}
	if s, ok := law.(Searcher); ok {
		names = append(names, s.Searches()...)
		if slices.Contains(s.Searches(), r.Search) {
			return r.Search, nil
		}
	}
	if len(names) == 1 {
		return "", input.Errorf("", "search", "the %s has one search, %q; got %q", law.Spec().Title, SearchOptimum, r.Search)
	}
	return "", input.Errorf("", "search", "must be %s, got %q", quoteJoin(names), r.Search)
}

// setParameters sets the base vector (defaults, held values) and which parameters are held:
// those the law holds unless asked (lambda, unless the request fits it), and those the
// request fixes.
func (j *fitJob) setParameters(r FitRequest) error {
	j.base = j.spec.Defaults()
	for i, p := range j.spec.Params {
		if p.Name == "lambda" {
			if r.Lambda.Fit {
				continue
			}
			v := r.Lambda.Fixed()
			if err := schedule.CheckLambda(v); err != nil {
				return err
			}
			j.base[i] = v
		}
		if p.Held {
			j.held = append(j.held, p.Name)
		}
	}
	for _, name := range sortedKeys(r.Fixed) {
		i := j.spec.Index(name)
		if i < 0 {
			return input.Errorf("", "fixed", "the %s has no parameter %q; its parameters are %s", j.spec.Title, name, j.spec.paramNames())
		}
		if err := j.spec.Params[i].check(r.Fixed[name]); err != nil {
			return input.Within("fixed", err)
		}
		j.base[i] = r.Fixed[name]
		if !slices.Contains(j.held, name) {
			j.held = append(j.held, name)
		}
	}
	return nil
}

// freeMask marks the free parameters.
func (j *fitJob) freeMask() []bool {
	mask := make([]bool, len(j.spec.Params))
	for _, i := range j.free {
		mask[i] = true
	}
	return mask
}

// checkFitted reports a fitted vector that is not usable: not finite, or outside a domain.
func (s *Spec) checkFitted(theta []float64) error {
	for i, p := range s.Params {
		if err := p.check(theta[i]); err != nil {
			return err
		}
	}
	return nil
}

// optimum is the engine's own search: the start search, then the polish of each of the best
// starts (at most most; on long curves on a thinned objective first, and then the best again
// on every point unless thinnedOnly), keeping the lowest objective.
func optimum(obj *Objective, progress func(float64), most int, thinnedOnly bool) ([]float64, Search, error) {
	// progress: the start search is the first fifth, each polish an equal share of the rest
	done, share, budget := 0.0, 0.2, 0
	obj.tick = func() {
		budget++
		progress(done + share*math.Min(0.95, float64(budget)/200))
	}
	search := obj
	if n := obj.Points(); n > thinAbove {
		search = obj.thinned((n + searchPoints - 1) / searchPoints)
	}
	starts := searchStarts(search, most)
	if search.cancelled || obj.ctx.Err() != nil {
		return nil, Search{}, obj.ctx.Err()
	}
	if len(starts) == 0 {
		return nil, Search{}, nil
	}
	polishes := len(starts)
	if search.prior != nil {
		polishes *= 2 // each start is polished again with the priors
	}
	full := search != obj && !thinnedOnly
	if full {
		polishes++
	}
	done, share, budget = 0.2, 0.8/float64(polishes), 0
	progress(done)
	pl := &polisher{obj: search}
	best := start{f: math.Inf(1)}
	var polished []start
	for i, s := range starts {
		got, err := pl.polish(s)
		if err != nil {
			return nil, Search{}, err
		}
		if got.f < best.f {
			best = got
		}
		polished = append(polished, got)
		done, budget = 0.2+share*float64(i+1), 0
		progress(done)
	}
	if search.prior != nil && len(polished) > 0 {
		// the priors weigh in from here, in the Huber loss's units at the curves' own optimum,
		// and each polished start is polished again with them
		obj.prior.weight = search.huberScale(best.theta)
		if search != obj {
			search.prior = obj.prior.scaled(float64(search.Points()) / float64(obj.Points()))
		}
		best = start{f: math.Inf(1)}
		for i, s := range polished {
			s.f = search.Value(s.theta, nil)
			got, err := pl.polish(s)
			if err != nil {
				return nil, Search{}, err
			}
			if got.f < best.f {
				best = got
			}
			done, budget = 0.2+share*float64(len(polished)+i+1), 0
			progress(done)
		}
	}
	evaluations := search.evaluations
	if full {
		obj.Anchor(best.theta, true)
		best.f = obj.Value(best.theta, nil)
		var err error
		if best, err = (&polisher{obj: obj}).polish(best); err != nil {
			return nil, Search{}, err
		}
		evaluations += obj.evaluations
	}
	return best.theta, Search{Strategy: SearchOptimum, Starts: len(starts), Evaluations: evaluations}, nil
}

// score evaluates the law with theta on every curve of the job: the fitted or predicted loss
// at each observed point, the metrics, and the objective over the fitted points.
func (j *fitJob) score(theta []float64) (*FitResult, error) {
	res := &FitResult{Law: j.spec.Name, Params: j.spec.Values(theta), Held: j.held, Note: j.note, Reach: j.reach(),
		Settings: FitSettings{Lambda: j.lambda, WarmupSteps: j.warmup, WarmupConvention: j.conv, HuberDelta: j.delta, Priors: j.priors}}
	if res.Held == nil {
		res.Held = []string{}
	}
	if i := j.spec.Index("lambda"); i >= 0 && !j.lambda.Fit {
		res.Settings.Lambda = FixedLambda(theta[i])
	}
	runs := make([]Run, len(j.curves))
	for i, c := range j.curves {
		run, err := c.run(i, j.conv)
		if err != nil {
			return nil, err
		}
		runs[i] = run
	}
	model, err := j.law.Bind(runs, BindOptions{Predict: true, Theta: theta})
	if err != nil {
		return nil, err
	}
	pred := make([]float64, model.Points())
	model.Eval(theta, 0, pred, nil)
	at := 0
	for _, c := range j.curves {
		p := pred[at : at+len(c.index) : at+len(c.index)]
		at += len(c.index)
		res.Curves = append(res.Curves, CurveResult{Name: c.name, Role: c.role, Size: c.size, Predicted: p, From: float64(c.index[c.first])})
	}
	j.rescore(res)
	return res, nil
}

// Check reports what is wrong with the request as Fit would, without fitting.
func (r FitRequest) Check() error {
	_, err := r.job()
	return err
}

// Rescore sets the metrics of res's curves, its summaries and its objective from the curves'
// predicted losses (res fits req): a caller that changes the predictions (lawcore/auto's
// weighted average of laws) scores them again as Fit would.
func Rescore(req FitRequest, res *FitResult) error {
	job, err := req.job()
	if err != nil {
		return err
	}
	job.rescore(res)
	return nil
}

// rescore sets the metrics of res's curves, its summaries and its objective from the curves'
// predicted losses.
func (j *fitJob) rescore(res *FitResult) {
	var fitMetrics, validateMetrics []Metrics
	res.Objective = 0
	for i, c := range j.curves {
		p := res.Curves[i].Predicted
		_, loss := c.window()
		m := ComputeMetrics(loss, p[c.first:])
		res.Curves[i].Metrics = m
		if c.role == RoleFit {
			res.Objective += huberSum(loss, p[c.first:], j.delta)
			fitMetrics = append(fitMetrics, m)
		} else {
			validateMetrics = append(validateMetrics, m)
		}
	}
	res.FitMetrics = MeanMetrics(fitMetrics)
	res.ValidateMetrics = nil
	if len(validateMetrics) > 0 {
		v := MeanMetrics(validateMetrics)
		res.ValidateMetrics = &v
	}
}

// sortedKeys returns the names of v in order, for deterministic messages.
func sortedKeys(v Values) []string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Sort(sort.StringSlice(keys)) // not slices.Sort: wasm/methods.go, methodNames
	return keys
}

// quoteJoin quotes names and joins them with commas and a final "or".
func quoteJoin(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// Evaluate scores the request's law with given parameters on every curve, as a fit's result
// would (the fitted or predicted loss at each observed point, the metrics, the objective),
// without fitting: for parameters entered by hand, or published ones.
func Evaluate(req FitRequest, params Values) (*FitResult, error) {
	began := time.Now()
	job, err := req.job()
	if err != nil {
		return nil, err
	}
	theta, err := job.spec.Theta(params)
	if err != nil {
		return nil, err
	}
	res, err := job.score(theta)
	if err != nil {
		return nil, err
	}
	res.Search = Search{Strategy: "given"}
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
}
