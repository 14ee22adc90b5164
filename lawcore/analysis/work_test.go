package analysis

import (
	"context"
	"errors"
	"testing"
)

// analysesThatEvaluate are the analyses that evaluate a law (compute is arithmetic alone).
func analysesThatEvaluate() []string {
	var names []string
	for _, name := range Names() {
		if name != "compute" {
			names = append(names, name)
		}
	}
	return names
}

// Every analysis reports its progress as it goes: fractions in [0, 1] that never go back,
// passing through values between the ends (each default request has several stages), and
// 1 once the answer is ready.
func TestEveryAnalysisReportsItsProgress(t *testing.T) {
	for _, name := range analysesThatEvaluate() {
		t.Run(name, func(t *testing.T) {
			var got []float64
			if _, err := Run(context.Background(), []byte(`{"analysis":"`+name+`"}`), func(f float64) { got = append(got, f) }); err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 || got[len(got)-1] != 1 {
				t.Fatalf("the last report is not 1: %d reports", len(got))
			}
			between := map[float64]bool{}
			for i, f := range got {
				if !(f >= 0 && f <= 1) || (i > 0 && f < got[i-1]) {
					t.Fatalf("report %d is %v after %v", i, f, got[max(0, i-1)])
				}
				if f > 0 && f < 1 {
					between[f] = true
				}
			}
			if len(between) == 0 {
				t.Errorf("no report between 0 and 1 in %d", len(got))
			}
		})
	}
}

// Every analysis stops at a cancel, before its first evaluation or in the middle of its
// searches: it returns context.Canceled and no answer, and reports no progress after it. In
// the browser each report is where a cancel arrives, so an analysis that went on evaluating
// without reporting could not be stopped but by replacing its worker.
func TestEveryAnalysisStopsAtACancel(t *testing.T) {
	for _, name := range analysesThatEvaluate() {
		request := []byte(`{"analysis":"` + name + `"}`)
		reports := 0
		if _, err := Run(context.Background(), request, func(float64) { reports++ }); err != nil {
			t.Fatal(err)
		}
		// at the first report, before any evaluation, and at eighths of the run (thirds with
		// -short): inside each stage's searches, where the optimiser's families must tolerate
		// every evaluation being +Inf
		parts := 8
		if testing.Short() {
			parts = 3
		}
		for k := 0; k < parts; k++ {
			at := max(1, k*reports/parts)
			ctx, cancel := context.WithCancel(context.Background())
			seen, after := 0, 0
			res, err := Run(ctx, request, func(float64) {
				if ctx.Err() != nil {
					after++
				}
				if seen++; seen == at {
					cancel()
				}
			})
			cancel()
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Errorf("%s cancelled at report %d of %d: got %v, %v; want no answer and context.Canceled", name, at, reports, res, err)
			}
			if seen != at || after != 0 {
				t.Errorf("%s cancelled at report %d of %d: %d reports after the cancel", name, at, reports, seen-at)
			}
		}
	}
}
