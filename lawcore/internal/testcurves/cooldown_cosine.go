package testcurves

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// CooldownCosine reads one of the cooldown study's cosine runs to 0.1 of the peak,
// "cosine-to-0.1-25k" or "cosine-to-0.1-50k" (testdata/lrsched-124m-lr1e-4, MIT), as a curve
// with the learning rate of every step (LR: give the fit request WarmupSteps 300 for the
// warmup conventions): its validation loss from step 1, the last value of each step its
// restarted jobs logged twice.
//
// The runs' scheduler is PyTorch's OneCycleLR over T iterations (pct_start 300/T, div_factor
// 100, final_div_factor 0.1, cosine annealing): a cosine-shaped warmup from 1e-6 to the peak
// 1e-4 over 300 steps, then a cosine down to 1e-5. It is lawcore's one-cycle schedule of
// Total T-1; the learning rates the run logged (train.train_lr, every 50 steps) are checked
// against it.
func CooldownCosine(tb testing.TB, name string) lawcore.Curve {
	tb.Helper()
	if name != "cosine-to-0.1-25k" && name != "cosine-to-0.1-50k" {
		tb.Fatalf("CooldownCosine reads the cosine runs to 0.1 of the peak, not %q", name)
	}
	run := readStudyRun(tb, name)
	total := run.Config.Iterations
	s := schedule.Schedule{Kind: schedule.KindOneCycle, Total: total - 1, Peak: cooldownPeak,
		PctStart: float64(run.Config.Warmup) / float64(total), DivFactor: 100, FinalDivFactor: 0.1}
	lr, err := s.LR()
	if err != nil {
		tb.Fatal(name, err)
	}
	for k, st := range run.Train.Iter {
		if st < len(lr) && !(math.Abs(lr[st]-run.Train.LR[k]) <= 1e-9*run.Train.LR[k]) {
			tb.Fatalf("%s: the learning rate at step %d is %g, the run logged %g", name, st, lr[st], run.Train.LR[k])
		}
	}
	c := lawcore.Curve{Name: name, LR: lr}
	c.Steps, c.Loss = run.valLoss()
	return c
}

// studyRun is what the tests read of one of the cooldown study's JSON logs
// (testdata/lrsched-124m-lr1e-4).
type studyRun struct {
	Config struct {
		Iterations int     `json:"iterations"`
		Warmup     int     `json:"warmup_steps"`
		Fraction   float64 `json:"wsd_fract_decay"`
	} `json:"config"`
	Val struct {
		Iter []float64 `json:"iter"`
		Loss []float64 `json:"val_loss"`
	} `json:"val"`
	Train struct {
		Iter []int     `json:"iter"`
		LR   []float64 `json:"train_lr"`
		Loss []float64 `json:"train_loss"`
	} `json:"train"`
}

// readStudyRun reads the study's run by file name without extension.
func readStudyRun(tb testing.TB, name string) studyRun {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "testdata", "lrsched-124m-lr1e-4", name+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var run studyRun
	if err := json.Unmarshal(data, &run); err != nil {
		tb.Fatal(name, err)
	}
	return run
}

// valLoss is the run's validation loss by step from step 1 (nothing is trained at 0), the last
// value of each step its restarted jobs logged twice.
func (r studyRun) valLoss() (steps, loss []float64) {
	last := map[float64]float64{}
	for k, st := range r.Val.Iter {
		last[st] = r.Val.Loss[k]
	}
	for st := range last {
		if st >= 1 {
			steps = append(steps, st)
		}
	}
	sort.Float64s(steps)
	for _, st := range steps {
		loss = append(loss, last[st])
	}
	return steps, loss
}
