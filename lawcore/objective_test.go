package lawcore

import (
	"context"
	"math"
	"testing"

	"github.com/lawcalc/annealing/lawcore/schedule"
)

// A thinned objective holds every `every`-th point and its value tracks the full one's.
func TestThinnedObjectiveKeepsEveryNthPoint(t *testing.T) {
	// one run logged at every one of 10,000 steps, its loss from the law (any loss would do)
	sched := schedule.Schedule{Kind: schedule.KindWSD, Total: 10_001, Peak: 3e-4, Warmup: 1000, Decay: "linear", DecayFraction: 0.2}
	c := Curve{Name: "long", Schedule: &sched}
	for st := 1; st <= sched.Total; st++ {
		c.Steps = append(c.Steps, float64(st))
		c.Loss = append(c.Loss, 3+1/math.Sqrt(float64(st)))
	}
	req := FitRequest{Curves: []Curve{c}}
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
	if a, b := perPoint(full), perPoint(thin); !(math.Abs(a-b) <= 0.01*a) {
		t.Errorf("mean loss per point: full %v, thinned %v", a, b)
	}
}
