package lawcore_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// truthWithin is a parameter's true value and the widest its 90% interval may be.
type truthWithin struct{ value, width float64 }

// checkIntervals asserts that each parameter's 90% interval from the fit holds the truth that
// drew the data (TestIntervalsCoverTheTruth shows they do at their stated rate), and is no
// wider than given: noise of 0.01-0.02% on 900-1800 points pins the parameters that closely.
func checkIntervals(t *testing.T, what string, res *lawcore.FitResult, truth map[string]truthWithin) {
	t.Helper()
	for name, want := range truth {
		iv, ok := res.Intervals[name]
		if !ok {
			t.Errorf("%s: no interval for %s", what, name)
			continue
		}
		if !(iv.Low <= want.value && want.value <= iv.High) || !(iv.High-iv.Low <= want.width) {
			t.Errorf("%s: %s = %.5f, interval [%.5f, %.5f]; want one holding %.5f, at most %.4g wide", what, name, res.Params[name], iv.Low, iv.High, want.value, want.width)
		}
	}
}

func TestFitRecoversKnownParameters(t *testing.T) {
	truth := annealing.Params{L0: 2.4, A: 0.5, Alpha: 0.45, C: 0.35, Lambda: 0.999}
	for _, conv := range []schedule.Convention{schedule.WarmupPeak, schedule.WarmupActual} {
		req := testcurves.Synthetic(truth, 2e-4, 100, conv)
		req.Intervals = true
		res, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v, intervals %v (%d evaluations, %.1f ms)", conv, res.Params, res.Intervals, res.Search.Evaluations, res.ElapsedMs)
		// each within 3% of its value
		checkIntervals(t, string(conv), res, map[string]truthWithin{"L0": {truth.L0, 0.03 * truth.L0}, "A": {truth.A, 0.03 * truth.A},
			"alpha": {truth.Alpha, 0.03 * truth.Alpha}, "C": {truth.C, 0.03 * truth.C}})
	}
}

func TestFitRecoversLambda(t *testing.T) {
	truth := annealing.Params{L0: 2.4, A: 0.5, Alpha: 0.45, C: 0.35, Lambda: 0.995}
	req := testcurves.Synthetic(truth, 1e-4, 50, schedule.WarmupActual)
	req.Lambda = lawcore.FittedLambda()
	req.Intervals = true
	res, err := lawcore.Fit(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v, intervals %v", res.Params, res.Intervals)
	// lambda to 0.001 (a fifth of 1-lambda, the memory's scale); C, which trades off against
	// lambda, to 5%; the rest to 3%
	checkIntervals(t, "lambda fitted", res, map[string]truthWithin{"L0": {truth.L0, 0.03 * truth.L0}, "A": {truth.A, 0.03 * truth.A},
		"alpha": {truth.Alpha, 0.03 * truth.Alpha}, "C": {truth.C, 0.05 * truth.C}, "lambda": {truth.Lambda, 0.001}})
}

// Noise-free data from the law itself is fitted exactly.
func TestFitNoiseFreeIsExact(t *testing.T) {
	truth := annealing.Params{L0: 3.1, A: 0.3, Alpha: 0.6, C: 0.5, Lambda: 0.999}
	res, err := lawcore.Fit(context.Background(), testcurves.Synthetic(truth, 0, 1000, schedule.WarmupPeak), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !(res.Objective <= 1e-12) || !(res.FitMetrics.WorstE <= 1e-5) {
		t.Errorf("objective %g, worst error %g: want an exact fit (%+v)", res.Objective, res.FitMetrics.WorstE, res.Params)
	}
}

func TestFitCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := lawcore.Fit(ctx, testcurves.Fig2(t), nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// The jackknife's refits report progress too, so that a cancel reaches them: a page gets a
// cancel in only when lawcore reports (on dense curves the ten refits took seconds without a
// report, and the page replaced its worker). Here the context is cancelled at the first report
// past the search's share, and the fit must stop there rather than finish its intervals.
func TestFitCancelledDuringIntervals(t *testing.T) {
	req := testcurves.Fig2(t)
	req.Intervals = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var during []float64
	_, err := lawcore.Fit(ctx, req, func(f float64) {
		if f > 0.5 && f < 1 {
			during = append(during, f)
			cancel()
		}
	})
	if len(during) == 0 {
		t.Fatal("no progress was reported between the search and the end: the intervals' refits cannot be cancelled")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled at %.3f, during the intervals: got %v, want context.Canceled", during[0], err)
	}
}

func TestFitProgressReachesOne(t *testing.T) {
	var last float64
	calls := 0
	if _, err := lawcore.Fit(context.Background(), testcurves.Fig2(t), func(f float64) {
		if f < last {
			t.Errorf("progress went back from %g to %g", last, f)
		}
		last = f
		calls++
	}); err != nil {
		t.Fatal(err)
	}
	if last != 1 || calls < 3 {
		t.Errorf("progress ended at %g after %d calls", last, calls)
	}
}

// TestFitErrors checks that every kind of bad input is an *input.Error naming curve and field.
func TestFitErrors(t *testing.T) {
	sched := func() *schedule.Schedule {
		return &schedule.Schedule{Kind: schedule.KindConstant, Total: 100, Peak: 1e-3}
	}
	curve := func(f func(*lawcore.Curve)) lawcore.Curve {
		c := lawcore.Curve{Name: "run", Steps: []float64{10, 20, 30}, Loss: []float64{3, 2.9, 2.8}, Schedule: sched()}
		f(&c)
		return c
	}
	cases := []struct {
		name string
		req  lawcore.FitRequest
		want string
	}{
		{"no curves", lawcore.FitRequest{}, "curves: no curves to fit"},
		{"empty curve", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Steps, c.Loss = nil, nil })}}, `curve "run": steps: the curve is empty`},
		{"lengths differ", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Loss = c.Loss[:2] })}}, `curve "run": loss: 2 loss values for 3 steps`},
		{"negative loss", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Loss[1] = -1 })}}, `curve "run": loss[1]: the loss at step 20 must be a positive finite number`},
		{"zero loss", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Loss[1] = 0 })}}, `loss[1]`},
		{"NaN loss", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Loss[2] = math.NaN() })}}, `loss[2]`},
		{"Inf loss", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Loss[0] = math.Inf(1) })}}, `loss[0]`},
		{"unsorted", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Steps[2] = 15 })}}, `steps[2]: steps must be in increasing order`},
		{"duplicate", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Steps[2] = 20 })}}, `steps[2]: step 20 appears twice`},
		{"fractional step", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Steps[0] = 1.5 })}}, `steps[0]: a step must be a whole number`},
		{"beyond schedule", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Steps[2] = 300 })}}, `steps[2]: step 300 is beyond the end of the schedule (step 100)`},
		{"no schedule", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Schedule = nil })}}, `curve "run": schedule: missing`},
		{"both", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.LR = []float64{1} })}}, `give either a schedule or an lr list`},
		{"zero LR", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Schedule, c.LR = nil, make([]float64, 101) })}}, `curve "run": lr: every learning rate is zero`},
		{"negative LR", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Schedule, c.LR = nil, []float64{1, -1} })}}, `curve "run": lr[1]`},
		{"NaN LR", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Schedule, c.LR = nil, []float64{1, math.NaN()} })}}, `curve "run": lr[1]`},
		{"unknown kind", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Schedule.Kind = "zigzag" })}}, `curve "run": schedule.kind: unknown schedule kind "zigzag"`},
		{"warmup too long", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Schedule.Warmup = 200 })}}, `curve "run": schedule.warmup: warmup (200 steps) is longer than the run`},
		{"lr warmup too long", lawcore.FitRequest{WarmupSteps: 50, Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Schedule, c.LR = nil, []float64{1, 1, 1} })}}, `warmupSteps: warmup (50 steps) is longer than the run`},
		{"lambda 1", lawcore.FitRequest{Lambda: lawcore.FixedLambda(1), Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {})}}, "lambda: must be in [0, 1)"},
		{"lambda negative", lawcore.FitRequest{Lambda: lawcore.FixedLambda(-0.5), Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {})}}, "lambda: must be in [0, 1)"},
		{"bad convention", lawcore.FitRequest{WarmupConvention: "during", Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {})}}, `warmupConvention: must be "peak" or "actual"`},
		{"bad delta", lawcore.FitRequest{HuberDelta: -1, Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {})}}, "huberDelta: must be a positive number"},
		{"bad role", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Role = "train" })}}, `curve "run": role: must be "fit" or "validate"`},
		{"only validate", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Role = lawcore.RoleValidate })}}, `no curve has role "fit"`},
		{"unnamed curve", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Name = ""; c.Loss[0] = -2 })}}, `curve 1: loss[0]`},
		{"zero forward area", lawcore.FitRequest{Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) {
			c.Schedule, c.LR = nil, append(make([]float64, 11), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
		})}},
			`steps[0]: the learning rate is zero up to step 10`},
	}
	for _, c := range cases {
		_, err := lawcore.Fit(context.Background(), c.req, nil)
		var ie *input.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an *input.Error containing %q", c.name, err, c.want)
		}
	}
}

func TestDecodeFitRequest(t *testing.T) {
	req, err := lawcore.DecodeFitRequest([]byte(`{"curves":[{"name":"a","steps":[1],"loss":[3],"lr":[1,1]}],"lambda":"fit","warmupConvention":"actual"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !req.Lambda.Fit || req.WarmupConvention != "actual" || len(req.Curves[0].LR) != 2 {
		t.Errorf("decoded %+v", req)
	}
	req, _ = lawcore.DecodeFitRequest([]byte(`{"curves":[]}`))
	if req.Lambda.Fit || req.Lambda.Fixed() != lawcore.DefaultLambda {
		t.Errorf("absent lambda should mean %v, got %+v", lawcore.DefaultLambda, req.Lambda)
	}
	for _, bad := range []string{`{"curves":[],"lambda":"auto"}`, `{"curvs":[]}`, `not json`, `{"curves":[]} {}`} {
		if _, err := lawcore.DecodeFitRequest([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	// Go would read a null in a list as 0 (a learning rate of 0 no one gave): it is refused,
	// where it is; a null field is left out, as absent
	for _, c := range []struct{ text, want string }{
		{`{"curves":[{"name":"a","steps":[1,2,3],"loss":[3,2.9,2.8],"schedule":{"kind":"explicit","steps":[0,3],"lr":[1e-4,null]}}]}`,
			"fit request: curves[0].schedule.lr[1]: null is not a value"},
		{`{"fixed":{"alpha":0.5},"curves":[{"name":"a","steps":[1,null],"loss":[3,2.9]}]}`, "fit request: curves[0].steps[1]: null is not a value"},
		{`{"curves":[{"name":"a","steps":[1,2],"loss":[3,2.9],"role":null}],"lambda":null}`, ""},
	} {
		_, err := lawcore.DecodeFitRequest([]byte(c.text))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%s: got %v, want %q", c.text, err, c.want)
		}
	}
}

// A fit whose start puts C at its floor (the start's least squares found no annealing in a
// short run) still finds it: exact losses of a 30-step cosine and constant run, and of a
// 1000-step cosine with a small C, give back the parameters that made them. The optimiser
// works on log C, where the floor is flat, so it must be lifted off (polisher.offFloor).
func TestFitLeavesTheFloor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		truth  lawcore.Values
		scheds []schedule.Schedule
	}{
		{"30 steps", lawcore.Values{"L0": 2.2, "A": 0.5, "alpha": 0.5, "C": 0.8, "lambda": 0.999},
			[]schedule.Schedule{{Kind: schedule.KindCosine, Total: 30, Peak: 3e-4}, {Kind: schedule.KindConstant, Total: 30, Peak: 3e-4}}},
		{"small C", lawcore.Values{"L0": 2.498, "A": 0.3138, "alpha": 0.4823, "C": 0.03, "lambda": 0.999},
			[]schedule.Schedule{{Kind: schedule.KindCosine, Total: 1000, Peak: 1e-4}}},
	} {
		var curves []lawcore.Curve
		for k, s := range tc.scheds {
			s := s
			pr, err := lawcore.Predict(lawcore.PredictRequest{Params: tc.truth, Curves: []lawcore.PredictCurve{{Name: "p", Schedule: &s}}})
			if err != nil {
				t.Fatal(err)
			}
			curves = append(curves, lawcore.Curve{Name: fmt.Sprint(k), Role: lawcore.RoleFit, Schedule: &s, Steps: pr[0].Steps, Loss: pr[0].Loss})
		}
		res, err := lawcore.Fit(context.Background(), lawcore.FitRequest{Curves: curves, Lambda: lawcore.FixedLambda(0.999)}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, p := range []string{"L0", "A", "alpha", "C"} {
			if got := res.Params[p]; !(math.Abs(got-tc.truth[p]) <= 1e-4*tc.truth[p]) {
				t.Errorf("%s: %s = %g, truth %g (objective %g)", tc.name, p, got, tc.truth[p], res.Objective)
			}
		}
	}
}
