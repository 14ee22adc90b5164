package analysis

import (
	"fmt"
	"math"
	"strconv"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Defaults of an analysis setup: the paper's Fig. 2 fit, peak LR and warmup.
const (
	// DefaultPeak is the peak learning rate of the paper's runs.
	DefaultPeak = 2e-4
	// DefaultWarmup is the warmup of the paper's runs, in steps.
	DefaultWarmup = 500
	// DefaultPoints is how many points a drawn curve is thinned to.
	DefaultPoints = 400
	// MaxPoints bounds Points, so that an answer stays small.
	MaxPoints = 20000
	// MaxSteps bounds the steps one analysis may evaluate in all (a sweep of many
	// long schedules), so that a typo cannot freeze a page for minutes.
	MaxSteps = 2_000_000_000
)

// Fig2Params are the parameters the paper fits to its Fig. 2 (constant and cosine, 20K steps,
// peak 2e-4, warmup 500 counted at peak, lambda 0.999).
func Fig2Params() annealing.Params {
	return annealing.Params{L0: 2.628, A: 0.430, Alpha: 0.550, C: 0.411, Lambda: 0.999}
}

// Setup is what every analysis shares: the law and its parameters (or a weighted average of
// laws, Members), the uncertainty of its predictions (Replicates, Band), and how the schedules
// it builds start.
type Setup struct {
	// Law names the law (see lawcore.Lookup); empty is the annealing law.
	Law string `json:"law,omitempty"`
	// Params are the law's parameters by name (the annealing law's lambda is the decay
	// factor its areas use).
	Params lawcore.Values `json:"params"`
	// Peak is the peak learning rate of the schedules the analysis builds (raw units).
	Peak float64 `json:"peak"`
	// Warmup is the number of linear warmup steps (from 0) of every schedule built.
	Warmup int `json:"warmup"`
	// WarmupConvention is "peak" (the paper's; the default) or "actual".
	WarmupConvention string `json:"warmupConvention,omitempty"`
	// Points is about how many points each drawn curve keeps (default 400).
	Points int `json:"points,omitempty"`
	// Replicates, when given, are parameter sets the fit's uncertainty allows (a fit's
	// Replicates); the analyses that compare choices then say which they cannot tell apart
	// (see uncertainty.go). With Members they are the heaviest member's, the others held at
	// their parameters. A Band with replicates takes their place.
	Replicates []lawcore.Values `json:"replicates,omitempty"`
	// Members, when given (an auto fit's), make every analysis evaluate their weighted average
	// instead of Law and Params, as lawcore.Predict does: each member with its own law,
	// parameters and warmup convention (its law's own when it gives none; WarmupConvention is
	// Law's), the weights scaled to sum to one. The analyses of the annealing law's own
	// structure (lambda, the reduction to Chinchilla) take the heaviest member alone, and say
	// so in their note.
	Members []lawcore.Member `json:"members,omitempty"`
	// Band, when given (a fit's, lawcore.FitResult.Band), is the band of what the setup
	// predicts. With its Replicates (one per member, in their order; one for Law) the analyses
	// that compare choices take them in place of Replicates, and give a final loss's half-width
	// as the band's at its last step (see uncertainty.go); without, it is not used.
	Band *lawcore.Band `json:"band,omitempty"`
}

// DefaultSetup is the paper's setting: the annealing law with the Fig. 2 parameters, peak
// 2e-4, warmup 500 counted at peak.
func DefaultSetup() Setup {
	return Setup{Law: annealing.Name, Params: Fig2Params().Values(), Peak: DefaultPeak, Warmup: DefaultWarmup,
		WarmupConvention: string(schedule.WarmupPeak), Points: DefaultPoints}
}

// evaluator validates the setup and returns the evaluator of its law and parameters (or of
// its members' average) for the call w, and the number of points to draw.
func (s Setup) evaluator(w *work) (*evaluator, int, error) {
	members, err := s.members()
	if err != nil {
		return nil, 0, err
	}
	if err := checkPositive("peak", s.Peak); err != nil {
		return nil, 0, err
	}
	if s.Peak > schedule.MaxLR {
		return nil, 0, input.Errorf("", "peak", "%g is not a learning rate (at most %d): give it in raw units, such as 3e-4", s.Peak, schedule.MaxLR)
	}
	if s.Warmup < 0 {
		return nil, 0, input.Errorf("", "warmup", "must be zero or more steps, got %d", s.Warmup)
	}
	points := s.Points
	switch {
	case points == 0:
		points = DefaultPoints
	case points < 2 || points > MaxPoints:
		return nil, 0, input.Errorf("", "points", "must be from 2 to %d, got %d", MaxPoints, points)
	}
	return newEvaluator(members, w), points, nil
}

// members are the laws the setup predicts with: its members, their weights scaled to sum to
// one (a bad one is an error naming it, "members[1] (multi-power)"), or else its law alone,
// of weight 1.
func (s Setup) members() ([]member, error) {
	if len(s.Members) == 0 {
		law, theta, err := bindParams(s.Law, s.Params)
		if err != nil {
			return nil, err
		}
		conv, err := schedule.ParseConvention(s.WarmupConvention, law.Spec().Convention)
		if err != nil {
			return nil, err
		}
		return []member{{law: law, theta: theta, conv: conv, weight: 1}}, nil
	}
	sum := 0.0
	for i, m := range s.Members {
		if !(m.Weight >= 0) || math.IsInf(m.Weight, 0) {
			return nil, input.Errorf(memberWhere(i, m.Law), "weight", "must be a number of 0 or more, got %g", m.Weight)
		}
		sum += m.Weight
	}
	if !(sum > 0) {
		return nil, input.Errorf("", "members", "the weights sum to %g: at least one must be positive", sum)
	}
	out := make([]member, len(s.Members))
	for i, m := range s.Members {
		where := memberWhere(i, m.Law)
		law, theta, err := bindParams(m.Law, m.Params)
		if err != nil {
			return nil, input.Within(where, err)
		}
		conv, err := schedule.ParseConvention(string(m.Convention), law.Spec().Convention)
		if err != nil {
			return nil, input.Within(where, err)
		}
		out[i] = member{law: law, theta: theta, conv: conv, weight: m.Weight / sum, where: where}
	}
	return out, nil
}

// memberWhere names member i of law in messages: "members[1] (multi-power)".
func memberWhere(i int, law string) string {
	if law == "" {
		return fmt.Sprintf("members[%d]", i)
	}
	return fmt.Sprintf("members[%d] (%s)", i, law)
}

// bindParams looks the law up and returns it with its parameter vector, checking that the
// parameters an analysis divides by or raises to a power (A, alpha) are positive.
func bindParams(name string, params lawcore.Values) (lawcore.Law, []float64, error) {
	law, err := lawcore.Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	theta, err := bindTheta(law, params)
	return law, theta, err
}

// bindTheta is the law's parameter vector of params, A and alpha positive.
func bindTheta(law lawcore.Law, params lawcore.Values) ([]float64, error) {
	spec := law.Spec()
	theta, err := spec.Theta(params)
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"A", "alpha"} {
		if i := spec.Index(name); i >= 0 && !(theta[i] > 0) {
			return nil, input.Errorf("params", name, "A and alpha must be positive for an analysis, got %s=%v", name, theta[i])
		}
	}
	return theta, nil
}

// annealing returns the evaluator of a setup that must be of the annealing law (an analysis
// of its lambda, or of its closed-form gradient), and the typed parameters. Of an average it
// takes the heaviest member alone, which must be the annealing law, and note says so for the
// answer ("" for a single law).
func (s Setup) annealing(analysis string, w *work) (e *evaluator, p annealing.Params, points int, note string, err error) {
	e, points, err = s.evaluator(w)
	if err != nil {
		return nil, annealing.Params{}, 0, "", err
	}
	if e.members != nil {
		h := heaviest(e.members)
		m := e.members[h]
		if m.law.Spec().Name != annealing.Name {
			return nil, annealing.Params{}, 0, "", input.Errorf("", fmt.Sprintf("members[%d]", h),
				"the %s analysis needs the annealing law, and of an average it takes the heaviest member alone: that is the %s (weight %.3g)", analysis, m.law.Spec().Title, m.weight)
		}
		e = newEvaluator([]member{m}, w)
		note = fmt.Sprintf("The %s analysis is of the annealing law alone: it used the heaviest member of the average (members[%d], weight %.3g, warmup counted %s), not the average the other analyses use.",
			analysis, h, m.weight, conventionWords(m.conv))
	}
	p, ok := e.annealing()
	if !ok {
		return nil, annealing.Params{}, 0, "", input.Errorf("", "law", "the %s analysis is of the annealing law; got the %s", analysis, e.law.Spec().Title)
	}
	return e, p, points, note, nil
}

// conventionWords says how a warmup convention counts the warmup.
func conventionWords(c schedule.Convention) string {
	if c == schedule.WarmupActual {
		return "as run"
	}
	return "at the peak"
}

// checkPositive reports a field that is not a positive finite number.
func checkPositive(field string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return input.Errorf("", field, "must be a positive number, got %v", v)
	}
	return nil
}

// checkFraction reports a field outside [lo, hi] (or not finite).
func checkFraction(field string, v, lo, hi float64) error {
	if !(v >= lo && v <= hi) {
		return input.Errorf("", field, "must be from %g to %g, got %v", lo, hi, v)
	}
	return nil
}

// checkTotal reports a total number of steps that leaves no room after the warmup or is too
// long.
func checkTotal(field string, total, warmup int) error {
	if total <= warmup {
		return input.Errorf("", field, "must be more steps than the warmup (%d), got %d", warmup, total)
	}
	if total >= schedule.MaxSteps {
		return input.Errorf("", field, "%d is too large: a schedule runs at most %d steps (a total of at most %d)", total, schedule.MaxSteps, schedule.MaxSteps-1)
	}
	return nil
}

// checkBudget reports an analysis that would evaluate more than MaxSteps steps.
func checkBudget(field string, steps float64) error {
	if steps > MaxSteps {
		return input.Errorf("", field, "this asks for %.3g steps of schedules in all; the most is %.3g: use fewer or shorter schedules",
			steps, float64(MaxSteps))
	}
	return nil
}

// Series is one named curve of an analysis: Y against X.
type Series struct {
	// Name labels the curve in a legend.
	Name string `json:"name"`
	// X and Y are the curve's points, of equal length.
	X []float64 `json:"x"`
	Y []float64 `json:"y"`
}

// Table is an analysis's numbers: column names and rows of values (numbers, strings, or null
// where a value does not exist).
type Table struct {
	// Columns names the columns.
	Columns []string `json:"columns"`
	// Rows has one entry per row, one value per column.
	Rows [][]any `json:"rows"`
}

// addRow appends a row, turning NaN and infinite numbers into null (JSON has no NaN).
func (t *Table) addRow(values ...any) {
	for i, v := range values {
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			values[i] = nil
		}
	}
	t.Rows = append(t.Rows, values)
}

// finiteOrNil returns a pointer to v, or nil when v is not finite (for JSON).
func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// checkRatios reports cooldown ratios (decay steps / total) that give a run of total steps no
// decay step, or more decay steps than its warmup leaves, saying both bounds in steps.
func checkRatios(field string, ratios []float64, total, warmup, maxLen int) error {
	lo, hi := 1/float64(total), float64(total-warmup)/float64(total)
	if err := checkList(field, ratios, math.Inf(-1), math.Inf(1), maxLen); err != nil {
		return err
	}
	for i, r := range ratios {
		where := field + "[" + strconv.Itoa(i) + "]"
		if !(r >= lo) {
			return input.Errorf("", where, "%v is no decay step in a run of %d steps: at least %.4g (1 step)", r, total, lo)
		}
		if r > hi {
			return input.Errorf("", where, "%v is %.0f decay steps, more than the %d a run of %d steps has after its warmup of %d: at most %.4g", r, r*float64(total), total-warmup, total, warmup, hi)
		}
	}
	return nil
}

// checkList reports an empty or too long list, or a value outside [lo, hi].
func checkList(field string, v []float64, lo, hi float64, maxLen int) error {
	if len(v) == 0 {
		return input.Errorf("", field, "give at least one value")
	}
	if len(v) > maxLen {
		return input.Errorf("", field, "at most %d values, got %d", maxLen, len(v))
	}
	for i, x := range v {
		if !(x >= lo && x <= hi) {
			return input.Errorf("", field+"["+strconv.Itoa(i)+"]", "must be from %g to %g, got %v", lo, hi, x)
		}
	}
	return nil
}

// checkSteps reports an empty or too long list of step counts, or one outside [lo, hi].
func checkSteps(field string, v []int, lo, hi, maxLen int) error {
	if len(v) == 0 {
		return input.Errorf("", field, "give at least one value")
	}
	if len(v) > maxLen {
		return input.Errorf("", field, "at most %d values, got %d", maxLen, len(v))
	}
	for i, x := range v {
		if x < lo || x > hi {
			return input.Errorf("", field+"["+strconv.Itoa(i)+"]", "must be from %d to %d steps, got %d", lo, hi, x)
		}
	}
	return nil
}
