package s2power

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// With zeta 1 the law is the annealing law.
func TestZetaOneIsTheAnnealingLaw(t *testing.T) {
	sched := schedule.Schedule{Kind: schedule.KindWSD, Total: 20000, Peak: 3e-4, Warmup: 500, Decay: "linear", DecayFraction: 0.3}
	ann := annealing.Params{L0: 2.6, A: 0.43, Alpha: 0.55, C: 0.41, Lambda: 0.999}
	v := ann.Values()
	v["zeta"] = 1
	got, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: v, Points: 200, Curves: []lawcore.PredictCurve{{Name: "wsd", Schedule: &sched}}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := lawcore.Predict(lawcore.PredictRequest{Params: ann.Values(), Points: 200, Curves: []lawcore.PredictCurve{{Name: "wsd", Schedule: &sched}}})
	for k := range want[0].Loss {
		if !(math.Abs(got[0].Loss[k]-want[0].Loss[k]) <= 1e-12) {
			t.Fatalf("step %v: %.12g, the annealing law %.12g", want[0].Steps[k], got[0].Loss[k], want[0].Loss[k])
		}
	}
}

// A re-warmup makes S2 negative: the law refuses the curve, naming it and the step.
func TestNegativeAreaNamesTheCurve(t *testing.T) {
	rewarmup := schedule.Schedule{Kind: schedule.KindConcat, Segments: []schedule.Schedule{
		{Kind: schedule.KindCosine, Total: 10000, Peak: 3e-4, Warmup: 500},
		{Kind: schedule.KindCosine, Total: 10000, Peak: 6e-4, Warmup: 1000},
	}}
	v := lawcore.Values{"L0": 2.6, "A": 0.43, "alpha": 0.55, "C": 0.41, "zeta": 1.1, "lambda": 0.999}
	_, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: v, Points: 100, Curves: []lawcore.PredictCurve{{Name: "continual", Schedule: &rewarmup}}})
	var ie *input.Error
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), `curve "continual"`) || !strings.Contains(err.Error(), "S2 is negative at step") {
		t.Errorf("got %v", err)
	}
	// the warmup counted as run is a re-warmup for the law
	constant := schedule.Schedule{Kind: schedule.KindConstant, Total: 5000, Peak: 3e-4, Warmup: 500}
	req := lawcore.FitRequest{Law: Name, WarmupConvention: "actual", Curves: []lawcore.Curve{{Name: "run", Steps: []float64{1000, 3000, 5000}, Loss: []float64{4, 3.5, 3.3}, Schedule: &constant}}}
	if _, err := lawcore.Fit(context.Background(), req, nil); err == nil || !strings.Contains(err.Error(), `curve "run"`) {
		t.Errorf("warmup as run: got %v", err)
	}
}

// On the paper's Fig. 2 the variant fits at least as well as the annealing law (it contains
// it), with zeta near 1, as the paper found: no farther from 1 than the paper's own example
// (1.125, in its appendix on S2^zeta).
func TestFig2(t *testing.T) {
	req := testcurves.Fig2(t)
	ann, err := lawcore.Fit(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Law = Name
	res, err := lawcore.Fit(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Fig. 2: %v objective %.5g (annealing law %.5g)", res.Params, res.Objective, ann.Objective)
	if !(res.Objective <= ann.Objective*(1+1e-6)) {
		t.Errorf("objective %.6g, above the annealing law's %.6g", res.Objective, ann.Objective)
	}
	if zeta := res.Params["zeta"]; !(math.Abs(zeta-1) <= 0.125) {
		t.Errorf("zeta = %.4g, farther from 1 than the paper's 1.125", zeta)
	}
}

// The refits of a fit's intervals share the fit's areas: the same numbers as binding their runs.
func TestSubsetMatchesBind(t *testing.T) {
	held := []float64{2.6, 0.43, 0.55, 0.41, 0.9, 0.999}
	other := []float64{2.6, 0.43, 0.55, 0.41, 0.9, 0.99}
	testcurves.SubsetMatchesBind(t, Law, lawcore.BindOptions{Free: []bool{true, true, true, true, true, true}}, [][]float64{held, other})
}
