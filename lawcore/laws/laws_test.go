package laws_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	_ "github.com/lawcalc/annealing/lawcore/laws"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Every law the engine lists is registered once, with a usable spec: its defaults in their
// domains, its terms on linear parameters, at most four linear parameters (the start
// search's least squares), and a start grid on every other free parameter.
func TestEveryLawIsWellFormed(t *testing.T) {
	laws := lawcore.Laws()
	var names []string
	for _, l := range laws {
		s := l.Spec()
		names = append(names, s.Name)
		if got, err := lawcore.Lookup(s.Name); err != nil || got.Spec() != s {
			t.Errorf("%s: Lookup %v", s.Name, err)
		}
		if _, err := s.Theta(s.Values(s.Defaults())); err != nil {
			t.Errorf("%s: defaults %v", s.Name, err)
		}
		linear := 0
		for _, p := range s.Params {
			if p.Linear {
				linear++
			} else if !p.Held && len(p.Grid) == 0 {
				t.Errorf("%s: %s is neither linear, held nor gridded", s.Name, p.Name)
			}
		}
		if linear > 4 {
			t.Errorf("%s: %d linear parameters", s.Name, linear)
		}
		for _, term := range s.Terms {
			if i := s.Index(term.Param); i < 0 || !s.Params[i].Linear {
				t.Errorf("%s: term %q is not on a linear parameter", s.Name, term.Label)
			}
		}
		if s.Title == "" || s.Formula == "" || s.Reference == "" {
			t.Errorf("%s: title, formula or reference missing", s.Name)
		}
	}
	t.Logf("laws: %v", names)
	for _, want := range []string{"annealing", "multi-power", "lr-weighted", "s2-power", "size"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s is not registered", want)
		}
	}
}

// Every law's analytic derivatives agree with central differences of its predictions at its
// defaults, on the release's fitted curves (with sizes, for the size law).
func TestEveryLawsGradient(t *testing.T) {
	req := testcurves.MPLRequest(t, "25", lawcore.FixedLambda(lawcore.DefaultLambda), schedule.WarmupPeak)
	for _, l := range lawcore.Laws() {
		s := l.Spec()
		var runs []lawcore.Run
		for i, c := range req.Curves[:3] {
			lr, _ := c.Schedule.LR()
			schedule.CountWarmup(lr, c.Schedule.WarmupSteps(), schedule.WarmupPeak)
			r := lawcore.Run{Name: c.Name, LR: lr, Size: []float64{25e6, 1e8, 4e8}[i]}
			for _, st := range c.Steps {
				r.Steps = append(r.Steps, int(st))
			}
			runs = append(runs, r)
		}
		theta := s.Defaults()
		free := make([]bool, len(theta))
		for i := range free {
			free[i] = true
		}
		m, err := l.Bind(runs, lawcore.BindOptions{Free: free, Theta: theta})
		if err != nil {
			t.Fatal(s.Name, err)
		}
		if a, ok := m.(lawcore.Anchored); ok {
			a.Anchor(theta, true)
		}
		n, d := m.Points(), len(theta)
		pred, jac := make([]float64, n), make([]float64, n*d)
		m.Eval(theta, 0, pred, jac)
		up, down := make([]float64, n), make([]float64, n)
		for j := range theta {
			h := 1e-6 * theta[j]
			tp, tm := slices.Clone(theta), slices.Clone(theta)
			tp[j] += h
			tm[j] -= h
			m.Eval(tp, 0, up, nil)
			m.Eval(tm, 0, down, nil)
			for k := 0; k < n; k += 17 {
				fd := (up[k] - down[k]) / (2 * h)
				if got := jac[k*d+j]; !(math.Abs(fd-got) <= 1e-5*math.Abs(fd)+1e-9) {
					t.Errorf("%s point %d: d pred/d %s = %.9g, central difference %.9g", s.Name, k, s.Params[j].Name, got, fd)
					break
				}
			}
		}
	}
}

// The paper's variants and the Multi-Power Law beside the annealing law, in sample and out:
// on Fig. 2 (fit both curves; and each curve predicted from the other alone) and on the
// release's split (fit three curves, predict six), each law under its own warmup
// convention. The variants contain the annealing law (epsilon -> 0, zeta = 1), so they fit
// at least as well in sample, which is asserted; out of sample they need not, and the
// held-out figures are printed for docs/accuracy.md, not asserted (lrweighted's and s2power's
// TestFig2 assert epsilon and zeta as the paper found them).
func TestLawsOnThePapersData(t *testing.T) {
	if testing.Short() {
		t.Skip("fits every law a dozen times")
	}
	type row struct{ fig2Obj, fig2Held, mpl25, mpl100 float64 }
	rows := map[string]row{}
	for _, name := range []string{"annealing", "lr-weighted", "s2-power", "multi-power"} {
		var r row
		req := testcurves.Fig2(t)
		req.Law, req.WarmupConvention = name, ""
		res, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(name, err)
		}
		r.fig2Obj = res.Objective
		for held := range req.Curves {
			one := req
			one.Curves = slices.Clone(req.Curves)
			one.Curves[held].Role = lawcore.RoleValidate
			res, err := lawcore.Fit(context.Background(), one, nil)
			if err != nil {
				t.Fatal(name, err)
			}
			r.fig2Held += res.ValidateMetrics.PredE / 2
		}
		for _, size := range []string{"25", "100"} {
			req := testcurves.MPLRequest(t, size, lawcore.FixedLambda(lawcore.DefaultLambda), "")
			req.Law = name
			res, err := lawcore.Fit(context.Background(), req, nil)
			if err != nil {
				t.Fatal(name, err)
			}
			if size == "25" {
				r.mpl25 = res.ValidateMetrics.PredE
			} else {
				r.mpl100 = res.ValidateMetrics.PredE
			}
		}
		rows[name] = r
		t.Logf("%-12s Fig. 2 objective %.4e, held-out PredE %.5f; release split held-out PredE 25M %.5f, 100M %.5f",
			name, r.fig2Obj, r.fig2Held, r.mpl25, r.mpl100)
	}
	for _, v := range []string{"lr-weighted", "s2-power"} {
		if !(rows[v].fig2Obj <= rows["annealing"].fig2Obj*(1+1e-6)) {
			t.Errorf("%s fits Fig. 2 worse than the annealing law it contains: %.6g against %.6g", v, rows[v].fig2Obj, rows["annealing"].fig2Obj)
		}
	}
}

// Noise-free curves drawn from a law (three schedules, warmup excluded) are fitted back to the
// parameters that drew them, each within 1%: the start search and the polish find the one
// optimum there is. The truths sit away from the defaults, so a fit stuck at its start fails.
func TestLawsRecoverKnownParameters(t *testing.T) {
	tests := []struct {
		law   string
		truth lawcore.Values
	}{
		{"annealing", lawcore.Values{"L0": 2.4, "A": 0.5, "alpha": 0.45, "C": 0.6, "lambda": 0.999}},
		{"lr-weighted", lawcore.Values{"L0": 2.4, "A": 0.5, "alpha": 0.45, "C": 0.6, "epsilon": 0.08, "lambda": 0.999}},
		{"s2-power", lawcore.Values{"L0": 2.4, "A": 0.5, "alpha": 0.45, "C": 0.5, "zeta": 1.2, "lambda": 0.999}},
	}
	scheds := []schedule.Schedule{
		{Kind: schedule.KindCosine, Total: 30000, Peak: 3e-4, Warmup: 500},
		{Kind: schedule.KindConstant, Total: 30000, Peak: 3e-4, Warmup: 500},
		{Kind: schedule.KindWSD, Total: 30000, Peak: 3e-4, Warmup: 500, Decay: "1-sqrt", DecayFraction: 0.2},
	}
	var steps []float64
	for st := 1000; st <= 30000; st += 250 {
		steps = append(steps, float64(st))
	}
	for _, tc := range tests {
		t.Run(tc.law, func(t *testing.T) {
			req := lawcore.FitRequest{Law: tc.law}
			for i := range scheds {
				pr, err := lawcore.Predict(lawcore.PredictRequest{Law: tc.law, Params: tc.truth,
					Curves: []lawcore.PredictCurve{{Name: scheds[i].Kind, Schedule: &scheds[i], Steps: steps}}})
				if err != nil {
					t.Fatal(err)
				}
				req.Curves = append(req.Curves, lawcore.Curve{Name: scheds[i].Kind, Steps: steps, Loss: pr[0].Loss, Schedule: &scheds[i]})
			}
			res, err := lawcore.Fit(context.Background(), req, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v, objective %.3g, %d evaluations", res.Params, res.Objective, res.Search.Evaluations)
			for name, want := range tc.truth {
				if name == "lambda" {
					continue // held at its default, as the law's fit holds it
				}
				if got := res.Params[name]; !(math.Abs(got-want) <= 0.01*want) {
					t.Errorf("%s = %.5g, want %.5g within 1%%", name, got, want)
				}
			}
		})
	}
}

// A parameter held at a value given ("fixed") keeps it, under every law, and the others are
// fitted around it: alpha held at 0.3 on Fig. 2 comes back as 0.3, named held, with an
// objective no lower than the free fit's (a constrained minimum). Alpha held at other values
// once came back as the start grid's best alpha, called held.
func TestFixedParameterIsHeld(t *testing.T) {
	for _, law := range []string{"annealing", "lr-weighted", "s2-power", "multi-power"} {
		req := testcurves.Fig2(t)
		req.Law, req.WarmupConvention = law, ""
		free, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			t.Fatal(law, err)
		}
		for _, alpha := range []float64{0.3, 0.9} {
			req.Fixed = lawcore.Values{"alpha": alpha}
			res, err := lawcore.Fit(context.Background(), req, nil)
			if err != nil {
				t.Fatal(law, err)
			}
			if res.Params["alpha"] != alpha || !slices.Contains(res.Held, "alpha") {
				t.Errorf("%s: alpha fixed at %g came back %g (held %v)", law, alpha, res.Params["alpha"], res.Held)
			}
			if !(res.Objective >= free.Objective*(1-1e-9)) {
				t.Errorf("%s: alpha fixed at %g: objective %.6g, below the free fit's %.6g", law, alpha, res.Objective, free.Objective)
			}
		}
	}
}
