package multipower

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Predict with this law: a one-drop schedule against the law's formula by hand, and a WSD
// schedule by its description, thinned, against the law on its LR at every step.
func TestPredictByHand(t *testing.T) {
	p := Params{L0: 2, A: 0.5, Alpha: 0.5, B: 400, C: 2, Beta: 0.6, Gamma: 0.5}
	// LR 1e-3 at steps 0..100, then 1e-4 to step 200: one drop, at step 101.
	lr := make([]float64, 201)
	for i := range lr {
		lr[i] = 1e-3
		if i > 100 {
			lr[i] = 1e-4
		}
	}
	c := predict(t, p, lr, []int{50, 200})
	// Step 50: no drop yet, L = L0 + A*(51e-3)^-alpha. Step 200: S1 = 101e-3 + 100e-4 = 0.111;
	// LD = B*(1e-3 - 1e-4)*G(x), x = (1e-4)^-gamma * 100e-4 = 1, G(1) = 1 - 3^-0.6.
	ld := 400 * 9e-4 * (1 - math.Pow(3, -0.6))
	want := []float64{2 + 0.5/math.Sqrt(0.051), 2 + 0.5/math.Sqrt(0.111) - ld}
	if len(c.Loss) != 2 || !(math.Abs(c.Loss[0]-want[0]) <= 1e-12) || !(math.Abs(c.Loss[1]-want[1]) <= 1e-9) {
		t.Fatalf("loss %v, want %v", c.Loss, want)
	}
	if !(math.Abs(c.S2Term[1]-ld) <= 1e-9) || c.S2Term[0] != 0 || c.FinalLoss != c.Loss[1] || c.Total != 200 || c.LR[1] != 1e-4 {
		t.Errorf("terms %v, final %v, total %d, lr %v", c.S2Term, c.FinalLoss, c.Total, c.LR)
	}
	if !(math.Abs(c.FinalS1-0.111) <= 1e-12) || c.FinalS2 != 0 {
		t.Errorf("final areas %v %v, want 0.111 and 0", c.FinalS1, c.FinalS2)
	}

	sched := schedule.Schedule{Kind: schedule.KindWSD, Total: 3000, Peak: 1e-3, Final: 1e-4, Warmup: 100, Decay: "linear", DecayFraction: 0.3}
	wsdLR, _ := sched.LR()
	dense := predict(t, p, wsdLR, nil)
	got, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: p.Values(), Points: 300, Curves: []lawcore.PredictCurve{{Name: "wsd", Schedule: &sched}}})
	if err != nil {
		t.Fatal(err)
	}
	c = &got[0]
	if len(c.Steps) != 300 || c.Steps[299] != 3000 || c.FinalLoss != dense.Loss[2999] {
		t.Fatalf("%d steps, last %v, final %v (want %v)", len(c.Steps), c.Steps[len(c.Steps)-1], c.FinalLoss, dense.Loss[2999])
	}
	for k, st := range c.Steps {
		if d := c.Loss[k] - dense.Loss[int(st)-1]; !(math.Abs(d) <= 1e-12) {
			t.Fatalf("step %v: %v, every step %v", st, c.Loss[k], dense.Loss[int(st)-1])
		}
	}
	// Counted at the peak, the warmup lowers the loss drop's negative terms: a lower loss.
	peak, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: p.Values(), WarmupConvention: "peak", Curves: []lawcore.PredictCurve{{Name: "wsd", Schedule: &sched}}})
	if err != nil || !(peak[0].FinalLoss < c.FinalLoss) {
		t.Errorf("peak convention: final %v, as run %v (%v)", peak[0].FinalLoss, c.FinalLoss, err)
	}

	bad := []struct {
		req  lawcore.PredictRequest
		want string
	}{
		{lawcore.PredictRequest{Law: Name, Curves: []lawcore.PredictCurve{{Name: "x", LR: lr}}}, "params: L0: missing: the Multi-Power Law needs L0, A, alpha, B, C, beta, gamma"},
		{lawcore.PredictRequest{Law: Name, Params: Params{Beta: -1}.Values(), Curves: []lawcore.PredictCurve{{Name: "x", LR: lr}}}, "params: beta"},
		{lawcore.PredictRequest{Law: "chinchilla", Params: p.Values()}, `law: unknown law "chinchilla"`},
	}
	for _, b := range bad {
		_, err := lawcore.Predict(b.req)
		var ie *input.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), b.want) {
			t.Errorf("got %v, want an *input.Error containing %q", err, b.want)
		}
	}
}

// Parameters too large for float64 give a message naming the curve, not an infinite loss.
func TestPredictOverflowNamesTheCurve(t *testing.T) {
	sched := &schedule.Schedule{Kind: schedule.KindConstant, Total: 100, Peak: 1e-4}
	for _, req := range []lawcore.PredictRequest{
		{Params: annealing.Params{L0: 1e308, A: 1e308, Alpha: 0.5, C: 0, Lambda: 0.999}.Values(), Curves: []lawcore.PredictCurve{{Name: "big", Schedule: sched}}},
		{Law: Name, Params: Params{L0: 1e308, A: 1e308, Alpha: 0.5, B: 1, C: 1, Beta: 0.5, Gamma: 0.5}.Values(), Curves: []lawcore.PredictCurve{{Name: "big", Schedule: sched}}},
	} {
		_, err := lawcore.Predict(req)
		if err == nil || !strings.HasPrefix(err.Error(), `curve "big": the predicted loss is not a finite number at step 100`) {
			t.Errorf("%s: got %v", req.Law, err)
		}
	}
}

// bandReplicates are parameter sets around truth, as a jackknife's replicates lie: the loss
// drop's shape moved by up to 0.3 in log (within refreeze of the first), and one set past it.
func bandReplicates() []lawcore.Values {
	var sets []lawcore.Values
	for k, f := range []float64{0, 0.1, -0.2, 0.3, -0.05, 0.8} {
		p := truth
		p.C *= math.Exp(f)
		p.Beta *= math.Exp(-f / 2)
		p.Gamma *= math.Exp(f / 3)
		p.B *= 1 + 0.02*float64(k)
		p.L0 += 0.01 * f
		sets = append(sets, p.Values())
	}
	return sets
}

// A band's spread over replicates, whose loss drops are evaluated on one grouping, is the
// jackknife's standard error of the replicates' predictions each grouped for its own
// parameters: sqrt((K-1)/K · Σ (p_k - mean)²), to well within the grouping's error (a
// millionth of the loss drop), which the common grouping leaves out of the differences.
func TestBandSpreadIsTheReplicatesOwn(t *testing.T) {
	lr, err := schedule.Schedule{Kind: schedule.KindCosine, Total: 72000, Peak: 3e-4, Final: 3e-5, Warmup: 2160}.LR()
	if err != nil {
		t.Fatal(err)
	}
	sets := bandReplicates()
	band := &lawcore.Band{Level: 0.9, Quantile: 1, Replicates: []lawcore.Replicates{{Sets: sets}}}
	out, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: truth.Values(),
		Curves: []lawcore.PredictCurve{{Name: "cosine", LR: lr}}, Points: 500, Band: band})
	if err != nil {
		t.Fatal(err)
	}
	got := out[0]
	var steps []int
	for _, st := range got.Steps {
		steps = append(steps, int(st))
	}
	preds := make([][]float64, len(sets))
	for k, v := range sets {
		var p Params
		p.L0, p.A, p.Alpha, p.B, p.C, p.Beta, p.Gamma = v["L0"], v["A"], v["alpha"], v["B"], v["C"], v["beta"], v["gamma"]
		preds[k] = predict(t, p, lr, steps).Loss
	}
	K := float64(len(sets))
	worst := 0.0
	for j := range steps {
		mean, ss := 0.0, 0.0
		for _, p := range preds {
			mean += p[j] / K
		}
		for _, p := range preds {
			ss += (p[j] - mean) * (p[j] - mean)
		}
		want := math.Sqrt((K - 1) / K * ss)
		if gotSD := got.Upper[j] - got.Loss[j]; !(math.Abs(gotSD-want) <= 1e-6*want+1e-9) {
			t.Fatalf("step %d: the band's spread %.12g, the replicates' %.12g", steps[j], gotSD, want)
		}
		worst = math.Max(worst, want)
	}
	if worst < 1e-3 {
		t.Fatalf("the replicates hardly differ (spread at most %g): the test shows nothing", worst)
	}
}
