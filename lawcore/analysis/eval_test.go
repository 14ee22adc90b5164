package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// A constant schedule: S1 = eta*(s+1) (the sums include step 0), S2 = 0, so the final loss is
// L0 + A*(eta*(total+1))^-alpha; under the peak convention the warmup counts at eta.
func TestEvaluatorConstantClosedForm(t *testing.T) {
	p := Fig2Params()
	e := annealingEvaluator(p, schedule.WarmupPeak)
	for _, total := range []int{1, 999, 10000, 100000} {
		out, err := e.final(schedule.Schedule{Kind: schedule.KindConstant, Total: total, Peak: 2e-4, Warmup: min(500, total-1)})
		if err != nil {
			t.Fatal(err)
		}
		s1 := 2e-4 * float64(total+1)
		want := p.L0 + p.A*math.Pow(s1, -p.Alpha)
		if !closeRel(out.S1, s1, 1e-12) || out.S2 != 0 || !closeRel(out.Loss, want, 1e-12) {
			t.Errorf("total %d: S1 %g S2 %g loss %.12g, want S1 %g S2 0 loss %.12g", total, out.S1, out.S2, out.Loss, s1, want)
		}
	}
	// actual convention: a linear warmup from 0 over W steps runs eta*i/W at step i < W, so
	// it removes eta*(W+1)/2 of area
	e.conv = schedule.WarmupActual
	out, _ := e.final(schedule.Schedule{Kind: schedule.KindConstant, Total: 1000, Peak: 1, Warmup: 100})
	if want := 1001.0 - 50.5; !closeRel(out.S1, want, 1e-12) {
		t.Errorf("actual convention: S1 = %g, want %g", out.S1, want)
	}
}

// A hand-checked case: lr = 1, 1, 0.5, 0.5 with lambda 0.5 gives m = 0, 0, 0.5, 0.25, so
// S1 = 3 and S2 = 0.75; and S2 = 1.75*eta_0 - (0.25*eta_1 + 0.5*eta_2 + eta_3).
func TestFinalLossGradientHandChecked(t *testing.T) {
	p := annealing.Params{L0: 1, A: 2, Alpha: 0.5, C: 0.1, Lambda: 0.5}
	lr := []float64{1, 1, 0.5, 0.5}
	grad := make([]float64, 4)
	loss := FinalLossGradient(p, lr, 0, schedule.WarmupActual, grad)
	if want := 1 + 2/math.Sqrt(3) - 0.1*0.75; !closeRel(loss, want, 1e-14) {
		t.Errorf("loss %.15g, want %.15g", loss, want)
	}
	d1 := -0.5 * 2 * math.Pow(3, -1.5)
	want := []float64{d1 - 0.1*1.75, d1 + 0.1*0.25, d1 + 0.1*0.5, d1 + 0.1*1}
	for j := range want {
		if !closeRel(grad[j], want[j], 1e-14) {
			t.Errorf("dL/deta_%d = %.15g, want %.15g", j, grad[j], want[j])
		}
	}
}

// The analytic gradient of the final loss agrees with central differences, with and without
// warmup, under both conventions and for lambda 0 too.
func TestFinalLossGradientFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	lr := make([]float64, 400)
	for i := range lr {
		lr[i] = 1e-4 * (1 + rng.Float64())
	}
	for _, c := range []struct {
		lambda float64
		warmup int
		conv   schedule.Convention
	}{{0.99, 0, schedule.WarmupActual}, {0.999, 50, schedule.WarmupPeak}, {0.95, 50, schedule.WarmupActual}, {0, 10, schedule.WarmupPeak}} {
		p := annealing.Params{L0: 2.6, A: 0.43, Alpha: 0.55, C: 0.41, Lambda: c.lambda}
		grad := make([]float64, len(lr))
		FinalLossGradient(p, lr, c.warmup, c.conv, grad)
		loss := func() float64 {
			s1, s2 := schedule.FinalAreas(schedule.CountedLR(lr, c.warmup, c.conv), c.lambda)
			return p.Loss(s1, s2)
		}
		for _, j := range []int{0, 1, 9, c.warmup, c.warmup + 1, 200, 398, 399} {
			h := 1e-7
			keep := lr[j]
			lr[j] = keep + h
			up := loss()
			lr[j] = keep - h
			down := loss()
			lr[j] = keep
			fd := (up - down) / (2 * h)
			if !(math.Abs(fd-grad[j]) <= 1e-6*math.Max(1, math.Abs(fd))) {
				t.Errorf("lambda %g warmup %d %s: dL/deta_%d = %.9g, finite difference %.9g", c.lambda, c.warmup, c.conv, j, grad[j], fd)
			}
		}
	}
}

// A trace agrees with Predict at the steps it keeps, keeps about points steps, the last step
// and the extra steps asked for.
func TestTraceMatchesPredict(t *testing.T) {
	p := Fig2Params()
	s := schedule.Schedule{Kind: schedule.KindWSD, Total: 20000, Peak: 2e-4, Warmup: 500, Decay: "1-sqrt", DecayFraction: 0.2}
	e := annealingEvaluator(p, schedule.WarmupPeak)
	c, err := e.trace("wsd", s, 100, 16001, 16002)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Steps) < 100 || len(c.Steps) > 104 {
		t.Errorf("%d steps kept, want about 100", len(c.Steps))
	}
	if c.Steps[len(c.Steps)-1] != 20000 || stepIndex(c.Steps, 16001) < 0 || stepIndex(c.Steps, 16002) < 0 {
		t.Errorf("the last step or an extra step is missing: %v", c.Steps)
	}
	preds, err := lawcore.Predict(lawcore.PredictRequest{Params: p.Values(), Curves: []lawcore.PredictCurve{{Schedule: &s, Steps: c.Steps}}})
	if err != nil {
		t.Fatal(err)
	}
	for k := range c.Steps {
		if !closeRel(c.Loss[k], preds[0].Loss[k], 1e-12) || !closeRel(c.S2Term[k], preds[0].S2Term[k], 1e-9) {
			t.Fatalf("step %v: trace %.12g, Predict %.12g", c.Steps[k], c.Loss[k], preds[0].Loss[k])
		}
	}
	if !closeRel(c.Final.Loss, preds[0].FinalLoss, 1e-12) {
		t.Errorf("final loss %.12g, Predict %.12g", c.Final.Loss, preds[0].FinalLoss)
	}
}

// The searches find known minima.
func TestSearches(t *testing.T) {
	x, v := goldenInt(func(x int) float64 { return math.Abs(float64(x) - 737.3) }, 0, 10000)
	if x != 737 || !closeRel(v, 0.3, 1e-9) {
		t.Errorf("goldenInt: %d (%g), want 737", x, v)
	}
	y, _ := goldenFloat(func(x float64) float64 { return (x - 0.3) * (x - 0.3) }, 0, 1, 1e-9)
	if !(math.Abs(y-0.3) <= 1e-8) {
		t.Errorf("goldenFloat: %g, want 0.3", y)
	}
	if got := bisectInt(func(x int) bool { return x*x >= 1000 }, 0, 1000); got != 32 {
		t.Errorf("bisectInt: %d, want 32", got)
	}
	grid := []int{0, 100, 200, 300, 400}
	f := func(x int) float64 { return math.Pow(float64(x)-123, 2) }
	vals := make([]float64, len(grid))
	for i, g := range grid {
		vals[i] = f(g)
	}
	if got, _ := bracketInt(f, grid, vals, 0, 400); got != 123 {
		t.Errorf("bracketInt: %d, want 123", got)
	}
}
