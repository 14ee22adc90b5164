package analysis

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Annealing function (the paper's Sec. 5.6, Fig. 13): which decay shape of a WSD schedule
// ends lowest depends on the annealing ratio. At 50K steps the law predicts that 1-sqrt beats
// cosine at a 10% ratio and loses at 50%, which the paper's runs confirm.

// AnnealFunctionOptions asks for the final loss of WSD schedules of several decay shapes
// across annealing ratios.
type AnnealFunctionOptions struct {
	Setup
	// Total is the runs' last step (default 50000).
	Total int `json:"total"`
	// Shapes are the decay shapes compared (default cosine, 1-sqrt, 1-square, linear,
	// exponential).
	Shapes []string `json:"shapes"`
	// Ratios are the annealing ratios (default 0.05 to 0.6 by 0.05).
	Ratios []float64 `json:"ratios"`
	// Floor is the final learning rate as a fraction of the peak (default 0).
	Floor float64 `json:"floor"`
	// ExponentialFloor is the exponential decay's final learning rate as a fraction of the
	// peak, since it cannot reach 0 (default 0.01).
	ExponentialFloor float64 `json:"exponentialFloor"`
	// CurveRatios are the ratios at which every shape's loss curve is drawn (default 0.1, 0.5).
	CurveRatios []float64 `json:"curveRatios"`
}

// DefaultAnnealFunctionOptions is the paper's Fig. 13 setting.
func DefaultAnnealFunctionOptions() AnnealFunctionOptions {
	return AnnealFunctionOptions{Setup: DefaultSetup(), Total: 50000,
		Shapes: []string{"cosine", "1-sqrt", "1-square", "linear", "exponential"},
		Ratios: numeric.Linspace(0.05, 0.6, 12), ExponentialFloor: 0.01, CurveRatios: []float64{0.1, 0.5}}
}

// AnnealWinner is the shape that ends lowest at one ratio.
type AnnealWinner struct {
	Ratio float64 `json:"ratio"`
	Shape string  `json:"shape"`
	Loss  float64 `json:"loss"`
	// Margin is how much lower than the runner-up it ends.
	Margin float64 `json:"margin"`
	// With the setup's replicates: MarginPlusMinus is the margin's 90% half-width, and
	// Apart whether the margin exceeds it (else the two shapes cannot be told apart).
	MarginPlusMinus float64 `json:"marginPlusMinus,omitempty"`
	Apart           *bool   `json:"apart,omitempty"`
}

// AnnealFunctionResult holds the final loss against the ratio per shape, the winner at each
// ratio, and the loss curves at the chosen ratios.
type AnnealFunctionResult struct {
	// ByShape has one series per shape: final loss (Y) against the ratio (X).
	ByShape []Series `json:"byShape"`
	// Winners has one entry per ratio.
	Winners []AnnealWinner `json:"winners"`
	// Curves are each shape's loss curve at each of CurveRatios.
	Curves []LossCurve `json:"curves"`
	// Verdict says, with the setup's replicates, at which ratios the winner cannot be told
	// apart from the runner-up.
	Verdict string `json:"verdict,omitempty"`
	Table   Table  `json:"table"`
	Setup   Setup  `json:"setup"`
}

// AnnealFunction compares the decay shapes across ratios.
func AnnealFunction(ctx context.Context, o AnnealFunctionOptions, progress func(float64)) (answer *AnnealFunctionResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	e, points, err := o.evaluator(w)
	if err != nil {
		return nil, err
	}
	if err := checkTotal("total", o.Total, o.Warmup); err != nil {
		return nil, err
	}
	if len(o.Shapes) == 0 || len(o.Shapes) > len(wsdShapes) {
		return nil, input.Errorf("", "shapes", "give from 1 to %d decay shapes, got %d", len(wsdShapes), len(o.Shapes))
	}
	if err := checkFraction("floor", o.Floor, 0, 1); err != nil {
		return nil, err
	}
	if err := checkFraction("exponentialFloor", o.ExponentialFloor, 1e-12, 1); err != nil {
		return nil, err
	}
	floors := make([]float64, len(o.Shapes))
	for i, s := range o.Shapes {
		floors[i] = o.Floor
		if s == "exponential" {
			floors[i] = o.ExponentialFloor
		}
		if err := checkShape(fmt.Sprintf("shapes[%d]", i), s, floors[i]); err != nil {
			return nil, err
		}
	}
	if err := checkRatios("ratios", o.Ratios, o.Total, o.Warmup, 200); err != nil {
		return nil, err
	}
	if len(o.CurveRatios) > 5 {
		return nil, input.Errorf("", "curveRatios", "at most 5 ratios, got %d", len(o.CurveRatios))
	}
	if len(o.CurveRatios) > 0 {
		if err := checkRatios("curveRatios", o.CurveRatios, o.Total, o.Warmup, 5); err != nil {
			return nil, err
		}
	}
	if err := checkBudget("ratios", float64(len(o.Shapes)*(len(o.Ratios)+len(o.CurveRatios)))*float64(o.Total)); err != nil {
		return nil, err
	}
	build := func(k int, ratio float64) schedule.Schedule {
		return wsdSchedule(o.Total, o.Peak, o.Warmup, o.Shapes[k], floors[k], int(math.Round(ratio*float64(o.Total))))
	}
	res := &AnnealFunctionResult{Setup: o.Setup, Table: Table{Columns: append(append([]string{"ratio"}, o.Shapes...), "lowest")}}
	loss := make([][]float64, len(o.Shapes))
	w.plan(len(o.Shapes) + 1) // each shape, then the winners under the replicates
	for k, shape := range o.Shapes {
		s := Series{Name: shape, X: o.Ratios, Y: make([]float64, len(o.Ratios))}
		for i, r := range o.Ratios {
			out, err := e.final(build(k, r))
			if err != nil {
				return nil, input.Within(fmt.Sprintf("ratios[%d]", i), err)
			}
			s.Y[i] = out.Loss
		}
		loss[k] = s.Y
		res.ByShape = append(res.ByShape, s)
		w.stageDone()
	}
	sp, err := o.spread(w)
	if err != nil {
		return nil, err
	}
	if sp != nil {
		res.Table.Columns = append(res.Table.Columns, "margin", "± margin", "told apart")
	}
	var unclear []string
	for i, r := range o.Ratios {
		w := AnnealWinner{Ratio: r, Loss: math.Inf(1), Margin: math.Inf(1)}
		row := []any{r}
		winner, runner := -1, -1
		for k, shape := range o.Shapes {
			l := loss[k][i]
			row = append(row, l)
			switch {
			case l < w.Loss:
				w.Margin = w.Loss - l
				w.Shape, w.Loss = shape, l
				winner, runner = k, winner
			case l-w.Loss < w.Margin:
				w.Margin = l - w.Loss
				runner = k
			}
		}
		if math.IsInf(w.Margin, 1) {
			w.Margin = 0 // a single shape
		}
		row = append(row, w.Shape)
		if sp != nil && runner >= 0 {
			apart, hw := sp.apart(build(winner, r), build(runner, r), w.Margin)
			w.MarginPlusMinus, w.Apart = hw, &apart
			row = append(row, w.Margin, hw, map[bool]string{true: "yes", false: "no"}[apart])
			if !apart {
				unclear = append(unclear, percent(r))
			}
		}
		res.Winners = append(res.Winners, w)
		res.Table.addRow(row...)
	}
	if sp != nil && len(o.Shapes) > 1 { // one shape has no runner-up to be told apart from
		if len(unclear) == 0 {
			res.Verdict = "At every ratio the winning shape ends lower than the runner-up beyond the fit's uncertainty."
		} else {
			res.Verdict = fmt.Sprintf("At %s the winner and the runner-up are within the fit's uncertainty of each other: either will do.", strings.Join(unclear, ", "))
		}
	}
	for _, r := range o.CurveRatios {
		for k, shape := range o.Shapes {
			c, err := e.trace(fmt.Sprintf("%s, %g%% decay", shape, 100*r), build(k, r), points)
			if err != nil {
				return nil, err
			}
			res.Curves = append(res.Curves, c)
		}
	}
	return res, nil
}
