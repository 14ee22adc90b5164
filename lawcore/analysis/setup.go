package lawcore

import (
	"math"
	"strconv"
)

// The paper's analyses (Sec. 5 "Takeaways", Sec. 6 "Comparison with Chinchilla", Sec. 7.1 on
// lambda) are functions of given parameters: each takes an options struct that embeds an
// [AnalysisSetup] and returns a JSON-serialisable result with its curves thinned to about
// Points values, a Table field holding a [Table] of the numbers, and a Setup field holding the
// setup used. They compute final losses in one O(n) pass per
// schedule into reused buffers, so that a sweep of a hundred 100K-step schedules takes a
// fraction of a second.

// Defaults of an analysis setup: the paper's Fig. 2 fit, peak LR and warmup.
const (
	// DefaultAnalysisPeak is the peak learning rate of the paper's runs.
	DefaultAnalysisPeak = 2e-4
	// DefaultAnalysisWarmup is the warmup of the paper's runs, in steps.
	DefaultAnalysisWarmup = 500
	// DefaultAnalysisPoints is how many points a drawn curve is thinned to.
	DefaultAnalysisPoints = 400
	// MaxAnalysisPoints bounds Points, so that an answer stays small.
	MaxAnalysisPoints = 20000
	// MaxAnalysisSteps bounds the steps one analysis may evaluate in all (a sweep of many
	// long schedules), so that a typo cannot freeze a page for minutes.
	MaxAnalysisSteps = 2_000_000_000
)

// Fig2Params are the parameters the paper fits to its Fig. 2 (constant and cosine, 20K steps,
// peak 2e-4, warmup 500 counted at peak, lambda 0.999).
func Fig2Params() Params {
	return Params{L0: 2.628, A: 0.430, Alpha: 0.550, C: 0.411, Lambda: 0.999}
}

// AnalysisSetup is what every analysis shares: the law's parameters and how the schedules it
// builds start.
type AnalysisSetup struct {
	// Params are the law's parameters; Params.Lambda is the decay factor the areas use.
	Params Params `json:"params"`
	// Peak is the peak learning rate of the schedules the analysis builds (raw units).
	Peak float64 `json:"peak"`
	// Warmup is the number of linear warmup steps (from 0) of every schedule built.
	Warmup int `json:"warmup"`
	// WarmupConvention is "peak" (the paper's; the default) or "actual".
	WarmupConvention string `json:"warmupConvention,omitempty"`
	// Points is about how many points each drawn curve keeps (default 400).
	Points int `json:"points,omitempty"`
}

// DefaultAnalysisSetup is the paper's setting: the Fig. 2 parameters, peak 2e-4, warmup 500
// counted at peak.
func DefaultAnalysisSetup() AnalysisSetup {
	return AnalysisSetup{Params: Fig2Params(), Peak: DefaultAnalysisPeak, Warmup: DefaultAnalysisWarmup,
		WarmupConvention: string(WarmupPeak), Points: DefaultAnalysisPoints}
}

// check validates the setup and returns its convention and the number of points to draw.
func (s AnalysisSetup) check() (Convention, int, error) {
	if err := s.Params.Validate(); err != nil {
		return "", 0, err
	}
	if !(s.Params.A > 0) || !(s.Params.Alpha > 0) {
		return "", 0, Errorf("params", "A", "A and alpha must be positive for an analysis, got A=%v alpha=%v", s.Params.A, s.Params.Alpha)
	}
	conv, err := ParseConvention(s.WarmupConvention)
	if err != nil {
		return "", 0, err
	}
	if err := checkPositive("peak", s.Peak); err != nil {
		return "", 0, err
	}
	if s.Warmup < 0 {
		return "", 0, Errorf("", "warmup", "must be zero or more steps, got %d", s.Warmup)
	}
	points := s.Points
	switch {
	case points == 0:
		points = DefaultAnalysisPoints
	case points < 2 || points > MaxAnalysisPoints:
		return "", 0, Errorf("", "points", "must be from 2 to %d, got %d", MaxAnalysisPoints, points)
	}
	return conv, points, nil
}

// checkPositive reports a field that is not a positive finite number.
func checkPositive(field string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return Errorf("", field, "must be a positive number, got %v", v)
	}
	return nil
}

// checkFraction reports a field outside [lo, hi] (or not finite).
func checkFraction(field string, v, lo, hi float64) error {
	if !(v >= lo && v <= hi) {
		return Errorf("", field, "must be from %g to %g, got %v", lo, hi, v)
	}
	return nil
}

// checkTotal reports a total number of steps that leaves no room after the warmup or is too
// long.
func checkTotal(field string, total, warmup int) error {
	if total <= warmup {
		return Errorf("", field, "must be more steps than the warmup (%d), got %d", warmup, total)
	}
	if total >= MaxScheduleSteps {
		return Errorf("", field, "%d is too large: a schedule runs at most %d steps (a total of at most %d)", total, MaxScheduleSteps, MaxScheduleSteps-1)
	}
	return nil
}

// checkBudget reports an analysis that would evaluate more than MaxAnalysisSteps steps.
func checkBudget(field string, steps float64) error {
	if steps > MaxAnalysisSteps {
		return Errorf("", field, "this asks for %.3g steps of schedules in all; the most is %.3g: use fewer or shorter schedules",
			steps, float64(MaxAnalysisSteps))
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

// linspace returns n evenly spaced values from a to b (a alone when n is 1).
func linspace(a, b float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		if n == 1 {
			out[i] = a
			continue
		}
		out[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	return out
}

// logspace returns n values from a to b evenly spaced in log (a, b > 0).
func logspace(a, b float64, n int) []float64 {
	out := linspace(math.Log(a), math.Log(b), n)
	for i := range out {
		out[i] = math.Exp(out[i])
	}
	return out
}

// checkList reports an empty or too long list, or a value outside [lo, hi].
func checkList(field string, v []float64, lo, hi float64, maxLen int) error {
	if len(v) == 0 {
		return Errorf("", field, "give at least one value")
	}
	if len(v) > maxLen {
		return Errorf("", field, "at most %d values, got %d", maxLen, len(v))
	}
	for i, x := range v {
		if !(x >= lo && x <= hi) {
			return Errorf("", field+"["+strconv.Itoa(i)+"]", "must be from %g to %g, got %v", lo, hi, x)
		}
	}
	return nil
}

// checkSteps reports an empty or too long list of step counts, or one outside [lo, hi].
func checkSteps(field string, v []int, lo, hi, maxLen int) error {
	if len(v) == 0 {
		return Errorf("", field, "give at least one value")
	}
	if len(v) > maxLen {
		return Errorf("", field, "at most %d values, got %d", maxLen, len(v))
	}
	for i, x := range v {
		if x < lo || x > hi {
			return Errorf("", field+"["+strconv.Itoa(i)+"]", "must be from %d to %d steps, got %d", lo, hi, x)
		}
	}
	return nil
}
