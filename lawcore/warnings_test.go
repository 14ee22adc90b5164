package lawcore_test

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// warmupRun is a 10K-step cosine run with a 500-step warmup whose loss follows the law from
// its warmup on, but starts far above it, as real runs do (the loss of an untrained model falls
// from about ln(vocabulary) in the first hundreds of steps, which no scaling law in the areas
// describes): the law's loss plus 8·e^(-step/50).
func warmupRun(t *testing.T) lawcore.Curve {
	t.Helper()
	s := schedule.Schedule{Kind: schedule.KindCosine, Total: 10000, Peak: 3e-4, Warmup: 500}
	var steps []float64
	for step := 10; step <= 10000; step += 10 {
		steps = append(steps, float64(step))
	}
	truth := lawcore.Values{"L0": 2.5, "A": 0.45, "alpha": 0.5, "C": 0.4, "lambda": 0.999}
	pr, err := lawcore.Predict(lawcore.PredictRequest{Params: truth, WarmupSteps: 500,
		Curves: []lawcore.PredictCurve{{Name: "run", Schedule: &s, Steps: steps}}})
	if err != nil {
		t.Fatal(err)
	}
	loss := make([]float64, len(steps))
	for k, st := range pr[0].Steps {
		loss[k] = pr[0].Loss[k] + 8*math.Exp(-st/50)
	}
	return lawcore.Curve{Name: "run", Steps: pr[0].Steps, Loss: loss, Schedule: &s}
}

// TestWarmupDrivenFitWarns: fitted from its first step, the run above ends with a parameter
// on its bound or a poor R², and a warning that says so and proposes the window from the end
// of the warmup (step 500); fitted from there, the law is back (R² at least 0.999, L0 within
// 1% of 2.5) and nothing is warned.
func TestWarmupDrivenFitWarns(t *testing.T) {
	c := warmupRun(t)
	res, err := lawcore.Fit(context.Background(), lawcore.FitRequest{Curves: []lawcore.Curve{c}, WarmupSteps: 500}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("whole curve: %v, R² %.4f, warnings %+v", res.Params, *res.Curves[0].Metrics.R2, res.Warnings)
	if len(res.Warnings) == 0 {
		t.Fatal("no warning for a fit the warmup drives")
	}
	for _, w := range res.Warnings {
		if w.From != 500 {
			t.Errorf("warning %q proposes the window from %v, want 500 (the end of the warmup)", w.Message, w.From)
		}
	}
	c.From = res.Warnings[0].From
	res, err = lawcore.Fit(context.Background(), lawcore.FitRequest{Curves: []lawcore.Curve{c}, WarmupSteps: 500}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Curves[0]
	t.Logf("from step 500: %v, R² %.5f, warnings %+v", res.Params, *m.Metrics.R2, res.Warnings)
	if *m.Metrics.R2 < 0.999 || !(math.Abs(res.Params["L0"]/2.5-1) <= 0.01) {
		t.Errorf("from step 500: R² %.5f, L0 %.4f; want R² >= 0.999 and L0 within 1%% of 2.5", *m.Metrics.R2, res.Params["L0"])
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings left: %+v", res.Warnings)
	}
	if m.From != 500 || m.Metrics.Points != 951 || len(m.Predicted) != len(c.Steps) {
		t.Errorf("window: from %v, %d points scored, %d predicted; want 500, 951 (steps 500..10000), %d", m.From, m.Metrics.Points, len(m.Predicted), len(c.Steps))
	}
}

// A constant-LR run alone has no annealing area, so the annealing law's C has nothing to fit
// (the fit puts it anywhere; measured 1e-10, the floor of a start): the fit says why
// (no-annealing, naming C, not a bare "bound") and gives C no interval, where the jackknife's
// refits, all put where the first fit was, gave [1e-10, 1e-10]. With the cosine run beside it
// C is fitted (0.41 in the paper) and has its interval, unwarned.
func TestNoAnnealingWarns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		curves func([]lawcore.Curve) []lawcore.Curve
		warned bool
	}{
		{"constant alone", func(c []lawcore.Curve) []lawcore.Curve { return c[1:] }, true},
		{"constant and cosine", func(c []lawcore.Curve) []lawcore.Curve { return c }, false},
	} {
		req := testcurves.Fig2(t)
		req.Curves, req.Intervals = tc.curves(req.Curves), true
		res, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, w := range res.Warnings {
			if w.Param == "C" {
				kinds = append(kinds, w.Kind)
			}
		}
		_, interval := res.Intervals["C"]
		if tc.warned && (!slices.Equal(kinds, []string{"no-annealing"}) || interval) {
			t.Errorf("%s: C %g, warnings naming C %v, interval %v: want no-annealing alone and no interval", tc.name, res.Params["C"], kinds, res.Intervals["C"])
		}
		if !tc.warned && (len(kinds) > 0 || !interval || math.Abs(res.Params["C"]-0.41) > 0.05) {
			t.Errorf("%s: C %g, warnings naming C %v, interval %v: want about 0.41 with an interval and no warning", tc.name, res.Params["C"], kinds, interval)
		}
	}
}

// A curve with no more points in its fit window than the law has parameters is fitted through
// them exactly, whatever the truth: the fit says so (few-points) with four points and not
// with five. With fewer than six points in its one fit curve's window, an auto fit has nothing
// to hold out: it fits the settings given and says why (auto), where it once failed on NaN.
func TestFewPointsWarn(t *testing.T) {
	full := warmupRun(t)
	kinds := func(res *lawcore.FitResult) (out []string) {
		for _, w := range res.Warnings {
			out = append(out, w.Kind)
		}
		return out
	}
	for _, c := range []struct {
		points int
		auto   bool
		want   []string
	}{
		{4, false, []string{"few-points"}},
		{5, false, nil},
		{5, true, []string{"auto"}},
	} {
		curve := full
		curve.Steps, curve.Loss = nil, nil
		for k := 0; k < c.points; k++ { // evenly over the run after its warmup
			i := len(full.Steps) - 1 - k*(len(full.Steps)-100)/c.points
			curve.Steps = append([]float64{full.Steps[i]}, curve.Steps...)
			curve.Loss = append([]float64{full.Loss[i]}, curve.Loss...)
		}
		fit := lawcore.Fit
		if c.auto {
			fit = auto.Fit
		}
		res, err := fit(context.Background(), lawcore.FitRequest{Curves: []lawcore.Curve{curve}, WarmupSteps: 500, Auto: c.auto}, nil)
		if err != nil {
			t.Fatalf("%d points, auto %v: %v", c.points, c.auto, err)
		}
		if got := kinds(res); !slices.Equal(got, c.want) {
			t.Errorf("%d points, auto %v: warnings %v, want %v (%+v)", c.points, c.auto, got, c.want, res.Warnings)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("%d points, auto %v: the answer does not encode: %v", c.points, c.auto, err)
		}
		if c.auto && (res.Auto != nil || res.Law != annealing.Name) {
			t.Errorf("5 points, auto: fitted %q with an auto choice %+v, want the annealing law as asked", res.Law, res.Auto)
		}
	}
}

// Model sizes on the curves of a law that takes none are said to be unused; the same curves
// without sizes fit without a word of it.
func TestSizeUnusedWarn(t *testing.T) {
	curve := warmupRun(t)
	for _, size := range []float64{0, 25e6} {
		c := curve
		c.Size = size
		res, err := lawcore.Fit(context.Background(), lawcore.FitRequest{Curves: []lawcore.Curve{c}, WarmupSteps: 500}, nil)
		if err != nil {
			t.Fatal(err)
		}
		unused := slices.ContainsFunc(res.Warnings, func(w lawcore.Warning) bool { return w.Kind == "size-unused" })
		if unused != (size != 0) {
			t.Errorf("size %g: warnings %+v", size, res.Warnings)
		}
	}
}

// TestGuessedStartWarns: a run whose learning rates were logged from step k on (a constant
// 3e-4 to step 10,000) gets a schedule that holds 3e-4 back to step 0. The guess is k of S1's
// 10,001 equal terms at the last point: past 1% (guessedShare) it is named, with its share;
// a warmup set for the run, or a start within 1%, says nothing.
func TestGuessedStartWarns(t *testing.T) {
	cases := []struct {
		first, warmup int
		want          string
	}{
		{1000, 0, `the learning rates of curve "logged" are logged from step 1000 on: its schedule holds the first logged value (0.0003) back to step 0, a guess that makes 10% of S1 at its last point`},
		{50, 0, ""},
		{1000, 500, ""},
	}
	for _, c := range cases {
		s := schedule.Schedule{Kind: schedule.KindExplicit, Steps: []float64{float64(c.first), 10000}, Values: []float64{3e-4, 3e-4}}
		var steps, loss []float64
		for step := c.first + 100; step <= 10000; step += 100 {
			steps = append(steps, float64(step))
			loss = append(loss, 2.5+0.45*math.Pow(3e-4*float64(step+1), -0.5))
		}
		curve := lawcore.Curve{Name: "logged", Steps: steps, Loss: loss, Schedule: &s}
		res, err := lawcore.Fit(context.Background(), lawcore.FitRequest{Curves: []lawcore.Curve{curve}, WarmupSteps: c.warmup}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, w := range res.Warnings {
			if w.Kind == "guessed-start" {
				got = w.Message
				if w.Curve != "logged" {
					t.Errorf("first %d: warning names curve %q", c.first, w.Curve)
				}
			}
		}
		if (c.want == "") != (got == "") || !strings.HasPrefix(got, c.want) {
			t.Errorf("first %d, warmup %d: warning %q, want %q", c.first, c.warmup, got, c.want)
		}
	}
}
