package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/schedule"
	"gonum.org/v1/gonum/optimize"
)

// Schedule optimiser: for a budget of total steps and a peak learning rate, the schedule of a
// family that minimises the law's predicted final loss.
//
//   - "wsd": decay ratio and shape (each shape's ratio by grid and golden-section search).
//   - "cosine": floor (fraction of the peak) and cycle length (fraction of the run, holding
//     the floor past the cycle), by grid and Nelder-Mead.
//   - "multistep": three stages' lengths and the two lower levels, by Nelder-Mead from several
//     starts (DeepSeek's 80/10/10 at 1, 0.316, 0.1 among them).
//   - "free": any non-increasing schedule from the peak, as a piecewise-linear curve through
//     Knots knots, by L-BFGS with the analytic gradient (see FinalLossGradient).
//   - "step-drop": the peak, then 0 for the last k steps, k by search. The final loss is
//     convex in the per-step learning rates (A*S1^-alpha is convex in S1, which is linear in
//     them; S2 is linear), and its derivative in step j's rate, -alpha*A*S1^(-alpha-1) +
//     C*lambda^(n-1-j), increases with j. So over all schedules with rates in [0, peak] after
//     the warmup the optimum is the peak up to one step and 0 after it: a step drop. This is
//     the law's exact optimum, which the other families approach; it is also where the law is
//     least to be trusted (the paper never fits such a drop).
//
// Every family keeps the setup's warmup and peak.

// Optimiser families: WSD (ratio and shape), cosine (floor and cycle), multi-step (stage
// lengths and levels), free-form non-increasing, and the step drop.
const (
	FamilyWSD       = "wsd"
	FamilyCosine    = "cosine"
	FamilyMultistep = "multistep"
	FamilyFree      = "free"
	FamilyStepDrop  = "step-drop"
)

// OptimizeFamilies lists the optimiser's families.
var OptimizeFamilies = []string{FamilyWSD, FamilyCosine, FamilyMultistep, FamilyFree, FamilyStepDrop}

// OptimizeOptions asks for the best schedule of each family for a budget of steps.
type OptimizeOptions struct {
	Setup
	// Total is the budget: the run's last step (default 50000).
	Total int `json:"total"`
	// Families are the families to optimise (default all of OptimizeFamilies).
	Families []string `json:"families"`
	// Knots is the number of knots of the free-form schedule (default 40, from 4 to 200).
	Knots int `json:"knots"`
	// ExponentialFloor is the final learning rate of an exponential WSD decay as a fraction
	// of the peak, since it cannot reach 0 (default 0.01).
	ExponentialFloor float64 `json:"exponentialFloor"`
}

// DefaultOptimizeOptions optimises every family for a 50K-step run.
func DefaultOptimizeOptions() OptimizeOptions {
	return OptimizeOptions{Setup: DefaultSetup(), Total: 50000,
		Families: append([]string(nil), OptimizeFamilies...), Knots: 40, ExponentialFloor: 0.01}
}

// OptimizedSchedule is the best schedule found in one family.
type OptimizedSchedule struct {
	Family string `json:"family"`
	// Description says what was chosen, such as "WSD, 16.2% 1-sqrt decay".
	Description string `json:"description"`
	// Settings are the chosen values by name (such as "ratio", "floor", "cycle").
	Settings map[string]float64 `json:"settings"`
	// Schedule is the schedule itself, to predict or plot elsewhere.
	Schedule schedule.Schedule `json:"schedule"`
	// Final is the law at the last step.
	Final Outcome `json:"final"`
	// Evaluations is how many schedules the search evaluated.
	Evaluations int `json:"evaluations"`
	// With the setup's replicates: PlusMinus is the 90% half-width of Final.Loss (the band's,
	// with the setup's band), and TiedWithBest whether its final loss cannot be told apart
	// from the best family's.
	PlusMinus    float64 `json:"plusMinus,omitempty"`
	TiedWithBest *bool   `json:"tiedWithBest,omitempty"`
	// Curve is the schedule's loss curve.
	Curve LossCurve `json:"curve"`
}

// OptimizeResult holds the best schedule of each family, best first in Ranking.
type OptimizeResult struct {
	Best []OptimizedSchedule `json:"best"`
	// Ranking lists the families from the lowest final loss.
	Ranking []string `json:"ranking"`
	// Verdict says, with the setup's replicates, which families cannot be told apart from
	// the best.
	Verdict string `json:"verdict,omitempty"`
	// Skipped are the families asked for that the law cannot search (free and step-drop need
	// the annealing law's gradient: every member's, for an average), and Note says so; the
	// others are searched.
	Skipped []string `json:"skipped,omitempty"`
	Note    string   `json:"note,omitempty"`
	Table   Table    `json:"table"`
	Setup   Setup    `json:"setup"`
}

// typicalFamilyEvaluations is about how many evaluations a family's search takes (the median
// of the five families' on the paper's setup, 256-535 for the three searched by gonum): what
// the progress within a family is counted against.
const typicalFamilyEvaluations = 275

// OptimizeSchedule finds the best schedule of each family.
func OptimizeSchedule(ctx context.Context, o OptimizeOptions, progress func(float64)) (answer *OptimizeResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	e, points, err := o.evaluator(w)
	if err != nil {
		return nil, err
	}
	if err := checkTotal("total", o.Total, o.Warmup+10); err != nil {
		return nil, err
	}
	if err := checkBudget("total", 2000*float64(o.Total)); err != nil {
		return nil, err
	}
	_, who, annealing := e.annealingTerms()
	if len(o.Families) == 0 {
		o.Families = OptimizeFamilies
		if !annealing { // free and step-drop need the annealing law's gradient
			o.Families = []string{FamilyWSD, FamilyCosine, FamilyMultistep}
		}
	}
	if o.Knots == 0 {
		o.Knots = 40
	}
	if o.Knots < 4 || o.Knots > 200 || o.Knots > o.Total-o.Warmup {
		return nil, input.Errorf("", "knots", "must be from 4 to 200 (and no more than the steps after warmup), got %d", o.Knots)
	}
	if o.ExponentialFloor == 0 {
		o.ExponentialFloor = 0.01
	}
	if err := checkFraction("exponentialFloor", o.ExponentialFloor, 1e-12, 1); err != nil {
		return nil, err
	}
	for i, fam := range o.Families {
		if !slices.Contains(OptimizeFamilies, fam) {
			return nil, input.Errorf("", fmt.Sprintf("families[%d]", i), "must be one of %s, got %q", strings.Join(OptimizeFamilies, ", "), fam)
		}
	}
	res := &OptimizeResult{Setup: o.Setup,
		Table: Table{Columns: []string{"family", "best", "final loss", "S1", "S2", "evaluations"}}}
	if !annealing {
		// the page's form asks for every family: another law searches those it can, and says
		// which it left out; asked for those alone, it is an error naming them
		var searched []string
		for i, fam := range o.Families {
			if fam == FamilyFree || fam == FamilyStepDrop {
				res.Skipped = append(res.Skipped, fam)
				if len(res.Skipped) == len(o.Families) {
					return nil, input.Errorf("", fmt.Sprintf("families[%d]", i), "the %s family needs the annealing law's closed-form gradient; %s has none here (use wsd, cosine or multistep)", fam, who)
				}
				continue
			}
			searched = append(searched, fam)
		}
		o.Families = searched
		if len(res.Skipped) > 0 {
			res.Note = fmt.Sprintf("%s left out: %s has no closed-form gradient to search them with", strings.Join(res.Skipped, " and "), who)
		}
	}
	opt := &optimizer{o: o, e: e}
	// each family, then the ranking under the replicates; a family's search takes 70 to 540
	// evaluations on the paper's setup
	w.planSearch(len(o.Families)+1, typicalFamilyEvaluations)
	for _, fam := range o.Families {
		var best OptimizedSchedule
		opt.evaluations = 0
		switch fam {
		case FamilyWSD:
			best = opt.wsd()
		case FamilyCosine:
			best = opt.cosine()
		case FamilyMultistep:
			best = opt.multistep()
		case FamilyFree:
			best = opt.free()
		case FamilyStepDrop:
			best = opt.stepDrop()
		}
		best.Family = fam
		best.Evaluations = opt.evaluations
		c, err := opt.e.trace(best.Description, best.Schedule, points)
		if err != nil {
			return nil, err // the families build valid schedules
		}
		best.Curve, best.Final = c, c.Final
		res.Best = append(res.Best, best)
		res.Table.addRow(fam, best.Description, best.Final.Loss, best.Final.S1, best.Final.S2, float64(best.Evaluations))
		w.stageDone()
	}
	order := make([]int, len(res.Best))
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && res.Best[order[j]].Final.Loss < res.Best[order[j-1]].Final.Loss; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for _, i := range order {
		res.Ranking = append(res.Ranking, res.Best[i].Family)
	}
	sp, err := o.spread(w)
	if err != nil {
		return nil, err
	}
	if sp != nil && len(order) > 0 {
		top := &res.Best[order[0]]
		topFinals := sp.finals(top.Schedule)
		var tied []string
		for _, i := range order {
			b := &res.Best[i]
			finals := sp.finals(b.Schedule)
			if b.PlusMinus, err = sp.lossHalfWidth(b.Schedule, finals); err != nil {
				return nil, err
			}
			same := b.Final.Loss-top.Final.Loss <= sp.diffHalfWidth(topFinals, finals)
			b.TiedWithBest = &same
			if same && i != order[0] {
				tied = append(tied, fmt.Sprintf("%s (%.4f)", b.Family, b.Final.Loss))
			}
		}
		res.Verdict = fmt.Sprintf("The best schedule is %s (%.4f ± %.4f)", top.Description, top.Final.Loss, top.PlusMinus)
		if len(tied) == 0 {
			res.Verdict += "; every other family ends higher beyond the fit's uncertainty."
		} else {
			res.Verdict += fmt.Sprintf("; within the fit's uncertainty of it: %s.", strings.Join(tied, ", "))
		}
	}
	return res, nil
}

// optimizer holds one optimisation's options and evaluator, and counts evaluations.
type optimizer struct {
	o           OptimizeOptions
	e           *evaluator
	evaluations int
}

// loss is the final loss of s (+Inf if it does not validate), counted.
func (z *optimizer) loss(s schedule.Schedule) float64 {
	z.evaluations++
	return z.e.finalLoss(s)
}

func (z *optimizer) wsd() OptimizedSchedule {
	o := z.o
	best := OptimizedSchedule{Final: Outcome{Loss: math.Inf(1)}}
	maxD := o.Total - o.Warmup
	for _, shape := range wsdShapes {
		floor := 0.0
		if shape == "exponential" {
			floor = o.ExponentialFloor
		}
		build := func(d int) schedule.Schedule { return wsdSchedule(o.Total, o.Peak, o.Warmup, shape, floor, d) }
		var grid []int
		var values []float64
		for _, r := range numeric.Linspace(0.02, 1, 33) {
			d := int(math.Round(r * float64(o.Total)))
			if d < 1 || d > maxD || (len(grid) > 0 && d == grid[len(grid)-1]) {
				continue
			}
			grid, values = append(grid, d), append(values, z.loss(build(d)))
		}
		d, l := bracketInt(func(d int) float64 { return z.loss(build(d)) }, grid, values, 1, maxD)
		if l < best.Final.Loss {
			ratio := float64(d) / float64(o.Total)
			best = OptimizedSchedule{Description: fmt.Sprintf("WSD, %.1f%% %s decay", 100*ratio, shape),
				Settings: map[string]float64{"ratio": ratio, "decaySteps": float64(d), "floor": floor},
				Schedule: build(d), Final: Outcome{Loss: l}}
		}
	}
	return best
}

// sin2 maps a real number onto [0, 1] smoothly, reaching both ends: bounds for Nelder-Mead.
func sin2(x float64) float64 { s := math.Sin(x); return s * s }

// asin2 is an inverse of sin2.
func asin2(v float64) float64 { return math.Asin(math.Sqrt(math.Min(1, math.Max(0, v)))) }

// nelderMead minimises f from x0 and returns the best point and value; it stops at once when
// the call w is cancelled.
func nelderMead(f func([]float64) float64, x0 []float64, evals int, w *work) ([]float64, float64) {
	res, err := optimize.Minimize(optimize.Problem{Func: f, Status: w.status}, x0,
		&optimize.Settings{FuncEvaluations: evals, Converger: &optimize.FunctionConverge{Absolute: 1e-10, Iterations: 50}},
		&optimize.NelderMead{SimplexSize: 0.2})
	if res == nil || len(res.X) != len(x0) || (err != nil && math.IsNaN(res.F)) {
		return x0, f(x0)
	}
	return res.X, res.F
}

func (z *optimizer) cosine() OptimizedSchedule {
	o := z.o
	const maxCycle = 2.0
	minCycle := float64(o.Warmup+1) / float64(o.Total)
	build := func(floor, cycle float64) schedule.Schedule {
		return schedule.Schedule{Kind: schedule.KindCosine, Total: o.Total, Peak: o.Peak, Final: floor * o.Peak, Warmup: o.Warmup,
			Cycle: int(math.Round(cycle * float64(o.Total)))}
	}
	bestF, bestC, bestL := 0.0, 1.0, math.Inf(1)
	for _, floor := range numeric.Linspace(0, 0.5, 6) {
		for _, cycle := range numeric.Linspace(math.Max(minCycle, 0.5), 1.5, 11) {
			if l := z.loss(build(floor, cycle)); l < bestL {
				bestF, bestC, bestL = floor, cycle, l
			}
		}
	}
	at := func(x []float64) (float64, float64) {
		return sin2(x[0]), minCycle + (maxCycle-minCycle)*sin2(x[1])
	}
	x, l := nelderMead(func(x []float64) float64 { f, c := at(x); return z.loss(build(f, c)) },
		[]float64{asin2(bestF), asin2((bestC - minCycle) / (maxCycle - minCycle))}, 300, z.e.w)
	if l < bestL {
		bestF, bestC = at(x)
	}
	bestF = tidy(bestF)
	s := build(bestF, bestC)
	return OptimizedSchedule{Description: fmt.Sprintf("cosine, floor %.3g x peak, cycle %.3g x total", bestF, float64(s.Cycle)/float64(o.Total)),
		Settings: map[string]float64{"floor": bestF, "cycle": float64(s.Cycle) / float64(o.Total)}, Schedule: s}
}

func (z *optimizer) multistep() OptimizedSchedule {
	o := z.o
	// x = (u, v, a, b): stage weights 1, e^u, e^v (softmax); levels 1, sin2(a), sin2(a)*sin2(b)
	decode := func(x []float64) ([]float64, []float64) {
		w := []float64{1, math.Exp(x[0]), math.Exp(x[1])}
		sum := w[0] + w[1] + w[2]
		stages := []float64{w[0] / sum, w[1] / sum, 0}
		stages[2] = 1 - stages[0] - stages[1]
		l2 := sin2(x[2])
		return stages, []float64{1, l2, l2 * sin2(x[3])}
	}
	build := func(x []float64) schedule.Schedule {
		stages, levels := decode(x)
		return schedule.Schedule{Kind: schedule.KindMultistep, Total: o.Total, Peak: o.Peak, Warmup: o.Warmup, Stages: stages, Levels: levels}
	}
	encode := func(stages, levels []float64) []float64 {
		return []float64{math.Log(stages[1] / stages[0]), math.Log(stages[2] / stages[0]), asin2(levels[1]), asin2(levels[2] / levels[1])}
	}
	starts := [][]float64{
		encode([]float64{0.8, 0.1, 0.1}, []float64{1, 0.316, 0.1}),
		encode([]float64{0.85, 0.1, 0.05}, []float64{1, 0.1, 0.01}),
	}
	bestX, bestL := starts[0], math.Inf(1) // the first start if every search is +Inf (cancelled)
	for _, x0 := range starts {
		x, l := nelderMead(func(x []float64) float64 { return z.loss(build(x)) }, x0, 300, z.e.w)
		if l < bestL {
			bestX, bestL = x, l
		}
	}
	stages, levels := decode(bestX)
	levels[1], levels[2] = tidy(levels[1]), tidy(levels[2])
	bestSchedule := schedule.Schedule{Kind: schedule.KindMultistep, Total: o.Total, Peak: o.Peak, Warmup: o.Warmup, Stages: stages, Levels: levels}
	return OptimizedSchedule{
		Description: fmt.Sprintf("multi-step %.1f/%.1f/%.1f%% at 1, %.3g, %.3g x peak", 100*stages[0], 100*stages[1], 100*stages[2], levels[1], levels[2]),
		Settings:    map[string]float64{"stage1": stages[0], "stage2": stages[1], "stage3": stages[2], "level2": levels[1], "level3": levels[2]},
		Schedule:    bestSchedule}
}

// tidy rounds a fraction within 1e-9 of 0 or 1 to it, so that descriptions read 0, not 6.5e-17.
func tidy(v float64) float64 {
	switch {
	case math.Abs(v) < 1e-9:
		return 0
	case math.Abs(v-1) < 1e-9:
		return 1
	}
	return v
}

// stepDropSchedule is the peak until drop steps before the end, then 0.
func stepDropSchedule(total int, peak float64, warmup, drop int) schedule.Schedule {
	last := total - drop // the last step at the peak
	if last <= warmup {
		return schedule.Schedule{Kind: schedule.KindExplicit, Total: total, Warmup: warmup,
			Steps: []float64{float64(warmup), float64(warmup + 1)}, Values: []float64{peak, 0}}
	}
	return schedule.Schedule{Kind: schedule.KindExplicit, Total: total, Warmup: warmup,
		Steps: []float64{float64(warmup), float64(last), float64(last + 1)}, Values: []float64{peak, peak, 0}}
}

func (z *optimizer) stepDrop() OptimizedSchedule {
	o := z.o
	build := func(k int) schedule.Schedule { return stepDropSchedule(o.Total, o.Peak, o.Warmup, k) }
	maxK := o.Total - o.Warmup
	var grid []int
	var values []float64
	for _, x := range numeric.Logspace(1, float64(maxK), 60) {
		k := int(math.Round(x))
		if len(grid) > 0 && k == grid[len(grid)-1] {
			continue
		}
		grid, values = append(grid, k), append(values, z.loss(build(k)))
	}
	k, _ := bracketInt(func(k int) float64 { return z.loss(build(k)) }, grid, values, 1, maxK)
	return OptimizedSchedule{Description: fmt.Sprintf("peak, then 0 for the last %d steps (%.1f%%)", k, 100*float64(k)/float64(o.Total)),
		Settings: map[string]float64{"dropSteps": float64(k), "ratio": float64(k) / float64(o.Total)}, Schedule: build(k)}
}
