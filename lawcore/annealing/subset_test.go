package annealing_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// The annealing law's refits share the fit's areas: the same numbers as binding their runs
// (TestIntervalsShareTheFitsAreas checks the intervals themselves).
func TestAnnealingSubsetMatchesBind(t *testing.T) {
	held := []float64{2.6, 0.43, 0.55, 0.41, 0.999}
	other := []float64{2.6, 0.43, 0.55, 0.41, 0.99}
	testcurves.SubsetMatchesBind(t, annealing.Law, lawcore.BindOptions{Free: []bool{true, true, true, true, true}}, [][]float64{held, other})
}

// boundOnly is the annealing law under another name, its models without Subset: the
// jackknife of a fit's intervals binds each refit's points again.
type boundOnly struct{ lawcore.Law }

type boundOnlyModel struct{ lawcore.Model }

var boundOnlySpec = func() *lawcore.Spec {
	s := *annealing.Law.Spec()
	s.Name = "annealing, bound again"
	return &s
}()

func (boundOnly) Spec() *lawcore.Spec { return boundOnlySpec }

func (l boundOnly) Bind(runs []lawcore.Run, opts lawcore.BindOptions) (lawcore.Model, error) {
	m, err := l.Law.Bind(runs, opts)
	return boundOnlyModel{m}, err
}

func init() { lawcore.Register(boundOnly{annealing.Law}) }

// twoRuns is a cosine and a constant run of 20,000 steps with 40 points each, their losses the
// annealing law's at L0 2.6, A 0.45, alpha 0.5, C 0.4, lambda 0.999, with a deterministic wobble.
func twoRuns(t *testing.T, lambda lawcore.LambdaSetting) lawcore.FitRequest {
	t.Helper()
	var curves []lawcore.Curve
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
		curves = append(curves, lawcore.Curve{Name: kind, Role: lawcore.RoleFit, Steps: steps, Loss: loss, Schedule: s})
	}
	return lawcore.FitRequest{Curves: curves, Lambda: lambda, WarmupConvention: "peak", HuberDelta: 1e-3, Intervals: true}
}

// The jackknife's refits of the annealing law take their areas from the fit's (Subset): the
// intervals and replicates are, to the last bit, those of refits bound on their points anew.
func TestIntervalsShareTheFitsAreas(t *testing.T) {
	model, err := annealing.Law.Bind(nil, lawcore.BindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := model.(lawcore.Subsetter); !ok {
		t.Fatal("the annealing law's model is not a Subsetter")
	}
	for _, c := range []struct {
		name   string
		lambda lawcore.LambdaSetting
	}{{"lambda held", lawcore.FixedLambda(0.999)}, {"lambda fitted", lawcore.FittedLambda()}} {
		t.Run(c.name, func(t *testing.T) {
			req := twoRuns(t, c.lambda)
			shared, err := lawcore.Fit(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Law = boundOnlySpec.Name
			bound, err := lawcore.Fit(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(shared.Intervals) == 0 || len(shared.Replicates) != 10 {
				t.Fatalf("no intervals: %v, %d replicates", shared.Intervals, len(shared.Replicates))
			}
			// the same numbers to the last bit: a point's areas do not depend on the others
			if !reflect.DeepEqual(shared.Intervals, bound.Intervals) || !reflect.DeepEqual(shared.Replicates, bound.Replicates) {
				t.Errorf("intervals from the fit's areas %v, bound again %v", shared.Intervals, bound.Intervals)
			}
		})
	}
}
