package lawcore

import (
	"context"
	"math"
	"time"
)

// MultiPowerResult is the outcome of a Multi-Power fit, shaped like FitResult: the
// parameters, the objective they reach, how each curve is fitted or predicted, and how the
// search went.
type MultiPowerResult struct {
	// Model is ModelMultiPower.
	Model string `json:"model"`
	// Params are the fitted parameters.
	Params MultiPowerParams `json:"params"`
	// Objective is the summed Huber loss of the log residuals over every fitted point.
	Objective float64 `json:"objective"`
	// Curves has one entry per request curve, in order.
	Curves []CurveResult `json:"curves"`
	// FitMetrics summarises the curves with role "fit" (see MeanMetrics).
	FitMetrics Metrics `json:"fitMetrics"`
	// ValidateMetrics summarises the curves with role "validate"; nil when there are none.
	ValidateMetrics *Metrics `json:"validateMetrics"`
	// Settings are the settings the fit used, defaults filled in.
	Settings MultiPowerSettings `json:"settings"`
	// Search says how the optimum was found.
	Search Search `json:"search"`
	// ElapsedMs is the time the fit took, in milliseconds.
	ElapsedMs float64 `json:"elapsedMs"`
}

// MultiPowerSettings records the settings a Multi-Power fit used.
type MultiPowerSettings struct {
	WarmupSteps      int        `json:"warmupSteps"`
	WarmupConvention Convention `json:"warmupConvention"`
	HuberDelta       float64    `json:"huberDelta"`
	// Tolerance is the grouping tolerance of the loss-drop sum in the reported predictions
	// and metrics (MultiPowerTolerance).
	Tolerance float64 `json:"tolerance"`
}

// mpowCurve is a request curve prepared for the Multi-Power Law.
type mpowCurve struct {
	name, role string
	series     *mpowSeries
	index      []int
	loss       []float64
}

// mpowPrepare checks a fit request and prepares its curves, with the annealing law's checks
// and messages (the request's lambda, which the Multi-Power Law has no use for, is ignored).
// The warmup convention is the request's, but an empty one means WarmupActual here: the
// Multi-Power Law counts the warmup as run (see MultiPowerParams).
func mpowPrepare(req FitRequest) ([]*mpowCurve, Convention, float64, error) {
	conv := WarmupActual
	if req.WarmupConvention != "" {
		var err error
		if conv, err = ParseConvention(req.WarmupConvention); err != nil {
			return nil, "", 0, err
		}
	}
	delta, err := req.huberDelta()
	if err != nil {
		return nil, "", 0, err
	}
	prepared, err := req.prepareCurves()
	if err != nil {
		return nil, "", 0, err
	}
	var curves []*mpowCurve
	for _, p := range prepared {
		curves = append(curves, &mpowCurve{name: p.name, role: p.role, series: newMpowSeries(p.lr, p.warmup, conv),
			index: p.index, loss: p.loss})
	}
	// where nothing has been trained yet the law has no value: the fit curves are checked
	// first, as Fit does
	for _, role := range []string{RoleFit, RoleValidate} {
		for i, c := range curves {
			if c.role != role {
				continue
			}
			p := &preparedCurve{name: c.name, index: c.index, s1: c.series.prefix}
			if err := p.checkForwardArea(i); err != nil {
				return nil, "", 0, err
			}
		}
	}
	return curves, conv, delta, nil
}

// FitMultiPower fits the Multi-Power Law to the request's "fit" curves, minimising the summed
// Huber loss of log(observed) - log(predicted) (as Fit does for the annealing law), and scores
// every curve with the result. The request is the annealing law's: curves with a schedule or
// an lr list and a role, warmupSteps, warmupConvention (empty means "actual" here: the law
// counts the warmup as run; "peak" counts it at the peak LR, which also removes its terms
// from the loss drop) and huberDelta; lambda is ignored.
//
// The search: a grid over the loss drop's shape (C, beta, gamma) with the best alpha, L0, A
// and B for each from linear least squares (multipower_start.go), then, from the best few,
// Levenberg-Marquardt on the exact objective with analytic gradients and Gauss-Newton
// curvature, in log coordinates (which keep every parameter positive), with gonum's L-BFGS,
// whitened by that curvature, should it stop short (multipower_polish.go). It finds the
// objective's minimum; FitMultiPowerRelease instead follows the release's own procedure,
// which stops well before it (and, on the release's curves, predicts held-out curves
// better). progress, if not nil, is called with the fraction done. Cancelling ctx stops the
// fit promptly with ctx's error.
func FitMultiPower(ctx context.Context, req FitRequest, progress func(fraction float64)) (*MultiPowerResult, error) {
	began := time.Now()
	if progress == nil {
		progress = func(float64) {}
	}
	curves, conv, delta, err := mpowPrepare(req)
	if err != nil {
		return nil, err
	}
	obj := newMpowObjective(ctx, curves, delta)

	// progress: the grid is the first fifth, each polish an equal share of the rest
	gridPoints := len(mpowGammaGrid) * len(mpowBetaGrid) * len(mpowStepGrid)
	done, share, budget := 0.0, 0.2, 0
	obj.tick = func() {
		budget++
		if budget%8 == 0 {
			progress(done + share*math.Min(0.95, float64(budget)/float64(gridPoints)))
		}
	}
	starts := obj.starts()
	if obj.cancelled || ctx.Err() != nil {
		return nil, ctx.Err()
	}
	done, share, budget = 0.2, 0.8/math.Max(1, float64(len(starts))), 0
	obj.tick = func() {
		budget++
		if budget%16 == 0 {
			progress(done + share*math.Min(0.95, float64(budget)/60))
		}
	}
	progress(done)
	best := mpowStart{f: math.Inf(1)}
	for i, s := range starts {
		got, err := obj.polish(s)
		if err != nil {
			return nil, err
		}
		if got.f < best.f {
			best = got
		}
		done, budget = 0.2+share*float64(i+1), 0
		progress(done)
	}
	if best.x == nil || mpowFromX(best.x).Validate() != nil {
		return nil, Errorf("", "curves", "the Multi-Power Law could not be fitted to these curves")
	}

	res := obj.result(curves, mpowFromX(best.x), conv, delta, req.WarmupSteps)
	res.Search.Starts = len(starts)
	progress(1)
	res.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return res, nil
}

// result scores every curve with the parameters p: the objective over the fit curves and
// each curve's metrics, with the loss drop grouped to MultiPowerTolerance.
func (o *mpowObjective) result(curves []*mpowCurve, p MultiPowerParams, conv Convention, delta float64, warmupSteps int) *MultiPowerResult {
	res := &MultiPowerResult{Model: ModelMultiPower, Params: p,
		Settings: MultiPowerSettings{WarmupSteps: warmupSteps, WarmupConvention: conv, HuberDelta: delta, Tolerance: MultiPowerTolerance}}
	if o.frozen == nil {
		o.frozen = &mpowFrozen{}
	}
	var fitMetrics, validateMetrics []Metrics
	for _, c := range curves {
		pred := mpowPredictCurve(p, c.series, c.index, MultiPowerTolerance, o.frozen)
		m := ComputeMetrics(c.loss, pred)
		res.Curves = append(res.Curves, CurveResult{Name: c.name, Role: c.role, Metrics: m, Predicted: pred})
		if c.role == RoleFit {
			for k := range pred {
				logPred, _ := safeLog(pred[k])
				res.Objective += Huber(math.Log(c.loss[k])-logPred, delta)
			}
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
	res.Search.Evaluations = o.evaluations
	return res
}
