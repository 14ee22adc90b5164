package lawcore_test

import (
	"context"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
)

func TestLeaveOneScheduleOutTable(t *testing.T) {
	// the release's 24K-and-shorter curves (the laws package runs this with every law)
	req := testcurves.MPLRequest(t, "25", lawcore.FixedLambda(0.999), lawcore.WarmupActual)
	var short []lawcore.Curve
	for _, c := range req.Curves {
		if c.Schedule.LastStep() <= 24000 {
			short = append(short, c)
		}
	}
	req.Curves = short
	res, err := lawcore.LeaveOneScheduleOut(context.Background(), req, []string{lawcore.LawAnnealing}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 7 || len(res.Summaries) != 1 {
		t.Fatalf("%d rows, %d summaries", len(res.Rows), len(res.Summaries))
	}
	for _, s := range res.Summaries {
		t.Logf("%s: mean PredE %.5f WorstE %.5f, 90%% band +-%.4f (%.0f ms in all)", s.Law, s.Mean.PredE, s.Mean.WorstE, s.BandHalfWidth, res.ElapsedMs)
		if s.Mean.PredE <= 0 || s.Mean.PredE > 0.01 || s.BandHalfWidth <= s.Mean.PredE {
			t.Errorf("%s: PredE %v, band %v", s.Law, s.Mean.PredE, s.BandHalfWidth)
		}
	}
	if _, err := lawcore.LeaveOneScheduleOut(context.Background(), lawcore.FitRequest{Curves: req.Curves[:1]}, nil, 0, nil); err == nil {
		t.Error("one curve accepted")
	}
}

// TestBandCoverage checks that bands calibrated by leave-one-schedule-out cover schedules
// they never saw at about their stated rate. For each of the nine release curves (25M and
// 100M) in turn: the band is calibrated on the other eight alone (each left out in turn),
// the law is fitted on those eight, and the share of the ninth curve's points inside
// pred*(1 +- halfWidth) is measured. The mean share over the eighteen trials must be near
// the stated 90%.
func TestBandCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 162 times")
	}
	covered, trials := 0.0, 0
	for _, size := range []string{"25", "100"} {
		all := testcurves.MPLRequest(t, size, lawcore.FixedLambda(0.999), lawcore.WarmupActual)
		for j := range all.Curves {
			rest := all
			rest.Curves = append(append([]lawcore.Curve(nil), all.Curves[:j]...), all.Curves[j+1:]...)
			cal, err := lawcore.LeaveOneScheduleOut(context.Background(), rest, nil, 0.9, nil)
			if err != nil {
				t.Fatal(err)
			}
			q := cal.Summaries[0].BandHalfWidth
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
			in := 0
			for k, p := range res.Curves[j].Predicted {
				obs := all.Curves[j].Loss[k]
				if obs >= p*(1-q) && obs <= p*(1+q) {
					in++
				}
			}
			share := float64(in) / float64(len(res.Curves[j].Predicted))
			t.Logf("%sM %-18s band +-%.4f covers %.2f", size, all.Curves[j].Name, q, share)
			covered += share
			trials++
		}
	}
	mean := covered / float64(trials)
	t.Logf("mean coverage %.3f over %d held-out curves (stated 0.90)", mean, trials)
	if mean < 0.8 || mean > 0.99 {
		t.Errorf("bands cover %.3f of held-out points, stated 0.90", mean)
	}
}
