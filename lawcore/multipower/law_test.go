package lawcore

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// mpowSyntheticRequest generates curves from known parameters on three schedules with a
// linear warmup from zero (the law counts it as run), every `every` steps, with
// multiplicative noise of the given size; a fourth schedule is held out for validation.
func mpowSyntheticRequest(t testing.TB, truth MultiPowerParams, noise float64, every int) FitRequest {
	rng := rand.New(rand.NewPCG(7, 8))
	scheds := []Schedule{
		{Kind: KindCosine, Total: 24000, Peak: 3e-4, Final: 3e-5, Warmup: 1000},
		{Kind: KindConstant, Total: 24000, Peak: 3e-4, Warmup: 1000},
		{Kind: KindConcat, Segments: []Schedule{{Kind: KindConstant, Total: 8000, Peak: 3e-4, Warmup: 1000}, {Kind: KindConstant, Total: 8000, Peak: 9e-5}}},
		{Kind: KindWSD, Total: 24000, Peak: 3e-4, Final: 3e-5, Warmup: 1000, Decay: "1-sqrt", DecayFraction: 0.2},
	}
	req := FitRequest{}
	for i, s := range scheds {
		lr, err := s.LR()
		if err != nil {
			t.Fatal(err)
		}
		c := Curve{Name: s.Kind, Schedule: &scheds[i], Role: RoleFit}
		if i == 3 {
			c.Role = RoleValidate
		}
		var steps []int
		for st := 1200; st < len(lr); st += every {
			steps = append(steps, st)
		}
		pr, err := PredictMultiPower(truth, lr, steps)
		if err != nil {
			t.Fatal(err)
		}
		for k, st := range steps {
			c.Steps = append(c.Steps, float64(st))
			c.Loss = append(c.Loss, pr.Loss[k]*(1+noise*rng.NormFloat64()))
		}
		req.Curves = append(req.Curves, c)
	}
	return req
}

var mpowTruth = MultiPowerParams{L0: 3.04, A: 0.525, Alpha: 0.508, B: 363.8, C: 2.066, Beta: 0.583, Gamma: 0.641}

// Noise-free curves from the law are fitted exactly, and the parameters come back.
func TestMultiPowerRecoversKnownParameters(t *testing.T) {
	for _, noise := range []float64{0, 3e-4} {
		res, err := FitMultiPower(context.Background(), mpowSyntheticRequest(t, mpowTruth, noise, 100), nil)
		if err != nil {
			t.Fatal(err)
		}
		p := res.Params
		t.Logf("noise %g: %+v; objective %.3g, fit WorstE %.2g, validate WorstE %.2g, %d starts, %d evaluations, %.0f ms",
			noise, p, res.Objective, res.FitMetrics.WorstE, res.ValidateMetrics.WorstE, res.Search.Starts, res.Search.Evaluations, res.ElapsedMs)
		tol := 0.001 // relative, on each parameter
		checked := []struct {
			name      string
			got, want float64
		}{{"L0", p.L0, mpowTruth.L0}, {"A", p.A, mpowTruth.A}, {"alpha", p.Alpha, mpowTruth.Alpha}, {"B", p.B, mpowTruth.B},
			{"C", p.C, mpowTruth.C}, {"beta", p.Beta, mpowTruth.Beta}, {"gamma", p.Gamma, mpowTruth.Gamma}}
		if noise > 0 {
			// C, beta and gamma shape the loss drop together: noise moves them along a valley
			// (which the predictions below check); the rest is well determined
			tol, checked = 0.03, checked[:4]
		}
		for _, c := range checked {
			if math.Abs(c.got-c.want) > tol*c.want {
				t.Errorf("noise %g: %s = %.5g, want %.5g within %g%%", noise, c.name, c.got, c.want, 100*tol)
			}
		}
		if noise == 0 && (res.FitMetrics.WorstE > 1e-6 || res.ValidateMetrics.WorstE > 1e-5) {
			t.Errorf("noise-free: fit WorstE %.3g, validate WorstE %.3g, want an exact fit", res.FitMetrics.WorstE, res.ValidateMetrics.WorstE)
		}
		if noise > 0 && res.ValidateMetrics.PredE > 2*noise {
			t.Errorf("noise %g: validate PredE %.3g", noise, res.ValidateMetrics.PredE)
		}
	}
}

// The analytic gradient agrees with central differences, both with fine groups and with
// coarse ones (whose spread corrections then carry much of the derivative).
func TestMultiPowerGradient(t *testing.T) {
	req := mplRequest(t, "25", FixedLambda(DefaultLambda), "")
	curves, _, delta, err := mpowPrepare(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, tol := range []float64{1e-6, 1e-2} {
		for _, p := range []MultiPowerParams{mpowTruth, {L0: 2.9, A: 0.6, Alpha: 0.45, B: 700, C: 0.4, Beta: 0.15, Gamma: 0.9}} {
			obj := newMpowObjective(context.Background(), curves, delta)
			obj.tol = tol
			obj.freeze(p)
			x := mpowToX(p)
			grad := make([]float64, mpowDims)
			obj.value(x, grad)
			for i := range x {
				h := 1e-6
				xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
				xp[i] += h
				xm[i] -= h
				fd := (obj.value(xp, nil) - obj.value(xm, nil)) / (2 * h)
				if math.Abs(fd-grad[i]) > 1e-5*math.Abs(fd)+1e-12 {
					t.Errorf("tol %g %+v: d/dx[%d] = %.9g, central difference %.9g", tol, p, i, grad[i], fd)
				}
			}
		}
	}
}

// The loss-drop derivatives of single changes and of groups agree with differences of the
// loss drop itself, over schedules with rises, jumps and decays.
func TestMultiPowerLossDropDerivatives(t *testing.T) {
	for name, lr := range mpowTestSchedules(t) {
		s := newMpowSeries(lr, 0, WarmupActual)
		var steps []mpowStep
		for st := 50; st < len(lr); st += len(lr) / 7 {
			steps = append(steps, mpowStep{t: st})
		}
		for _, p := range mpowTestParams {
			f := newMpowFrozen([]*mpowSeries{s}, steps, newMpowShape(p.C, p.Beta, p.Gamma, 1e-3))
			at := func(c, beta, gamma float64) []mpowDrop {
				out := make([]mpowDrop, len(steps))
				f.eval(newMpowShape(c, beta, gamma, 0), out, true)
				return out
			}
			base := at(p.C, p.Beta, p.Gamma)
			h := 1e-6
			cp, cm := at(p.C*math.Exp(h), p.Beta, p.Gamma), at(p.C*math.Exp(-h), p.Beta, p.Gamma)
			bp, bm := at(p.C, p.Beta+h, p.Gamma), at(p.C, p.Beta-h, p.Gamma)
			gp, gm := at(p.C, p.Beta, p.Gamma+h), at(p.C, p.Beta, p.Gamma-h)
			for i := range steps {
				for _, c := range []struct {
					what     string
					got, fd  float64
					baseline float64
				}{
					{"d/dlnC", base[i].dLnC, (cp[i].ld - cm[i].ld) / (2 * h), base[i].ld},
					{"d/dbeta", base[i].dBeta, (bp[i].ld - bm[i].ld) / (2 * h), base[i].ld},
					{"d/dgamma", base[i].dGamma, (gp[i].ld - gm[i].ld) / (2 * h), base[i].ld},
				} {
					if math.Abs(c.got-c.fd) > 1e-6*(math.Abs(c.fd)+1e-3) {
						t.Errorf("%s %+v step %d: %s = %.9g, central difference %.9g", name, p, steps[i].t, c.what, c.got, c.fd)
					}
				}
			}
		}
	}
}

// Bad requests fail with the annealing law's errors, word for word: the curves are prepared
// by the same code. Lambda, which the Multi-Power Law does not use, is not checked.
func TestMultiPowerFitErrors(t *testing.T) {
	sched := func() *Schedule { return &Schedule{Kind: KindConstant, Total: 100, Peak: 1e-3} }
	curve := func(f func(*Curve)) Curve {
		c := Curve{Name: "run", Steps: []float64{10, 20, 30}, Loss: []float64{3, 2.9, 2.8}, Schedule: sched()}
		f(&c)
		return c
	}
	one := func(f func(*Curve)) FitRequest { return FitRequest{Curves: []Curve{curve(f)}} }
	cases := []FitRequest{
		{},
		one(func(c *Curve) { c.Steps, c.Loss = nil, nil }),
		one(func(c *Curve) { c.Loss = c.Loss[:2] }),
		one(func(c *Curve) { c.Loss[1] = -1 }),
		one(func(c *Curve) { c.Loss[1] = 0 }),
		one(func(c *Curve) { c.Loss[2] = math.NaN() }),
		one(func(c *Curve) { c.Loss[0] = math.Inf(1) }),
		one(func(c *Curve) { c.Steps[2] = 15 }),
		one(func(c *Curve) { c.Steps[2] = 20 }),
		one(func(c *Curve) { c.Steps[0] = 1.5 }),
		one(func(c *Curve) { c.Steps[0] = 0 }),
		one(func(c *Curve) { c.Steps[2] = 300 }),
		one(func(c *Curve) { c.Schedule = nil }),
		one(func(c *Curve) { c.LR = []float64{1} }),
		one(func(c *Curve) { c.Schedule, c.LR = nil, make([]float64, 101) }),
		one(func(c *Curve) { c.Schedule, c.LR = nil, []float64{1, -1} }),
		one(func(c *Curve) { c.Schedule, c.LR = nil, []float64{1, math.NaN()} }),
		one(func(c *Curve) { c.Schedule.Kind = "zigzag" }),
		one(func(c *Curve) { c.Schedule.Warmup = 200 }),
		{WarmupSteps: 50, Curves: []Curve{curve(func(c *Curve) { c.Schedule, c.LR = nil, []float64{1, 1, 1} })}},
		{WarmupSteps: -1, Curves: []Curve{curve(func(*Curve) {})}},
		{WarmupConvention: "during", Curves: []Curve{curve(func(*Curve) {})}},
		{HuberDelta: -1, Curves: []Curve{curve(func(*Curve) {})}},
		{HuberDelta: math.Inf(1), Curves: []Curve{curve(func(*Curve) {})}},
		one(func(c *Curve) { c.Role = "train" }),
		one(func(c *Curve) { c.Role = RoleValidate }),
		one(func(c *Curve) { c.Name = ""; c.Loss[0] = -2 }),
		one(func(c *Curve) {
			c.Schedule, c.LR = nil, append(make([]float64, 11), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
		}),
		// a validate curve's error is found too, after the fit curves'
		{Curves: []Curve{curve(func(*Curve) {}), curve(func(c *Curve) {
			c.Name, c.Role, c.Schedule, c.LR = "held out", RoleValidate, nil, append(make([]float64, 21), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
		})}},
	}
	for i, req := range cases {
		_, want := Fit(context.Background(), req, nil)
		_, err := FitMultiPower(context.Background(), req, nil)
		var ie *InputError
		if want == nil || !errors.As(err, &ie) || err.Error() != want.Error() {
			t.Errorf("case %d: got %v, want the annealing law's %v", i, err, want)
		}
	}
	// lambda is the annealing law's alone
	req := FitRequest{Lambda: FixedLambda(2), Curves: []Curve{curve(func(*Curve) {})}}
	if _, err := FitMultiPower(context.Background(), req, nil); err != nil {
		t.Errorf("lambda 2: %v", err)
	}
}

func TestMultiPowerFitCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitMultiPower(ctx, mpowSyntheticRequest(t, mpowTruth, 0, 500), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	// cancelled while running: after the first progress report past the grid
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	_, err := FitMultiPower(ctx, mpowSyntheticRequest(t, mpowTruth, 0, 500), func(f float64) {
		if f > 0.2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func TestMultiPowerFitProgress(t *testing.T) {
	var last float64
	calls := 0
	if _, err := FitMultiPower(context.Background(), mpowSyntheticRequest(t, mpowTruth, 1e-4, 200), func(f float64) {
		if f < last || f > 1 {
			t.Errorf("progress went from %g to %g", last, f)
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

// The result is shaped like the annealing law's, with a model field.
func TestMultiPowerResultJSON(t *testing.T) {
	res, err := FitMultiPower(context.Background(), mpowSyntheticRequest(t, mpowTruth, 1e-4, 500), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"model", "params", "objective", "curves", "fitMetrics", "validateMetrics", "settings", "search", "elapsedMs"} {
		if _, ok := m[key]; !ok {
			t.Errorf("no %q in %s", key, b)
		}
	}
	if m["model"] != ModelMultiPower || !strings.Contains(string(b), `"gamma":`) || !strings.Contains(string(b), `"warmupConvention":"actual"`) {
		t.Errorf("unexpected JSON %s", b)
	}
	var p MultiPowerParams
	pb, _ := json.Marshal(m["params"])
	if err := json.Unmarshal(pb, &p); err != nil || p != res.Params {
		t.Errorf("params do not round-trip: %s", pb)
	}
}

func TestPredictMultiPower(t *testing.T) {
	lr, _ := Schedule{Kind: KindWSD, Total: 3000, Peak: 1e-3, Final: 1e-4, Warmup: 100, Decay: "linear", DecayFraction: 0.3}.LR()
	dense, err := PredictMultiPower(mpowTruth, lr, nil)
	if err != nil {
		t.Fatal(err)
	}
	// step 0 (LR 0 in the warmup from 0) has no value: every other step is predicted
	if len(dense.Steps) != 3000 || dense.Steps[0] != 1 || dense.Steps[2999] != 3000 {
		t.Fatalf("dense steps %d..%d (%d)", dense.Steps[0], dense.Steps[len(dense.Steps)-1], len(dense.Steps))
	}
	for k, st := range dense.Steps {
		want, mass := mpowNaive(mpowTruth, lr, st)
		if math.Abs(dense.LDTerm[k]-want) > MultiPowerTolerance*mass+1e-12 ||
			math.Abs(dense.Loss[k]-(mpowTruth.L0+dense.S1Term[k]-dense.LDTerm[k])) > 1e-12 {
			t.Fatalf("step %d: LD %.12g, direct %.12g (bound %.3g)", st, dense.LDTerm[k], want, MultiPowerTolerance*mass)
		}
	}
	some, err := mpowTruth.Loss(lr, []int{10, 2000, 3000})
	if err != nil || some[0] != dense.Loss[9] || some[2] != dense.Loss[2999] {
		t.Errorf("Loss at steps: %v %v", some, err)
	}
	bad := []struct {
		p     MultiPowerParams
		lr    []float64
		steps []int
		want  string
	}{
		{MultiPowerParams{L0: math.NaN()}, lr, nil, "params: L0"},
		{MultiPowerParams{Gamma: -1}, lr, nil, "params: gamma"},
		{MultiPowerParams{B: math.Inf(1)}, lr, nil, "params: B"},
		{mpowTruth, nil, nil, "lr: no learning rates"},
		{mpowTruth, []float64{1, -1}, nil, "lr[1]"},
		{mpowTruth, []float64{1, math.Inf(1)}, nil, "lr[1]"},
		{mpowTruth, lr, []int{0}, "steps[0]"},
		{mpowTruth, lr, []int{3001}, "steps[0]"},
		{mpowTruth, lr, []int{5, 5}, "steps[1]: steps must increase"},
		{mpowTruth, []float64{0, 0, 1}, []int{1}, "the learning rate is zero up to step 1"},
	}
	for _, c := range bad {
		_, err := PredictMultiPower(c.p, c.lr, c.steps)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %v: got %v, want an *InputError containing %q", c.p, c.steps, err, c.want)
		}
	}
}

// No input makes the evaluation panic or return NaN where the law has a value: zero and
// huge parameters, zero learning rates, LR that drops to zero, one-step schedules.
func TestMultiPowerExtremes(t *testing.T) {
	lrs := [][]float64{
		{1},
		{1, 1},
		{0, 1, 0, 0, 1},
		{1e-300, 1e300, 0, 5},
		append(make([]float64, 10), 1e-3, 1e-3, 0, 0, 0),
	}
	for name, lr := range mpowTestSchedules(t) {
		if name == "cosine-to-0" || name == "cyclic" {
			lrs = append(lrs, lr)
		}
	}
	values := []float64{0, 1e-300, 1e-6, 0.5, 1, 3, 1e6, 1e300}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, lr := range lrs {
		for i := 0; i < 40; i++ {
			v := func() float64 { return values[rng.IntN(len(values))] }
			p := MultiPowerParams{L0: v(), A: v(), Alpha: v(), B: v(), C: v(), Beta: v(), Gamma: v()}
			var steps []int
			for st := 1; st < len(lr); st += 1 + len(lr)/200 {
				steps = append(steps, st)
			}
			pr, err := PredictMultiPower(p, lr, steps)
			if len(lr) == 5 && lr[0] == 0 {
				pr, err = PredictMultiPower(p, lr, nil) // every step
			}
			if err != nil {
				var ie *InputError
				if !errors.As(err, &ie) {
					t.Errorf("%+v: %v", p, err)
				}
				continue
			}
			for k, l := range pr.Loss {
				// (a term may overflow to infinity; both at once leave no value)
				if math.IsNaN(l) && !(math.IsInf(pr.S1Term[k], 0) && math.IsInf(pr.LDTerm[k], 0)) {
					t.Errorf("%+v on %d steps: NaN at step %d (S1 term %g, LD %g)", p, len(lr), pr.Steps[k], pr.S1Term[k], pr.LDTerm[k])
					break
				}
			}
		}
	}
}

func TestFitLinesMultiPower(t *testing.T) {
	req := mpowSyntheticRequest(t, mpowTruth, 0, 1000)
	req.Points = 500
	lines, err := FitLinesMultiPower(req, mpowTruth)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		c := req.Curves[i]
		lr, _ := c.Schedule.LR()
		if l.Name != c.Name || len(l.Steps) < 400 || len(l.Steps) > 600 || l.Steps[len(l.Steps)-1] != len(lr)-1 {
			t.Errorf("%s: %d steps, last %d", l.Name, len(l.Steps), l.Steps[len(l.Steps)-1])
		}
		want, _ := PredictMultiPower(mpowTruth, lr, l.Steps)
		for k := range l.Steps {
			if l.Loss[k] != want.Loss[k] || l.LR[k] != lr[l.Steps[k]] {
				t.Fatalf("%s step %d: %v, PredictMultiPower %v", l.Name, l.Steps[k], l.Loss[k], want.Loss[k])
			}
		}
	}
	// the warmup at its peak: no loss drop from the warmup, and a larger area
	req.WarmupConvention = string(WarmupPeak)
	peak, err := FitLinesMultiPower(req, mpowTruth)
	if err != nil || peak[1].LR[0] != 3e-4 || !(peak[1].Loss[len(peak[1].Loss)-1] < lines[1].Loss[len(lines[1].Loss)-1]) {
		t.Errorf("peak convention: %v", err)
	}
	if _, err := FitLinesMultiPower(FitRequest{WarmupConvention: "x"}, mpowTruth); err == nil {
		t.Error("bad convention accepted")
	}
	if _, err := FitLinesMultiPower(req, MultiPowerParams{A: -1}); err == nil {
		t.Error("bad params accepted")
	}
}

// Odd but valid requests fit without panicking, to finite parameters or an *InputError.
func TestMultiPowerFitOddInputs(t *testing.T) {
	constant := make([]float64, 1001)
	for i := range constant {
		constant[i] = 1e-3
	}
	cosine := func(peak float64) *Schedule {
		return &Schedule{Kind: KindCosine, Total: 2000, Peak: peak, Warmup: 100}
	}
	cases := map[string]FitRequest{
		"one point":        {Curves: []Curve{{Name: "a", Steps: []float64{500}, Loss: []float64{3}, Schedule: cosine(1e-3)}}},
		"no LR change":     {Curves: []Curve{{Name: "a", Steps: []float64{10, 100, 1000}, Loss: []float64{4, 3.5, 3}, LR: constant}}},
		"rising loss":      {Curves: []Curve{{Name: "a", Steps: []float64{200, 800, 1600, 2000}, Loss: []float64{3, 3.2, 3.5, 4}, Schedule: cosine(1e-3)}}},
		"equal losses":     {Curves: []Curve{{Name: "a", Steps: []float64{200, 800, 1600, 2000}, Loss: []float64{3, 3, 3, 3}, Schedule: cosine(1e-3)}}},
		"tiny LR":          {Curves: []Curve{{Name: "a", Steps: []float64{200, 800, 1600, 2000}, Loss: []float64{5, 4, 3.5, 3}, Schedule: cosine(1e-9)}}},
		"huge LR":          {Curves: []Curve{{Name: "a", Steps: []float64{200, 800, 1600, 2000}, Loss: []float64{5, 4, 3.5, 3}, Schedule: cosine(10)}}},
		"huge loss":        {Curves: []Curve{{Name: "a", Steps: []float64{200, 800, 1600, 2000}, Loss: []float64{5e30, 4e30, 3.5e30, 3e30}, Schedule: cosine(1e-3)}}},
		"tiny loss":        {Curves: []Curve{{Name: "a", Steps: []float64{200, 800, 1600, 2000}, Loss: []float64{5e-30, 4e-30, 3.5e-30, 3e-30}, Schedule: cosine(1e-3)}}},
		"peak convention":  {WarmupConvention: "peak", Curves: []Curve{{Name: "a", Steps: []float64{50, 800, 1600, 2000}, Loss: []float64{5, 4, 3.5, 3}, Schedule: cosine(1e-3)}}},
		"warmup to a step": {WarmupSteps: 999, Curves: []Curve{{Name: "a", Steps: []float64{1, 2, 1000}, Loss: []float64{9, 8, 3}, LR: constant}}},
	}
	for name, req := range cases {
		for _, fit := range []func(context.Context, FitRequest, func(float64)) (*MultiPowerResult, error){FitMultiPower, FitMultiPowerRelease} {
			res, err := fit(context.Background(), req, nil)
			if err != nil {
				var ie *InputError
				if !errors.As(err, &ie) {
					t.Errorf("%s: %v", name, err)
				}
				continue
			}
			if err := res.Params.Validate(); err != nil || math.IsNaN(res.Objective) {
				t.Errorf("%s: %+v, objective %v", name, res.Params, res.Objective)
			}
			if _, err := json.Marshal(res); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}
