package lawcore

// Convention says how learning rates during warmup enter the areas S1 and S2.
type Convention string

const (
	// WarmupPeak counts every warmup step at the learning rate of the step where warmup ends,
	// as the paper does.
	WarmupPeak Convention = "peak"
	// WarmupActual counts the learning rates as they were run.
	WarmupActual Convention = "actual"
)

// ParseConvention accepts "peak", "actual" or "" (meaning peak, the paper's choice).
func ParseConvention(s string) (Convention, error) {
	switch Convention(s) {
	case "", WarmupPeak:
		return WarmupPeak, nil
	case WarmupActual:
		return WarmupActual, nil
	}
	return "", Errorf("", "warmupConvention", `must be "peak" or "actual", got %q`, s)
}

// Areas holds the forward area S1, the annealing area S2 and the derivative of S2 in lambda,
// at every step 0..len-1 of one schedule.
type Areas struct {
	S1, S2, DS2 []float64
}

// ComputeAreas returns S1 and S2 (and dS2/dlambda) of a per-step learning-rate list, for the
// decay factor lambda, with the first warmup steps counted by the convention.
func ComputeAreas(lr []float64, lambda float64, warmup int, conv Convention) (Areas, error) {
	if err := checkLambda(lambda); err != nil {
		return Areas{}, err
	}
	n := len(lr)
	a := Areas{S1: make([]float64, n), S2: make([]float64, n), DS2: make([]float64, n)}
	FillAreas(a.S1, a.S2, a.DS2, lr, lambda, warmup, conv)
	return a, nil
}

// FillAreas writes S1, S2 and dS2/dlambda of lr into the given slices (each at least len(lr)
// long; ds2 may be nil when the derivative is not wanted). It runs in one pass and allocates
// nothing. Under WarmupPeak, steps 0..warmup take the learning rate of step warmup.
func FillAreas(s1, s2, ds2, lr []float64, lambda float64, warmup int, conv Convention) {
	var sum1, sum2, dsum2, m, dm, prev float64
	for i, eta := range lr {
		if conv == WarmupPeak && i < warmup && warmup < len(lr) {
			eta = lr[warmup]
		}
		if i > 0 {
			// d m_i / d lambda = m_{i-1} + lambda * d m_{i-1} / d lambda
			dm = m + lambda*dm
			m = lambda*m + (prev - eta)
		}
		prev = eta
		sum1 += eta
		sum2 += m
		dsum2 += dm
		s1[i] = sum1
		s2[i] = sum2
		if ds2 != nil {
			ds2[i] = dsum2
		}
	}
}

func checkLambda(lambda float64) error {
	if !(lambda >= 0 && lambda < 1) {
		return Errorf("", "lambda", "must be in [0, 1), got %v", lambda)
	}
	return nil
}
