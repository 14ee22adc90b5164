package analysis

import (
	"context"
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
	"github.com/lawcalc/annealing/lawcore/sizelaw"
)

// The annealing drop against the model size (the paper's Sec. 4.4, Fig. 4a): the paper
// measures the loss drop that annealing brings as a constant run's final loss minus that of a
// WSD run of the same length annealing 10% of it (cosine, to 0), and finds it growing with the
// model size N. Under the model-size law L0 + A*S1^-alpha + B*N^-beta - C*S2*N^gamma the drop
// at N is A*(S1c^-alpha - S1w^-alpha) + C*N^gamma*(S2w - S2c) (c: constant, w: WSD), growing
// as N^gamma. The areas do not depend on N: each run is walked once, and the drop follows at
// every N from them.

// SizeDropOptions asks for the annealing drop of the model-size law against N.
type SizeDropOptions struct {
	// Setup's Law is the model-size law ("size") and Params its parameters (B, beta, gamma
	// among them); Peak and Warmup shape the runs.
	Setup
	// Sizes are the model sizes the parameters were fitted to: the answer gives the drop at
	// each, and the curves span them (default 25M and 100M, the MultiPowerLaw release's).
	Sizes []float64 `json:"sizes"`
	// Target is an unseen model size to predict the drop at (0: none; default 400M).
	Target float64 `json:"target"`
	// Totals are the runs' lengths (default 10K, 20K, 50K).
	Totals []int `json:"totals"`
	// Ratio is the WSD run's annealing ratio, a cosine decay to 0 (default 0.1, the paper's).
	Ratio float64 `json:"ratio"`
	// Count is the number of sizes on each curve, evenly spaced in log N (default 50).
	Count int `json:"count"`
}

// DefaultSizeDropOptions is the paper's Fig. 4a measure under the model-size law's default
// parameters, at the MultiPowerLaw release's sizes and 400M.
func DefaultSizeDropOptions() SizeDropOptions {
	s := DefaultSetup()
	spec := sizelaw.Law.Spec()
	s.Law, s.Params = sizelaw.Name, spec.Values(spec.Defaults())
	return SizeDropOptions{Setup: s, Sizes: []float64{25e6, 100e6}, Target: 400e6,
		Totals: []int{10000, 20000, 50000}, Ratio: 0.1, Count: 50}
}

// SizeDropPoint is the drop at one total and one size.
type SizeDropPoint struct {
	Total int     `json:"total"`
	Size  float64 `json:"size"`
	// Unseen is true at the options' Target, false at a fitted size.
	Unseen bool `json:"unseen"`
	// Constant and WSD are the two runs' final losses; Drop = Constant - WSD.
	Constant float64 `json:"constant"`
	WSD      float64 `json:"wsd"`
	Drop     float64 `json:"drop"`
	// AnnealTerm is C*N^gamma*(S2w - S2c), the part of the drop that grows with N: the WSD
	// run's annealing term less the constant run's (which a warmup counted as run makes
	// nonzero).
	AnnealTerm float64 `json:"annealTerm"`
}

// SizeDropResult holds the drop against N per total, and at the fitted and unseen sizes.
type SizeDropResult struct {
	// ByTotal has one series per total: the drop (Y) against N (X), from half the smallest
	// size given to twice the largest.
	ByTotal []Series `json:"byTotal"`
	// Points are the drop at each total and each size given (the fitted ones, then Target).
	Points []SizeDropPoint `json:"points"`
	// Gamma is the law's gamma: the annealing term grows as N^gamma.
	Gamma float64 `json:"gamma"`
	Table Table   `json:"table"`
	Setup Setup   `json:"setup"`
}

// SizeDrop computes the annealing drop of the model-size law against N.
func SizeDrop(ctx context.Context, o SizeDropOptions, progress func(float64)) (answer *SizeDropResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	if o.Law != sizelaw.Name {
		return nil, input.Errorf("", "law", "the size-drop analysis is of the model-size law (%q), got %q", sizelaw.Name, o.Law)
	}
	if len(o.Members) > 0 {
		return nil, input.Errorf("", "members", "the size-drop analysis is of the model-size law alone, not of an average")
	}
	if _, _, err := o.evaluator(w); err != nil {
		return nil, err
	}
	p, err := sizelaw.ParamsOf(o.Params)
	if err != nil {
		return nil, err
	}
	conv, err := schedule.ParseConvention(o.WarmupConvention, schedule.WarmupPeak)
	if err != nil {
		return nil, err
	}
	if err := checkList("sizes", o.Sizes, 1, 1e15, 20); err != nil {
		return nil, err
	}
	if o.Target != 0 {
		if err := checkFraction("target", o.Target, 1, 1e15); err != nil {
			return nil, err
		}
	}
	if err := checkSteps("totals", o.Totals, o.Warmup+2, schedule.MaxSteps-1, 10); err != nil {
		return nil, err
	}
	if err := checkFraction("ratio", o.Ratio, 1e-6, 1); err != nil {
		return nil, err
	}
	if o.Count < 2 || o.Count > 500 {
		return nil, input.Errorf("", "count", "must be from 2 to 500, got %d", o.Count)
	}
	sum := 0.0
	for _, t := range o.Totals {
		sum += 2 * float64(t)
	}
	if err := checkBudget("totals", sum); err != nil {
		return nil, err
	}
	theta, err := annealing.Law.Spec().Theta(p.At(o.Sizes[0]).Values())
	if err != nil {
		return nil, err
	}
	e := &evaluator{law: annealing.Law, theta: theta, conv: conv, w: w}
	lo, hi := o.Sizes[0], o.Sizes[0]
	for _, n := range append(append([]float64(nil), o.Sizes...), o.Target) {
		if n > 0 {
			lo, hi = math.Min(lo, n), math.Max(hi, n)
		}
	}
	grid := numeric.Logspace(lo/2, hi*2, o.Count)
	res := &SizeDropResult{Gamma: p.Gamma, Setup: o.Setup,
		Table: Table{Columns: []string{"total steps", "N", "size", "constant", "WSD", "drop", "C·N^γ·ΔS2"}}}
	w.plan(len(o.Totals))
	for i, total := range o.Totals {
		decay := max(1, int(math.Round(o.Ratio*float64(total))))
		if total-decay < o.Warmup {
			return nil, input.Errorf("", fmt.Sprintf("totals[%d]", i), "a %g annealing ratio of %d steps leaves no stable steps after the warmup of %d", o.Ratio, total, o.Warmup)
		}
		c, err := e.final(schedule.Schedule{Kind: schedule.KindConstant, Total: total, Peak: o.Peak, Warmup: o.Warmup})
		if err != nil {
			return nil, input.Within(fmt.Sprintf("totals[%d]", i), err)
		}
		wsd, err := e.final(wsdSchedule(total, o.Peak, o.Warmup, "cosine", 0, decay))
		if err != nil {
			return nil, input.Within(fmt.Sprintf("totals[%d]", i), err)
		}
		at := func(n float64, unseen bool) SizeDropPoint {
			lc, lw := p.Loss(c.S1, c.S2, n), p.Loss(wsd.S1, wsd.S2, n)
			return SizeDropPoint{Total: total, Size: n, Unseen: unseen, Constant: lc, WSD: lw, Drop: lc - lw,
				AnnealTerm: p.C * (wsd.S2 - c.S2) * math.Pow(n, p.Gamma)}
		}
		s := Series{Name: kText(total) + " steps", X: grid, Y: make([]float64, len(grid))}
		for k, n := range grid {
			s.Y[k] = at(n, false).Drop
		}
		res.ByTotal = append(res.ByTotal, s)
		for _, n := range o.Sizes {
			res.Points = append(res.Points, at(n, false))
		}
		if o.Target > 0 {
			res.Points = append(res.Points, at(o.Target, true))
		}
		w.stageDone()
	}
	for _, pt := range res.Points {
		role := "fitted"
		if pt.Unseen {
			role = "unseen"
		}
		res.Table.addRow(float64(pt.Total), pt.Size, role, pt.Constant, pt.WSD, pt.Drop, pt.AnnealTerm)
	}
	return res, nil
}
