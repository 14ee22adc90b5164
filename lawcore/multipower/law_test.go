package multipower

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// predict is lawcore.Predict with this law, its parameters p, at the given steps of an LR
// list (as run: the law counts the warmup).
func predict(t testing.TB, p Params, lr []float64, steps []int) *lawcore.Prediction {
	t.Helper()
	c := lawcore.PredictCurve{Name: "curve", LR: lr}
	for _, st := range steps {
		c.Steps = append(c.Steps, float64(st))
	}
	out, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: p.Values(), Curves: []lawcore.PredictCurve{c}})
	if err != nil {
		t.Fatal(err)
	}
	return &out[0]
}

// syntheticRequest generates curves from known parameters on three schedules with a linear
// warmup from zero (the law counts it as run), every `every` steps, with multiplicative noise
// of the given size; a fourth schedule is held out for validation.
func syntheticRequest(t testing.TB, truth Params, noise float64, every int) lawcore.FitRequest {
	rng := rand.New(rand.NewPCG(7, 8))
	scheds := []schedule.Schedule{
		{Kind: schedule.KindCosine, Total: 24000, Peak: 3e-4, Final: 3e-5, Warmup: 1000},
		{Kind: schedule.KindConstant, Total: 24000, Peak: 3e-4, Warmup: 1000},
		{Kind: schedule.KindConcat, Segments: []schedule.Schedule{{Kind: schedule.KindConstant, Total: 8000, Peak: 3e-4, Warmup: 1000}, {Kind: schedule.KindConstant, Total: 8000, Peak: 9e-5}}},
		{Kind: schedule.KindWSD, Total: 24000, Peak: 3e-4, Final: 3e-5, Warmup: 1000, Decay: "1-sqrt", DecayFraction: 0.2},
	}
	req := lawcore.FitRequest{Law: Name}
	for i, s := range scheds {
		lr, err := s.LR()
		if err != nil {
			t.Fatal(err)
		}
		c := lawcore.Curve{Name: s.Kind, Schedule: &scheds[i], Role: lawcore.RoleFit}
		if i == 3 {
			c.Role = lawcore.RoleValidate
		}
		var steps []int
		for st := 1200; st < len(lr); st += every {
			steps = append(steps, st)
		}
		pr := predict(t, truth, lr, steps)
		for k, st := range steps {
			c.Steps = append(c.Steps, float64(st))
			c.Loss = append(c.Loss, pr.Loss[k]*(1+noise*rng.NormFloat64()))
		}
		req.Curves = append(req.Curves, c)
	}
	return req
}

var truth = Params{L0: 3.04, A: 0.525, Alpha: 0.508, B: 363.8, C: 2.066, Beta: 0.583, Gamma: 0.641}

// fitted types a fit's parameters.
func fitted(t testing.TB, res *lawcore.FitResult) Params {
	t.Helper()
	p, err := ParamsOf(res.Params)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Noise-free curves from the law are fitted exactly, and the parameters come back.
func TestRecoversKnownParameters(t *testing.T) {
	for _, noise := range []float64{0, 3e-4} {
		res, err := lawcore.Fit(context.Background(), syntheticRequest(t, truth, noise, 100), nil)
		if err != nil {
			t.Fatal(err)
		}
		p := fitted(t, res)
		t.Logf("noise %g: %+v; objective %.3g, fit WorstE %.2g, validate WorstE %.2g, %d starts, %d evaluations, %.0f ms",
			noise, p, res.Objective, res.FitMetrics.WorstE, res.ValidateMetrics.WorstE, res.Search.Starts, res.Search.Evaluations, res.ElapsedMs)
		tol := 0.001 // relative, on each parameter
		checked := []struct {
			name      string
			got, want float64
		}{{"L0", p.L0, truth.L0}, {"A", p.A, truth.A}, {"alpha", p.Alpha, truth.Alpha}, {"B", p.B, truth.B},
			{"C", p.C, truth.C}, {"beta", p.Beta, truth.Beta}, {"gamma", p.Gamma, truth.Gamma}}
		if noise > 0 {
			// C, beta and gamma shape the loss drop together: noise moves them along a valley
			// (which the predictions below check); the rest is well determined
			tol, checked = 0.03, checked[:4]
		}
		for _, c := range checked {
			if !(math.Abs(c.got-c.want) <= tol*c.want) {
				t.Errorf("noise %g: %s = %.5g, want %.5g within %g%%", noise, c.name, c.got, c.want, 100*tol)
			}
		}
		if noise == 0 && !(res.FitMetrics.WorstE <= 1e-6 && res.ValidateMetrics.WorstE <= 1e-5) {
			t.Errorf("noise-free: fit WorstE %.3g, validate WorstE %.3g, want an exact fit", res.FitMetrics.WorstE, res.ValidateMetrics.WorstE)
		}
		if noise > 0 && !(res.ValidateMetrics.PredE <= 2*noise) {
			t.Errorf("noise %g: validate PredE %.3g", noise, res.ValidateMetrics.PredE)
		}
	}
}

// The model's analytic derivatives agree with central differences of its predictions, both
// with fine groups and with coarse ones (whose spread corrections then carry much of the
// derivative).
func TestGradient(t *testing.T) {
	req := testcurves.MPLRequest(t, "25", lawcore.FixedLambda(lawcore.DefaultLambda), schedule.WarmupActual)
	var runs []lawcore.Run
	for _, c := range req.Curves[:3] {
		lr, _ := c.Schedule.LR()
		r := lawcore.Run{Name: c.Name, LR: lr}
		for _, st := range c.Steps {
			r.Steps = append(r.Steps, int(st))
		}
		runs = append(runs, r)
	}
	all := []bool{true, true, true, true, true, true, true}
	for _, tol := range []float64{1e-6, 1e-2} {
		for _, p := range []Params{truth, {L0: 2.9, A: 0.6, Alpha: 0.45, B: 700, C: 0.4, Beta: 0.15, Gamma: 0.9}} {
			bound, _ := Law.Bind(runs, lawcore.BindOptions{Free: all})
			m := bound.(*model)
			m.tol = tol
			theta, _ := spec.Theta(p.Values())
			m.Anchor(theta, true)
			n, d := m.Points(), len(theta)
			pred, jac := make([]float64, n), make([]float64, n*d)
			m.Eval(theta, 0, pred, jac)
			up, down := make([]float64, n), make([]float64, n)
			for j := range theta {
				h := 1e-6 * theta[j]
				tp, tm := append([]float64(nil), theta...), append([]float64(nil), theta...)
				tp[j] += h
				tm[j] -= h
				m.Eval(tp, 0, up, nil)
				m.Eval(tm, 0, down, nil)
				for k := 0; k < n; k += 37 {
					fd := (up[k] - down[k]) / (2 * h)
					if got := jac[k*d+j]; !(math.Abs(fd-got) <= 1e-5*math.Abs(fd)+1e-9) {
						t.Errorf("tol %g %+v point %d: d pred/d %s = %.9g, central difference %.9g", tol, p, k, spec.Params[j].Name, got, fd)
						break
					}
				}
			}
		}
	}
}

// The loss-drop derivatives of single changes and of groups agree with differences of the
// loss drop itself, over schedules with rises, jumps and decays.
func TestLossDropDerivatives(t *testing.T) {
	for name, lr := range testSchedules(t) {
		s := newSeries(lr)
		var steps []stepRef
		for st := 50; st < len(lr); st += len(lr) / 7 {
			steps = append(steps, stepRef{t: st})
		}
		for _, p := range testParams {
			f := newFrozen([]*series{s}, steps, newShape(p.C, p.Beta, p.Gamma, 1e-3))
			at := func(c, beta, gamma float64) []drop {
				out := make([]drop, len(steps))
				f.eval(newShape(c, beta, gamma, 0), out, true)
				return out
			}
			base := at(p.C, p.Beta, p.Gamma)
			h := 1e-6
			cp, cm := at(p.C*math.Exp(h), p.Beta, p.Gamma), at(p.C*math.Exp(-h), p.Beta, p.Gamma)
			bp, bm := at(p.C, p.Beta+h, p.Gamma), at(p.C, p.Beta-h, p.Gamma)
			gp, gm := at(p.C, p.Beta, p.Gamma+h), at(p.C, p.Beta, p.Gamma-h)
			for i := range steps {
				for _, c := range []struct {
					what    string
					got, fd float64
				}{
					{"d/dlnC", base[i].dLnC, (cp[i].ld - cm[i].ld) / (2 * h)},
					{"d/dbeta", base[i].dBeta, (bp[i].ld - bm[i].ld) / (2 * h)},
					{"d/dgamma", base[i].dGamma, (gp[i].ld - gm[i].ld) / (2 * h)},
				} {
					if !(math.Abs(c.got-c.fd) <= 1e-6*(math.Abs(c.fd)+1e-3)) {
						t.Errorf("%s %+v step %d: %s = %.9g, central difference %.9g", name, p, steps[i].t, c.what, c.got, c.fd)
					}
				}
			}
		}
	}
}

// Bad requests fail with the annealing law's errors, word for word: the engine prepares the
// curves of every law by the same code. Lambda, which this law does not have, is not checked.
func TestFitErrors(t *testing.T) {
	sched := func() *schedule.Schedule {
		return &schedule.Schedule{Kind: schedule.KindConstant, Total: 100, Peak: 1e-3}
	}
	curve := func(f func(*lawcore.Curve)) lawcore.Curve {
		c := lawcore.Curve{Name: "run", Steps: []float64{10, 20, 30}, Loss: []float64{3, 2.9, 2.8}, Schedule: sched()}
		f(&c)
		return c
	}
	one := func(f func(*lawcore.Curve)) lawcore.FitRequest {
		return lawcore.FitRequest{Curves: []lawcore.Curve{curve(f)}}
	}
	cases := []lawcore.FitRequest{
		{},
		one(func(c *lawcore.Curve) { c.Steps, c.Loss = nil, nil }),
		one(func(c *lawcore.Curve) { c.Loss = c.Loss[:2] }),
		one(func(c *lawcore.Curve) { c.Loss[1] = -1 }),
		one(func(c *lawcore.Curve) { c.Loss[1] = 0 }),
		one(func(c *lawcore.Curve) { c.Loss[2] = math.NaN() }),
		one(func(c *lawcore.Curve) { c.Loss[0] = math.Inf(1) }),
		one(func(c *lawcore.Curve) { c.Steps[2] = 15 }),
		one(func(c *lawcore.Curve) { c.Steps[2] = 20 }),
		one(func(c *lawcore.Curve) { c.Steps[0] = 1.5 }),
		one(func(c *lawcore.Curve) { c.Steps[0] = 0 }),
		one(func(c *lawcore.Curve) { c.Steps[2] = 300 }),
		one(func(c *lawcore.Curve) { c.Schedule = nil }),
		one(func(c *lawcore.Curve) { c.LR = []float64{1} }),
		one(func(c *lawcore.Curve) { c.Schedule, c.LR = nil, make([]float64, 101) }),
		one(func(c *lawcore.Curve) { c.Schedule, c.LR = nil, []float64{1, -1} }),
		one(func(c *lawcore.Curve) { c.Schedule, c.LR = nil, []float64{1, math.NaN()} }),
		one(func(c *lawcore.Curve) { c.Schedule.Kind = "zigzag" }),
		one(func(c *lawcore.Curve) { c.Schedule.Warmup = 200 }),
		{WarmupSteps: 50, Curves: []lawcore.Curve{curve(func(c *lawcore.Curve) { c.Schedule, c.LR = nil, []float64{1, 1, 1} })}},
		{WarmupSteps: -1, Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {})}},
		{WarmupConvention: "during", Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {})}},
		{HuberDelta: -1, Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {})}},
		{HuberDelta: math.Inf(1), Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {})}},
		one(func(c *lawcore.Curve) { c.Role = "train" }),
		one(func(c *lawcore.Curve) { c.Role = lawcore.RoleValidate }),
		one(func(c *lawcore.Curve) { c.Name = ""; c.Loss[0] = -2 }),
		one(func(c *lawcore.Curve) {
			c.Schedule, c.LR = nil, append(make([]float64, 11), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
		}),
		// a validate curve's error is found too, after the fit curves'
		{Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {}), curve(func(c *lawcore.Curve) {
			c.Name, c.Role, c.Schedule, c.LR = "held out", lawcore.RoleValidate, nil, append(make([]float64, 21), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
		})}},
	}
	for i, req := range cases {
		_, want := lawcore.Fit(context.Background(), req, nil)
		req.Law = Name
		_, err := lawcore.Fit(context.Background(), req, nil)
		var ie *input.Error
		if want == nil || !errors.As(err, &ie) || err.Error() != want.Error() {
			t.Errorf("case %d: got %v, want the annealing law's %v", i, err, want)
		}
	}
	// lambda is the annealing law's alone
	req := lawcore.FitRequest{Law: Name, Lambda: lawcore.FixedLambda(2), Curves: []lawcore.Curve{curve(func(*lawcore.Curve) {})}}
	if _, err := lawcore.Fit(context.Background(), req, nil); err != nil {
		t.Errorf("lambda 2: %v", err)
	}
	req.Search = "fastest"
	if _, err := lawcore.Fit(context.Background(), req, nil); err == nil || !strings.Contains(err.Error(), `search: must be "optimum" or "release", got "fastest"`) {
		t.Errorf("unknown search: %v", err)
	}
}

func TestFitCancelled(t *testing.T) {
	for _, search := range []string{"", SearchRelease} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := syntheticRequest(t, truth, 0, 500)
		req.Search = search
		if _, err := lawcore.Fit(ctx, req, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("%q: got %v, want context.Canceled", search, err)
		}
		// cancelled while running: after the first progress report past the start search
		ctx, cancel = context.WithCancel(context.Background())
		_, err := lawcore.Fit(ctx, req, func(f float64) {
			if f > 0.2 {
				cancel()
			}
		})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%q: got %v, want context.Canceled", search, err)
		}
	}
}

func TestFitProgress(t *testing.T) {
	var last float64
	calls := 0
	if _, err := lawcore.Fit(context.Background(), syntheticRequest(t, truth, 1e-4, 200), func(f float64) {
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

// The result is shaped like every law's, with this law's name and parameters.
func TestResultJSON(t *testing.T) {
	res, err := lawcore.Fit(context.Background(), syntheticRequest(t, truth, 1e-4, 500), nil)
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
	for _, key := range []string{"law", "params", "objective", "curves", "fitMetrics", "validateMetrics", "settings", "search", "elapsedMs"} {
		if _, ok := m[key]; !ok {
			t.Errorf("no %q in %s", key, b)
		}
	}
	if m["law"] != Name || !strings.Contains(string(b), `"gamma":`) || !strings.Contains(string(b), `"warmupConvention":"actual"`) {
		t.Errorf("unexpected JSON %s", b)
	}
	var p Params
	pb, _ := json.Marshal(m["params"])
	if err := json.Unmarshal(pb, &p); err != nil || p != fitted(t, res) {
		t.Errorf("params do not round-trip: %s", pb)
	}
}

func TestPredict(t *testing.T) {
	lr, _ := schedule.Schedule{Kind: schedule.KindWSD, Total: 3000, Peak: 1e-3, Final: 1e-4, Warmup: 100, Decay: "linear", DecayFraction: 0.3}.LR()
	dense := predict(t, truth, lr, nil)
	// step 0 (LR 0 in the warmup from 0) has no value: every other step is predicted
	if len(dense.Steps) != 3000 || dense.Steps[0] != 1 || dense.Steps[2999] != 3000 {
		t.Fatalf("dense steps %v..%v (%d)", dense.Steps[0], dense.Steps[len(dense.Steps)-1], len(dense.Steps))
	}
	for k, st := range dense.Steps {
		want, mass := naiveDrop(truth, lr, int(st))
		if !(math.Abs(dense.S2Term[k]-want) <= Tolerance*mass+1e-12) ||
			!(math.Abs(dense.Loss[k]-(truth.L0+dense.S1Term[k]-dense.S2Term[k])) <= 1e-12) {
			t.Fatalf("step %v: LD %.12g, direct %.12g (bound %.3g)", st, dense.S2Term[k], want, Tolerance*mass)
		}
	}
	some := predict(t, truth, lr, []int{10, 2000, 3000})
	if some.Loss[0] != dense.Loss[9] || some.Loss[2] != dense.Loss[2999] || some.FinalLoss != dense.FinalLoss {
		t.Errorf("loss at steps: %v, final %v (dense %v)", some.Loss, some.FinalLoss, dense.FinalLoss)
	}
	bad := []struct {
		p     lawcore.Values
		lr    []float64
		steps []float64
		want  string
	}{
		{Params{L0: math.NaN()}.Values(), lr, nil, "params: L0"},
		{Params{Gamma: -1}.Values(), lr, nil, "params: gamma"},
		{Params{B: math.Inf(1)}.Values(), lr, nil, "params: B"},
		{lawcore.Values{"L0": 3}, lr, nil, "params: A: missing"},
		{lawcore.Values{"L0": 3, "A": 1, "alpha": 1, "B": 1, "C": 1, "beta": 1, "gamma": 1, "lambda": 0.9}, lr, nil, `params: lambda: the Multi-Power Law has no parameter "lambda"`},
		{truth.Values(), []float64{1, -1}, nil, "lr[1]"},
		{truth.Values(), []float64{1, math.Inf(1)}, nil, "lr[1]"},
		{truth.Values(), lr, []float64{3001}, "steps[0]"},
		{truth.Values(), lr, []float64{5, 5}, "steps[1]"},
	}
	for _, c := range bad {
		_, err := lawcore.Predict(lawcore.PredictRequest{Law: Name, Params: c.p, Curves: []lawcore.PredictCurve{{Name: "c", LR: c.lr, Steps: c.steps}}})
		var ie *input.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v %v: got %v, want an *input.Error containing %q", c.p, c.steps, err, c.want)
		}
	}
}

// No input makes the evaluation panic or return NaN where the law has a value: zero and
// huge parameters, zero learning rates, LR that drops to zero, one-step schedules.
func TestExtremes(t *testing.T) {
	lrs := [][]float64{
		{1, 1},
		{0, 1, 0, 0, 1},
		{1e-300, 1e300, 0, 5},
		append(make([]float64, 10), 1e-3, 1e-3, 0, 0, 0),
	}
	for name, lr := range testSchedules(t) {
		if name == "cosine-to-0" || name == "cyclic" {
			lrs = append(lrs, lr)
		}
	}
	values := []float64{0, 1e-300, 1e-6, 0.5, 1, 3, 1e6, 1e300}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, lr := range lrs {
		// about 200 steps with something trained (every step of the short ones)
		run := lawcore.Run{Name: "extreme", LR: lr}
		sum, next := 0.0, 0
		for st := 1; st < len(lr); st += 1 + len(lr)/200 {
			for ; next <= st; next++ {
				sum += lr[next]
			}
			if sum > 0 {
				run.Steps = append(run.Steps, st)
			}
		}
		m, err := Law.Bind([]lawcore.Run{run}, lawcore.BindOptions{Predict: true})
		if err != nil {
			t.Fatal(err)
		}
		pred, jac := make([]float64, m.Points()), make([]float64, 7*m.Points())
		for i := 0; i < 40; i++ {
			v := func() float64 { return values[rng.IntN(len(values))] }
			p := Params{L0: v(), A: v(), Alpha: v(), B: v(), C: v(), Beta: v(), Gamma: v()}
			theta, _ := spec.Theta(p.Values())
			m.Eval(theta, 0, pred, jac)
			for k, l := range pred {
				s1, ld := p.A*jac[k*7+iA], -p.B*jac[k*7+iB]
				// (a term may overflow to infinity; both at once leave no value)
				if math.IsNaN(l) && !(math.IsInf(s1, 0) && math.IsInf(ld, 0)) {
					t.Errorf("%+v on %d steps: NaN at step %d (S1 term %g, LD %g)", p, len(lr), run.Steps[k], s1, ld)
					break
				}
			}
		}
	}
}

func TestFitLines(t *testing.T) {
	req := syntheticRequest(t, truth, 0, 1000)
	req.Points = 500
	res := &lawcore.FitResult{Law: Name, Params: truth.Values(), Settings: lawcore.FitSettings{WarmupConvention: schedule.WarmupActual}}
	lines, err := lawcore.FitLines(req, res)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		c := req.Curves[i]
		lr, _ := c.Schedule.LR()
		last := l.Steps[len(l.Steps)-1]
		if l.Name != c.Name || len(l.Steps) < 400 || len(l.Steps) > 600 || last != float64(len(lr)-1) {
			t.Errorf("%s: %d steps, last %v", l.Name, len(l.Steps), last)
		}
		steps := make([]int, len(l.Steps))
		for k, st := range l.Steps {
			steps[k] = int(st)
		}
		want := predict(t, truth, lr, steps)
		for k := range l.Steps {
			if l.Loss[k] != want.Loss[k] || l.LR[k] != lr[steps[k]] {
				t.Fatalf("%s step %v: %v, Predict %v", l.Name, l.Steps[k], l.Loss[k], want.Loss[k])
			}
		}
	}
	// the warmup at its peak: no loss drop from the warmup, and a larger area
	res.Settings.WarmupConvention = schedule.WarmupPeak
	peak, err := lawcore.FitLines(req, res)
	if err != nil || !(peak[1].Loss[len(peak[1].Loss)-1] < lines[1].Loss[len(lines[1].Loss)-1]) {
		t.Errorf("peak convention: %v", err)
	}
	// without points, the law's own LinePoints
	req.Points = 0
	if dflt, err := lawcore.FitLines(req, res); err != nil || len(dflt[0].Steps) > spec.LinePoints+1 {
		t.Errorf("default points: %d steps, %v", len(dflt[0].Steps), err)
	}
	// an average led by a law that draws every step is thinned to this law's LinePoints too,
	// as when this law leads it
	ann := lawcore.Values{"L0": 3, "A": 0.5, "alpha": 0.5, "C": 0.4, "lambda": 0.999}
	for _, lead := range []string{annealing.Name, Name} {
		members := []lawcore.Member{
			{Candidate: lawcore.Candidate{Law: annealing.Name, Convention: schedule.WarmupActual}, Params: ann, Weight: 0.5},
			{Candidate: lawcore.Candidate{Law: Name, Convention: schedule.WarmupActual}, Params: truth.Values(), Weight: 0.5},
		}
		if lead == Name {
			members[0], members[1] = members[1], members[0]
		}
		avg := &lawcore.FitResult{Law: lead, Params: members[0].Params, Members: members,
			Settings: lawcore.FitSettings{WarmupConvention: schedule.WarmupActual}}
		if lines, err := lawcore.FitLines(req, avg); err != nil || len(lines[0].Steps) > spec.LinePoints+1 {
			t.Errorf("average led by %s: %d steps, %v", lead, len(lines[0].Steps), err)
		}
	}
}

// Odd but valid requests fit without panicking, to finite parameters or an *input.Error.
func TestFitOddInputs(t *testing.T) {
	constant := make([]float64, 1001)
	for i := range constant {
		constant[i] = 1e-3
	}
	cosine := func(peak float64) *schedule.Schedule {
		return &schedule.Schedule{Kind: schedule.KindCosine, Total: 2000, Peak: peak, Warmup: 100}
	}
	curve := func(steps, loss []float64, s *schedule.Schedule) []lawcore.Curve {
		return []lawcore.Curve{{Name: "a", Steps: steps, Loss: loss, Schedule: s}}
	}
	cases := map[string]lawcore.FitRequest{
		"one point":        {Curves: curve([]float64{500}, []float64{3}, cosine(1e-3))},
		"no LR change":     {Curves: []lawcore.Curve{{Name: "a", Steps: []float64{10, 100, 1000}, Loss: []float64{4, 3.5, 3}, LR: constant}}},
		"rising loss":      {Curves: curve([]float64{200, 800, 1600, 2000}, []float64{3, 3.2, 3.5, 4}, cosine(1e-3))},
		"equal losses":     {Curves: curve([]float64{200, 800, 1600, 2000}, []float64{3, 3, 3, 3}, cosine(1e-3))},
		"tiny LR":          {Curves: curve([]float64{200, 800, 1600, 2000}, []float64{5, 4, 3.5, 3}, cosine(1e-9))},
		"huge LR":          {Curves: curve([]float64{200, 800, 1600, 2000}, []float64{5, 4, 3.5, 3}, cosine(10))},
		"huge loss":        {Curves: curve([]float64{200, 800, 1600, 2000}, []float64{5e30, 4e30, 3.5e30, 3e30}, cosine(1e-3))},
		"tiny loss":        {Curves: curve([]float64{200, 800, 1600, 2000}, []float64{5e-30, 4e-30, 3.5e-30, 3e-30}, cosine(1e-3))},
		"peak convention":  {WarmupConvention: "peak", Curves: curve([]float64{50, 800, 1600, 2000}, []float64{5, 4, 3.5, 3}, cosine(1e-3))},
		"warmup to a step": {WarmupSteps: 999, Curves: []lawcore.Curve{{Name: "a", Steps: []float64{1, 2, 1000}, Loss: []float64{9, 8, 3}, LR: constant}}},
	}
	for name, req := range cases {
		for _, search := range []string{"", SearchRelease} {
			req.Law, req.Search = Name, search
			res, err := lawcore.Fit(context.Background(), req, nil)
			if err != nil {
				var ie *input.Error
				if !errors.As(err, &ie) {
					t.Errorf("%s %q: %v", name, search, err)
				}
				continue
			}
			if _, err := ParamsOf(res.Params); err != nil || math.IsNaN(res.Objective) {
				t.Errorf("%s %q: %+v, objective %v", name, search, res.Params, res.Objective)
			}
			if _, err := json.Marshal(res); err != nil {
				t.Errorf("%s %q: %v", name, search, err)
			}
		}
	}
}
