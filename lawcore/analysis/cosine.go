package analysis

import (
	"context"
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Cosine cycle length and floor (the paper's Sec. 5.2, Fig. 8): over a run of Total steps, a
// cosine whose cycle T ends before the run (then holds its floor: early annealing, a small
// S1) or after it (incomplete annealing, a small S2), and whose floor is a fraction of the
// peak. The paper finds T = Total and a floor of 0 best.

// CosineCycleOptions asks for the final loss over a grid of cosine cycle lengths and floors.
type CosineCycleOptions struct {
	Setup
	// Total is the run's last step (default 50000).
	Total int `json:"total"`
	// Cycles are the cycle lengths T as fractions of Total (default 0.5 to 2 by 0.125).
	Cycles []float64 `json:"cycles"`
	// Floors are the minimum learning rates as fractions of the peak (default 0, 0.05, 0.1, 0.2, 0.3).
	Floors []float64 `json:"floors"`
	// After is what the cosine does past its cycle when T < Total: "hold" (default; stays at
	// the floor), "continue" (rises again) or "restart".
	After string `json:"after,omitempty"`
	// Curves are the (cycle, floor) pairs whose loss curves are drawn (default T = 0.5, 1 and
	// 2 times Total at floor 0, and T = Total at floor 0.1).
	Curves []CosineVariant `json:"curves"`
}

// CosineVariant is one cosine: its cycle as a fraction of the run and its floor as a fraction
// of the peak.
type CosineVariant struct {
	Cycle float64 `json:"cycle"`
	Floor float64 `json:"floor"`
}

// DefaultCosineCycleOptions is the paper's comparison over a 50K-step run.
func DefaultCosineCycleOptions() CosineCycleOptions {
	return CosineCycleOptions{Setup: DefaultSetup(), Total: 50000,
		Cycles: numeric.Linspace(0.5, 2, 13), Floors: []float64{0, 0.05, 0.1, 0.2, 0.3},
		Curves: []CosineVariant{{0.5, 0}, {1, 0}, {2, 0}, {1, 0.1}}}
}

// CosineCycleResult is the grid of final losses, the best cell, and the chosen curves.
type CosineCycleResult struct {
	// Cycles and Floors are the grid's axes (fractions of Total and of the peak).
	Cycles []float64 `json:"cycles"`
	Floors []float64 `json:"floors"`
	// FinalLoss[f][c] is the final loss at Floors[f] and Cycles[c].
	FinalLoss [][]float64 `json:"finalLoss"`
	// ByFloor has one series per floor: final loss against the cycle fraction.
	ByFloor []Series `json:"byFloor"`
	// Best is the grid's best cell and its loss.
	Best     CosineVariant `json:"best"`
	BestLoss float64       `json:"bestLoss"`
	// Curves are the loss curves of the chosen variants.
	Curves []LossCurve `json:"curves"`
	Table  Table       `json:"table"`
	Setup  Setup       `json:"setup"`
}

// cosineVariant builds the cosine of a variant.
func (o CosineCycleOptions) cosineVariant(v CosineVariant) schedule.Schedule {
	return schedule.Schedule{Kind: schedule.KindCosine, Total: o.Total, Peak: o.Peak, Final: v.Floor * o.Peak, Warmup: o.Warmup,
		Cycle: int(math.Round(v.Cycle * float64(o.Total))), After: o.After}
}

// CosineCycle computes the final loss over the grid of cycles and floors, and the chosen
// curves.
func CosineCycle(ctx context.Context, o CosineCycleOptions, progress func(float64)) (answer *CosineCycleResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	e, points, err := o.evaluator(w)
	if err != nil {
		return nil, err
	}
	if err := checkTotal("total", o.Total, o.Warmup); err != nil {
		return nil, err
	}
	minCycle := float64(o.Warmup+1) / float64(o.Total)
	if err := checkList("cycles", o.Cycles, minCycle, 100, 200); err != nil {
		return nil, err
	}
	if err := checkList("floors", o.Floors, 0, 1, 50); err != nil {
		return nil, err
	}
	if len(o.Curves) > 20 {
		return nil, input.Errorf("", "curves", "at most 20 curves, got %d", len(o.Curves))
	}
	if err := checkBudget("cycles", float64(len(o.Cycles)*len(o.Floors)+len(o.Curves))*float64(o.Total)); err != nil {
		return nil, err
	}
	res := &CosineCycleResult{Cycles: o.Cycles, Floors: o.Floors, BestLoss: math.Inf(1), Setup: o.Setup,
		Table: Table{Columns: []string{"cycle / total", "floor / peak", "final loss", "S1", "S2"}}}
	w.plan(len(o.Floors) + 1) // each floor, then the curves
	for fi, floor := range o.Floors {
		row := make([]float64, len(o.Cycles))
		for ci, cycle := range o.Cycles {
			v := CosineVariant{Cycle: cycle, Floor: floor}
			out, err := e.final(o.cosineVariant(v))
			if err != nil {
				return nil, input.Within(fmt.Sprintf("cycles[%d], floors[%d]", ci, fi), err)
			}
			row[ci] = out.Loss
			if out.Loss < res.BestLoss {
				res.Best, res.BestLoss = v, out.Loss
			}
			res.Table.addRow(cycle, floor, out.Loss, out.S1, out.S2)
		}
		res.FinalLoss = append(res.FinalLoss, row)
		res.ByFloor = append(res.ByFloor, Series{Name: fmt.Sprintf("floor %g x peak", floor), X: o.Cycles, Y: row})
		w.stageDone()
	}
	for i, v := range o.Curves {
		if err := checkFraction(fmt.Sprintf("curves[%d].cycle", i), v.Cycle, minCycle, 100); err != nil {
			return nil, err
		}
		if err := checkFraction(fmt.Sprintf("curves[%d].floor", i), v.Floor, 0, 1); err != nil {
			return nil, err
		}
		c, err := e.trace(fmt.Sprintf("T = %g x total, floor %g x peak", v.Cycle, v.Floor), o.cosineVariant(v), points)
		if err != nil {
			return nil, input.Within(fmt.Sprintf("curves[%d]", i), err)
		}
		res.Curves = append(res.Curves, c)
	}
	return res, nil
}
