package lrweighted

import (
	"context"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// As epsilon goes to 0 the law is the annealing law: with epsilon 1e-12 they predict the same
// loss to 1e-9 on a WSD run (to a positive final rate: a rate of 0 weighs 0^epsilon = 0 for
// every epsilon > 0).
func TestEpsilonZeroIsTheAnnealingLaw(t *testing.T) {
	sched := schedule.Schedule{Kind: schedule.KindWSD, Total: 20000, Peak: 3e-4, Final: 3e-5, Warmup: 500, Decay: "linear", DecayFraction: 0.3}
	ann := annealing.Params{L0: 2.6, A: 0.43, Alpha: 0.55, C: 0.41, Lambda: 0.999}
	v := ann.Values()
	v["epsilon"] = 1e-12
	got, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: v, Points: 200, Curves: []lawcore.PredictCurve{{Name: "wsd", Schedule: &sched}}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := lawcore.Predict(lawcore.PredictRequest{Params: ann.Values(), Points: 200, Curves: []lawcore.PredictCurve{{Name: "wsd", Schedule: &sched}}})
	if err != nil {
		t.Fatal(err)
	}
	for k := range want[0].Loss {
		if !(math.Abs(got[0].Loss[k]-want[0].Loss[k]) <= 1e-9) {
			t.Fatalf("step %v: %.12g, the annealing law %.12g", want[0].Steps[k], got[0].Loss[k], want[0].Loss[k])
		}
	}
}

// By hand: lr 1, 1, 0.5, 0.5 with lambda 0.5 gives m = 0, 0, 0.5, 0.25; with epsilon 1,
// S2_eps = 0.5*0.5 + 0.25*0.5 = 0.375 at step 3.
func TestWeightedAreaByHand(t *testing.T) {
	p := lawcore.Values{"L0": 1, "A": 2, "alpha": 0.5, "C": 0.1, "epsilon": 1, "lambda": 0.5}
	got, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: p, Curves: []lawcore.PredictCurve{{Name: "hand", LR: []float64{1, 1, 0.5, 0.5}}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + 2/math.Sqrt(3) - 0.1*0.375; !(math.Abs(got[0].FinalLoss-want) <= 1e-14) {
		t.Errorf("final loss %.15g, want %.15g", got[0].FinalLoss, want)
	}
}

// On the paper's Fig. 2 the variant fits at least as well as the annealing law (it contains
// it), and epsilon comes out small, as the paper found ("very close to 0"): small enough that
// the weight eta^epsilon changes by less than 1% over two decades of LR (epsilon*ln 100 <= 0.01).
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
	if eps := res.Params["epsilon"]; !(eps*math.Log(100) <= 0.01) {
		t.Errorf("epsilon = %.3g: eta^epsilon changes by more than 1%% over two decades of LR", eps)
	}
}
