package analysis

import (
	"fmt"

	"github.com/lawcalc/annealing/lawcore/input"
	"github.com/lawcalc/annealing/lawcore/internal/numeric"
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

// maxReplicates bounds the setup's replicates (the jackknife takes ten).
const maxReplicates = 50

// uncertaintyLevel is the two-sided level of the half-widths.
const uncertaintyLevel = 0.9

// spread evaluates outcomes under the setup's replicates.
type spread struct {
	evals []*evaluator
	t     float64 // Student's t at (1+level)/2 for len(evals)-1 degrees of freedom
}

// spread returns the spread of the setup's replicates for the call w, nil when it has none.
func (s Setup) spread(w *work) (*spread, error) {
	if len(s.Replicates) == 0 {
		return nil, nil
	}
	if len(s.Replicates) < 2 || len(s.Replicates) > maxReplicates {
		return nil, input.Errorf("", "replicates", "give from 2 to %d parameter sets, got %d", maxReplicates, len(s.Replicates))
	}
	sp := &spread{t: distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(s.Replicates) - 1)}.Quantile((1 + uncertaintyLevel) / 2)}
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

// halfWidth is the jackknife half-width of g: t * sqrt((K-1)/K * sum (g_b - mean)^2).
func (sp *spread) halfWidth(g func(e *evaluator) float64) float64 {
	values := make([]float64, len(sp.evals))
	for i, e := range sp.evals {
		values[i] = g(e)
	}
	return sp.halfWidthOf(values)
}

// halfWidthOf is the jackknife half-width of values, one per replicate.
func (sp *spread) halfWidthOf(values []float64) float64 {
	return sp.t * numeric.JackknifeStdErr(values)
}

// finals are a schedule's final losses under each replicate.
func (sp *spread) finals(s schedule.Schedule) []float64 {
	out := make([]float64, len(sp.evals))
	for i, e := range sp.evals {
		out[i] = e.finalLoss(s)
	}
	return out
}

// diffHalfWidth is the half-width of the difference of two schedules' final losses, from
// their finals under each replicate.
func (sp *spread) diffHalfWidth(a, b []float64) float64 {
	d := make([]float64, len(a))
	for i := range d {
		d[i] = b[i] - a[i]
	}
	return sp.halfWidthOf(d)
}

// lossHalfWidth is the half-width of a schedule's final loss.
func (sp *spread) lossHalfWidth(s schedule.Schedule) float64 {
	return sp.halfWidth(func(e *evaluator) float64 { return e.finalLoss(s) })
}

// apart reports whether schedule a ends lower than b beyond the uncertainty of their
// difference (gap is b's final loss minus a's under the fit's own parameters), and that
// difference's half-width.
func (sp *spread) apart(a, b schedule.Schedule, gap float64) (bool, float64) {
	hw := sp.diffHalfWidth(sp.finals(a), sp.finals(b))
	return gap > hw, hw
}
