package multipower

import (
	"context"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// BenchmarkFitMultiPower fits the Multi-Power Law to the release's three fit curves (25M),
// validating on the other six.
func BenchmarkFitMultiPower(b *testing.B) {
	req := testcurves.MPLRequest(b, "25", lawcore.FixedLambda(lawcore.DefaultLambda), "")
	req.Law = Name
	b.ReportAllocs()
	evaluations := 0
	for b.Loop() {
		res, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		evaluations = res.Search.Evaluations
	}
	b.ReportMetric(float64(evaluations), "evaluations")
}

// BenchmarkFitMultiPowerFig2 fits the Multi-Power Law to the paper's Fig. 2 curves (two
// 20-point curves of 20K-step schedules), whose optimum lies at large beta and small C
// (G near 1 - exp(-C*beta*x)): what shape.localBounds made cheap.
func BenchmarkFitMultiPowerFig2(b *testing.B) {
	req := testcurves.Fig2(b)
	req.Law = Name
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lawcore.Fit(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEval is one evaluation of the model with its derivatives on the release's three
// fit curves (25M), near the optimum: what one objective evaluation of a fit costs.
func BenchmarkEval(b *testing.B) {
	req := testcurves.MPLRequest(b, "25", lawcore.FixedLambda(lawcore.DefaultLambda), schedule.WarmupActual)
	var runs []lawcore.Run
	for _, c := range req.Curves[:3] {
		lr, _ := c.Schedule.LR()
		r := lawcore.Run{Name: c.Name, LR: lr}
		for _, st := range c.Steps {
			r.Steps = append(r.Steps, int(st))
		}
		runs = append(runs, r)
	}
	bound, err := Law.Bind(runs, lawcore.BindOptions{Free: []bool{true, true, true, true, true, true, true}})
	if err != nil {
		b.Fatal(err)
	}
	m := bound.(*model)
	theta, _ := spec.Theta(truth.Values())
	m.Anchor(theta, true)
	pred, jac := make([]float64, m.Points()), make([]float64, 7*m.Points())
	b.ReportAllocs()
	for b.Loop() {
		m.dropsOK = false // a new point of the fit
		m.Eval(theta, 0, pred, jac)
	}
	b.ReportMetric(float64(m.frozen.terms())/float64(m.Points()), "terms/point")
}

// BenchmarkPredictDense predicts every step of a 72,000-step cosine schedule.
func BenchmarkPredictDense(b *testing.B) {
	lr, err := schedule.Schedule{Kind: schedule.KindCosine, Total: 72000, Peak: 3e-4, Final: 3e-5, Warmup: 2160}.LR()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		predict(b, truth, lr, nil)
	}
}

// BenchmarkFitRelease runs the release's own fitting procedure on its split (25M).
func BenchmarkFitRelease(b *testing.B) {
	req := releaseRequest(b, "25")
	req.Search = SearchRelease
	b.ReportAllocs()
	evaluations := 0
	for b.Loop() {
		res, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		evaluations = res.Search.Evaluations
	}
	b.ReportMetric(float64(evaluations), "evaluations")
}

// BenchmarkPredictBand predicts a 72,000-step cosine schedule at 2,000 steps, as the page
// draws it, with a band over six replicates: their loss drops on one grouping.
func BenchmarkPredictBand(b *testing.B) {
	lr, err := schedule.Schedule{Kind: schedule.KindCosine, Total: 72000, Peak: 3e-4, Final: 3e-5, Warmup: 2160}.LR()
	if err != nil {
		b.Fatal(err)
	}
	req := lawcore.PredictRequest{Law: Name, Params: truth.Values(), Points: 2000,
		Curves: []lawcore.PredictCurve{{Name: "cosine", LR: lr}},
		Band:   &lawcore.Band{Level: 0.9, Quantile: 1, Replicates: []lawcore.Replicates{{Sets: bandReplicates()}}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lawcore.Predict(req); err != nil {
			b.Fatal(err)
		}
	}
}
