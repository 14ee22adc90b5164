package auto_test

import (
	"context"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// BenchmarkAutoMPL25M is auto on the page's MultiPowerLaw 25M example: its three fit curves,
// every candidate fitted on every fold (the budget: 3 s in the page).
func BenchmarkAutoMPL25M(b *testing.B) {
	req := testcurves.MPLRequest(b, "25", lawcore.FixedLambda(lawcore.DefaultLambda), "")
	req.Auto = true
	for i := 0; i < b.N; i++ {
		if _, err := auto.Fit(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAutoFig2 is auto on the paper's Fig. 2 curves (two curves of 20 points, 20K steps).
func BenchmarkAutoFig2(b *testing.B) {
	req := testcurves.Fig2(b)
	req.Auto = true
	for i := 0; i < b.N; i++ {
		if _, err := auto.Fit(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAutoThreeCurves30K is auto on three runs logged every step (30,000 points each):
// its fold fits on the runs' means (lawcore's foldFitPoints), every held-out point scored.
func BenchmarkAutoThreeCurves30K(b *testing.B) {
	req := testcurves.Synthetic(annealing.Params{L0: 2.4, A: 0.5, Alpha: 0.45, C: 0.35, Lambda: 0.999}, 2e-4, 1, schedule.WarmupPeak)
	for i := range req.Curves {
		req.Curves[i].From = 500 // from the end of the warmup, as the page fits them
	}
	req.Auto = true
	for i := 0; i < b.N; i++ {
		if _, err := auto.Fit(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}
