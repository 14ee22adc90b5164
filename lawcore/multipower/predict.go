package lawcore

import "fmt"

// MultiPowerPrediction is a loss curve of the Multi-Power Law, with its two terms apart:
// Loss = L0 + S1Term - LDTerm at every step of Steps.
type MultiPowerPrediction struct {
	// Name is the curve's name (FitLinesMultiPower).
	Name string `json:"name,omitempty"`
	// Steps are the predicted steps.
	Steps []int `json:"steps"`
	// LR is the learning rate at each step, as the law counts it (FitLinesMultiPower).
	LR []float64 `json:"lr,omitempty"`
	// Loss is the predicted loss at each step.
	Loss []float64 `json:"loss"`
	// S1Term is A*(S1+S_W)^(-alpha) at each step.
	S1Term []float64 `json:"s1Term"`
	// LDTerm is the loss drop LD at each step.
	LDTerm []float64 `json:"ldTerm"`
}

// PredictMultiPower evaluates the Multi-Power Law with parameters p for the learning rates lr
// (one per step from 0, as run: the warmup is part of the schedule) at the given steps,
// whole and increasing in 1..len(lr)-1; with no steps, at every step from 1 where something
// has been trained (a dense curve). The loss drop is grouped to MultiPowerTolerance. Cost:
// O(len(lr)) to prepare, then a few dozen grouped terms per step for smooth schedules.
func PredictMultiPower(p MultiPowerParams, lr []float64, steps []int) (*MultiPowerPrediction, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := mpowCheckLR(lr); err != nil {
		return nil, err
	}
	s := newMpowSeries(lr, 0, WarmupActual)
	last := len(lr) - 1
	if len(steps) == 0 {
		for t := 1; t <= last; t++ {
			if s.prefix[t] > 0 {
				steps = append(steps, t)
			}
		}
	}
	for k, t := range steps {
		switch {
		case t < 1 || t > last:
			return nil, Errorf("", fmt.Sprintf("steps[%d]", k), "step %d is outside the schedule's steps 1..%d", t, last)
		case k > 0 && t <= steps[k-1]:
			return nil, Errorf("", fmt.Sprintf("steps[%d]", k), "steps must increase: %d comes after %d", t, steps[k-1])
		case !(s.prefix[t] > 0):
			return nil, Errorf("", fmt.Sprintf("steps[%d]", k), "the learning rate is zero up to step %d, so the law has no value there", t)
		}
	}
	out := &MultiPowerPrediction{Steps: steps, Loss: make([]float64, len(steps))}
	out.S1Term, out.LDTerm = mpowTerms(p, s, steps, MultiPowerTolerance, &mpowFrozen{})
	for k := range steps {
		out.Loss[k] = p.L0 + out.S1Term[k] - out.LDTerm[k]
	}
	return out, nil
}

// mpowChunk is how many steps share one grouping pass in mpowTerms (bounding its memory).
const mpowChunk = 2048

// mpowTerms returns A*(S1+S_W)^(-alpha) and LD at the given steps of a prepared schedule (each
// with S1 + S_W > 0), the loss drop grouped to tol, in f's memory: the steps are taken in
// chunks whose shared groups are evaluated once (see mpowFrozen).
func mpowTerms(p MultiPowerParams, s *mpowSeries, steps []int, tol float64, f *mpowFrozen) (s1Term, ld []float64) {
	sh := newMpowShape(p.C, p.Beta, p.Gamma, tol)
	s1Term, ld = make([]float64, len(steps)), make([]float64, len(steps))
	at := make([]mpowStep, 0, min(len(steps), mpowChunk))
	drops := make([]mpowDrop, min(len(steps), mpowChunk))
	for from := 0; from < len(steps); from += mpowChunk {
		chunk := steps[from:min(from+mpowChunk, len(steps))]
		if p.B != 0 {
			at = at[:0]
			for _, t := range chunk {
				at = append(at, mpowStep{t: t})
			}
			f.group([]*mpowSeries{s}, at, sh)
			f.eval(sh, drops[:len(chunk)], false)
		}
		for k, t := range chunk {
			s1Term[from+k] = mpowS1Term(p, s.prefix[t])
			ld[from+k] = p.B * drops[k].ld
		}
	}
	return s1Term, ld
}

// mpowPredictCurve is the loss at the given steps of one prepared schedule (see mpowTerms).
func mpowPredictCurve(p MultiPowerParams, s *mpowSeries, steps []int, tol float64, f *mpowFrozen) []float64 {
	s1Term, ld := mpowTerms(p, s, steps, tol, f)
	pred := make([]float64, len(steps))
	for k := range steps {
		pred[k] = p.L0 + s1Term[k] - ld[k]
	}
	return pred
}

// FitLinesMultiPower predicts every curve of a fit request with the Multi-Power parameters p,
// at every step (or about req.Points evenly spaced steps, the last included): the lines a
// page draws through the observed points. Schedules, warmupSteps and warmupConvention are
// read as FitMultiPower reads them; steps where nothing has been trained are left out. Each
// curve costs O(its steps) to prepare and tens of grouped terms per predicted step: thin
// long curves (a 72,000-step curve takes about a second natively at every step).
func FitLinesMultiPower(req FitRequest, p MultiPowerParams) ([]MultiPowerPrediction, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	conv := WarmupActual
	if req.WarmupConvention != "" {
		var err error
		if conv, err = ParseConvention(req.WarmupConvention); err != nil {
			return nil, err
		}
	}
	if req.Points < 0 {
		return nil, Errorf("", "points", "must be zero or more, got %d", req.Points)
	}
	out := make([]MultiPowerPrediction, len(req.Curves))
	f := &mpowFrozen{}
	for i, c := range req.Curves {
		where := curveLabel(i, c.Name)
		lr, warmup, err := expandSchedule(where, c.Schedule, c.LR, req.WarmupSteps)
		if err != nil {
			return nil, err
		}
		s := newMpowSeries(lr, warmup, conv)
		all, err := predictSteps(where, nil, len(lr)-1, req.Points)
		if err != nil {
			return nil, err
		}
		pr := MultiPowerPrediction{Name: c.Name, Steps: s.trainedSteps(all)}
		pr.LR = make([]float64, len(pr.Steps))
		for k, t := range pr.Steps {
			pr.LR[k] = s.eta[t]
		}
		pr.S1Term, pr.LDTerm = mpowTerms(p, s, pr.Steps, MultiPowerTolerance, f)
		pr.Loss = make([]float64, len(pr.Steps))
		for k := range pr.Steps {
			pr.Loss[k] = p.L0 + pr.S1Term[k] - pr.LDTerm[k]
		}
		out[i] = pr
	}
	return out, nil
}

// trainedSteps keeps the steps from 1 where something has been trained (S1 > 0): the law
// has no value before.
func (s *mpowSeries) trainedSteps(steps []int) []int {
	out := make([]int, 0, len(steps))
	for _, t := range steps {
		if t >= 1 && s.prefix[t] > 0 {
			out = append(out, t)
		}
	}
	return out
}

// predictOneMultiPower is Predict's curve under the Multi-Power Law: the law at the trained
// steps among steps, and its final loss at the schedule's last step.
func predictOneMultiPower(name string, p MultiPowerParams, lr []float64, warmup int, conv Convention, steps []int, f *mpowFrozen) Prediction {
	s := newMpowSeries(lr, warmup, conv)
	last := len(lr) - 1
	at := s.trainedSteps(steps)
	withLast := at
	if n := len(at); s.prefix[last] > 0 && (n == 0 || at[n-1] != last) {
		withLast = append(at[:n:n], last)
	}
	s1Term, ld := mpowTerms(p, s, withLast, MultiPowerTolerance, f)
	pr := Prediction{Name: name, Total: last, FinalS1: s.prefix[last]}
	if n := len(withLast); n > 0 && withLast[n-1] == last {
		pr.FinalLoss = p.L0 + s1Term[n-1] - ld[n-1]
	}
	m := len(at)
	pr.Steps, pr.LR, pr.Loss = make([]float64, m), make([]float64, m), make([]float64, m)
	pr.S1Term, pr.S2Term = s1Term[:m], ld[:m]
	for k, t := range at {
		pr.Steps[k] = float64(t)
		pr.LR[k] = lr[t]
		pr.Loss[k] = p.L0 + s1Term[k] - ld[k]
	}
	return pr
}
