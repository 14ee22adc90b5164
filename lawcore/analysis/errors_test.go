package analysis

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Bad options give an *input.Error naming the field, never a panic.
func TestAnalysisErrorsNameTheField(t *testing.T) {
	setup := func(f func(*Setup)) Setup { s := DefaultSetup(); f(&s); return s }
	cases := []struct {
		name  string
		run   func() error
		field string
	}{
		{"negative A", func() error {
			o := DefaultWSDRatioOptions()
			o.Setup = setup(func(s *Setup) { s.Params["A"] = -1 })
			_, err := WSDRatio(context.Background(), o, nil)
			return err
		}, "A"},
		{"lambda 1", func() error {
			o := DefaultDecompositionOptions()
			o.Params["lambda"] = 1
			_, err := Decompose(context.Background(), o, nil)
			return err
		}, "lambda"},
		{"NaN peak", func() error {
			o := DefaultConstantVsCosineOptions()
			o.Peak = math.NaN()
			_, err := ConstantVsCosine(context.Background(), o, nil)
			return err
		}, "peak"},
		{"peak not a learning rate", func() error {
			o := DefaultWSDRatioOptions()
			o.Peak = 2000 // a unit mistake: the sweep used to drop every schedule and answer nothing
			_, err := WSDRatio(context.Background(), o, nil)
			return err
		}, "peak"},
		{"bad convention", func() error {
			o := DefaultCosineCycleOptions()
			o.WarmupConvention = "both"
			_, err := CosineCycle(context.Background(), o, nil)
			return err
		}, "warmupConvention"},
		{"points", func() error {
			o := DefaultCosineCycleOptions()
			o.Points = 1
			_, err := CosineCycle(context.Background(), o, nil)
			return err
		}, "points"},
		{"total within warmup", func() error {
			o := DefaultCosineCycleOptions()
			o.Total = 400
			_, err := CosineCycle(context.Background(), o, nil)
			return err
		}, "total"},
		{"floor above 1", func() error {
			o := DefaultCosineCycleOptions()
			o.Floors = []float64{0, 1.5}
			_, err := CosineCycle(context.Background(), o, nil)
			return err
		}, "floors[1]"},
		{"min above max", func() error {
			o := DefaultConstantVsCosineOptions()
			o.MinTotal, o.MaxTotal = 50000, 20000
			_, err := ConstantVsCosine(context.Background(), o, nil)
			return err
		}, "maxTotal"},
		{"unknown decay", func() error {
			o := DefaultWSDRatioOptions()
			o.Decay = "sigmoid"
			_, err := WSDRatio(context.Background(), o, nil)
			return err
		}, "decay"},
		{"exponential to 0", func() error {
			o := DefaultWSDRatioOptions()
			o.Decay = "exponential"
			_, err := WSDRatio(context.Background(), o, nil)
			return err
		}, "floor"},
		{"too many steps", func() error {
			o := DefaultWSDRatioOptions()
			o.Totals = []int{9_000_000, 9_000_000}
			o.Ratios = numeric.Linspace(0.01, 0.9, 200)
			_, err := WSDRatio(context.Background(), o, nil)
			return err
		}, "totals"},
		{"unknown shape", func() error {
			o := DefaultAnnealFunctionOptions()
			o.Shapes = []string{"cosine", "wobbly"}
			_, err := AnnealFunction(context.Background(), o, nil)
			return err
		}, "shapes[1]"},
		{"ratio beyond warmup", func() error {
			o := DefaultAnnealFunctionOptions()
			o.Ratios = []float64{0.1, 0.999}
			_, err := AnnealFunction(context.Background(), o, nil)
			return err
		}, "ratios[1]"},
		{"re-warmup too long", func() error {
			o := DefaultRewarmupOptions()
			o.Lengths = []int{100, 60000}
			_, err := Rewarmup(context.Background(), o, nil)
			return err
		}, "lengths[1]"},
		{"params per lambda", func() error {
			o := DefaultLambdaOptions()
			o.ParamsByLambda = []annealing.Params{Fig2Params()}
			_, err := Lambda(context.Background(), o, nil)
			return err
		}, "paramsByLambda"},
		{"bad params for a lambda", func() error {
			o := DefaultLambdaOptions()
			bad := Fig2Params()
			bad.C = -1
			o.ParamsByLambda = []annealing.Params{Fig2Params(), bad}
			_, err := Lambda(context.Background(), o, nil)
			return err
		}, "C"},
		{"unknown family", func() error {
			o := DefaultOptimizeOptions()
			o.Families = []string{"wsd", "magic"}
			_, err := OptimizeSchedule(context.Background(), o, nil)
			return err
		}, "families[1]"},
		{"knots", func() error {
			o := DefaultOptimizeOptions()
			o.Knots = 1000
			_, err := OptimizeSchedule(context.Background(), o, nil)
			return err
		}, "knots"},
		{"tuples", func() error {
			o := DefaultChinchillaOptions()
			o.Tuples = 0
			_, err := ChinchillaReduction(context.Background(), o, nil)
			return err
		}, "tuples"},
		{"range", func() error {
			o := DefaultChinchillaOptions()
			o.C = [2]float64{0.6, 0.2}
			_, err := ChinchillaReduction(context.Background(), o, nil)
			return err
		}, "C"},
		{"decreasing totals", func() error {
			o := DefaultChinchillaOptions()
			o.Totals = []int{5000, 10000, 8000, 20000}
			_, err := ChinchillaReduction(context.Background(), o, nil)
			return err
		}, "totals[2]"},
		{"compute n", func() error {
			_, err := ComputeToFit(ComputeOptions{N: 0, Interval: 1000})
			return err
		}, "n"},
		{"bad schedule", func() error {
			o := DefaultDecompositionOptions()
			o.Schedules = []NamedSchedule{{Name: "mine", Schedule: schedule.Schedule{Kind: schedule.KindWSD, Total: 1000, Peak: 1e-4, DecayFraction: 2}}}
			_, err := Decompose(context.Background(), o, nil)
			return err
		}, "schedule.decayFraction"},
	}
	for _, c := range cases {
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic %v", c.name, r)
				}
			}()
			err = c.run()
		}()
		var ie *input.Error
		if !errors.As(err, &ie) {
			t.Errorf("%s: error %v, want an *input.Error", c.name, err)
			continue
		}
		if !strings.Contains(ie.Field, c.field) && !strings.Contains(ie.Where, c.field) {
			t.Errorf("%s: %q does not name %q", c.name, err, c.field)
		}
	}
}

// A cooldown ratio refused says its bounds in steps, as a researcher reads them: 1 decay step
// at the least, and what the warmup leaves of the run at the most (not "from
// 0.0016666666666666668 to 0.16666666666666666").
func TestRatiosRefusedInSteps(t *testing.T) {
	short := DefaultAnnealFunctionOptions()
	short.Total, short.Ratios = 600, []float64{0.1, 0.2}
	tiny := DefaultWSDRatioOptions()
	tiny.Ratios = []float64{1e-5}
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"past the warmup", func() error { _, err := AnnealFunction(context.Background(), short, nil); return err },
			"ratios[1]: 0.2 is 120 decay steps, more than the 100 a run of 600 steps has after its warmup of 500: at most 0.1667"},
		{"no decay step", func() error {
			short.Ratios = []float64{0}
			_, err := AnnealFunction(context.Background(), short, nil)
			return err
		},
			"ratios[0]: 0 is no decay step in a run of 600 steps: at least 0.001667 (1 step)"},
		{"no ratio of a WSD sweep", func() error { _, err := WSDRatio(context.Background(), tiny, nil); return err },
			"ratios: no ratio gives a run of 10000 steps a cooldown: each must give at least 1 decay step (a ratio of at least 5e-05) and at most the 9500 steps after the warmup of 500 (a ratio of at most 0.95)"},
		// the λ analysis sweeps the same ratios: it answered with empty sweeps and zero optima,
		// on which the page failed ("Cannot read properties of null")
		{"no ratio of the λ analysis's sweep", func() error {
			o := DefaultLambdaOptions()
			o.Ratios = []float64{0}
			_, err := Lambda(context.Background(), o, nil)
			return err
		},
			"ratios: no ratio gives a run of 50000 steps a cooldown: each must give at least 1 decay step (a ratio of at least 1e-05) and at most the 49500 steps after the warmup of 500 (a ratio of at most 0.99)"},
	} {
		if err := c.run(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
	}
}
