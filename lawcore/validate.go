package lawcore

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// LeaveOneOutRow is one curve predicted by one law fitted on all the other curves.
type LeaveOneOutRow struct {
	// Curve is the curve left out; Law the law.
	Curve string `json:"curve"`
	Law   string `json:"law"`
	// Metrics score the prediction of the curve left out.
	Metrics Metrics `json:"metrics"`
}

// LeaveOneOutSummary summarises one law over every curve left out in turn.
type LeaveOneOutSummary struct {
	Law string `json:"law"`
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

// LeaveOneScheduleOut fits each law in laws (by name; none: the request's) on every curve of
// the request but one and
// predicts the one left out, for each curve in turn (roles are ignored: every curve is left
// out once). It needs two curves or more. level is the band's coverage (0: DefaultBandLevel).
func LeaveOneScheduleOut(ctx context.Context, req FitRequest, laws []string, level float64, progress func(float64)) (*LeaveOneOutResult, error) {
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
	if len(laws) == 0 {
		laws = []string{req.Law}
	}
	for i, name := range laws {
		law, err := Lookup(name)
		if err != nil {
			return nil, Within(fmt.Sprintf("laws[%d]", i), err)
		}
		laws[i] = law.Spec().Name
	}
	out := &LeaveOneOutResult{}
	jobs, done := len(laws)*len(req.Curves), 0
	for _, law := range laws {
		var rows []Metrics
		var errs []numeric.Weighted
		for i := range req.Curves {
			sub := req
			sub.Law = law
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
			out.Rows = append(out.Rows, LeaveOneOutRow{Curve: req.Curves[i].Name, Law: law, Metrics: m})
			rows = append(rows, m)
			obs := req.Curves[i].Loss
			for k, p := range pred {
				errs = append(errs, numeric.Weighted{Value: math.Abs(p-obs[k]) / obs[k], Weight: 1 / float64(len(pred))})
			}
		}
		out.Summaries = append(out.Summaries, LeaveOneOutSummary{Law: law, Mean: MeanMetrics(rows),
			BandLevel: level, BandHalfWidth: numeric.WeightedQuantile(errs, level)})
	}
	out.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return out, nil
}

// fitAndPredict fits req and returns curve i's predicted losses and metrics.
func fitAndPredict(ctx context.Context, req FitRequest, i int, progress func(float64)) ([]float64, Metrics, error) {
	res, err := Fit(ctx, req, progress)
	if err != nil {
		return nil, Metrics{}, err
	}
	return res.Curves[i].Predicted, res.Curves[i].Metrics, nil
}
