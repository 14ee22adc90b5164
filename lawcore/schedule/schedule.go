package schedule

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lawcalc/annealing/lawcore/input"
)

// MaxSteps bounds the length of one schedule, so that a typo cannot ask for more
// memory than a browser tab has (each step costs a few float64s).
const MaxSteps = 10_000_000

// MaxLR bounds a learning rate: far above any used in training (in raw units such as 3e-4),
// and low enough that the areas of MaxSteps steps stay finite. A larger one is a unit
// mistake, and would overflow the law's sums to infinity.
const MaxLR = 1000

// Schedule describes a learning-rate schedule over steps 0..Total. It is JSON-serialisable;
// which fields matter depends on Kind (docs/api.md#schedule-descriptions). Every kind starts
// with an optional linear warmup from WarmupFrom at step 0 to the schedule's own value at step
// Warmup.
type Schedule struct {
	// Kind is one of the Kind* constants.
	Kind string `json:"kind"`
	// Total is the last step; the schedule covers steps 0..Total. Derived for concat and explicit.
	Total int `json:"total,omitempty"`
	// Peak is the peak learning rate in raw units (such as 3e-4).
	Peak float64 `json:"peak,omitempty"`
	// Final is the learning rate reached at the end (the minimum, or base LR for cyclic).
	Final float64 `json:"final,omitempty"`
	// Warmup is the number of linear warmup steps. A schedule that does not give one
	// (WarmupGiven false and Warmup 0) takes the request's warmup setting.
	Warmup int `json:"warmup,omitempty"`
	// WarmupGiven says that Warmup is the schedule's own even when it is 0: a run without
	// warmup. JSON sets it when the description has "warmup" (see UnmarshalJSON).
	WarmupGiven bool `json:"-"`
	// WarmupFrom is the learning rate at step 0 when there is a warmup.
	WarmupFrom float64 `json:"warmupFrom,omitempty"`

	// Cycle is the step at which a cosine reaches Final (default Total).
	Cycle int `json:"cycle,omitempty"`
	// After says what a cosine does past its cycle: "hold" (default), "continue" or "restart".
	After string `json:"after,omitempty"`
	// Cycles is the number of cosine cycles with hard restarts over the steps after warmup, as
	// Hugging Face's get_cosine_with_hard_restarts_schedule_with_warmup(num_cycles): each cycle
	// falls from Peak towards Final, the next starts at Peak again, and the last step is Final.
	// 0 (default): no restarts (Cycle and After say what the cosine does). Not with Cycle or After.
	Cycles int `json:"cycles,omitempty"`

	// Decay is the shape of a WSD decay: cosine, linear, 1-sqrt, 1-square, exponential, half-life.
	Decay string `json:"decay,omitempty"`
	// DecayFraction is the fraction of Total spent decaying (WSD).
	DecayFraction float64 `json:"decayFraction,omitempty"`
	// DecaySteps is the number of decay steps (WSD); it wins over DecayFraction.
	DecaySteps int `json:"decaySteps,omitempty"`
	// HalfLife is the number of steps over which a half-life decay halves the LR.
	HalfLife float64 `json:"halfLife,omitempty"`

	// Stages are the fractions of the post-warmup run spent at each level (multistep).
	Stages []float64 `json:"stages,omitempty"`
	// Levels are the LR of each stage as a fraction of Peak (multistep).
	Levels []float64 `json:"levels,omitempty"`
	// Transition is the number of steps of cosine-shaped change between levels (multistep).
	Transition int `json:"transition,omitempty"`
	// Drop says at which step a stage's level begins (multistep): "after" (default) the stage
	// before ends on the boundary step and the new level begins at the next one; "at" the new
	// level begins on the boundary step itself, as PyTorch MultiStepLR's milestones.
	Drop string `json:"drop,omitempty"`

	// StepSize is the number of steps from the base LR to the peak (cyclic).
	StepSize int `json:"stepSize,omitempty"`
	// Mode is "triangular" (default) or "triangular2" (amplitude halves every cycle) (cyclic).
	Mode string `json:"mode,omitempty"`
	// Start is where a cyclic schedule begins (cyclic): "peak" (default) and down to Final
	// first, or "base": at Final and up to Peak first, as PyTorch CyclicLR.
	Start string `json:"start,omitempty"`

	// Timescale is the inverse-square-root timescale (default Warmup, or 10000 without warmup).
	Timescale float64 `json:"timescale,omitempty"`
	// Power is the exponent of a polynomial decay (default 1).
	Power float64 `json:"power,omitempty"`

	// PctStart is the fraction of the run spent rising (one-cycle, default 0.3).
	PctStart float64 `json:"pctStart,omitempty"`
	// DivFactor sets the initial LR to Peak/DivFactor (one-cycle, default 25).
	DivFactor float64 `json:"divFactor,omitempty"`
	// FinalDivFactor sets the final LR to the initial LR/FinalDivFactor (one-cycle, default 1e4).
	FinalDivFactor float64 `json:"finalDivFactor,omitempty"`
	// Anneal is the one-cycle annealing shape: "cos" (default) or "linear".
	Anneal string `json:"anneal,omitempty"`

	// Segments are schedules run one after another (concat).
	Segments []Schedule `json:"segments,omitempty"`

	// Steps are the steps of a sparse explicit schedule (explicit).
	Steps []float64 `json:"steps,omitempty" column:"scheduleSteps"`
	// Values are the explicit learning rates: one per step from 0, or one per entry of Steps.
	Values []float64 `json:"lr,omitempty" column:"scheduleLR"`
}

// Schedule kinds.
const (
	KindConstant    = "constant"
	KindLinear      = "linear"
	KindCosine      = "cosine"
	KindWSD         = "wsd"
	KindMultistep   = "multistep"
	KindCyclic      = "cyclic"
	KindInverseSqrt = "inverse-sqrt"
	KindPolynomial  = "polynomial"
	KindOneCycle    = "one-cycle"
	KindConcat      = "concat"
	KindExplicit    = "explicit"
)

// Kinds lists every schedule kind, in the order a schedule builder offers them.
var Kinds = []string{KindConstant, KindLinear, KindCosine, KindWSD, KindMultistep, KindCyclic,
	KindInverseSqrt, KindPolynomial, KindOneCycle, KindConcat, KindExplicit}

// DecayShapes are the shapes of a WSD decay.
var DecayShapes = []string{"cosine", "linear", "1-sqrt", "1-square", "exponential", "half-life"}

// Choices are the values of a schedule description's enumerated fields, by field (the
// default first).
var Choices = map[string][]string{
	"decay":  DecayShapes,
	"after":  {"hold", "continue", "restart"},
	"mode":   {"triangular", "triangular2"},
	"start":  {"peak", "base"},
	"drop":   {"after", "at"},
	"anneal": {"cos", "linear"},
}

// Decode parses a JSON schedule description, rejecting unknown fields, and validates it.
func Decode(data []byte) (Schedule, error) {
	var s Schedule
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Schedule{}, &input.Error{Where: "schedule", Msg: "not a valid schedule description: " + input.JSONProblem(err)}
	}
	if err := s.Validate(); err != nil {
		return Schedule{}, err
	}
	return s, nil
}

// LR expands the schedule to one learning rate per step, for steps 0..Total (so Total+1
// values), validating it first.
func (s Schedule) LR() ([]float64, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	lr := make([]float64, s.Length())
	s.fill(lr)
	return lr, nil
}

// FillLR is LR into a buffer: it validates the schedule and writes its learning rates into
// lr, which must hold Length() values. Sweeps over many schedules reuse one buffer this way.
func (s Schedule) FillLR(lr []float64) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if len(lr) != s.Length() {
		return input.Errorf("schedule", "", "a buffer of %d steps for a schedule of %d", len(lr), s.Length())
	}
	s.fill(lr)
	return nil
}

// WithDefaultWarmup returns the schedule with the request's warmup setting w, when it gives
// no warmup of its own. A one-cycle rises by its own rule (PctStart), and a concatenation's
// segments have their own warmups, so neither takes one.
func (s Schedule) WithDefaultWarmup(w int) Schedule {
	if s.Warmup == 0 && !s.WarmupGiven && s.Kind != KindConcat && s.Kind != KindOneCycle {
		s.Warmup = w
	}
	return s
}

// WarmupSteps is the warmup the warmup convention applies to: the schedule's own, or for a
// concatenation its first segment's.
func (s Schedule) WarmupSteps() int {
	if s.Kind == KindConcat && len(s.Segments) > 0 {
		return s.Segments[0].Warmup
	}
	return s.Warmup
}

// Length is the number of steps the schedule covers (its last step + 1). It assumes a valid
// schedule.
func (s Schedule) Length() int {
	switch s.Kind {
	case KindConcat:
		n := 1
		for _, seg := range s.Segments {
			n += seg.Length() - 1
		}
		return n
	case KindExplicit:
		return s.explicitTotal() + 1
	}
	return s.Total + 1
}

// LastStep is the last step the schedule covers.
func (s Schedule) LastStep() int { return s.Length() - 1 }

// PeakLR is the largest learning rate the schedule reaches (for display); it assumes a valid
// schedule.
func (s Schedule) PeakLR() float64 {
	switch s.Kind {
	case KindConcat:
		p := 0.0
		for _, seg := range s.Segments {
			p = math.Max(p, seg.PeakLR())
		}
		return p
	case KindExplicit:
		p := 0.0
		for _, v := range s.Values {
			p = math.Max(p, v)
		}
		return p
	}
	return s.Peak
}

func (s *Schedule) explicitTotal() int {
	if len(s.Steps) > 0 {
		last := int(s.Steps[len(s.Steps)-1])
		if s.Total > last {
			return s.Total
		}
		return last
	}
	if s.Total > len(s.Values)-1 {
		return s.Total
	}
	return len(s.Values) - 1
}

// Validate checks the description and returns an *input.Error naming the first bad field.
func (s Schedule) Validate() error {
	return s.ValidateAs("schedule")
}

// ValidateAs is Validate with the fields named under field instead of "schedule" ("" names
// them bare, as for a curve's own list of learning rates).
func (s Schedule) ValidateAs(field string) error {
	bad := func(name, format string, args ...any) error {
		return input.Errorf("", joinField(field, name), format, args...)
	}
	lrField := func(name string, v float64, positive bool) error {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return bad(name, "must be a finite number, got %v", v)
		}
		if v < 0 || (positive && v == 0) {
			return bad(name, "must be %s, got %g", map[bool]string{true: "positive", false: "zero or more"}[positive], v)
		}
		if v > MaxLR {
			return bad(name, "%g is not a learning rate (at most %d): give it in raw units, such as 3e-4", v, MaxLR)
		}
		return nil
	}
	known := false
	for _, k := range Kinds {
		known = known || k == s.Kind
	}
	if !known {
		if s.Kind == "" {
			return bad("kind", "missing; one of %s", strings.Join(Kinds, ", "))
		}
		return bad("kind", "unknown schedule kind %q; one of %s", s.Kind, strings.Join(Kinds, ", "))
	}
	if s.Warmup < 0 {
		return bad("warmup", "must be zero or more, got %d", s.Warmup)
	}
	if err := lrField("warmupFrom", s.WarmupFrom, false); err != nil {
		return err
	}
	switch s.Kind {
	case KindConcat:
		return s.validateConcat(field)
	case KindExplicit:
		return s.validateExplicit(field)
	}
	if s.Total <= 0 {
		return bad("total", "must be a positive number of steps, got %d", s.Total)
	}
	if s.Total >= MaxSteps {
		return bad("total", "%d is too large: a schedule covers steps 0..total, at most %d steps (total at most %d)", s.Total, MaxSteps, MaxSteps-1)
	}
	if s.Warmup > s.Total {
		return bad("warmup", "warmup (%d steps) is longer than the run (%d steps)", s.Warmup, s.Total)
	}
	if err := lrField("peak", s.Peak, true); err != nil {
		return err
	}
	if err := lrField("final", s.Final, false); err != nil {
		return err
	}
	switch s.Kind {
	case KindCosine:
		if err := s.validateCycles(bad); err != nil {
			return err
		}
		if c := s.cycle(); c <= s.Warmup {
			return bad("cycle", "the cosine cycle must end after the warmup (step %d), got %d", s.Warmup, c)
		}
		if s.After != "" && !slices.Contains(Choices["after"], s.After) {
			return bad("after", "must be hold, continue or restart, got %q", s.After)
		}
	case KindWSD:
		return s.validateWSD(bad)
	case KindMultistep:
		return s.validateMultistep(bad)
	case KindCyclic:
		if s.StepSize <= 0 {
			return bad("stepSize", "must be a positive number of steps, got %d", s.StepSize)
		}
		if s.Mode != "" && !slices.Contains(Choices["mode"], s.Mode) {
			return bad("mode", "must be triangular or triangular2, got %q", s.Mode)
		}
		if s.Start != "" && !slices.Contains(Choices["start"], s.Start) {
			return bad("start", "must be peak (down to final first) or base (up from final first, as PyTorch CyclicLR), got %q", s.Start)
		}
	case KindInverseSqrt:
		if s.Timescale < 0 || math.IsNaN(s.Timescale) || math.IsInf(s.Timescale, 0) {
			return bad("timescale", "must be a positive number of steps, got %v", s.Timescale)
		}
	case KindPolynomial:
		if s.Power < 0 || math.IsNaN(s.Power) || math.IsInf(s.Power, 0) {
			return bad("power", "must be a positive number, got %v", s.Power)
		}
	case KindOneCycle:
		pct, div, finalDiv := s.oneCycleDefaults()
		if !(pct > 0 && pct < 1) {
			return bad("pctStart", "must be between 0 and 1, got %v", pct)
		}
		if pct*float64(s.Total+1) < 2 || pct*float64(s.Total+1) > float64(s.Total) {
			return bad("pctStart", "leaves no room for one of the two phases over %d steps", s.Total)
		}
		if !(div > 0) || math.IsInf(div, 0) {
			return bad("divFactor", "must be positive, got %v", div)
		}
		if s.Peak/div > MaxLR {
			return bad("divFactor", "gives a first LR of %g (the peak divided by %g), more than %d: the first LR is the peak over divFactor, such as 25", s.Peak/div, div, MaxLR)
		}
		if !(finalDiv > 0) || math.IsInf(finalDiv, 0) {
			return bad("finalDivFactor", "must be positive, got %v", finalDiv)
		}
		if s.Anneal != "" && !slices.Contains(Choices["anneal"], s.Anneal) {
			return bad("anneal", "must be cos or linear, got %q", s.Anneal)
		}
	}
	return nil
}

// validateCycles checks a cosine's hard restarts (Cycles), which take the place of Cycle and
// After.
func (s Schedule) validateCycles(bad func(string, string, ...any) error) error {
	if s.Cycles < 0 {
		return bad("cycles", "must be a positive whole number of cycles (Hugging Face's num_cycles), got %d", s.Cycles)
	}
	if s.Cycles == 0 {
		return nil
	}
	if s.Cycle != 0 {
		return bad("cycles", "give cycles (that many restarts over the steps after warmup) or cycle (the step at which one cosine ends), not both")
	}
	if s.After != "" {
		return bad("after", "a cosine with cycles restarts after each of them: leave after out (it is for a cosine given a cycle)")
	}
	if span := s.Total - s.Warmup; s.Cycles > span {
		return bad("cycles", "%d cycles in the %d steps after warmup: a cycle needs at least one step", s.Cycles, span)
	}
	return nil
}

func (s Schedule) validateWSD(bad func(string, string, ...any) error) error {
	known := false
	for _, d := range DecayShapes {
		known = known || d == s.Decay
	}
	if s.Decay != "" && !known {
		return bad("decay", "unknown decay shape %q; one of %s", s.Decay, strings.Join(DecayShapes, ", "))
	}
	if s.DecaySteps < 0 {
		return bad("decaySteps", "must be zero or more, got %d", s.DecaySteps)
	}
	if s.DecaySteps == 0 && !(s.DecayFraction > 0 && s.DecayFraction <= 1) {
		return bad("decayFraction", "must be in (0, 1] (or give decaySteps), got %v", s.DecayFraction)
	}
	if s.DecaySteps > s.Total {
		return bad("decaySteps", "%d steps is longer than the run (%d steps)", s.DecaySteps, s.Total)
	}
	if d := s.decaySteps(); s.Total-d < s.Warmup {
		return bad("decaySteps", "the decay (%d steps) would start before the warmup (%d steps) ends", d, s.Warmup)
	}
	if s.Decay == "exponential" && s.Final <= 0 {
		return bad("final", "an exponential decay needs a positive final LR, got %g", s.Final)
	}
	if s.Decay == "half-life" && !(s.HalfLife > 0) {
		return bad("halfLife", "a half-life decay needs a positive halfLife in steps, got %v", s.HalfLife)
	}
	return nil
}

func (s Schedule) validateMultistep(bad func(string, string, ...any) error) error {
	if len(s.Stages) == 0 {
		return bad("stages", "give the fraction of the run spent in each stage, such as [0.8, 0.1, 0.1]")
	}
	if len(s.Levels) != len(s.Stages) {
		return bad("levels", "needs one level per stage (%d stages), got %d", len(s.Stages), len(s.Levels))
	}
	sum := 0.0
	for i, f := range s.Stages {
		if !(f > 0) || math.IsInf(f, 0) {
			return bad(fmt.Sprintf("stages[%d]", i), "must be a positive fraction, got %v", f)
		}
		sum += f
	}
	if math.Abs(sum-1) > 1e-6 {
		return bad("stages", "fractions must add up to 1, they add up to %v", sum)
	}
	for i, l := range s.Levels {
		if l < 0 || math.IsNaN(l) || math.IsInf(l, 0) {
			return bad(fmt.Sprintf("levels[%d]", i), "must be a fraction of the peak, zero or more, got %v", l)
		}
		if s.Peak*l > MaxLR {
			return bad(fmt.Sprintf("levels[%d]", i), "gives an LR of %g (the peak times %g), more than %d: a level is a fraction of the peak, such as 0.1", s.Peak*l, l, MaxLR)
		}
	}
	if s.Transition < 0 {
		return bad("transition", "must be zero or more steps, got %d", s.Transition)
	}
	if s.Drop != "" && !slices.Contains(Choices["drop"], s.Drop) {
		return bad("drop", "must be after (a new level begins the step after its boundary) or at (on the boundary step, as PyTorch MultiStepLR), got %q", s.Drop)
	}
	// a transition runs into the stage after its boundary: longer than that stage, the LR
	// would never reach the stage's level
	span := float64(s.Total - s.Warmup)
	for k := 1; k < len(s.Stages); k++ {
		// (a transition of one step is a plain change, whatever the stage's length)
		if steps := s.Stages[k] * span; float64(s.Transition) > math.Max(1, math.Round(steps)) {
			return bad("transition", "%d steps is longer than stage %d (%.0f steps): the LR would never reach its level", s.Transition, k+1, steps)
		}
	}
	return nil
}

func (s Schedule) validateConcat(field string) error {
	if len(s.Segments) == 0 {
		return input.Errorf("", joinField(field, "segments"), "a concatenation needs at least one segment")
	}
	n := 1
	for i, seg := range s.Segments {
		if err := seg.ValidateAs(joinField(field, fmt.Sprintf("segments[%d]", i))); err != nil {
			return err
		}
		n += seg.Length() - 1
		if n > MaxSteps {
			return input.Errorf("", joinField(field, "segments"), "more than %d steps in all", MaxSteps)
		}
	}
	return nil
}

func (s Schedule) validateExplicit(field string) error {
	if len(s.Values) == 0 {
		return input.Errorf("", joinField(field, "lr"), "an explicit schedule needs learning rates")
	}
	if len(s.Steps) > 0 && len(s.Steps) != len(s.Values) {
		return input.Errorf("", joinField(field, "steps"), "%d steps but %d learning rates", len(s.Steps), len(s.Values))
	}
	if s.Total < 0 {
		return input.Errorf("", joinField(field, "total"), "must be zero or more, got %d", s.Total)
	}
	sum := 0.0
	for i, v := range s.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return input.Errorf("", joinField(field, fmt.Sprintf("lr[%d]", i)), "a learning rate must be a finite number, zero or more, got %v", v)
		}
		if v > MaxLR {
			return input.Errorf("", joinField(field, fmt.Sprintf("lr[%d]", i)), "%g is not a learning rate (at most %d): give it in raw units, such as 3e-4", v, MaxLR)
		}
		sum += v
	}
	if sum == 0 {
		return input.Errorf("", joinField(field, "lr"), "every learning rate is zero: the law needs some training")
	}
	for i, st := range s.Steps {
		if st < 0 || st != math.Trunc(st) || st >= MaxSteps {
			return input.Errorf("", joinField(field, fmt.Sprintf("steps[%d]", i)), "must be a whole step from 0 to %d, got %v", MaxSteps-1, st)
		}
		if i > 0 && st <= s.Steps[i-1] {
			return input.Errorf("", joinField(field, fmt.Sprintf("steps[%d]", i)), "steps must increase, got %v after %v", st, s.Steps[i-1])
		}
	}
	if len(s.Values) >= MaxSteps || s.Total >= MaxSteps {
		return input.Errorf("", joinField(field, "lr"), "more than %d steps", MaxSteps)
	}
	if s.Warmup > s.explicitTotal() {
		return input.Errorf("", joinField(field, "warmup"), "warmup (%d steps) is longer than the run (%d steps)", s.Warmup, s.explicitTotal())
	}
	return nil
}

// joinField names a field inside another: "schedule" and "lr" give "schedule.lr"; at the top
// level (an empty outer name) the field is named alone.
func joinField(outer, field string) string {
	if outer == "" {
		return field
	}
	return outer + "." + field
}
