package lawcore

import (
	"context"
	"math"
	"sort"
	"time"
)

// LeaveOneOutRow is one curve predicted by one law fitted on all the other curves.
type LeaveOneOutRow struct {
	// Curve is the curve left out; Model the law (ModelAnnealing or ModelMultiPower).
	Curve string `json:"curve"`
	Model string `json:"model"`
	// Metrics score the prediction of the curve left out.
	Metrics Metrics `json:"metrics"`
}

// LeaveOneOutSummary summarises one law over every curve left out in turn.
type LeaveOneOutSummary struct {
	Model string `json:"model"`
	// Mean is MeanMetrics over the rows of this law.
	Mean Metrics `json:"mean"`
	// BandLevel and BandHalfWidth: the relative error that BandLevel of the held-out points
	// (each curve weighing the same) stay within. A prediction band of this law is then
	// pred*(1 - BandHalfWidth) .. pred*(1 + BandHalfWidth): the errors of schedules the fit
	// has not seen, measured on this user's own schedules, calibrate it.
	BandLevel     float64 `json:"bandLevel"`
	BandHalfWidth float64 `json:"bandHalfWidth"`
}

// LeaveOneOutResult is a leave-one-schedule-out validation.
type LeaveOneOutResult struct {
	Rows      []LeaveOneOutRow     `json:"rows"`
	Summaries []LeaveOneOutSummary `json:"summaries"`
	ElapsedMs float64              `json:"elapsedMs"`
}

// DefaultBandLevel is the share of held-out points a prediction band is meant to cover.
const DefaultBandLevel = 0.9

// LeaveOneScheduleOut fits each law in models on every curve of the request but one and
// predicts the one left out, for each curve in turn (roles are ignored: every curve is left
// out once). It needs two curves or more. level is the band's coverage (0: DefaultBandLevel).
func LeaveOneScheduleOut(ctx context.Context, req FitRequest, models []string, level float64, progress func(float64)) (*LeaveOneOutResult, error) {
	began := time.Now()
	if progress == nil {
		progress = func(float64) {}
	}
	if len(req.Curves) < 2 {
		return nil, Errorf("", "curves", "leave-one-schedule-out validation needs two curves or more, got %d", len(req.Curves))
	}
	if level == 0 {
		level = DefaultBandLevel
	}
	if !(level > 0 && level < 1) {
		return nil, Errorf("", "level", "must be between 0 and 1, got %v", level)
	}
	if len(models) == 0 {
		models = []string{ModelAnnealing}
	}
	out := &LeaveOneOutResult{}
	jobs, done := len(models)*len(req.Curves), 0
	for _, model := range models {
		var rows []Metrics
		var errs []weightedError
		for i := range req.Curves {
			sub := req
			sub.Model = model
			sub.Curves = append([]Curve(nil), req.Curves...)
			for k := range sub.Curves {
				sub.Curves[k].Role = RoleFit
			}
			sub.Curves[i].Role = RoleValidate
			report := func(f float64) { progress((float64(done) + f) / float64(jobs)) }
			pred, m, err := fitAndPredict(ctx, sub, i, report)
			if err != nil {
				return nil, err
			}
			done++
			out.Rows = append(out.Rows, LeaveOneOutRow{Curve: req.Curves[i].Name, Model: model, Metrics: m})
			rows = append(rows, m)
			obs := req.Curves[i].Loss
			for k, p := range pred {
				errs = append(errs, weightedError{math.Abs(p-obs[k]) / obs[k], 1 / float64(len(pred))})
			}
		}
		out.Summaries = append(out.Summaries, LeaveOneOutSummary{Model: model, Mean: MeanMetrics(rows),
			BandLevel: level, BandHalfWidth: weightedQuantile(errs, level)})
	}
	out.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return out, nil
}

// fitAndPredict fits req with its model and returns curve i's predicted losses and metrics.
func fitAndPredict(ctx context.Context, req FitRequest, i int, progress func(float64)) ([]float64, Metrics, error) {
	model, err := req.CheckModel()
	if err != nil {
		return nil, Metrics{}, err
	}
	var curves []CurveResult
	if model == ModelMultiPower {
		res, err := FitMultiPower(ctx, req, progress)
		if err != nil {
			return nil, Metrics{}, err
		}
		curves = res.Curves
	} else {
		res, err := Fit(ctx, req, progress)
		if err != nil {
			return nil, Metrics{}, err
		}
		curves = res.Curves
	}
	return curves[i].Predicted, curves[i].Metrics, nil
}

type weightedError struct{ err, weight float64 }

// weightedQuantile is the smallest error e such that the errors up to e carry at least the
// share q of the total weight.
func weightedQuantile(es []weightedError, q float64) float64 {
	if len(es) == 0 {
		return 0
	}
	sort.Slice(es, func(i, j int) bool { return es[i].err < es[j].err })
	total := 0.0
	for _, e := range es {
		total += e.weight
	}
	acc := 0.0
	for _, e := range es {
		acc += e.weight
		if acc >= q*total {
			return e.err
		}
	}
	return es[len(es)-1].err
}
