package lawcore

import (
	"context"
	"math"
	"testing"
)

// longRequest is one WSD run of n per-step points from the law with truth, its loss wobbling
// by 0.1% (deterministic), lambda fitted or not.
func longRequest(truth Params, n int, fitLambda bool) FitRequest {
	sched := Schedule{Kind: KindWSD, Total: n, Peak: 3e-4, Warmup: 1000, Decay: "linear", DecayFraction: 0.2, Final: 3e-5}
	lr, _ := sched.LR()
	a, _ := ComputeAreas(CountedLR(lr, sched.Warmup, WarmupPeak), truth.Lambda)
	c := Curve{Name: "long", Schedule: &sched, Steps: make([]float64, n), Loss: make([]float64, n)}
	for i := range c.Steps {
		st := i + 1
		c.Steps[i] = float64(st)
		c.Loss[i] = truth.Loss(a.S1[st], a.S2[st]) * (1 + 1e-3*math.Sin(float64(st)*7.77))
	}
	req := FitRequest{Curves: []Curve{c}, Lambda: FixedLambda(truth.Lambda)}
	if fitLambda {
		req.Lambda = FittedLambda()
	}
	return req
}

// Past thinAbove points the starts are searched on a thinned objective and only the best is
// polished on all points: the known parameters still come back, lambda included.
func TestFitLongCurveThinsTheSearch(t *testing.T) {
	truth := Params{L0: 2.5, A: 0.45, Alpha: 0.5, C: 0.5, Lambda: 0.998}
	n := thinAbove + 50_000
	if testing.Short() {
		t.Skip("fits 250,000 points")
	}
	for _, fitLambda := range []bool{false, true} {
		res, err := Fit(context.Background(), longRequest(truth, n, fitLambda), nil)
		if err != nil {
			t.Fatal(err)
		}
		p := annealingParams(t, res)
		t.Logf("lambda fitted %v: %+v, %d evaluations, %.0f ms", fitLambda, p, res.Search.Evaluations, res.ElapsedMs)
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"L0", p.L0, truth.L0}, {"A", p.A, truth.A}, {"alpha", p.Alpha, truth.Alpha}, {"C", p.C, truth.C}, {"lambda", p.Lambda, truth.Lambda}} {
			if math.Abs(c.got-c.want) > 2e-3*c.want {
				t.Errorf("lambda fitted %v: %s = %.5f, want %.5f within 0.2%%", fitLambda, c.name, c.got, c.want)
			}
		}
		if m := res.Curves[0].Metrics; len(res.Curves[0].Predicted) != n || m.PredE > 1e-3 {
			t.Errorf("%d points predicted, PredE %v", len(res.Curves[0].Predicted), m.PredE)
		}
	}
}

// A thinned objective holds every `every`-th point and its value tracks the full one's.
func TestThinnedObjectiveKeepsEveryNthPoint(t *testing.T) {
	req := longRequest(Params{L0: 2.5, A: 0.45, Alpha: 0.5, C: 0.5, Lambda: 0.999}, 10_001, false)
	job, err := req.job()
	if err != nil {
		t.Fatal(err)
	}
	model, err := job.law.Bind(job.fitRuns, BindOptions{Free: job.freeMask()})
	if err != nil {
		t.Fatal(err)
	}
	full := newObjective(context.Background(), model, job.spec, job.logObs, job.delta, job.free, job.base)
	thin := full.thinned(10)
	theta := Params{L0: 2.4, A: 0.5, Alpha: 0.45, C: 0.4, Lambda: 0.999}.Values()
	vec, _ := job.spec.Theta(theta)
	fullPred, thinPred := make([]float64, full.Points()), make([]float64, thin.Points())
	full.model.Eval(vec, 0, fullPred, nil)
	thin.model.Eval(vec, 0, thinPred, nil)
	if thin.Points() != 1001 || thin.logObs[1] != full.logObs[10] || thinPred[1000] != fullPred[10000] || thinPred[7] != fullPred[70] {
		t.Fatalf("%d points; point 1 %v (want %v)", thin.Points(), thin.logObs[1], full.logObs[10])
	}
	perPoint := func(o *Objective) float64 { return o.Value(vec, nil) / float64(o.Points()) }
	if a, b := perPoint(full), perPoint(thin); math.Abs(a-b) > 0.01*a {
		t.Errorf("mean loss per point: full %v, thinned %v", a, b)
	}
}
