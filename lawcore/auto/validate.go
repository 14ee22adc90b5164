package auto

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/input"
)

// LeaveOneOutRow is one curve predicted by one law fitted on all the other curves.
type LeaveOneOutRow struct {
	// Curve is the curve left out; Law the law.
	Curve string `json:"curve"`
	Law   string `json:"law"`
	// Metrics score the prediction of the curve left out.
	Metrics lawcore.Metrics `json:"metrics"`
}

// LeaveOneOutSummary summarises one law over every curve left out in turn.
type LeaveOneOutSummary struct {
	Law string `json:"law"`
	// Mean is MeanMetrics over the rows of this law.
	Mean lawcore.Metrics `json:"mean"`
	// Band is the prediction band the held-out errors calibrate (each curve weighing the
	// same), widening with the distance from the fitted data; BandLevel and BandHalfWidth are
	// its level and its half-width within the data's reach: pred*(1 ± BandHalfWidth).
	Band          lawcore.Band `json:"band"`
	BandLevel     float64      `json:"bandLevel"`
	BandHalfWidth float64      `json:"bandHalfWidth"`
}

// LeaveOneOutResult is a leave-one-schedule-out validation.
type LeaveOneOutResult struct {
	Rows      []LeaveOneOutRow     `json:"rows"`
	Summaries []LeaveOneOutSummary `json:"summaries"`
	ElapsedMs float64              `json:"elapsedMs"`
}

// LeaveOneScheduleOut fits each law in laws (by name; none: the request's) on every curve of
// the request but one and predicts the one left out, for each curve in turn (roles are
// ignored: every curve is left out once). It needs two curves or more. Each law's prediction
// band has the discrepancy learnt from those held-out errors and from the forecasts of each
// curve's last half from its first half and the others (auto's folds: the band then knows how
// fast errors grow beyond the data), each fold whose fit said something of how the law
// predicts giving one draw (see Fit), and the replicates of the law fitted on every curve.
// level is its coverage (0: lawcore.DefaultBandLevel).
func LeaveOneScheduleOut(ctx context.Context, req lawcore.FitRequest, laws []string, level float64, progress func(float64)) (*LeaveOneOutResult, error) {
	began := time.Now()
	if progress == nil {
		progress = func(float64) {}
	}
	if len(req.Curves) < 2 {
		return nil, input.Errorf("", "curves", "leave-one-schedule-out validation needs two curves or more, got %d", len(req.Curves))
	}
	if level == 0 {
		level = lawcore.DefaultBandLevel
	}
	if !(level > 0 && level < 1) {
		return nil, input.Errorf("", "level", "must be between 0 and 1, got %v", level)
	}
	if len(laws) == 0 {
		laws = []string{req.Law}
	}
	for i, name := range laws {
		law, err := lawcore.Lookup(name)
		if err != nil {
			return nil, input.Within(fmt.Sprintf("laws[%d]", i), err)
		}
		laws[i] = law.Spec().Name
	}
	// every curve is fitted: the folds are auto's (each curve left out, then each curve's tail
	// forecast), and the band is calibrated on all of them
	all := req
	all.Curves = slices.Clone(req.Curves)
	for k := range all.Curves {
		all.Curves[k].Role = lawcore.RoleFit
	}
	_, folds := autoFolds(all, 0)
	// how far the curves reach: the band widens past it, as an auto fit's does (a band without
	// it kept one width however far a schedule ran beyond the data)
	reach, err := all.Reach()
	if err != nil {
		return nil, err
	}
	out := &LeaveOneOutResult{}
	jobs, done := len(laws)*len(folds), 0
	for _, law := range laws {
		var rows []lawcore.Metrics
		var draws []foldDraw
		for fi, f := range folds {
			sub := f.req
			sub.Law = law
			report := func(x float64) { progress((float64(done) + x) / float64(jobs)) }
			res, err := lawcore.Fit(ctx, sub, report)
			if err != nil {
				return nil, err
			}
			held, err := heldOutSamples(sub, res, fi)
			if err != nil {
				return nil, err
			}
			if d, ok := farthest(held); ok && uninformative(res) == "" {
				d.curve = f.curve
				draws = append(draws, d)
			}
			done++
			if fi < len(req.Curves) { // the leave-one-out folds come first, in curve order
				m := *res.ValidateMetrics
				out.Rows = append(out.Rows, LeaveOneOutRow{Curve: req.Curves[fi].Name, Law: law, Metrics: m})
				rows = append(rows, m)
			}
		}
		// the parameters' spread: the law fitted on every curve, with its replicates
		whole := all
		whole.Law, whole.Intervals, whole.Lines = law, true, false
		res, err := lawcore.Fit(ctx, whole, nil)
		if err != nil {
			return nil, err
		}
		nodes := calibrateDiscrepancy(draws, level)
		band := lawcore.Band{Level: level, Discrepancy: nodes, Reach: reach, Base: nodes[0].HalfWidth, Folds: len(draws), Design: designBoth}
		if len(res.Replicates) > 0 {
			band.Replicates, band.Quantile = []lawcore.Replicates{res.ReplicatesOf()}, lawcore.TQuantile(len(res.Replicates))
		}
		out.Summaries = append(out.Summaries, LeaveOneOutSummary{Law: law, Mean: lawcore.MeanMetrics(rows),
			Band: band, BandLevel: level, BandHalfWidth: band.Base})
	}
	out.ElapsedMs = float64(time.Since(began).Microseconds()) / 1000
	return out, nil
}
