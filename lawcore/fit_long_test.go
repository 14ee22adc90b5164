package lawcore_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// longRequest is one WSD run of n per-step points from the law with truth, its loss wobbling
// by 0.1% (deterministic), lambda fitted or not.
func longRequest(truth annealing.Params, n int, fitLambda bool) lawcore.FitRequest {
	sched := schedule.Schedule{Kind: schedule.KindWSD, Total: n, Peak: 3e-4, Warmup: 1000, Decay: "linear", DecayFraction: 0.2, Final: 3e-5}
	lr, _ := sched.LR()
	a, _ := schedule.ComputeAreas(schedule.CountedLR(lr, sched.Warmup, schedule.WarmupPeak), truth.Lambda)
	c := lawcore.Curve{Name: "long", Schedule: &sched, Steps: make([]float64, n), Loss: make([]float64, n)}
	for i := range c.Steps {
		st := i + 1
		c.Steps[i] = float64(st)
		c.Loss[i] = truth.Loss(a.S1[st], a.S2[st]) * (1 + 1e-3*math.Sin(float64(st)*7.77))
	}
	req := lawcore.FitRequest{Curves: []lawcore.Curve{c}, Lambda: lawcore.FixedLambda(truth.Lambda)}
	if fitLambda {
		req.Lambda = lawcore.FittedLambda()
	}
	return req
}

// checkRecovered fails the test unless every parameter of p is truth's within the relative tol.
func checkRecovered(t *testing.T, what string, p, truth annealing.Params, tol float64) {
	t.Helper()
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"L0", p.L0, truth.L0}, {"A", p.A, truth.A}, {"alpha", p.Alpha, truth.Alpha}, {"C", p.C, truth.C}, {"lambda", p.Lambda, truth.Lambda}} {
		if !(math.Abs(c.got-c.want) <= tol*c.want) {
			t.Errorf("%s: %s = %.5f, want %.5f within %g%%", what, c.name, c.got, c.want, 100*tol)
		}
	}
}

// Past thinAbove points the starts are searched on a thinned objective and only the best is
// polished on all points: the known parameters still come back, lambda included.
func TestFitLongCurveThinsTheSearch(t *testing.T) {
	truth := annealing.Params{L0: 2.5, A: 0.45, Alpha: 0.5, C: 0.5, Lambda: 0.998}
	n := lawcore.ThinAbove + 50_000
	if testing.Short() {
		t.Skip("fits 250,000 points")
	}
	for _, fitLambda := range []bool{false, true} {
		res, err := lawcore.Fit(context.Background(), longRequest(truth, n, fitLambda), nil)
		if err != nil {
			t.Fatal(err)
		}
		p := annealingParams(t, res)
		t.Logf("lambda fitted %v: %+v, %d evaluations, %.0f ms", fitLambda, p, res.Search.Evaluations, res.ElapsedMs)
		checkRecovered(t, fmt.Sprintf("lambda fitted %v", fitLambda), p, truth, 2e-3)
		if m := res.Curves[0].Metrics; len(res.Curves[0].Predicted) != n || m.PredE > 1e-3 {
			t.Errorf("%d points predicted, PredE %v", len(res.Curves[0].Predicted), m.PredE)
		}
	}
}

// Auto's fold fits polish on the thinned objective only (on a million points the polish on all
// of them took minutes with lambda fitted): fewer evaluations on every point, and the law's
// parameters still come back, to 0.5%, which is all a fold fit needs to rank laws by their
// held-out error.
func TestFoldFitsPolishThinned(t *testing.T) {
	truth := annealing.Params{L0: 2.5, A: 0.45, Alpha: 0.5, C: 0.5, Lambda: 0.998}
	n := lawcore.ThinAbove + 50_000
	if testing.Short() {
		t.Skip("fits 250,000 points")
	}
	for _, fitLambda := range []bool{false, true} {
		req := longRequest(truth, n, fitLambda)
		full, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		thinned, err := lawcore.FitThinnedOnly(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if thinned.Search.Evaluations >= full.Search.Evaluations {
			t.Errorf("lambda fitted %v: %d evaluations thinned only, %d with the polish on all points", fitLambda, thinned.Search.Evaluations, full.Search.Evaluations)
		}
		p := annealingParams(t, thinned)
		t.Logf("lambda fitted %v: %+v, %d evaluations (%d with the polish on all), %.0f ms (%.0f)", fitLambda, p, thinned.Search.Evaluations, full.Search.Evaluations, thinned.ElapsedMs, full.ElapsedMs)
		checkRecovered(t, fmt.Sprintf("lambda fitted %v, thinned only", fitLambda), p, truth, 5e-3)
	}
}
