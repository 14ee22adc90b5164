package lawcore

import (
	"context"
	"math"
	"sort"
	"time"

	"gonum.org/v1/gonum/optimize"
)

// FitResult is the outcome of a fit: the parameters, the objective they reach, how each curve
// is fitted or predicted, and how the search went.
type FitResult struct {
	// Model is ModelAnnealing.
	Model string `json:"model"`
	// Params are the fitted parameters (Lambda is the fixed or fitted decay factor).
	Params Params `json:"params"`
	// Objective is the summed Huber loss of the log residuals over every fitted point.
	Objective float64 `json:"objective"`
	// Curves has one entry per request curve, in order.
	Curves []CurveResult `json:"curves"`
	// FitMetrics summarises the curves with role "fit" (see MeanMetrics).
	FitMetrics Metrics `json:"fitMetrics"`
	// ValidateMetrics summarises the curves with role "validate"; nil when there are none.
	ValidateMetrics *Metrics `json:"validateMetrics"`
	// Settings are the settings the fit used, defaults filled in.
	Settings FitSettings `json:"settings"`
	// Search says how the optimum was found.
	Search Search `json:"search"`
	// Auto, set when the request asked for "auto", says what was picked and why.
	Auto *AutoChoice `json:"auto,omitempty"`
	// ElapsedMs is the time the fit took, in milliseconds.
	ElapsedMs float64 `json:"elapsedMs"`
}

// FitSettings records the settings a fit used.
type FitSettings struct {
	Lambda           LambdaSetting `json:"lambda"`
	WarmupSteps      int           `json:"warmupSteps"`
	WarmupConvention Convention    `json:"warmupConvention"`
	HuberDelta       float64       `json:"huberDelta"`
}

// CurveResult is one curve's fitted (role "fit") or predicted (role "validate") loss at its
// observed steps, and its metrics.
type CurveResult struct {
	Name      string    `json:"name"`
	Role      string    `json:"role"`
	Metrics   Metrics   `json:"metrics"`
	Predicted []float64 `json:"predicted"`
}

// Search describes the optimiser's work: how many starts were polished, how many objective
// evaluations everything took (the profile over alpha included).
type Search struct {
	Starts      int `json:"starts"`
	Evaluations int `json:"evaluations"`
}

// thinAbove is the number of points above which Fit searches and polishes the starts on
// about profilePoints of them (objective.thinned) before polishing the best on all: below it,
// the extra polish costs about what the thinning saves. Measured natively, to the same optimum:
// 90,000 points fit in 155 ms directly, 275 ms thinned; one 250,000-point run in 1.2 s and
// 1.1 s, with lambda fitted (several starts) in 8.0 s and 2.3 s; 1,000,000 points in 4.9 s and
// 3.8 s (TestFitLongCurveThinsTheSearch, BenchmarkFitMillionPoints).
const thinAbove = 4 * profilePoints

// maxStarts is how many of the profile's local minima are polished.
const maxStarts = 4

// Fit fits the law to the request's "fit" curves, minimising the summed Huber loss of
// log(observed) - log(predicted), and scores every curve with the result. progress, if not
// nil, is called with the fraction done. Cancelling ctx stops the fit promptly with ctx's
// error.
func Fit(ctx context.Context, req FitRequest, progress func(fraction float64)) (*FitResult, error) {
	began := time.Now()
	if progress == nil {
		progress = func(float64) {}
	}
	if req.Auto {
		return fitAuto(ctx, req, progress)
	}
	curves, conv, delta, err := req.prepare()
	if err != nil {
		return nil, err
	}
	lambda := req.Lambda.fixed()
	if req.Lambda.Fit {
		lambda = DefaultLambda
	}
	obj := newObjective(ctx, curves, conv, delta, req.Lambda.Fit, lambda)
	for i, c := range curves {
		if c.role == RoleFit {
			if err := c.checkForwardArea(i); err != nil {
				return nil, err
			}
		}
	}

	// progress: the profile search is the first fifth, each polish an equal share of the rest
	done, share, budget := 0.0, 0.2, 0
	obj.tick = func() {
		budget++
		progress(done + share*math.Min(0.95, float64(budget)/200))
	}
	// On long curves the starts are searched and polished on an evenly spread subset of the
	// points, which locates the optimum's basin as well as all of them; only the best is then
	// polished on every point.
	search := obj
	if n := len(obj.logObs); n > thinAbove {
		search = obj.thinned((n + profilePoints - 1) / profilePoints)
	}
	starts := search.searchStarts()
	polishes := len(starts)
	if search != obj {
		polishes++
	}
	done, share, budget = 0.2, 0.8/math.Max(1, float64(polishes)), 0
	progress(done)
	if search.cancelled || ctx.Err() != nil {
		return nil, ctx.Err()
	}
	best := start{f: math.Inf(1)}
	for i, s := range starts {
		got, err := search.polish(s)
		if err != nil {
			return nil, err
		}
		if got.f < best.f {
			best = got
		}
		done, budget = 0.2+share*float64(i+1), 0
		progress(done)
	}
	if search != obj && len(starts) > 0 {
		var err error
		if best, err = obj.polish(start{p: best.p, f: obj.value(best.p, nil)}); err != nil {
			return nil, err
		}
		progress(1)
	}
	evaluations := obj.evaluations
	if search != obj {
		evaluations += search.evaluations
	}

	res := &FitResult{
		Model:     ModelAnnealing,
		Params:    best.p,
		Objective: best.f,
		Settings: FitSettings{Lambda: req.Lambda, WarmupSteps: req.WarmupSteps,
			WarmupConvention: conv, HuberDelta: delta},
		Search: Search{Starts: len(starts), Evaluations: evaluations},
	}
	if !req.Lambda.Fit {
		res.Settings.Lambda = FixedLambda(lambda)
	}
	var fitMetrics, validateMetrics []Metrics
	for i, c := range curves {
		c.computeAreas(best.p.Lambda, conv, false)
		if err := c.checkForwardArea(i); err != nil {
			return nil, err
		}
		pred := make([]float64, len(c.index))
		for k, idx := range c.index {
			pred[k] = best.p.Loss(c.s1[idx], c.s2[idx])
		}
		m := ComputeMetrics(c.loss, pred)
		res.Curves = append(res.Curves, CurveResult{Name: c.name, Role: c.role, Metrics: m, Predicted: pred})
		if c.role == RoleFit {
			fitMetrics = append(fitMetrics, m)
		} else {
			validateMetrics = append(validateMetrics, m)
		}
	}
	res.FitMetrics = MeanMetrics(fitMetrics)
	if len(validateMetrics) > 0 {
		v := MeanMetrics(validateMetrics)
		res.ValidateMetrics = &v
	}
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
}

// searchStarts returns the starts to polish: the best local minima of the alpha profile (over
// a grid of lambdas when lambda is fitted). Minima far worse than the best are dropped: the
// profile already holds the best L0, A and C for each alpha, so polishing moves a start a
// little, never by a factor of several in the objective.
func (o *objective) searchStarts() []start {
	if !o.fitLambda {
		return promising(o.profileStarts())
	}
	var all []start
	for _, lambda := range lambdaGrid {
		o.setLambda(lambda)
		all = append(all, firstN(o.profileStarts(), 2)...)
		if o.ctx.Err() != nil {
			o.cancelled = true
			return nil
		}
	}
	sortStarts(all)
	return promising(all)
}

// promisingFactor is how much worse than the best start a start may be and still be polished.
const promisingFactor = 3

// promising keeps the sorted starts within promisingFactor of the best, at most maxStarts.
func promising(s []start) []start {
	n := 0
	for n < len(s) && n < maxStarts && s[n].f <= promisingFactor*s[0].f {
		n++
	}
	return s[:n]
}

func firstN(s []start, n int) []start {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// polish runs whitened L-BFGS (see whitenedMinimize) from s on the exact objective, in log /
// logit coordinates; the start itself stands if the run finds nothing better.
func (o *objective) polish(s start) (start, error) {
	x0 := o.vector(s.p)
	scale := 1 / (o.delta * o.delta * float64(len(o.logObs)))
	settings := &optimize.Settings{
		FuncEvaluations:   5000,
		GradientThreshold: 1e-9,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-12, Iterations: 8},
	}
	value := func(x, grad []float64) float64 { return o.value(o.params(x), grad) }
	x, ok, err := whitenedMinimize(x0, o.gaussNewton(s.p), value, scale, settings, func() bool { return o.cancelled }, o.ctx)
	if err != nil {
		return start{}, err
	}
	if !ok {
		return s, nil
	}
	p := o.params(x)
	if f := o.value(p, nil); f <= s.f {
		return start{p: p, f: f}, nil
	}
	return s, nil
}

func sortStarts(s []start) {
	sort.Slice(s, func(i, j int) bool { return s[i].f < s[j].f })
}
