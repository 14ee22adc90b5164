package lawcore

import (
	"errors"
	"fmt"
	"math"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Roles of a curve in a fit.
const (
	// RoleFit marks a curve whose points enter the objective.
	RoleFit = "fit"
	// RoleValidate marks a curve that is only predicted and scored.
	RoleValidate = "validate"
)

// Curve is one observed loss curve and the schedule it was trained with: either Schedule, or
// LR, the learning rate of every step from step 0. Its large arrays may cross to JavaScript
// as typed arrays instead of JSON: the column tags name them (see the bridge).
type Curve struct {
	// Name identifies the curve in results and error messages.
	Name string `json:"name"`
	// Role is RoleFit (the default) or RoleValidate.
	Role string `json:"role,omitempty"`
	// Steps are the observed steps, whole numbers in increasing order.
	Steps []float64 `json:"steps" column:"steps"`
	// Loss is the observed loss at each step.
	Loss []float64 `json:"loss" column:"loss"`
	// Schedule describes the learning-rate schedule.
	Schedule *schedule.Schedule `json:"schedule,omitempty"`
	// LR is the learning rate of every step from 0, when no Schedule is given.
	LR []float64 `json:"lr,omitempty" column:"lr"`
	// Size is the model's number of non-embedding parameters N, for laws that take it (the
	// model-size law); 0 when not given.
	Size float64 `json:"size,omitempty"`
	// From is the first step of the curve's window (0: the whole curve): the points before it
	// are predicted but neither fitted nor scored. The first steps of a run, its warmup above
	// all, follow no scaling law and can drag a fit far from the rest.
	From float64 `json:"from,omitempty"`
}

// preparedCurve is a curve with its schedule expanded and its points checked, ready to have
// its areas computed.
type preparedCurve struct {
	name, role string
	lr         []float64
	warmup     int
	index      []int     // observed steps, as indices into lr
	loss       []float64 // observed loss
	size       float64
	first      int // the first point of the window: points before it are predicted only
	// unlogged is the first step of a logged (sparse explicit) schedule that starts after step
	// 0 with no warmup: its LR before that step is the first logged value held back, a guess.
	unlogged int
}

// window is the curve's points from the first of its window: their indices into lr and losses.
func (p *preparedCurve) window() (index []int, loss []float64) {
	return p.index[p.first:], p.loss[p.first:]
}

// CurveLabel names a curve in error messages.
func CurveLabel(i int, name string) string {
	if name == "" {
		return fmt.Sprintf("curve %d", i+1)
	}
	return fmt.Sprintf("curve %q", name)
}

// expandSchedule turns a curve's schedule or LR list into per-step learning rates, and says
// how many of the first steps are warmup. defaultWarmup is the request's warmupSteps.
func expandSchedule(where string, sched *schedule.Schedule, lr []float64, defaultWarmup int) ([]float64, int, error) {
	if defaultWarmup < 0 {
		return nil, 0, input.Errorf("", "warmupSteps", "must be zero or more, got %d", defaultWarmup)
	}
	switch {
	case sched != nil && len(lr) > 0:
		return nil, 0, input.Errorf(where, "lr", "give either a schedule or an lr list, not both")
	case sched != nil:
		s := sched.WithDefaultWarmup(defaultWarmup)
		defaulted := s.Warmup != sched.Warmup
		out, err := s.LR()
		if err != nil {
			if ie, ok := errors.AsType[*input.Error](err); defaulted && ok && (ie.Field == "warmup" || ie.Field == "schedule.warmup") {
				// The warmup is the request's default, not the schedule's own: name the setting.
				return nil, 0, input.Errorf(where, "warmupSteps", "%s (the warmup steps setting, for a schedule without its own warmup)", ie.Msg)
			}
			return nil, 0, input.Within(where, err)
		}
		return out, s.WarmupSteps(), nil
	case len(lr) > 0:
		s := schedule.Schedule{Kind: schedule.KindExplicit, Values: lr}
		if err := s.ValidateAs(""); err != nil {
			return nil, 0, input.Within(where, err)
		}
		if defaultWarmup >= len(lr) {
			return nil, 0, input.Errorf(where, "warmupSteps", "warmup (%d steps) is longer than the run (%d steps)", defaultWarmup, len(lr)-1)
		}
		return lr, defaultWarmup, nil
	}
	return nil, 0, input.Errorf(where, "schedule", "missing: give a schedule or an lr list (the LR of every step from 0)")
}

// prepare checks a curve and expands its schedule.
func (c Curve) prepare(i, defaultWarmup int) (*preparedCurve, error) {
	where := CurveLabel(i, c.Name)
	role := c.Role
	switch role {
	case "":
		role = RoleFit
	case RoleFit, RoleValidate:
	default:
		return nil, input.Errorf(where, "role", `must be "fit" or "validate", got %q`, c.Role)
	}
	if len(c.Steps) == 0 {
		return nil, input.Errorf(where, "steps", "the curve is empty: it needs at least one (step, loss) point")
	}
	if len(c.Loss) != len(c.Steps) {
		return nil, input.Errorf(where, "loss", "%d loss values for %d steps: the lengths differ", len(c.Loss), len(c.Steps))
	}
	lr, warmup, err := expandSchedule(where, c.Schedule, c.LR, defaultWarmup)
	if err != nil {
		return nil, err
	}
	p := &preparedCurve{name: c.Name, role: role, lr: lr, warmup: warmup,
		index: make([]int, len(c.Steps)), loss: c.Loss, size: c.Size}
	if s := c.Schedule; s != nil && s.Kind == schedule.KindExplicit && len(s.Steps) > 0 && s.Steps[0] > 0 && warmup == 0 {
		p.unlogged = int(s.Steps[0])
	}
	last := len(lr) - 1
	for k, st := range c.Steps {
		field := stepField(k)
		switch {
		case math.IsNaN(st) || math.IsInf(st, 0) || st != math.Trunc(st):
			return nil, input.Errorf(where, field.String(), "a step must be a whole number, got %v", st)
		case st < 1:
			return nil, input.Errorf(where, field.String(), "steps start at 1 (step 0 has had no training), got %v", st)
		case st > float64(last):
			return nil, input.Errorf(where, field.String(), "step %v is beyond the end of the schedule (step %d)", st, last)
		case k > 0 && st == c.Steps[k-1]:
			return nil, input.Errorf(where, field.String(), "step %v appears twice", st)
		case k > 0 && st < c.Steps[k-1]:
			return nil, input.Errorf(where, field.String(), "steps must be in increasing order: %v comes after %v", st, c.Steps[k-1])
		}
		p.index[k] = int(st)
		if l := c.Loss[k]; math.IsNaN(l) || math.IsInf(l, 0) || l <= 0 {
			return nil, input.Errorf(where, fmt.Sprintf("loss[%d]", k), "the loss at step %v must be a positive finite number, got %v", st, l)
		}
		if st < c.From {
			p.first = k + 1
		}
	}
	switch {
	case math.IsNaN(c.From) || c.From < 0:
		return nil, input.Errorf(where, "from", "the window's first step must be a step (0 or more), got %v", c.From)
	case p.first == len(c.Steps):
		return nil, input.Errorf(where, "from", "the window starts at step %v, after the curve's last point (step %v): no point is left", c.From, c.Steps[len(c.Steps)-1])
	}
	return p, nil
}

// run is the curve as a law sees it: its learning rates counted by the convention, at its
// observed steps. i numbers the curve in error messages, which name a step where nothing has
// been trained yet (the forward area is zero there, and the law has no value).
func (p *preparedCurve) run(i int, conv schedule.Convention) (Run, error) {
	lr := schedule.CountedLR(p.lr, p.warmup, conv)
	if err := checkTrained(CurveLabel(i, p.name), lr, p.index); err != nil {
		return Run{}, err
	}
	return Run{Name: p.name, LR: lr, Steps: p.index, Size: p.size}, nil
}

// checkTrained reports the first of steps (increasing) up to which every learning rate is
// zero.
func checkTrained(where string, lr []float64, steps []int) error {
	sum, next := 0.0, 0
	for k, st := range steps {
		for ; next <= st; next++ {
			sum += lr[next]
		}
		if !(sum > 0) {
			return input.Errorf(where, fmt.Sprintf("steps[%d]", k), "the learning rate is zero up to step %d, so the law has no value there", st)
		}
	}
	return nil
}

// stepField names the k-th step; a type whose String formats lazily keeps the loop over
// every observed point free of allocations.
type stepField int

func (k stepField) String() string { return fmt.Sprintf("steps[%d]", int(k)) }
