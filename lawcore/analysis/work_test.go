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

// The optimiser's progress moves within each family's search, as its evaluations go, rather
// than only when a family ends: over a million steps a family runs for seconds, and a bar at
// 0 all that while looks stuck. Within a stage the share rises but stays short of the stage's
// end, which only the stage's end reaches.
func TestOptimiserProgressMovesWithinAFamily(t *testing.T) {
	var got []float64
	request := []byte(`{"analysis":"optimize","families":["wsd","cosine"]}`)
	if _, err := Run(context.Background(), request, func(f float64) { got = append(got, f) }); err != nil {
		t.Fatal(err)
	}
	// three stages: wsd, cosine, the ranking
	firstStageEnd := 1.0 / 3
	var inFirst []float64
	for _, f := range got {
		if f > 0 && f < firstStageEnd {
			inFirst = append(inFirst, f)
		}
	}
	distinct := map[float64]bool{}
	for _, f := range inFirst {
		distinct[f] = true
	}
	// the wsd search takes about 250 evaluations: its share passes a third of the stage
	if len(distinct) < 100 || inFirst[len(inFirst)-1] < firstStageEnd/3 {
		t.Fatalf("within the first family: %d distinct reports, the last %v (the stage ends at %v)", len(distinct), inFirst[len(inFirst)-1], firstStageEnd)
	}
	for i := 1; i < len(got); i++ {
		if got[i] < got[i-1] {
			t.Fatalf("report %d is %v after %v", i, got[i], got[i-1])
		}
	}
	w := newWork(context.Background(), nil)
	w.planSearch(2, 10)
	for range 1000 {
		_ = w.check()
	}
	var last float64
	w.progress = func(f float64) { last = f }
	w.report()
	if !(last > 0.49 && last < 0.5) {
		t.Errorf("after 1000 evaluations of a search of about 10, the first of two stages is at %v: want just short of 0.5", last)
	}
	w.stageDone()
	if last != 0.5 {
		t.Errorf("at the first stage's end: %v, want 0.5", last)
	}
}
