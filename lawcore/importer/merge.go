package importer

import (
	"fmt"

	"github.com/lawcalc/annealing/lawcore/input"
)

// MergeLR returns a copy of curve with the learning rates of lrCurve (read from a separate
// learning-rate file, for example with [Choice.AsLR]) taken at the curve's steps,
// joined linearly between lrCurve's points, and lrCurve's own points as LRSteps and LRLogged
// when they lie at other steps. The learning rates are continued linearly to a loss point at
// most one logging interval outside them ([LRPair.Reach]); other loss points outside them are
// left out when they are few (fewer than half: lrSpan; [PairLR] notes them). It is an error if lrCurve
// has no learning rates or does not span most of the curve's steps.
func MergeLR(curve, lrCurve *Curve) (*Curve, error) {
	if curve == nil || lrCurve == nil {
		return nil, &input.Error{Msg: "merging learning rates needs a loss curve and a learning-rate curve"}
	}
	where := lrCurve.File
	if where == "" {
		where = "the learning-rate file"
	}
	if !curve.HasLoss || len(curve.Loss) != len(curve.Steps) || len(curve.Steps) == 0 {
		return nil, input.Errorf(curve.File, "", "curve %q has no loss values to merge learning rates into", curve.Name)
	}
	if !lrCurve.HasLR || len(lrCurve.LR) != len(lrCurve.Steps) || len(lrCurve.Steps) == 0 {
		return nil, input.Errorf(where, "", "curve %q has no learning rates", lrCurve.Name)
	}
	for i, s := range lrCurve.Steps {
		if i > 0 && !(s > lrCurve.Steps[i-1]) {
			return nil, input.Errorf(where, fmt.Sprintf("steps[%d]", i), "the steps of the learning rates must increase: %v comes after %v", s, lrCurve.Steps[i-1])
		}
	}
	// the learning rates continued to a loss one logging interval outside them, as PairLR
	// says (its note) and as one file's columns are
	lrSteps, lrValues, _ := reachLoss(curve.Steps, lrCurve.Steps, lrCurve.LR)
	lo, hi, most := lrSpan(curve.Steps, lrSteps)
	if !most {
		miss, _ := uncoveredStep(curve.Steps, lrCurve.Steps)
		return nil, input.Errorf(where, "", "the learning rates cover steps %v to %v, but curve %q has step %v: the learning-rate file must cover the steps of the loss curve, or most of them",
			lrCurve.Steps[0], lrCurve.Steps[len(lrCurve.Steps)-1], curve.Name, miss)
	}
	out := *curve
	out.Steps = append([]float64(nil), curve.Steps[lo:hi]...)
	out.Loss = append([]float64(nil), curve.Loss[lo:hi]...)
	out.Points = len(out.Steps)
	lr, _, _ := interpolateAt(out.Steps, lrSteps, lrValues)
	out.LR, out.HasLR = lr, true
	out.keepLogged(append([]float64(nil), lrSteps...), append([]float64(nil), lrValues...))
	src := lrCurve.Source.LR
	if src == "" {
		src = lrCurve.Metric
	}
	if lrCurve.File != "" {
		src = fmt.Sprintf("%s (%s)", src, lrCurve.File)
	}
	out.Source.LR = src
	return &out, nil
}

// uncoveredStep returns a step of the loss curve (its first, else its last) outside the steps of
// the learning rates, and true; or false when the learning rates cover every step (both sorted).
func uncoveredStep(loss, lr []float64) (float64, bool) {
	switch {
	case loss[0] < lr[0]:
		return loss[0], true
	case loss[len(loss)-1] > lr[len(lr)-1]:
		return loss[len(loss)-1], true
	}
	return 0, false
}
