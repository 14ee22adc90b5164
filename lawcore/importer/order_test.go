package importer

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Logs joined latest job first: the last job (resumed at step 40) comes before the earlier
// job's log, which is then copied once more. Its steps go back before every step logged so far,
// which no run logging as it goes can do, so no going back is a restart: every step is kept,
// with its last value in the file, and nothing is said to be dropped. Logged in the run's own
// order, the same going back to a step logged is a restart (TestReadEventFileRestart,
// TestReadTensorBoard).
func TestReadLogsJoinedLatestFirst(t *testing.T) {
	data := `{"step": [40, 50, 0, 10, 20, 30, 40, 0, 10, 20, 30, 40],
	          "loss": [3.3, 3.0, 5, 4, 3.6, 3.4, 3.2, 5, 4, 3.6, 3.4, 3.2]}`
	// the job that finished (resumed from step 40), the earlier job up to step 40, its log again
	imp, err := Read("joined.json", []byte(data), Choice{})
	if err != nil {
		t.Fatal(err)
	}
	wantCurve(t, imp.Curves[0], "joined", []float64{0, 10, 20, 30, 40, 50}, []float64{5, 4, 3.6, 3.4, 3.2, 3.0}, nil)
	for _, n := range imp.Notes {
		if strings.Contains(n, "restarted") {
			t.Errorf("note %q: no run restarted", n)
		}
	}
	wantNote(t, imp, `"loss": 4 steps were logged after later steps (the first at line 2: step 0 after step 50): put in step order`)
	wantNote(t, imp, `"loss": 6 steps were logged again (the first at line 2: step 40 after step 30): kept the last value of each step`)
}

// The cooldown study's cosine runs and a few of its cooldowns were logged by restarted jobs
// and joined latest job first (their README: "some steps appear twice; keep the last value of
// each step"). Read as any JSON of columns, each loss keeps every step the file logs from
// step 1 within its learning rates' steps, with its last value, up to the run's end: the law
// needs the learning rate up to each step. A cooldown's first validation, at the step it
// branched from the stable run, is one logging interval of the learning rates before the first
// of them: the learning rates reach it (reachLoss), and it is kept.
func TestReadCooldownStudyLogs(t *testing.T) {
	dir := filepath.Join("..", "internal", "testcurves", "testdata", "lrsched-124m-lr1e-4")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) < 19 {
		t.Fatalf("the study's files: %v, %v", files, err)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var run struct {
			Config struct {
				Iterations float64 `json:"iterations"`
			} `json:"config"`
			Val   map[string][]float64 `json:"val"`
			Train map[string][]float64 `json:"train"`
		}
		if err := json.Unmarshal(data, &run); err != nil {
			t.Fatal(path, err)
		}
		for _, tt := range []struct {
			column string
			steps  []float64
			values []float64
		}{
			{"val_loss", run.Val["iter"], run.Val["val_loss"]},
			{"train_loss", run.Train["iter"], run.Train["train_loss"]},
		} {
			last := map[float64]float64{}
			for k, s := range tt.steps {
				last[s] = tt.values[k]
			}
			// the learning rates' steps, reached one interval further at each end
			lrIters := slices.Sorted(maps.Keys(setOf(run.Train["iter"])))
			n := len(lrIters)
			lrFirst, lrLast := 2*lrIters[0]-lrIters[1], 2*lrIters[n-1]-lrIters[n-2]
			var steps []float64
			for s := range last {
				if last[s] > 0 && s >= 1 && s >= lrFirst && s <= lrLast {
					steps = append(steps, s)
				}
			}
			sort.Float64s(steps)
			name := filepath.Base(path) + " " + tt.column
			imp, err := Read(filepath.Base(path), data, Choice{Column: tt.column})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			c := imp.Curves[0]
			if !equalFloats(c.Steps, steps) {
				t.Errorf("%s: %d steps from %v to %v, want the file's %d from %v to %v (notes %q)", name,
					len(c.Steps), c.Steps[0], c.Steps[len(c.Steps)-1], len(steps), steps[0], steps[len(steps)-1], imp.Notes)
				continue
			}
			for k, s := range steps {
				if c.Loss[k] != last[s] {
					t.Errorf("%s: step %v has loss %v, want the last logged, %v", name, s, c.Loss[k], last[s])
					break
				}
			}
			if last := steps[len(steps)-1]; last < run.Config.Iterations-200 {
				t.Errorf("%s: ends at step %v of %v", name, last, run.Config.Iterations)
			}
			if !c.HasLR {
				t.Errorf("%s: no learning rates (notes %q)", name, imp.Notes)
			}
		}
	}
}

// setOf is the set of xs.
func setOf(xs []float64) map[float64]bool {
	set := map[float64]bool{}
	for _, x := range xs {
		set[x] = true
	}
	return set
}
