package analysis

import (
	"math"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/annealing"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/schedule"
)

// Outcome is a law at the last step of a schedule: the areas, the law's two terms and the
// loss, Loss = constant + S1Term - S2Term.
type Outcome struct {
	// Total is the schedule's last step.
	Total int `json:"total"`
	// S1 and S2 are the forward and annealing areas at the last step (S2 is 0 for a law
	// without an annealing momentum; of an average, its first member's, as lawcore.Predict
	// gives them).
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

// evaluator evaluates one law with given parameters, or a weighted average of laws, on many
// schedules, expanding each into reused buffers.
type evaluator struct {
	law   lawcore.Law
	theta []float64
	conv  schedule.Convention
	// members, when not nil, are the laws of a weighted average (two or more) the evaluator
	// predicts with instead of law, theta and conv, which are then unset.
	members []member
	lr      []float64 // the schedule as run
	counted []float64 // as the warmup convention counts it
	w       *work     // the call it evaluates for
}

// member is one law of an averaged prediction: its parameter vector, warmup convention and
// share of the average (the shares sum to one); where names it in messages ("members[1]
// (multi-power)").
type member struct {
	law    lawcore.Law
	theta  []float64
	conv   schedule.Convention
	weight float64
	where  string
}

// newEvaluator is the evaluator of the members' weighted average for the call w: of the law
// alone when there is one.
func newEvaluator(members []member, w *work) *evaluator {
	if len(members) == 1 {
		m := members[0]
		return &evaluator{law: m.law, theta: m.theta, conv: m.conv, w: w}
	}
	return &evaluator{members: members, w: w}
}

// heaviest is the index of the member of the largest weight (the first of those tied).
func heaviest(members []member) int {
	h := 0
	for i, m := range members {
		if m.weight > members[h].weight {
			h = i
		}
	}
	return h
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

// run is lr (as run) counted by the evaluator's convention, evaluated at steps.
func (e *evaluator) run(name string, lr []float64, warmup int, steps []int) lawcore.Run {
	return e.runAs(e.conv, name, lr, warmup, steps)
}

// runAs is lr (as run) counted by the convention conv, evaluated at steps; it is valid until
// the next call (the counted rates share a buffer).
func (e *evaluator) runAs(conv schedule.Convention, name string, lr []float64, warmup int, steps []int) lawcore.Run {
	counted := lr
	if conv == schedule.WarmupPeak && warmup > 0 && warmup < len(lr) {
		counted = e.counted[:len(lr)]
		copy(counted, lr)
		schedule.CountWarmup(counted, warmup, conv)
	}
	return lawcore.Run{Name: name, LR: counted, Steps: steps}
}

// predict evaluates the law along lr (as run) at the trained ones of steps and at the last
// step, as lawcore.PredictRun does; an average of members is evaluated as lawcore.Predict
// evaluates one: each member on the rates its convention counts, the losses and terms
// weighted and summed, the areas (FinalS1, FinalS2) the first member's.
func (e *evaluator) predict(name string, lr []float64, warmup int, steps []int) (lawcore.Prediction, error) {
	if e.members == nil {
		return lawcore.PredictRun(e.law, e.theta, e.run(name, lr, warmup, steps), lr)
	}
	var out lawcore.Prediction
	for k, m := range e.members {
		pr, err := lawcore.PredictRun(m.law, m.theta, e.runAs(m.conv, name, lr, warmup, steps), lr)
		if err != nil {
			return lawcore.Prediction{}, input.Within(m.where, err)
		}
		if k == 0 {
			out = pr
			if m.weight != 1 {
				scalePrediction(&out, m.weight)
			}
			continue
		}
		addPrediction(&out, pr, m.weight)
	}
	return out, nil
}

// scalePrediction multiplies a prediction's losses and terms by w (a member's share of an
// average), as lawcore.Predict does.
func scalePrediction(p *lawcore.Prediction, w float64) {
	p.FinalLoss *= w
	for _, col := range [][]float64{p.Loss, p.S1Term, p.S2Term} {
		for j := range col {
			col[j] *= w
		}
	}
}

// addPrediction adds w times q's losses and terms to p's, as lawcore.Predict does. Where the
// two laws leave out different untrained steps (their warmup conventions count a warmup from
// 0 differently), the trained steps are a suffix of the steps asked for in both, and the sum
// keeps the steps both trained.
func addPrediction(p *lawcore.Prediction, q lawcore.Prediction, w float64) {
	if n, m := len(p.Loss), len(q.Loss); n != m {
		k := min(n, m)
		p.Steps, p.LR = p.Steps[len(p.Steps)-k:], p.LR[len(p.LR)-k:]
		p.Loss, p.S1Term, p.S2Term = p.Loss[n-k:], p.S1Term[n-k:], p.S2Term[n-k:]
		q.Loss, q.S1Term, q.S2Term = q.Loss[m-k:], q.S1Term[m-k:], q.S2Term[m-k:]
	}
	p.FinalLoss += w * q.FinalLoss
	for j := range p.Loss {
		p.Loss[j] += w * q.Loss[j]
		p.S1Term[j] += w * q.S1Term[j]
		p.S2Term[j] += w * q.S2Term[j]
	}
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
	pr, err := e.predict("", lr, warmup, []int{last})
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
	pr, err := e.predict(name, lr, warmup, steps)
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
	pr, err := e.predict("", lr, warmup, steps)
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

// annealing returns the annealing law's parameters when the evaluator's law is it (not when
// it averages several).
func (e *evaluator) annealing() (annealing.Params, bool) {
	if e.members != nil || e.law.Spec().Name != annealing.Name {
		return annealing.Params{}, false
	}
	p, err := annealing.ParamsOf(e.law.Spec().Values(e.theta))
	return p, err == nil
}

// annealingTerm is one annealing law of a prediction: its parameters, warmup convention and
// share of the average.
type annealingTerm struct {
	p      annealing.Params
	conv   schedule.Convention
	weight float64
}

// annealingTerms are the evaluator's laws when every one is the annealing law (its law alone,
// of weight 1, or each member of its average); else ok is false and who names, for a
// message, the first law that is not ("the Multi-Power Law", "members[1] (multi-power) of the
// average").
func (e *evaluator) annealingTerms() (terms []annealingTerm, who string, ok bool) {
	if e.members == nil {
		p, ok := e.annealing()
		if !ok {
			return nil, "the " + e.law.Spec().Title, false
		}
		return []annealingTerm{{p: p, conv: e.conv, weight: 1}}, "", true
	}
	for _, m := range e.members {
		spec := m.law.Spec()
		p, err := annealing.ParamsOf(spec.Values(m.theta))
		if spec.Name != annealing.Name || err != nil {
			return nil, m.where + " of the average", false
		}
		terms = append(terms, annealingTerm{p: p, conv: m.conv, weight: m.weight})
	}
	return terms, "", true
}

// withAnnealing is the evaluator of the annealing law with the parameters p (on the same
// convention and buffers).
func (e *evaluator) withAnnealing(p annealing.Params) *evaluator {
	theta, _ := e.law.Spec().Theta(p.Values())
	return &evaluator{law: e.law, theta: theta, conv: e.conv, lr: e.lr, counted: e.counted, w: e.w}
}
