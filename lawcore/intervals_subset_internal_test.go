package lawcore

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/lawcalc/annealing/lawcore/schedule"
)

// boundOnly hides a model's Subset: the intervals bind each refit's points again.
type boundOnly struct{ Model }

// twoRuns is a cosine and a constant run of 20,000 steps with 40 points each, their losses the
// annealing law's at L0 2.6, A 0.45, alpha 0.5, C 0.4, lambda 0.999, with a deterministic wobble.
func twoRuns(t *testing.T, lambda LambdaSetting) FitRequest {
	t.Helper()
	var curves []Curve
	for _, kind := range []string{schedule.KindCosine, schedule.KindConstant} {
		s := &schedule.Schedule{Kind: kind, Total: 20000, Peak: 2e-4, Final: 0, Warmup: 500}
		lr, err := s.LR()
		if err != nil {
			t.Fatal(err)
		}
		var steps, loss []float64
		for i := 1; i <= 40; i++ {
			st := 500 * i
			s1, s2 := schedule.FinalAreas(lr[:st+1], 0.999)
			steps = append(steps, float64(st))
			loss = append(loss, 2.6+0.45*math.Pow(s1, -0.5)-0.4*s2+0.002*math.Sin(float64(3*i)))
		}
		curves = append(curves, Curve{Name: kind, Role: RoleFit, Steps: steps, Loss: loss, Schedule: s})
	}
	return FitRequest{Curves: curves, Lambda: lambda, WarmupConvention: "peak", HuberDelta: 1e-3}
}

func TestIntervalsShareTheFitsAreas(t *testing.T) {
	for _, c := range []struct {
		name   string
		lambda LambdaSetting
	}{{"lambda held", FixedLambda(0.999)}, {"lambda fitted", FittedLambda()}} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			job, err := twoRuns(t, c.lambda).job()
			if err != nil {
				t.Fatal(err)
			}
			model, err := job.law.Bind(job.fitRuns, BindOptions{Free: job.freeMask(), Theta: job.base})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := model.(Subsetter); !ok {
				t.Fatal("the annealing law's model is not a Subsetter")
			}
			theta, _, err := optimum(newObjective(ctx, model, job.spec, job.logObs, job.delta, job.free, job.base), func(float64) {}, maxStarts, false)
			if err != nil {
				t.Fatal(err)
			}
			shared, sharedReplicates, err := job.intervals(ctx, theta, model, func(float64) {})
			if err != nil {
				t.Fatal(err)
			}
			bound, boundReplicates, err := job.intervals(ctx, theta, boundOnly{model}, func(float64) {})
			if err != nil {
				t.Fatal(err)
			}
			if len(shared) == 0 || len(sharedReplicates) != intervalBlocks {
				t.Fatalf("no intervals: %v, %d replicates", shared, len(sharedReplicates))
			}
			// the same numbers to the last bit: a point's areas do not depend on the others
			if !reflect.DeepEqual(shared, bound) || !reflect.DeepEqual(sharedReplicates, boundReplicates) {
				t.Errorf("intervals from the fit's areas %v, bound again %v", shared, bound)
			}
		})
	}
}

func TestAreaTableSubsetIsTheTableOfItsPoints(t *testing.T) {
	lr := make([]float64, 3001)
	for i := range lr {
		lr[i] = 1e-3 * (1 - float64(i)/4000)
	}
	runs := []Run{{Name: "a", LR: lr, Steps: []int{10, 100, 1000, 2000, 3000}}, {Name: "b", LR: lr[:2001], Steps: []int{5, 50, 500, 2000}}}
	keep := []bool{true, false, true, false, true, false, true, true, false}
	fresh := func() *AreaTable { return NewAreaTable(subsetRuns(runs, keep), true) }
	for _, c := range []struct {
		name    string
		subset  func() *AreaTable
		lambdas []float64
	}{
		{"of a table computed at 0.999", func() *AreaTable { return NewAreaTable(runs, true).At(0.999).Subset(keep) }, []float64{0.999, 0.99}},
		{"of a table not computed yet", func() *AreaTable { return NewAreaTable(runs, true).Subset(keep) }, []float64{0.99, 0.999}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sub, want := c.subset(), fresh()
			if sub.Points() != 5 {
				t.Fatalf("%d points, want 5", sub.Points())
			}
			for _, lambda := range c.lambdas {
				got, w := sub.At(lambda), want.At(lambda)
				if !reflect.DeepEqual(got.LogS1, w.LogS1) || !reflect.DeepEqual(got.S2, w.S2) || !reflect.DeepEqual(got.DS2, w.DS2) {
					t.Errorf("at lambda %v: S2 %v, DS2 %v; the table of the points gives %v, %v", lambda, got.S2, got.DS2, w.S2, w.DS2)
				}
			}
		})
	}
}
