package analysis

import (
	"math"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Outcome is a law at the last step of a schedule: the areas, the law's two terms and the
// loss, Loss = constant + S1Term - S2Term.
type Outcome struct {
	// Total is the schedule's last step.
	Total int `json:"total"`
	// S1 and S2 are the forward and annealing areas at the last step (S2 is 0 for a law
	// without an annealing momentum).
	S1 float64 `json:"S1"`
	S2 float64 `json:"S2"`
	// S1Term and S2Term are the law's two terms (for the annealing law A*S1^-alpha and C*S2,
	// the loss drop due to annealing).
	S1Term float64 `json:"s1Term"`
	S2Term float64 `json:"s2Term"`
	// Loss is the predicted final loss.
	Loss float64 `json:"loss"`
}

// LossCurve is a predicted loss curve thinned for drawing: at each of Steps, the learning
// rate, the loss and its two terms (Loss = constant + S1Term - S2Term). Final is the law at
// the last step.
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

// evaluator evaluates one law with given parameters on many schedules, expanding each into
// reused buffers.
type evaluator struct {
	law     lawcore.Law
	theta   []float64
	conv    schedule.Convention
	lr      []float64 // the schedule as run
	counted []float64 // as the warmup convention counts it
	w       *work     // the call it evaluates for
}

// expand validates s and writes its learning rates (as run) into the buffer; it returns them
// and the schedule's warmup.
func (e *evaluator) expand(s *schedule.Schedule) ([]float64, int, error) {
	if err := s.Validate(); err != nil {
		return nil, 0, err
	}
	n := s.Length()
	if cap(e.lr) < n {
		e.lr, e.counted = make([]float64, n), make([]float64, n)
	}
	lr := e.lr[:n]
	if err := s.FillLR(lr); err != nil {
		return nil, 0, err
	}
	return lr, s.WarmupSteps(), nil
}

// run is lr (as run) counted by the convention, evaluated at steps.
func (e *evaluator) run(name string, lr []float64, warmup int, steps []int) lawcore.Run {
	counted := lr
	if e.conv == schedule.WarmupPeak && warmup > 0 && warmup < len(lr) {
		counted = e.counted[:len(lr)]
		copy(counted, lr)
		schedule.CountWarmup(counted, warmup, e.conv)
	}
	return lawcore.Run{Name: name, LR: counted, Steps: steps}
}

// outcome is the law at the last step of a prediction.
func outcome(pr *lawcore.Prediction) Outcome {
	o := Outcome{Total: pr.Total, S1: pr.FinalS1, S2: pr.FinalS2, Loss: pr.FinalLoss}
	if n := len(pr.Steps); n > 0 && pr.Steps[n-1] == float64(pr.Total) {
		o.S1Term, o.S2Term = pr.S1Term[n-1], pr.S2Term[n-1]
	}
	return o
}

// final returns the law at the last step of s.
func (e *evaluator) final(s schedule.Schedule) (Outcome, error) {
	if err := e.w.check(); err != nil {
		return Outcome{}, err
	}
	lr, warmup, err := e.expand(&s)
	if err != nil {
		return Outcome{}, err
	}
	last := len(lr) - 1
	pr, err := lawcore.PredictRun(e.law, e.theta, e.run("", lr, warmup, []int{last}), lr)
	if err != nil {
		return Outcome{}, err
	}
	return outcome(&pr), nil
}

// finalLoss is final's loss, +Inf on a schedule that does not validate (for optimisers).
func (e *evaluator) finalLoss(s schedule.Schedule) float64 {
	o, err := e.final(s)
	if err != nil || !(o.S1 > 0) {
		return math.Inf(1)
	}
	return o.Loss
}

// trace expands s and evaluates the law along it, keeping about points steps (every
// stride-th, the last, and the given extra steps).
func (e *evaluator) trace(name string, s schedule.Schedule, points int, extra ...int) (LossCurve, error) {
	lr, warmup, err := e.expand(&s)
	if err != nil {
		return LossCurve{}, err
	}
	return e.traceLR(name, lr, warmup, points, extra...)
}

// strideFor is the stride that thins steps 0..last to about points.
func strideFor(last, points int) int {
	if points > 0 && last > points {
		return (last + points - 1) / points
	}
	return 1
}

// traceLR evaluates the law along lr (as run) at about points steps and the extra steps
// (increasing). Steps where nothing has been trained yet (S1 = 0) are left out.
func (e *evaluator) traceLR(name string, lr []float64, warmup, points int, extra ...int) (LossCurve, error) {
	if err := e.w.check(); err != nil {
		return LossCurve{}, err
	}
	last := len(lr) - 1
	stride := strideFor(last, points)
	steps := make([]int, 0, last/stride+2+len(extra))
	k := 0
	for i := 1; i <= last; i++ {
		keep := i%stride == 0 || i == last
		for k < len(extra) && extra[k] <= i {
			keep = keep || extra[k] == i
			k++
		}
		if keep {
			steps = append(steps, i)
		}
	}
	pr, err := lawcore.PredictRun(e.law, e.theta, e.run(name, lr, warmup, steps), lr)
	if err != nil {
		return LossCurve{}, err
	}
	return LossCurve{Name: name, Steps: pr.Steps, LR: pr.LR, Loss: pr.Loss, S1Term: pr.S1Term, S2Term: pr.S2Term, Final: outcome(&pr)}, nil
}

// dense is the law's loss at every step of lr (as run): dense[i] for step i, NaN where
// nothing has been trained yet.
func (e *evaluator) dense(lr []float64, warmup int) ([]float64, error) {
	if err := e.w.check(); err != nil {
		return nil, err
	}
	steps := make([]int, len(lr)-1)
	for i := range steps {
		steps[i] = i + 1
	}
	pr, err := lawcore.PredictRun(e.law, e.theta, e.run("", lr, warmup, steps), lr)
	if err != nil {
		return nil, err
	}
	loss := make([]float64, len(lr))
	for i := range loss {
		loss[i] = math.NaN()
	}
	for k, st := range pr.Steps {
		loss[int(st)] = pr.Loss[k]
	}
	return loss, nil
}

// annealing returns the annealing law's parameters when the evaluator's law is it.
func (e *evaluator) annealing() (annealing.Params, bool) {
	if e.law.Spec().Name != annealing.Name {
		return annealing.Params{}, false
	}
	p, err := annealing.ParamsOf(e.law.Spec().Values(e.theta))
	return p, err == nil
}

// withAnnealing is the evaluator of the annealing law with the parameters p (on the same
// convention and buffers).
func (e *evaluator) withAnnealing(p annealing.Params) *evaluator {
	theta, _ := e.law.Spec().Theta(p.Values())
	return &evaluator{law: e.law, theta: theta, conv: e.conv, lr: e.lr, counted: e.counted, w: e.w}
}
