package analysis

import (
	"context"
	"sort"
	"strconv"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Decomposition (the paper's Sec. 5.1 and 5.4, Figs. 7 and 10): the law's two terms apart
// along schedules, A*S1^-alpha (falls as the forward area grows) and C*S2 (the loss drop that
// annealing brings), and how much each moves the loss during the annealing stage.

// NamedSchedule is a schedule with a name to show.
type NamedSchedule struct {
	Name     string            `json:"name"`
	Schedule schedule.Schedule `json:"schedule"`
}

// DecompositionOptions asks for the two terms of the law along schedules.
type DecompositionOptions struct {
	Setup
	// Schedules are the schedules to decompose. A schedule without a warmup gets the setup's.
	// Empty: the paper's three, cosine to 0, WSD with a 20% cosine decay and multi-step
	// (80% + 10% + 10% at 1, 0.316, 0.1 of the peak), each Total steps long.
	Schedules []NamedSchedule `json:"schedules,omitempty"`
	// Total is the length of the default schedules (default 60000).
	Total int `json:"total,omitempty"`
}

// DefaultDecompositionOptions is the paper's comparison at 60K steps.
func DefaultDecompositionOptions() DecompositionOptions {
	return DecompositionOptions{Setup: DefaultSetup(), Total: 60000}
}

// AnnealingStage is what the two terms do during a schedule's annealing stage: from the last
// step at which the learning rate is at its maximum (after warmup) to the end.
type AnnealingStage struct {
	Name string `json:"name"`
	// Start is the last step at the maximum learning rate; End the last step.
	Start int `json:"start"`
	End   int `json:"end"`
	// S1Drop is how much A*S1^-alpha falls over the stage; S2Drop is how much C*S2 grows
	// (both lower the loss); LossDrop = S1Drop + S2Drop.
	S1Drop   float64 `json:"s1Drop"`
	S2Drop   float64 `json:"s2Drop"`
	LossDrop float64 `json:"lossDrop"`
}

// DecompositionResult holds, per schedule, the thinned curve of the loss and its two terms,
// the annealing stage, and a table of the final values.
type DecompositionResult struct {
	Curves []LossCurve      `json:"curves"`
	Stages []AnnealingStage `json:"stages"`
	Final  []Outcome        `json:"final"`
	Table  Table            `json:"table"`
	Setup  Setup            `json:"setup"`
}

// PaperComparisonSchedules are the paper's cosine (to 0), WSD (20% cosine decay) and
// multi-step (80% + 10% + 10% at 1, 0.316, 0.1) schedules, total steps long.
func PaperComparisonSchedules(total int, peak float64, warmup int) []NamedSchedule {
	return []NamedSchedule{
		{"cosine", schedule.Schedule{Kind: schedule.KindCosine, Total: total, Peak: peak, Warmup: warmup}},
		{"WSD (20% cosine)", schedule.Schedule{Kind: schedule.KindWSD, Total: total, Peak: peak, Warmup: warmup, Decay: "cosine", DecayFraction: 0.2}},
		{"multi-step (80/10/10)", schedule.Schedule{Kind: schedule.KindMultistep, Total: total, Peak: peak, Warmup: warmup,
			Stages: []float64{0.8, 0.1, 0.1}, Levels: []float64{1, 0.316, 0.1}}},
	}
}

// Decompose computes the law's terms along each schedule.
func Decompose(ctx context.Context, o DecompositionOptions, progress func(float64)) (answer *DecompositionResult, err error) {
	w := newWork(ctx, progress)
	defer settle(w, &answer, &err)
	e, points, err := o.evaluator(w)
	if err != nil {
		return nil, err
	}
	scheds := o.Schedules
	if len(scheds) == 0 {
		if err := checkTotal("total", o.Total, o.Warmup); err != nil {
			return nil, err
		}
		scheds = PaperComparisonSchedules(o.Total, o.Peak, o.Warmup)
	}
	if len(scheds) > 50 {
		return nil, input.Errorf("", "schedules", "at most 50 schedules, got %d", len(scheds))
	}
	res := &DecompositionResult{Setup: o.Setup,
		Table: Table{Columns: []string{"schedule", "final loss", "S1", "S2", "A*S1^-alpha", "C*S2",
			"annealing from step", "S1-term drop while annealing", "S2-term drop while annealing"}}}
	total := 0.0
	w.plan(len(scheds))
	for i, ns := range scheds {
		s := ns.Schedule.WithDefaultWarmup(o.Warmup)
		name := ns.Name
		if name == "" {
			name = "schedule " + strconv.Itoa(i+1)
		}
		lr, warmup, err := e.expand(&s)
		if err != nil {
			return nil, input.Within("schedules["+strconv.Itoa(i)+"]", err)
		}
		if total += float64(len(lr)); total > MaxSteps {
			return nil, checkBudget("schedules", total)
		}
		start := annealingStart(lr, warmup)
		c, err := e.traceLR(name, lr, warmup, points, start)
		if err != nil {
			return nil, input.Within("schedules["+strconv.Itoa(i)+"]", err)
		}
		if !(c.Final.S1 > 0) {
			return nil, input.Errorf("schedules["+strconv.Itoa(i)+"]", "schedule", "the learning rate is zero throughout: the law has no value")
		}
		st := AnnealingStage{Name: name, Start: start, End: c.Final.Total}
		if k := stepIndex(c.Steps, start); k >= 0 {
			st.S1Drop = c.S1Term[k] - c.Final.S1Term
			st.S2Drop = c.Final.S2Term - c.S2Term[k]
			st.LossDrop = st.S1Drop + st.S2Drop
		}
		res.Curves = append(res.Curves, c)
		res.Stages = append(res.Stages, st)
		res.Final = append(res.Final, c.Final)
		res.Table.addRow(name, c.Final.Loss, c.Final.S1, c.Final.S2, c.Final.S1Term, c.Final.S2Term,
			float64(st.Start), st.S1Drop, st.S2Drop)
		w.stageDone()
	}
	return res, nil
}

// annealingStart is the last step at or after warmup whose learning rate is the largest of
// those steps.
func annealingStart(lr []float64, warmup int) int {
	if warmup >= len(lr) {
		warmup = 0
	}
	best := warmup
	for i := warmup; i < len(lr); i++ {
		if lr[i] >= lr[best] {
			best = i
		}
	}
	return best
}

// stepIndex returns the index of step in the increasing steps, or -1.
func stepIndex(steps []float64, step int) int {
	k := sort.SearchFloat64s(steps, float64(step))
	if k < len(steps) && steps[k] == float64(step) {
		return k
	}
	return -1
}
