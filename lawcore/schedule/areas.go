package schedule

import (
	"github.com/lawcalc/annealing/lawcore/input"
)

// Convention says how learning rates during warmup enter the areas S1 and S2.
type Convention string

const (
	// WarmupPeak counts every warmup step at the learning rate of the step where warmup ends,
	// as the paper does.
	WarmupPeak Convention = "peak"
	// WarmupActual counts the learning rates as they were run.
	WarmupActual Convention = "actual"
)

// ParseConvention accepts "peak", "actual" or "" (meaning def, a law's own default).
func ParseConvention(s string, def Convention) (Convention, error) {
	switch Convention(s) {
	case "":
		return def, nil
	case WarmupPeak, WarmupActual:
		return Convention(s), nil
	}
	return "", input.Errorf("", "warmupConvention", `must be "peak" or "actual", got %q`, s)
}

// CountWarmup applies the warmup convention to lr in place: under WarmupPeak the steps before
// warmup take the learning rate of step warmup. This is the one place where the convention
// is applied; everything that computes areas is given learning rates so counted. Not inlined:
// see the package doc on loops.
//
//go:noinline
func CountWarmup(lr []float64, warmup int, conv Convention) {
	if conv != WarmupPeak || warmup <= 0 || warmup >= len(lr) {
		return
	}
	for i := 0; i < warmup; i++ {
		lr[i] = lr[warmup]
	}
}

// CountedLR returns the learning rates as the areas count them (see CountWarmup): lr itself
// when the convention changes nothing, else a counted copy, so that lr keeps the schedule as
// run.
func CountedLR(lr []float64, warmup int, conv Convention) []float64 {
	if conv != WarmupPeak || warmup <= 0 || warmup >= len(lr) {
		return lr
	}
	out := append([]float64(nil), lr...)
	CountWarmup(out, warmup, conv)
	return out
}

// AreaWalker walks a schedule step by step and keeps the law's areas: the forward area
// S1 = sum eta_i, the annealing momentum m_i = lambda*m_{i-1} + (eta_{i-1} - eta_i) (m_0 = 0)
// and the annealing area S2 = sum m_i, with the derivatives of m and S2 in lambda. It is the
// law's recurrence, written once: every use of S1 and S2 (fits, predictions, the analyses'
// traces) goes through it, one Add per step from step 0, on learning rates counted by the
// warmup convention.
type AreaWalker struct {
	// Lambda is the decay factor of the momentum.
	Lambda float64
	// S1, S2 and DS2 (dS2/dlambda) are the areas up to the last step added; M and DM
	// (dm/dlambda) the momentum at that step.
	S1, S2, DS2, M, DM float64
	prev               float64
	started            bool
}

// NewAreaWalker starts a walk with decay factor lambda.
func NewAreaWalker(lambda float64) AreaWalker { return AreaWalker{Lambda: lambda} }

// Add takes the next step, whose learning rate is eta.
func (w *AreaWalker) Add(eta float64) {
	if w.started {
		// d m_i / d lambda = m_{i-1} + lambda * d m_{i-1} / d lambda
		w.DM = w.M + w.Lambda*w.DM
		w.M = w.Lambda*w.M + (w.prev - eta)
	}
	w.started = true
	w.prev = eta
	w.S1 += eta
	w.S2 += w.M
	w.DS2 += w.DM
}

// Areas holds the forward area S1, the annealing area S2 and the derivative of S2 in lambda,
// at every step 0..len-1 of one schedule.
type Areas struct {
	S1, S2, DS2 []float64
}

// ComputeAreas returns S1, S2 and dS2/dlambda at every step of lr (learning rates as counted,
// see CountedLR) for the decay factor lambda.
func ComputeAreas(lr []float64, lambda float64) (Areas, error) {
	if err := CheckLambda(lambda); err != nil {
		return Areas{}, err
	}
	n := len(lr)
	a := Areas{S1: make([]float64, n), S2: make([]float64, n), DS2: make([]float64, n)}
	w := NewAreaWalker(lambda)
	for i, eta := range lr {
		w.Add(eta)
		a.S1[i], a.S2[i], a.DS2[i] = w.S1, w.S2, w.DS2
	}
	return a, nil
}

// FinalAreas returns S1 and S2 at the last step of lr (as counted), storing nothing. Not
// inlined: see the package doc on loops.
//
//go:noinline
func FinalAreas(lr []float64, lambda float64) (s1, s2 float64) {
	w := NewAreaWalker(lambda)
	for _, eta := range lr {
		w.Add(eta)
	}
	return w.S1, w.S2
}

// CheckLambda reports a decay factor outside [0, 1).
func CheckLambda(lambda float64) error {
	if !(lambda >= 0 && lambda < 1) {
		return input.Errorf("", "lambda", "must be in [0, 1), got %v", lambda)
	}
	return nil
}
