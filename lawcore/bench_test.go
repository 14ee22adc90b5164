package lawcore_test

import (
	"context"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// BenchmarkFitFig2 is the paper's Fig. 2 fit (two curves of 20 points, 20K-step schedules).
// The paper's own scipy procedure takes about 1.5 s for it.
func BenchmarkFitFig2(b *testing.B) {
	req := testcurves.Fig2(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lawcore.Fit(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitFig2AsThePage is the fit the page's first view asks for: Fig. 2 with each
// parameter's interval (ten jackknife refits) and the two fitted lines of 2,000 points.
func BenchmarkFitFig2AsThePage(b *testing.B) {
	req := testcurves.Fig2(b)
	req.Intervals, req.Lines, req.Points = true, true, 2000
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lawcore.Fit(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitNoisyPerStep fits three runs logged at every step, 33,840 points each, with the
// noise of a training loss (testcurves.NoisyPerStep): the fit alone, as the page asks for it
// but without intervals.
func BenchmarkFitNoisyPerStep(b *testing.B) {
	benchmarkFit(b, testcurves.NoisyPerStep(1))
}

// BenchmarkFitNoisyPerStepIntervals is the same fit with each parameter's interval (the
// jackknife's ten refits), as the page and the CLI ask for it.
func BenchmarkFitNoisyPerStepIntervals(b *testing.B) {
	req := testcurves.NoisyPerStep(1)
	req.Intervals = true
	benchmarkFit(b, req)
}

// benchmarkFit fits req, reporting the search's evaluations and, natively, the process's CPU
// time per fit (cpu-ns/op: on the shared development machine it moves less than the wall time).
func benchmarkFit(b *testing.B, req lawcore.FitRequest) {
	b.ReportAllocs()
	evaluations := 0
	cpu0, cpuOK := processCPU()
	for b.Loop() {
		res, err := lawcore.Fit(context.Background(), req, nil)
		if err != nil {
			b.Fatal(err)
		}
		evaluations = res.Search.Evaluations
	}
	if cpu1, ok := processCPU(); ok && cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(evaluations), "evaluations")
}

// BenchmarkPredictMillionSteps predicts every step of a 1,000,000-step WSD schedule.
func BenchmarkPredictMillionSteps(b *testing.B) {
	req := lawcore.PredictRequest{Params: annealing.Params{L0: 2.6, A: 0.43, Alpha: 0.55, C: 0.41, Lambda: 0.999}.Values(),
		Curves: []lawcore.PredictCurve{{Name: "wsd", Schedule: &schedule.Schedule{Kind: schedule.KindWSD, Total: 1_000_000, Peak: 2e-4, Warmup: 500, Decay: "cosine", DecayFraction: 0.2}}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lawcore.Predict(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAreasMillionSteps is the O(n) pass alone: S1, S2 and dS2/dlambda of a million
// steps by the AreaWalker, into buffers it does not allocate.
func BenchmarkAreasMillionSteps(b *testing.B) {
	sched := schedule.Schedule{Kind: schedule.KindCosine, Total: 1_000_000, Peak: 2e-4, Warmup: 500}
	lr, _ := sched.LR()
	schedule.CountWarmup(lr, sched.Warmup, schedule.WarmupPeak)
	s1, s2, ds2 := make([]float64, len(lr)), make([]float64, len(lr)), make([]float64, len(lr))
	b.ReportAllocs()
	for b.Loop() {
		w := schedule.NewAreaWalker(0.999)
		for i, eta := range lr {
			w.Add(eta)
			s1[i], s2[i], ds2[i] = w.S1, w.S2, w.DS2
		}
	}
}

// BenchmarkFitMillionPoints fits one run logged at every one of 1,000,000 steps: the starts
// are searched on a thinned objective (thinAbove), the best polished on every point.
func BenchmarkFitMillionPoints(b *testing.B) {
	req := longRequest(annealing.Params{L0: 2.5, A: 0.45, Alpha: 0.5, C: 0.5, Lambda: 0.999}, 1_000_000, false)
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
