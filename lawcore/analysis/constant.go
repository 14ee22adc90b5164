package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Constant against cosine (the paper's Sec. 5.3, Fig. 9): for few total steps a constant
// learning rate ends lower than a cosine (the forward area S1 matters most while it is
// small, |dL/dS1| = alpha*A*S1^(-alpha-1) > |dL/dS2| = C), for many steps the cosine wins.
// The crossover is the total at which the two final losses are equal.

// ConstantVsCosineOptions asks for the final losses of a constant and a cosine schedule over
// a range of total steps.
type ConstantVsCosineOptions struct {
	Setup
	// MinTotal and MaxTotal bound the totals, Count of them evenly spaced in log (defaults
	// 2000, 200000, 40).
	MinTotal int `json:"minTotal"`
	MaxTotal int `json:"maxTotal"`
	Count    int `json:"count"`
	// Floor is the cosine's final learning rate as a fraction of the peak (default 0).
	Floor float64 `json:"floor"`
	// CurveTotals are the totals whose two loss curves are drawn (default 10K and 100K).
	CurveTotals []int `json:"curveTotals"`
}

// DefaultConstantVsCosineOptions is the paper's Fig. 9 setting.
func DefaultConstantVsCosineOptions() ConstantVsCosineOptions {
	return ConstantVsCosineOptions{Setup: DefaultSetup(), MinTotal: 2000, MaxTotal: 200000, Count: 40,
		CurveTotals: []int{10000, 100000}}
}

// Crossover is the first total at which the cosine ends at least as low as the constant.
type Crossover struct {
	// Total is the first such total (found by bisection on whole steps).
	Total int `json:"total"`
	// ConstantLoss and CosineLoss are the final losses there.
	ConstantLoss float64 `json:"constantLoss"`
	CosineLoss   float64 `json:"cosineLoss"`
	// With the setup's replicates, Low and High bound the totals (on the sweep's grid) at
	// which the fit's uncertainty cannot tell which ends lower: the crossover lies there.
	// LowOpen and HighOpen say that the span reaches past the shortest or longest total swept,
	// which then bounds it (the sweep cannot say how far it goes).
	Low      int  `json:"low,omitempty"`
	High     int  `json:"high,omitempty"`
	LowOpen  bool `json:"lowOpen,omitempty"`
	HighOpen bool `json:"highOpen,omitempty"`
}

// ConstantVsCosineResult holds the final losses against total steps, the crossover, and the
// loss curves at the chosen totals.
type ConstantVsCosineResult struct {
	// Constant and Cosine are the final losses (Y) against the total steps (X).
	Constant Series `json:"constant"`
	Cosine   Series `json:"cosine"`
	// Crossover is nil when the cosine never catches up within the range, or always wins.
	Crossover *Crossover `json:"crossover"`
	// Note says what the range shows when there is no crossover.
	Note string `json:"note,omitempty"`
	// Verdict says, with the setup's replicates, where the crossover may lie.
	Verdict string `json:"verdict,omitempty"`
	// Curves are the constant and cosine loss curves at each of CurveTotals.
	Curves []LossCurve `json:"curves"`
	Table  Table       `json:"table"`
	Setup  Setup       `json:"setup"`
}

// ConstantVsCosine computes the final loss of both schedules over the totals and bisects for
// the crossover.
func ConstantVsCosine(ctx context.Context, o ConstantVsCosineOptions, progress func(float64)) (answer *ConstantVsCosineResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	e, points, err := o.evaluator(w)
	if err != nil {
		return nil, err
	}
	if err := checkTotal("minTotal", o.MinTotal, o.Warmup); err != nil {
		return nil, err
	}
	if err := checkTotal("maxTotal", o.MaxTotal, o.Warmup); err != nil {
		return nil, err
	}
	if o.MaxTotal <= o.MinTotal {
		return nil, input.Errorf("", "maxTotal", "must be more than minTotal (%d), got %d", o.MinTotal, o.MaxTotal)
	}
	if o.Count < 2 || o.Count > 500 {
		return nil, input.Errorf("", "count", "must be from 2 to 500, got %d", o.Count)
	}
	if err := checkFraction("floor", o.Floor, 0, 1); err != nil {
		return nil, err
	}
	if len(o.CurveTotals) > 10 {
		return nil, input.Errorf("", "curveTotals", "at most 10 totals, got %d", len(o.CurveTotals))
	}
	for i, t := range o.CurveTotals {
		if err := checkTotal(fmt.Sprintf("curveTotals[%d]", i), t, o.Warmup); err != nil {
			return nil, err
		}
	}
	if err := checkBudget("maxTotal", 2*float64(o.Count)*float64(o.MaxTotal)); err != nil {
		return nil, err
	}
	constant := func(total int) schedule.Schedule {
		return schedule.Schedule{Kind: schedule.KindConstant, Total: total, Peak: o.Peak, Warmup: o.Warmup}
	}
	cosine := func(total int) schedule.Schedule {
		return schedule.Schedule{Kind: schedule.KindCosine, Total: total, Peak: o.Peak, Final: o.Floor * o.Peak, Warmup: o.Warmup}
	}
	// gap is the cosine's final loss minus the constant's
	gap := func(total int) (float64, float64, float64) {
		a, b := e.finalLoss(constant(total)), e.finalLoss(cosine(total))
		return b - a, a, b
	}
	res := &ConstantVsCosineResult{Constant: Series{Name: "constant"}, Cosine: Series{Name: "cosine"}, Setup: o.Setup,
		Table: Table{Columns: []string{"total steps", "constant", "cosine", "cosine - constant", "lower"}}}
	prevTotal, prevGap := 0, math.NaN()
	totals := numeric.Logspace(float64(o.MinTotal), float64(o.MaxTotal), o.Count)
	w.plan(len(totals) + 1) // each total (counted as it begins), then the crossover's span and the curves
	for _, x := range totals {
		w.stageDone()
		total := int(math.Round(x))
		if total == prevTotal {
			continue
		}
		g, a, b := gap(total)
		res.Constant.X, res.Constant.Y = append(res.Constant.X, float64(total)), append(res.Constant.Y, a)
		res.Cosine.X, res.Cosine.Y = append(res.Cosine.X, float64(total)), append(res.Cosine.Y, b)
		lower := "constant"
		if g <= 0 {
			lower = "cosine"
		}
		res.Table.addRow(float64(total), a, b, g, lower)
		if res.Crossover == nil && prevGap > 0 && g <= 0 {
			t := bisectInt(func(t int) bool { g, _, _ := gap(t); return g <= 0 }, prevTotal, total)
			_, a, b := gap(t)
			res.Crossover = &Crossover{Total: t, ConstantLoss: a, CosineLoss: b}
		}
		prevTotal, prevGap = total, g
	}
	sp, err := o.spread(w)
	if err != nil {
		return nil, err
	}
	if sp != nil && res.Crossover != nil {
		crossoverSpan(sp, res, func(t int) float64 { g, _, _ := gap(t); return g }, constant, cosine)
	}
	if res.Crossover == nil {
		switch {
		case slices.EqualFunc(res.Cosine.Y, res.Constant.Y, func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(a) }):
			res.Note = "a cosine to the peak is a constant learning rate: both end at the same loss at every total"
		case res.Cosine.Y[0] < res.Constant.Y[0]:
			res.Note = "the cosine ends lower at every total in the range"
		default:
			res.Note = "the constant ends lower at every total in the range"
		}
	}
	for _, total := range o.CurveTotals {
		for _, s := range []struct {
			name string
			sch  schedule.Schedule
		}{{"constant", constant(total)}, {"cosine", cosine(total)}} {
			c, err := e.trace(fmt.Sprintf("%s, %d steps", s.name, total), s.sch, points)
			if err != nil {
				return nil, err
			}
			res.Curves = append(res.Curves, c)
		}
	}
	return res, nil
}

// crossoverSpan bounds the crossover by the totals around it at which the gap (cosine minus
// constant) is within the fit's uncertainty: it walks the grid out from the crossover to the
// first total on each side where the gap is clear, then bisects between that total and the
// last unclear one, so that the span does not snap to the grid (on a grid of three totals it
// used to collapse onto the crossover).
func crossoverSpan(sp *spread, res *ConstantVsCosineResult, gap func(int) float64, constant, cosine func(int) schedule.Schedule) {
	unclear := func(t int) bool {
		return math.Abs(gap(t)) <= sp.diffHalfWidth(sp.finals(constant(t)), sp.finals(cosine(t)))
	}
	x := res.Constant.X
	c := res.Crossover
	at := sort.Search(len(x), func(i int) bool { return int(x[i]) >= c.Total }) // the first grid total at or past it
	c.Low, c.LowOpen = int(x[0]), true
	for i, inner := at-1, c.Total; i >= 0; i-- {
		if t := int(x[i]); !unclear(t) {
			c.Low, c.LowOpen = bisectInt(unclear, t, inner), false
			break
		} else {
			inner = t
		}
	}
	c.High, c.HighOpen = int(x[len(x)-1]), true
	for i, inner := at, c.Total; i < len(x); i++ {
		if t := int(x[i]); t > inner && !unclear(t) {
			c.High, c.HighOpen = bisectInt(func(s int) bool { return !unclear(s) }, inner, t)-1, false
			break
		} else {
			inner = max(inner, t)
		}
	}
	// a span that reaches an end of the sweep, still unclear there, goes on past it
	c.LowOpen = c.LowOpen && unclear(c.Low)
	c.HighOpen = c.HighOpen && unclear(c.High)
	from, to := fmt.Sprintf("%d", c.Low), fmt.Sprintf("%d steps", c.High)
	if c.LowOpen {
		from = fmt.Sprintf("below %d (the shortest total swept)", c.Low)
	}
	if c.HighOpen {
		to = fmt.Sprintf("past %d steps (the longest total swept)", c.High)
	}
	res.Verdict = fmt.Sprintf("The cosine overtakes the constant at %d steps; within the fit's uncertainty, anywhere from %s to %s.", c.Total, from, to)
}
