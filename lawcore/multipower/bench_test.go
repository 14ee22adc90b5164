package lawcore

import (
	"context"
	"testing"
)

// BenchmarkFitMultiPower fits the Multi-Power Law to the release's three fit curves (25M),
// validating on the other six.
func BenchmarkFitMultiPower(b *testing.B) {
	req := mplRequest(b, "25", FixedLambda(DefaultLambda), "")
	b.ReportAllocs()
	evaluations := 0
	for b.Loop() {
		res, err := FitMultiPower(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		evaluations = res.Search.Evaluations
	}
	b.ReportMetric(float64(evaluations), "evaluations")
}

// BenchmarkMultiPowerObjective is one evaluation of the fit objective with its gradient on
// the release's three fit curves (25M), near the optimum.
func BenchmarkMultiPowerObjective(b *testing.B) {
	req := mplRequest(b, "25", FixedLambda(DefaultLambda), "")
	curves, _, delta, err := mpowPrepare(req)
	if err != nil {
		b.Fatal(err)
	}
	obj := newMpowObjective(context.Background(), curves, delta)
	p := MultiPowerParams{L0: 3.04, A: 0.525, Alpha: 0.508, B: 363.8, C: 2.066, Beta: 0.583, Gamma: 0.641}
	obj.freeze(p)
	x, grad := mpowToX(p), make([]float64, mpowDims)
	b.ReportAllocs()
	for b.Loop() {
		obj.value(x, grad)
	}
	b.ReportMetric(float64(obj.frozen.terms())/float64(len(obj.points)), "terms/point")
}

// BenchmarkPredictMultiPowerDense predicts every step of a 72,000-step cosine schedule.
func BenchmarkPredictMultiPowerDense(b *testing.B) {
	lr, err := Schedule{Kind: KindCosine, Total: 72000, Peak: 3e-4, Final: 3e-5, Warmup: 2160}.LR()
	if err != nil {
		b.Fatal(err)
	}
	p := MultiPowerParams{L0: 3.04, A: 0.525, Alpha: 0.508, B: 363.8, C: 2.066, Beta: 0.583, Gamma: 0.641}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PredictMultiPower(p, lr, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitMultiPowerRelease runs the release's own fitting procedure on its split (25M).
func BenchmarkFitMultiPowerRelease(b *testing.B) {
	req := mpowReleaseRequest(b, "25")
	b.ReportAllocs()
	evaluations := 0
	for b.Loop() {
		res, err := FitMultiPowerRelease(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		evaluations = res.Search.Evaluations
	}
	b.ReportMetric(float64(evaluations), "evaluations")
}
