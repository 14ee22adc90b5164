package auto_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Leave-one-schedule-out on the release's seven curves of 24K steps or fewer: each predicted
// from the other six with the annealing law (warmup as run) within the paper's ~0.2% mean
// error on unseen schedules (measured 0.00124), and a 90% band wider than that mean.
func TestLeaveOneScheduleOutTable(t *testing.T) {
	// the release's 24K-and-shorter curves (the laws package runs this with every law)
	req := testcurves.MPLRequest(t, "25", lawcore.FixedLambda(0.999), schedule.WarmupActual)
	var short []lawcore.Curve
	for _, c := range req.Curves {
		if c.Schedule.LastStep() <= 24000 {
			short = append(short, c)
		}
	}
	req.Curves = short
	res, err := auto.LeaveOneScheduleOut(context.Background(), req, []string{annealing.Name}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 7 || len(res.Summaries) != 1 {
		t.Fatalf("%d rows, %d summaries", len(res.Rows), len(res.Summaries))
	}
	for _, s := range res.Summaries {
		t.Logf("%s: mean PredE %.5f WorstE %.5f, 90%% band +-%.4f (%.0f ms in all)", s.Law, s.Mean.PredE, s.Mean.WorstE, s.BandHalfWidth, res.ElapsedMs)
		if !(s.Mean.PredE > 0 && s.Mean.PredE <= 0.002) || !(s.BandHalfWidth > s.Mean.PredE) {
			t.Errorf("%s: PredE %v (want above 0, at most the paper's 0.002), band %v (want above the PredE)", s.Law, s.Mean.PredE, s.BandHalfWidth)
		}
	}
	if _, err := auto.LeaveOneScheduleOut(context.Background(), lawcore.FitRequest{Curves: req.Curves[:1]}, nil, 0, nil); err == nil {
		t.Error("one curve accepted")
	}
}

// TestBandCoverage checks that bands calibrated by leave-one-schedule-out cover schedules
// they never saw at least at their stated rate. For each of the nine release curves (25M and
// 100M) in turn: the band is calibrated on the other eight alone (each left out in turn, and
// each one's last half forecast), the law is fitted on those eight, and the share of the
// ninth curve's points inside the band that Predict draws (the fit's replicates' spread and
// the discrepancy learnt from the folds) is measured, and whether the curve's last point is
// inside. The claims: the stated 90% holds on average over the points to within 5 points (at
// least 85%), and over the curves' last points, where a question is asked, within the range
// issue #44 states (0.80 to 0.97: 18 curves are 18 draws). And the bands say something: a
// stated 90% band that held more than 99% of the points on average would be too wide to tell
// schedules apart.
func TestBandCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 162 times")
	}
	covered, trials, worst, finals := 0.0, 0, 1.0, 0
	for _, size := range []string{"25", "100"} {
		all := testcurves.MPLRequest(t, size, lawcore.FixedLambda(0.999), schedule.WarmupActual)
		for j := range all.Curves {
			rest := all
			rest.Curves = append(append([]lawcore.Curve(nil), all.Curves[:j]...), all.Curves[j+1:]...)
			cal, err := auto.LeaveOneScheduleOut(context.Background(), rest, nil, 0.9, nil)
			if err != nil {
				t.Fatal(err)
			}
			band := cal.Summaries[0].Band
			fit := all
			fit.Curves = append([]lawcore.Curve(nil), all.Curves...)
			for k := range fit.Curves {
				fit.Curves[k].Role = lawcore.RoleFit
			}
			fit.Curves[j].Role = lawcore.RoleValidate
			res, err := lawcore.Fit(context.Background(), fit, nil)
			if err != nil {
				t.Fatal(err)
			}
			// the band reaches as far as the curves it was calibrated on, which the law was
			// fitted on: past that it widens
			if !reflect.DeepEqual(band.Reach, res.Reach) {
				t.Fatalf("%sM without %s: the band's reach %+v, the fit's %+v", size, all.Curves[j].Name, band.Reach, res.Reach)
			}
			held := all.Curves[j]
			pr, err := lawcore.Predict(lawcore.PredictRequest{Params: res.Params, WarmupConvention: string(res.Settings.WarmupConvention), Band: &band,
				Curves: []lawcore.PredictCurve{{Name: held.Name, Schedule: held.Schedule, Steps: held.Steps}}})
			if err != nil {
				t.Fatal(err)
			}
			in := 0
			for k, obs := range held.Loss {
				if obs >= pr[0].Lower[k] && obs <= pr[0].Upper[k] {
					in++
				}
			}
			share := float64(in) / float64(len(held.Loss))
			last := len(held.Loss) - 1
			if obs := held.Loss[last]; obs >= pr[0].Lower[last] && obs <= pr[0].Upper[last] {
				finals++
			}
			t.Logf("%sM %-18s band ±%.4f (%d folds) to ±%.4f at its end: covers %.2f", size, held.Name, band.Base, band.Folds,
				(pr[0].Upper[last]-pr[0].Lower[last])/2/pr[0].Loss[last], share)
			covered += share
			worst = math.Min(worst, share)
			trials++
		}
	}
	mean := covered / float64(trials)
	final := float64(finals) / float64(trials)
	t.Logf("mean coverage %.3f over %d held-out curves (stated 0.90), worst %.2f; their last points covered %d of %d", mean, trials, worst, finals, trials)
	if !(mean >= 0.85 && mean <= 0.99) {
		t.Errorf("bands cover %.3f of held-out points, stated 0.90 (want 0.85 to 0.99)", mean)
	}
	if !(final >= 0.80 && final <= 0.97) {
		t.Errorf("bands hold %.3f of the held-out curves' last points, stated 0.90 (want 0.80 to 0.97)", final)
	}
}
