package analysis

import (
	"fmt"
	"math"
	"slices"

	"github.com/lawcalc/annealing/lawcore"
	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
	"github.com/lawcalc/annealing/lawcore/multipower"
	"github.com/lawcalc/annealing/lawcore/schedule"
	"gonum.org/v1/gonum/stat/distuv"
)

// Decisions with their uncertainty. An analysis that compares choices (cooldown ratios, decay
// shapes, constant against cosine, schedule families) answers with the best one; whether the
// fit can tell it from the next depends on how well the fit pins the parameters. A fit asked
// for intervals also returns its replicates (lawcore.FitResult.Replicates: the parameters
// refitted without each block of points, a jackknife); given as the setup's Replicates, they
// make these analyses evaluate every choice under each replicate too. The jackknife's spread
// of a difference of final losses, times Student's t, is that difference's 90% half-width; a
// choice whose loss lies within it of the best's cannot be told apart from the best. The
// differences, not the losses, decide: the errors of two similar schedules' predictions are
// shared, and mostly cancel.
//
// A fit's band (the setup's Band, with its Replicates) does the same for what the fit predicts
// with, the weighted average of its members: replicate b of the average is each member at its
// own replicate b (the members' replicates come from the same jackknife blocks of the same
// curves, so they pair by index), or, when the members have different numbers of replicates,
// the heaviest member at its replicate b and the others at their parameters. A final loss's
// own half-width is then the band's at its last step (lawcore.Predict's, which adds to the
// replicates' spread the alternatives' and the law's discrepancy). A difference of two
// schedules' final losses keeps the replicates' spread alone: the alternatives and the
// discrepancy move two similar schedules' predictions alike, and largely cancel in it.

// maxReplicates bounds the setup's replicates (the jackknife takes ten).
const maxReplicates = 50

// uncertaintyLevel is the two-sided level of the half-widths.
const uncertaintyLevel = 0.9

// spread evaluates outcomes under the setup's replicates.
type spread struct {
	evals []*evaluator
	t     float64 // Student's t at (1+level)/2 for len(evals)-1 degrees of freedom
	// band, when the replicates are a band's, is the prediction request of the setup with its
	// band, whose half-width at a schedule's last step is that final loss's (nil: the
	// replicates' spread is).
	band *lawcore.PredictRequest
}

// studentsT is Student's t at (1+uncertaintyLevel)/2 for the jackknife of k replicates (k-1
// degrees of freedom).
func studentsT(k int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(k - 1)}.Quantile((1 + uncertaintyLevel) / 2)
}

// spread returns the spread of the setup's replicates (its band's when it has them) for the
// call w, nil when it has none.
func (s Setup) spread(w *work) (*spread, error) {
	if s.Band != nil && len(s.Band.Replicates) > 0 {
		return s.bandSpread(w)
	}
	if len(s.Replicates) == 0 {
		return nil, nil
	}
	if len(s.Replicates) < 2 || len(s.Replicates) > maxReplicates {
		return nil, input.Errorf("", "replicates", "give from 2 to %d parameter sets, got %d", maxReplicates, len(s.Replicates))
	}
	sp := &spread{t: studentsT(len(s.Replicates))}
	if len(s.Members) > 0 {
		// the heaviest member's replicates, the others held at their parameters
		members, err := s.members()
		if err != nil {
			return nil, err
		}
		h := heaviest(members)
		for i, p := range s.Replicates {
			theta, err := bindTheta(members[h].law, p)
			if err != nil {
				return nil, input.Within(fmt.Sprintf("replicates[%d]", i), err)
			}
			b := slices.Clone(members)
			b[h].theta = theta
			sp.evals = append(sp.evals, newEvaluator(b, w))
		}
		return sp, nil
	}
	for i, p := range s.Replicates {
		r := s
		r.Params, r.Replicates = p, nil
		e, _, err := r.evaluator(w)
		if err != nil {
			return nil, input.Within(fmt.Sprintf("replicates[%d]", i), err)
		}
		sp.evals = append(sp.evals, e)
	}
	return sp, nil
}

// bandSpread is the spread of the band's replicates: one per member (or one for the law),
// paired by index when every member has as many, else the heaviest member's with the others
// held at their parameters.
func (s Setup) bandSpread(w *work) (*spread, error) {
	members, err := s.members()
	if err != nil {
		return nil, err
	}
	reps := s.Band.Replicates
	if len(reps) != len(members) {
		return nil, input.Errorf("band", "replicates", "one per member of the prediction (%d, in their order), got %d", len(members), len(reps))
	}
	h := heaviest(members)
	k := len(reps[h].Sets)
	if k < 2 || k > maxReplicates {
		return nil, input.Errorf("band", fmt.Sprintf("replicates[%d].sets", h), "give from 2 to %d parameter sets, got %d", maxReplicates, k)
	}
	paired := true
	for _, r := range reps {
		paired = paired && len(r.Sets) == k
	}
	band := s.Band
	if !paired {
		// the half-widths hold the others at their parameters too: each is given one
		// replicate, its parameters, which spreads nothing
		b := *s.Band
		b.Replicates = slices.Clone(reps)
		for i := range b.Replicates {
			if i != h {
				b.Replicates[i] = lawcore.Replicates{Sets: []lawcore.Values{s.params(i)}}
			}
		}
		band = &b
	}
	sp := &spread{t: studentsT(k), band: &lawcore.PredictRequest{Law: s.Law, Params: s.Params,
		WarmupConvention: s.WarmupConvention, Members: s.Members, Band: band}}
	for b := range k {
		set := slices.Clone(members)
		for i := range set {
			if i != h && !paired {
				continue
			}
			theta, err := bindTheta(set[i].law, reps[i].Sets[b])
			if err != nil {
				return nil, input.Within(fmt.Sprintf("band.replicates[%d].sets[%d]", i, b), err)
			}
			set[i].theta = theta
		}
		sp.evals = append(sp.evals, newEvaluator(set, w))
	}
	return sp, nil
}

// halfWidthOf is the jackknife half-width of values, one per replicate.
func (sp *spread) halfWidthOf(values []float64) float64 {
	return sp.t * numeric.JackknifeStdErr(values)
}

// finals are a schedule's final losses under each replicate.
func (sp *spread) finals(s schedule.Schedule) []float64 {
	if out, ok := sp.sharedFinals(s); ok {
		return out
	}
	out := make([]float64, len(sp.evals))
	for i, e := range sp.evals {
		out[i] = e.finalLoss(s)
	}
	return out
}

// diffHalfWidth is the half-width of the difference of two schedules' final losses, from
// their finals under each replicate: the replicates' spread alone, a band's or not (its
// alternatives and discrepancy largely cancel in a difference).
func (sp *spread) diffHalfWidth(a, b []float64) float64 {
	d := make([]float64, len(a))
	for i := range d {
		d[i] = b[i] - a[i]
	}
	return sp.halfWidthOf(d)
}

// lossHalfWidth is the half-width of schedule s's final loss, given its finals under each
// replicate: the band's at the last step when the replicates are a band's, else the
// replicates' spread.
func (sp *spread) lossHalfWidth(s schedule.Schedule, finals []float64) (float64, error) {
	if sp.band == nil {
		return sp.halfWidthOf(finals), nil
	}
	req := *sp.band
	req.Curves = []lawcore.PredictCurve{{Name: fmt.Sprintf("the %s schedule's final loss", s.Kind), Schedule: &s, Steps: []float64{float64(s.Length() - 1)}}}
	pr, err := lawcore.Predict(req)
	if err != nil {
		return 0, err
	}
	if len(pr[0].Upper) != 1 {
		return 0, input.Errorf("", "band", "the band has no value at the last step of %s: nothing has been trained there", s.Kind)
	}
	hw := (pr[0].Upper[0] - pr[0].Lower[0]) / 2
	if math.IsNaN(hw) || math.IsInf(hw, 0) {
		return 0, input.Errorf("", "band", "its half-width at the last step of %s is not a number: its replicates or discrepancy do not hold there", s.Kind)
	}
	return hw, nil
}

// params are the parameters of member i (of the law, for a setup without members).
func (s Setup) params(i int) lawcore.Values {
	if len(s.Members) == 0 {
		return s.Params
	}
	return s.Members[i].Params
}

// apart reports whether schedule a ends lower than b beyond the uncertainty of their
// difference (gap is b's final loss minus a's under the fit's own parameters), and that
// difference's half-width.
func (sp *spread) apart(a, b schedule.Schedule, gap float64) (bool, float64) {
	hw := sp.diffHalfWidth(sp.finals(a), sp.finals(b))
	return gap > hw, hw
}

// sharedFinals are finals computed with the schedule expanded once and, for a Multi-Power
// member, bound once for every replicate (its binding, the schedule's prefix sums and change
// tree, costs O(steps) and does not depend on the parameters; one step's loss costs far less),
// each replicate's loss at the last step computed as evaluator.final computes it, bit for bit.
// ok is false (finals evaluates each replicate on its own) unless every replicate has the same
// members' laws and conventions and one of them is the Multi-Power Law.
func (sp *spread) sharedFinals(s schedule.Schedule) (out []float64, ok bool) {
	sets := make([][]member, len(sp.evals))
	anyMPL := false
	for r, e := range sp.evals {
		sets[r] = e.members
		if e.members == nil {
			sets[r] = []member{{law: e.law, theta: e.theta, conv: e.conv, weight: 1}}
		}
		if len(sets[r]) != len(sets[0]) {
			return nil, false
		}
		for i, m := range sets[r] {
			if m.law != sets[0][i].law || m.conv != sets[0][i].conv {
				return nil, false
			}
			anyMPL = anyMPL || m.law.Spec().Name == multipower.Name
		}
	}
	if !anyMPL {
		return nil, false
	}
	out = make([]float64, len(sp.evals))
	for r := range out {
		out[r] = math.Inf(1)
	}
	e := sp.evals[0]
	if err := e.w.check(); err != nil {
		return out, true
	}
	lr, warmup, err := e.expand(&s)
	if err != nil {
		return out, true
	}
	last := len(lr) - 1
	finals := make([]float64, len(sp.evals))
	trained, failed := make([]bool, len(sp.evals)), make([]bool, len(sp.evals))
	for i, m0 := range sets[0] {
		counted := e.runAs(m0.conv, "", lr, warmup, nil).LR
		s1 := 0.0
		for _, eta := range counted {
			s1 += eta
		}
		// the member's final loss under each replicate, as lawcore.PredictRun gives it
		losses := make([]float64, len(sp.evals))
		if s1 > 0 {
			if m0.law.Spec().Name == multipower.Name {
				model, err := m0.law.Bind([]lawcore.Run{{LR: counted, Steps: []int{last}}}, lawcore.BindOptions{Predict: true, Theta: m0.theta})
				if err != nil {
					return out, true
				}
				for r, set := range sets {
					theta := set[i].theta
					pred, jac := make([]float64, 1), make([]float64, len(theta))
					model.Eval(theta, 0, pred, jac)
					losses[r] = pred[0]
				}
			} else {
				for r, set := range sets {
					pr, err := lawcore.PredictRun(set[i].law, set[i].theta, lawcore.Run{LR: counted, Steps: []int{last}}, lr)
					if err != nil {
						failed[r] = true
					}
					losses[r] = pr.FinalLoss
				}
			}
		}
		for r, set := range sets {
			// as evaluator.predict sums an average
			switch w := set[i].weight; {
			case i == 0:
				finals[r] = losses[r]
				if w != 1 {
					finals[r] *= w
				}
			default:
				finals[r] += w * losses[r]
			}
			if i == 0 {
				trained[r] = s1 > 0
			}
		}
	}
	for r := range out {
		if trained[r] && !failed[r] {
			out[r] = finals[r]
		}
	}
	return out, true
}
