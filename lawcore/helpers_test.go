package lawcore

import (
	"context"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// CloseRel is closeRel for the external tests (package lawcore_test).
var CloseRel = numeric.CloseRel

// ThinAbove is thinAbove for the external tests.
const ThinAbove = thinAbove

// FitThinnedOnly fits req as auto's fold fits do: past thinAbove points, polished on the
// thinned objective only.
func FitThinnedOnly(ctx context.Context, req FitRequest) (*FitResult, error) {
	req.Effort.ThinnedOnly = true
	return Fit(ctx, req, nil)
}

// ConvergedIntervals is the fit Fit makes of req and the intervals Fit gives it (before Fit
// drops the loss-drop term's interval from curves that never anneal), but with each jackknife
// refit converged as far as the package's optimisers go: polished as the fit's search polishes
// a start (Levenberg-Marquardt on the unscaled Gauss-Newton Hessian, to a relative decrease
// of lmConverged), then by whitened L-BFGS to its tight tests, a quasi-Newton method that
// does not depend on the curvature model the intervals' own refits scale.
func ConvergedIntervals(ctx context.Context, req FitRequest) (Values, map[string]Interval, error) {
	job, err := req.job()
	if err != nil {
		return nil, nil, err
	}
	model, err := job.law.Bind(job.fitRuns, BindOptions{Free: job.freeMask(), Theta: job.base})
	if err != nil {
		return nil, nil, err
	}
	obj := newObjective(ctx, model, job.spec, job.logObs, job.delta, job.free, job.base)
	obj.prior = job.prior
	theta, _, err := job.search(ctx, req.Effort, obj, func(float64) {})
	if err != nil {
		return nil, nil, err
	}
	intervals, _, err := job.jackknife(ctx, theta, model, func(float64) {}, func(o *Objective) ([]float64, error) {
		o.Anchor(theta, true)
		pl := &polisher{obj: o}
		got, err := pl.polish(start{theta: theta, f: o.Value(theta, nil)})
		if err != nil {
			return nil, err
		}
		x, _ := pl.lbfgs(o.coordinates(got.theta), got.f)
		return o.theta(x), nil
	})
	return job.spec.Values(theta), intervals, err
}
