package analysis

import (
	"context"
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Continual pre-training (the paper's Sec. 5.7 and 5.8, Fig. 14): a run that annealed to 0
// re-warms up to a new peak and anneals again. The re-warmup makes S2 fall (even below 0), so
// the loss rises before it falls: a higher new peak gives a higher bump and then a faster
// descent (S1 grows faster); the length of the re-warmup changes the bump's shape but hardly
// the final loss.

// RewarmupOptions asks for continual pre-training runs: a cosine to 0 over FirstTotal steps,
// then a linear re-warmup from 0 to a new peak and a cosine to 0 over SecondTotal steps.
type RewarmupOptions struct {
	Setup
	// FirstTotal is the first run's length: a cosine from the setup's peak to 0 (default 50000).
	FirstTotal int `json:"firstTotal"`
	// SecondTotal is the continual pre-training's length, re-warmup included (default 50000).
	SecondTotal int `json:"secondTotal"`
	// Peaks are the re-warmup peaks as fractions of the setup's peak, each re-warmed over
	// RewarmupSteps (default 0.25, 0.5, 1, 1.5, 2).
	Peaks []float64 `json:"peaks"`
	// RewarmupSteps is the re-warmup length of the Peaks comparison (default 500).
	RewarmupSteps int `json:"rewarmupSteps"`
	// Lengths are the re-warmup lengths compared at the peak fraction LengthPeak (default
	// 100, 500, 1000, 2000, 5000 steps).
	Lengths []int `json:"lengths"`
	// LengthPeak is the peak fraction of the Lengths comparison (default 1).
	LengthPeak float64 `json:"lengthPeak"`
}

// DefaultRewarmupOptions is the paper's Fig. 14 setting.
func DefaultRewarmupOptions() RewarmupOptions {
	return RewarmupOptions{Setup: DefaultSetup(), FirstTotal: 50000, SecondTotal: 50000,
		Peaks: []float64{0.25, 0.5, 1, 1.5, 2}, RewarmupSteps: 500, Lengths: []int{100, 500, 1000, 2000, 5000}, LengthPeak: 1}
}

// RewarmupRun is one continual pre-training run's numbers.
type RewarmupRun struct {
	Name string `json:"name"`
	// Peak is the re-warmup peak (raw units); RewarmupSteps its length.
	Peak          float64 `json:"peak"`
	RewarmupSteps int     `json:"rewarmupSteps"`
	// StartLoss is the loss at the end of the first run (where re-warmup starts).
	StartLoss float64 `json:"startLoss"`
	// BumpStep and BumpLoss are where the loss is highest after re-warmup starts; BumpLoss
	// equals StartLoss when the loss never rises.
	BumpStep int     `json:"bumpStep"`
	BumpLoss float64 `json:"bumpLoss"`
	// Final is the law at the last step.
	Final Outcome `json:"final"`
}

// RewarmupResult holds the two comparisons: by re-warmup peak and by re-warmup length.
type RewarmupResult struct {
	ByPeak         []RewarmupRun `json:"byPeak"`
	ByPeakCurves   []LossCurve   `json:"byPeakCurves"`
	ByLength       []RewarmupRun `json:"byLength"`
	ByLengthCurves []LossCurve   `json:"byLengthCurves"`
	// SwitchStep is the step where the first run ends and re-warmup starts.
	SwitchStep int   `json:"switchStep"`
	Table      Table `json:"table"`
	Setup      Setup `json:"setup"`
}

// RewarmupSchedule is the continual pre-training schedule: a cosine from peak to 0 over
// firstTotal steps (with the setup's warmup), then a linear re-warmup from 0 to newPeak over
// rewarmup steps and a cosine to 0, secondTotal steps in all.
func RewarmupSchedule(peak float64, warmup, firstTotal int, newPeak float64, rewarmup, secondTotal int) schedule.Schedule {
	return schedule.Schedule{Kind: schedule.KindConcat, Segments: []schedule.Schedule{
		{Kind: schedule.KindCosine, Total: firstTotal, Peak: peak, Warmup: warmup},
		{Kind: schedule.KindCosine, Total: secondTotal, Peak: newPeak, Warmup: rewarmup},
	}}
}

// Rewarmup computes both comparisons.
func Rewarmup(ctx context.Context, o RewarmupOptions, progress func(float64)) (answer *RewarmupResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	e, points, err := o.evaluator(w)
	if err != nil {
		return nil, err
	}
	if err := checkTotal("firstTotal", o.FirstTotal, o.Warmup); err != nil {
		return nil, err
	}
	if err := checkTotal("secondTotal", o.SecondTotal, 0); err != nil {
		return nil, err
	}
	if err := checkList("peaks", o.Peaks, 1e-6, 100, 20); err != nil {
		return nil, err
	}
	if err := checkSteps("rewarmupSteps", []int{o.RewarmupSteps}, 0, o.SecondTotal-1, 1); err != nil {
		return nil, err
	}
	if len(o.Lengths) > 0 {
		if err := checkSteps("lengths", o.Lengths, 0, o.SecondTotal-1, 20); err != nil {
			return nil, err
		}
		if err := checkFraction("lengthPeak", o.LengthPeak, 1e-6, 100); err != nil {
			return nil, err
		}
	}
	if err := checkBudget("peaks", 2*float64(len(o.Peaks)+len(o.Lengths))*float64(o.FirstTotal+o.SecondTotal)); err != nil {
		return nil, err
	}
	res := &RewarmupResult{SwitchStep: o.FirstTotal, Setup: o.Setup,
		Table: Table{Columns: []string{"comparison", "re-warmup peak", "re-warmup steps", "loss at switch",
			"highest loss after", "at step", "final loss", "S1", "S2"}}}
	run := func(comparison string, frac float64, steps int) (RewarmupRun, LossCurve, error) {
		newPeak := frac * o.Peak
		s := RewarmupSchedule(o.Peak, o.Warmup, o.FirstTotal, newPeak, steps, o.SecondTotal)
		lr, warmup, err := e.expand(&s)
		if err != nil {
			return RewarmupRun{}, LossCurve{}, err
		}
		r := RewarmupRun{Name: fmt.Sprintf("peak %g x, %d re-warmup steps", frac, steps), Peak: newPeak, RewarmupSteps: steps}
		r.StartLoss, r.BumpStep, r.BumpLoss, err = e.highestAfter(lr, warmup, o.FirstTotal)
		if err != nil {
			return RewarmupRun{}, LossCurve{}, err
		}
		c, err := e.traceLR(r.Name, lr, warmup, points, sortedSteps(o.FirstTotal, r.BumpStep)...)
		if err != nil {
			return RewarmupRun{}, LossCurve{}, err
		}
		r.Final = c.Final
		res.Table.addRow(comparison, newPeak, float64(steps), r.StartLoss, r.BumpLoss, float64(r.BumpStep), r.Final.Loss, r.Final.S1, r.Final.S2)
		w.stageDone()
		return r, c, nil
	}
	w.plan(len(o.Peaks) + len(o.Lengths))
	for i, frac := range o.Peaks {
		r, c, err := run("by peak", frac, o.RewarmupSteps)
		if err != nil {
			return nil, input.Within(fmt.Sprintf("peaks[%d]", i), err)
		}
		res.ByPeak, res.ByPeakCurves = append(res.ByPeak, r), append(res.ByPeakCurves, c)
	}
	for i, steps := range o.Lengths {
		r, c, err := run("by length", o.LengthPeak, steps)
		if err != nil {
			return nil, input.Within(fmt.Sprintf("lengths[%d]", i), err)
		}
		res.ByLength, res.ByLengthCurves = append(res.ByLength, r), append(res.ByLengthCurves, c)
	}
	return res, nil
}

// highestLossAfter returns the loss at step from and the step and value of the highest loss
// from there on (from itself when the loss never rises), given the loss at every step.
func highestLossAfter(dense []float64, from int) (startLoss float64, step int, loss float64) {
	loss, step = math.Inf(-1), from
	for i := from; i < len(dense); i++ {
		l := dense[i]
		if i == from {
			startLoss = l
		}
		if l > loss {
			step, loss = i, l
		}
	}
	return startLoss, step, loss
}
