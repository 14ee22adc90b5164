package auto_test

import (
	"context"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/auto"
	"github.com/lawcalc/annealing/lawcore/internal/testcurves"
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

// BenchmarkAutoNoisyPerStep is auto on three runs logged at every step with the noise of a
// training loss (testcurves.NoisyPerStep, 33,840 points each): its fold fits on the runs'
// means (lawcore's foldFitPoints), every held-out point scored.
func BenchmarkAutoNoisyPerStep(b *testing.B) {
	req := testcurves.NoisyPerStep(1)
	req.Auto = true
	for i := 0; i < b.N; i++ {
		if _, err := auto.Fit(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}
