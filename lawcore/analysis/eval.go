package lawcore

import "math"

// Outcome is the law at the last step of a schedule: the areas, the two terms and the loss,
// Loss = L0 + S1Term - S2Term.
type Outcome struct {
	// Total is the schedule's last step.
	Total int `json:"total"`
	// S1 and S2 are the forward and annealing areas at the last step.
	S1 float64 `json:"S1"`
	S2 float64 `json:"S2"`
	// S1Term is A*S1^-alpha; S2Term is C*S2 (the loss drop due to annealing).
	S1Term float64 `json:"s1Term"`
	S2Term float64 `json:"s2Term"`
	// Loss is the predicted final loss.
	Loss float64 `json:"loss"`
}

// outcome evaluates the law at areas s1, s2.
func outcome(p Params, total int, s1, s2 float64) Outcome {
	t1, t2 := p.Terms(s1, s2)
	return Outcome{Total: total, S1: s1, S2: s2, S1Term: t1, S2Term: t2, Loss: p.L0 + t1 - t2}
}

// FinalAreas returns S1 and S2 at the last step of lr in one pass, storing nothing: the areas
// of [FillAreas] at index len(lr)-1.
func FinalAreas(lr []float64, lambda float64, warmup int, conv Convention) (s1, s2 float64) {
	var m, prev float64
	for i, eta := range lr {
		if conv == WarmupPeak && i < warmup && warmup < len(lr) {
			eta = lr[warmup]
		}
		if i > 0 {
			m = lambda*m + (prev - eta)
		}
		prev = eta
		s1 += eta
		s2 += m
	}
	return s1, s2
}

// FinalLossGradient returns the law's loss at the last step of lr and writes into grad (at
// least len(lr) long) its derivative in each step's learning rate.
//
// With n = len(lr), S1 = sum_j eta_j, so dS1/deta_j = 1. Unrolling the momentum,
// S2 = sum_{k=1..n-1} (eta_{k-1} - eta_k) * w_k with w_k = (1 - lambda^(n-k)) / (1 - lambda),
// the weight of a drop at step k in every later m_i. Collecting the terms of each eta_j:
//
//	dS2/deta_0 = w_1 = sum_{i=0..n-2} lambda^i
//	dS2/deta_j = w_{j+1} - w_j = -lambda^(n-1-j)     (1 <= j <= n-1)
//
// so dL/deta_j = -alpha*A*S1^(-alpha-1) - C*dS2/deta_j. Under [WarmupPeak] the steps before
// warmup count at lr[warmup]: their derivatives are added to that step's and theirs are 0.
func FinalLossGradient(p Params, lr []float64, warmup int, conv Convention, grad []float64) float64 {
	n := len(lr)
	s1, s2 := FinalAreas(lr, p.Lambda, warmup, conv)
	d1 := -p.Alpha * p.A * math.Pow(s1, -p.Alpha-1)
	pow := 1.0 // lambda^(n-1-j)
	sum := 0.0 // sum_{i=0..n-2-j} lambda^i, which at j = 0 is dS2/deta_0
	for j := n - 1; j >= 1; j-- {
		grad[j] = d1 + p.C*pow
		sum += pow
		pow *= p.Lambda
	}
	if n > 0 {
		// sum now holds sum_{i=0..n-2} lambda^i: the weight w_1 of eta_0
		grad[0] = d1 - p.C*sum
	}
	if conv == WarmupPeak && warmup > 0 && warmup < n {
		acc := 0.0
		for j := 0; j <= warmup; j++ {
			acc += grad[j]
			grad[j] = 0
		}
		grad[warmup] = acc
	}
	return p.Loss(s1, s2)
}

// evaluator evaluates the law on many schedules, expanding each into one reused buffer.
type evaluator struct {
	p    Params
	conv Convention
	lr   []float64
}

// expand validates s and writes its learning rates into the buffer; it returns them and the
// schedule's warmup.
func (e *evaluator) expand(s *Schedule) ([]float64, int, error) {
	if err := s.Validate(); err != nil {
		return nil, 0, err
	}
	n := s.Length()
	if cap(e.lr) < n {
		e.lr = make([]float64, n)
	}
	lr := e.lr[:n]
	if !fastFill(s, lr) {
		s.fill(lr)
	}
	return lr, scheduleWarmup(s), nil
}

// scheduleWarmup is the warmup the areas' convention applies to: a concatenation's is its
// first segment's.
func scheduleWarmup(s *Schedule) int {
	if s.Kind == KindConcat && len(s.Segments) > 0 {
		return s.Segments[0].Warmup
	}
	return s.Warmup
}

// final returns the law at the last step of s.
func (e *evaluator) final(s Schedule) (Outcome, error) {
	lr, warmup, err := e.expand(&s)
	if err != nil {
		return Outcome{}, err
	}
	s1, s2 := FinalAreas(lr, e.p.Lambda, warmup, e.conv)
	return outcome(e.p, len(lr)-1, s1, s2), nil
}

// finalLoss is final's loss, +Inf on a schedule that does not validate (for optimisers).
func (e *evaluator) finalLoss(s Schedule) float64 {
	o, err := e.final(s)
	if err != nil || !(o.S1 > 0) {
		return math.Inf(1)
	}
	return o.Loss
}

// LossCurve is a predicted loss curve thinned for drawing: at each of Steps, the learning
// rate, the loss and its two terms (Loss = L0 + S1Term - S2Term). Final is the law at the
// last step.
type LossCurve struct {
	// Name labels the curve.
	Name string `json:"name"`
	// Steps are the kept steps; LR, Loss, S1Term and S2Term the values there.
	Steps  []float64 `json:"steps"`
	LR     []float64 `json:"lr"`
	Loss   []float64 `json:"loss"`
	S1Term []float64 `json:"s1Term"`
	S2Term []float64 `json:"s2Term"`
	// Final is the law at the last step (always computed at the exact last step).
	Final Outcome `json:"final"`
}

// trace expands s and evaluates the law along it in one pass, keeping about points steps
// (every stride-th, the last, and the given extra steps, which must be increasing).
func (e *evaluator) trace(name string, s Schedule, points int, extra ...int) (LossCurve, error) {
	lr, warmup, err := e.expand(&s)
	if err != nil {
		return LossCurve{}, err
	}
	return traceLR(name, e.p, lr, warmup, e.conv, points, extra...), nil
}

// strideFor is the stride that thins steps 0..last to about points.
func strideFor(last, points int) int {
	if points > 0 && last > points {
		return (last + points - 1) / points
	}
	return 1
}

// traceLR evaluates the law along lr in one pass (see evaluator.trace). Steps where nothing
// has been trained yet (S1 = 0) are left out.
func traceLR(name string, p Params, lr []float64, warmup int, conv Convention, points int, extra ...int) LossCurve {
	n := len(lr)
	last := n - 1
	stride := strideFor(last, points)
	c := LossCurve{Name: name}
	capacity := last/stride + 2 + len(extra)
	c.Steps, c.LR, c.Loss = make([]float64, 0, capacity), make([]float64, 0, capacity), make([]float64, 0, capacity)
	c.S1Term, c.S2Term = make([]float64, 0, capacity), make([]float64, 0, capacity)
	var s1, s2, m, prev float64
	k := 0
	for i, eta := range lr {
		if conv == WarmupPeak && i < warmup && warmup < n {
			eta = lr[warmup]
		}
		if i > 0 {
			m = p.Lambda*m + (prev - eta)
		}
		prev = eta
		s1 += eta
		s2 += m
		keep := i%stride == 0 || i == last
		for k < len(extra) && extra[k] <= i {
			keep = keep || extra[k] == i
			k++
		}
		if !keep || !(s1 > 0) {
			continue
		}
		t1, t2 := p.Terms(s1, s2)
		c.Steps = append(c.Steps, float64(i))
		c.LR = append(c.LR, lr[i])
		c.S1Term = append(c.S1Term, t1)
		c.S2Term = append(c.S2Term, t2)
		c.Loss = append(c.Loss, p.L0+t1-t2)
	}
	c.Final = outcome(p, last, s1, s2)
	return c
}
