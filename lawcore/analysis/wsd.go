package analysis

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// WSD annealing ratio (the paper's Sec. 5.5, Fig. 11): a warmup-stable-decay schedule of a
// given total trades forward area S1 (a long stable phase) against annealing area S2 (a long
// decay). The final loss against the ratio of decay steps to total steps is parabola-like;
// its optimum (refined here by golden-section search on whole decay steps) shrinks as the
// total grows.

// WSDRatioOptions asks for the final loss of WSD schedules against the annealing ratio, for
// several totals.
type WSDRatioOptions struct {
	Setup
	// Totals are the runs' last steps (default 10K, 20K, 50K, 100K, 200K).
	Totals []int `json:"totals"`
	// Ratios are the annealing ratios, decay steps / total (default 0.02 to 0.8 by 0.02). A
	// ratio whose decay would start before the warmup ends is left out for that total.
	Ratios []float64 `json:"ratios"`
	// Decay is the decay shape: cosine (default), linear, 1-sqrt, 1-square or exponential.
	Decay string `json:"decay,omitempty"`
	// Floor is the final learning rate as a fraction of the peak (default 0; exponential
	// needs a positive floor).
	Floor float64 `json:"floor"`
}

// DefaultWSDRatioOptions is the paper's Fig. 11 setting (cosine decay to 0).
func DefaultWSDRatioOptions() WSDRatioOptions {
	return WSDRatioOptions{Setup: DefaultSetup(), Totals: []int{10000, 20000, 50000, 100000, 200000},
		Ratios: numeric.Linspace(0.02, 0.8, 40), Decay: "cosine"}
}

// WSDOptimum is the best annealing ratio of one total.
type WSDOptimum struct {
	Total int `json:"total"`
	// DecaySteps is the best number of decay steps; Ratio = DecaySteps / Total.
	DecaySteps int     `json:"decaySteps"`
	Ratio      float64 `json:"ratio"`
	// Final is the law at the last step of the best schedule.
	Final Outcome `json:"final"`
	// With the setup's replicates: PlusMinus is the 90% half-width of Final.Loss (the band's,
	// with the setup's band), and Tied the range of ratios on the sweep's grid whose final
	// loss cannot be told apart from the optimum's (the difference within its half-width).
	PlusMinus float64    `json:"plusMinus,omitempty"`
	Tied      *RatioSpan `json:"tied,omitempty"`
}

// RatioSpan is a range of annealing ratios.
type RatioSpan struct {
	From float64 `json:"from"`
	To   float64 `json:"to"`
}

// WSDRatioResult holds, per total, the final loss against the ratio and against the final
// S1, the optimum, and the loss curve of the optimal schedule.
type WSDRatioResult struct {
	// ByRatio has one series per total: final loss (Y) against the annealing ratio (X).
	ByRatio []Series `json:"byRatio"`
	// ByS1 has one series per total: final loss (Y) against the final S1 (X).
	ByS1 []Series `json:"byS1"`
	// Optima has one entry per total.
	Optima []WSDOptimum `json:"optima"`
	// Curves are the loss curves of the optimal schedules.
	Curves []LossCurve `json:"curves"`
	// Verdict says, with the setup's replicates, which ratios cannot be told apart from each
	// optimum.
	Verdict string `json:"verdict,omitempty"`
	Table   Table  `json:"table"`
	Setup   Setup  `json:"setup"`
}

// wsdShapes are the decay shapes the analyses take (half-life needs its own parameter).
var wsdShapes = []string{"cosine", "linear", "1-sqrt", "1-square", "exponential"}

// checkShape reports a decay shape the analyses do not take, or an exponential decay to 0.
func checkShape(field, shape string, floor float64) error {
	for _, s := range wsdShapes {
		if s == shape {
			if shape == "exponential" && !(floor > 0) {
				return input.Errorf("", "floor", "an exponential decay never reaches 0: give floor, its final LR as a fraction of the peak (such as 0.01), got %v", floor)
			}
			return nil
		}
	}
	return input.Errorf("", field, "must be one of %s, got %q", strings.Join(wsdShapes, ", "), shape)
}

// wsdSchedule builds a WSD schedule with the given decay steps.
func wsdSchedule(total int, peak float64, warmup int, shape string, floor float64, decaySteps int) schedule.Schedule {
	return schedule.Schedule{Kind: schedule.KindWSD, Total: total, Peak: peak, Final: floor * peak, Warmup: warmup, Decay: shape, DecaySteps: decaySteps}
}

// wsdSweep is the ratio sweep of one total: the final losses at the feasible ratios and the
// refined optimum; an error names the ratios when none gives the run a cooldown.
func wsdSweep(e *evaluator, total int, peak float64, warmup int, shape string, floor float64, ratios []float64) (byRatio, byS1 Series, opt WSDOptimum, err error) {
	build := func(d int) schedule.Schedule { return wsdSchedule(total, peak, warmup, shape, floor, d) }
	label := fmt.Sprintf("%d steps", total)
	byRatio, byS1 = Series{Name: label}, Series{Name: label}
	var grid []int
	var values []float64
	for _, r := range ratios {
		d := int(math.Round(r * float64(total)))
		if d < 1 || total-d < warmup || (len(grid) > 0 && d == grid[len(grid)-1]) {
			continue
		}
		out, err := e.final(build(d))
		if err != nil {
			continue
		}
		grid, values = append(grid, d), append(values, out.Loss)
		byRatio.X, byRatio.Y = append(byRatio.X, float64(d)/float64(total)), append(byRatio.Y, out.Loss)
		byS1.X, byS1.Y = append(byS1.X, out.S1), append(byS1.Y, out.Loss)
	}
	opt = WSDOptimum{Total: total}
	if len(grid) == 0 {
		return byRatio, byS1, opt, input.Errorf("", "ratios", "no ratio gives a run of %d steps a cooldown: each must give at least 1 decay step (a ratio of at least %.4g) and at most the %d steps after the warmup of %d (a ratio of at most %.4g)",
			total, 0.5/float64(total), total-warmup, warmup, float64(total-warmup)/float64(total))
	}
	d, _ := bracketInt(func(d int) float64 { return e.finalLoss(build(d)) }, grid, values, 1, total-warmup)
	opt.DecaySteps, opt.Ratio = d, float64(d)/float64(total)
	opt.Final, _ = e.final(build(d))
	return byRatio, byS1, opt, nil
}

// tiedRatios sets the optimum's half-width and the span of grid ratios (byRatio) that cannot
// be told apart from it, walking out from the optimum until a ratio is told apart on each side.
func tiedRatios(sp *spread, opt *WSDOptimum, byRatio Series, build func(d int) schedule.Schedule) error {
	best := sp.finals(build(opt.DecaySteps))
	var err error
	if opt.PlusMinus, err = sp.lossHalfWidth(build(opt.DecaySteps), best); err != nil {
		return err
	}
	tied := func(i int) bool {
		d := int(math.Round(byRatio.X[i] * float64(opt.Total)))
		return byRatio.Y[i]-opt.Final.Loss <= sp.diffHalfWidth(best, sp.finals(build(d)))
	}
	span := RatioSpan{From: opt.Ratio, To: opt.Ratio}
	at := 0
	for at < len(byRatio.X)-1 && byRatio.X[at] < opt.Ratio {
		at++
	}
	for i := at - 1; i >= 0 && tied(i); i-- {
		span.From = byRatio.X[i]
	}
	for i := at; i < len(byRatio.X) && (byRatio.X[i] <= opt.Ratio || tied(i)); i++ {
		span.To = math.Max(span.To, byRatio.X[i])
	}
	opt.Tied = &span
	return nil
}

// checkWSDRatio validates the sweep's options shared with the lambda analysis.
func checkWSDRatio(totals []int, ratios []float64, warmup int, shape string, floor float64) error {
	if err := checkSteps("totals", totals, warmup+1, schedule.MaxSteps-1, 20); err != nil {
		return err
	}
	if err := checkList("ratios", ratios, 0, 1, 500); err != nil {
		return err
	}
	if err := checkFraction("floor", floor, 0, 1); err != nil {
		return err
	}
	if err := checkShape("decay", shape, floor); err != nil {
		return err
	}
	sum := 0.0
	for _, t := range totals {
		sum += float64(t)
	}
	return checkBudget("totals", sum*float64(len(ratios)+30))
}

// WSDRatio sweeps the annealing ratio for each total and refines each optimum.
func WSDRatio(ctx context.Context, o WSDRatioOptions, progress func(float64)) (answer *WSDRatioResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	e, points, err := o.evaluator(w)
	if err != nil {
		return nil, err
	}
	if o.Decay == "" {
		o.Decay = "cosine"
	}
	if err := checkWSDRatio(o.Totals, o.Ratios, o.Warmup, o.Decay, o.Floor); err != nil {
		return nil, err
	}
	sp, err := o.spread(w)
	if err != nil {
		return nil, err
	}
	res := &WSDRatioResult{Setup: o.Setup,
		Table: Table{Columns: []string{"total steps", "best ratio", "decay steps", "final loss", "S1", "S2"}}}
	if sp != nil {
		res.Table.Columns = append(res.Table.Columns, "±", "ratios tied with the best")
	}
	var verdicts []string
	w.plan(len(o.Totals))
	for _, total := range o.Totals {
		byRatio, byS1, opt, err := wsdSweep(e, total, o.Peak, o.Warmup, o.Decay, o.Floor, o.Ratios)
		if err != nil {
			return nil, err
		}
		row := []any{float64(total), opt.Ratio, float64(opt.DecaySteps), opt.Final.Loss, opt.Final.S1, opt.Final.S2}
		if sp != nil {
			if err := tiedRatios(sp, &opt, byRatio, func(d int) schedule.Schedule { return wsdSchedule(total, o.Peak, o.Warmup, o.Decay, o.Floor, d) }); err != nil {
				return nil, err
			}
			from, to := percent(opt.Tied.From), percent(opt.Tied.To)
			span, within := from+"-"+to, from+"-"+to+" cooldowns are"
			if from == to { // the fit tells every other ratio of the grid apart
				span, within = from, "only the "+from+" cooldown is"
			}
			row = append(row, opt.PlusMinus, span)
			verdicts = append(verdicts, fmt.Sprintf("at %d steps, %s within the fit's uncertainty of the best (%.1f%%: %.3f ± %.3f)",
				total, within, 100*opt.Ratio, opt.Final.Loss, opt.PlusMinus))
		}
		res.ByRatio, res.ByS1, res.Optima = append(res.ByRatio, byRatio), append(res.ByS1, byS1), append(res.Optima, opt)
		res.Table.addRow(row...)
		c, err := e.trace(fmt.Sprintf("best WSD, %d steps (%.1f%% %s decay)", total, 100*opt.Ratio, o.Decay),
			wsdSchedule(total, o.Peak, o.Warmup, o.Decay, o.Floor, opt.DecaySteps), points)
		if err != nil {
			return nil, err
		}
		res.Curves = append(res.Curves, c)
		w.stageDone()
	}
	if len(verdicts) > 0 {
		res.Verdict = capitalize(strings.Join(verdicts, "; ")) + "."
	}
	return res, nil
}

// percent writes a ratio as a percentage to at most one decimal, without float noise: 26%, 12.5%.
func percent(r float64) string {
	return strconv.FormatFloat(math.Round(1000*r)/10, 'f', -1, 64) + "%"
}

// capitalize upper-cases the first letter of a sentence.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
