package lawcore

import (
	"context"
	"math"

	"github.com/lawcalc/annealing/lawcore/internal/numeric"
)

// Parameter intervals. A fitted parameter's uncertainty comes from a delete-a-block
// jackknife: every fit curve's window is cut into intervalBlocks runs of consecutive points,
// and the law is refitted intervalBlocks times, each time without one block of every curve
// (the same share of each curve: its start, its middle or its end). Neighbouring points of a
// loss curve share their noise, so blocks, not points, are what can be left out; and leaving
// out a curve's end shows how much its tail pins a parameter. The jackknife's standard error
// sqrt((K-1)/K * sum (theta_b - mean)^2), times Student's t for K-1 degrees of freedom, gives
// the interval: on noisy synthetic curves a 90% interval held each true parameter in 85% to
// 100% of trials (TestIntervalsCoverTheTruth: the jackknife errs on the wide side along the
// L0-A-alpha ridge). Each refit starts from the fit's optimum and is
// polished there: the blocks move the optimum a little, not to another basin.

// Interval is a parameter's interval at the level the request asked.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// intervalBlocks is K, how many blocks each curve is cut into: fewer, of two points each, on a
// curve of fewer than 2K points, and none on one of fewer than 2·minBlocks.
const (
	intervalBlocks = 10
	minBlocks      = 3
)

// intervalLevel is the intervals' coverage; tQuantiles[k] is Student's t at (1+level)/2 for k
// degrees of freedom, from 2 (three blocks) to 9 (ten).
const intervalLevel = 0.9

var tQuantiles = [intervalBlocks]float64{2: 2.919986, 3: 2.353363, 4: 2.131847, 5: 2.015048, 6: 1.943180, 7: 1.894579, 8: 1.859548, 9: 1.833113}

// TQuantile is Student's t at (1+0.9)/2 for the degrees of freedom of a jackknife of blocks
// replicates (blocks-1), as the intervals use it (0 outside 3 to 10 blocks).
func TQuantile(blocks int) float64 {
	if blocks < minBlocks || blocks > intervalBlocks {
		return 0
	}
	return tQuantiles[blocks-1]
}

// blocks is how many blocks the jackknife cuts the job's fit curves into (0: the curves give
// no intervals: too few points, or so many that refits would take seconds).
func (j *fitJob) blocks() int {
	if len(j.logObs) > thinAbove {
		return 0
	}
	k := intervalBlocks
	for _, r := range j.fitRuns {
		k = min(k, len(r.Steps)/2)
	}
	if k < minBlocks {
		return 0
	}
	return k
}

// hasIntervals reports whether the job's curves give intervals (see intervals).
func (j *fitJob) hasIntervals() bool { return j.blocks() > 0 }

// refitEvaluations is about how many evaluations a jackknife refit takes, for its progress.
const refitEvaluations = 6

// intervals computes the jackknife intervals of the free parameters around theta, and the
// refitted parameters they come from (fitted is the fit's model, on every point of
// j.fitRuns); nil when the curves have too few points to cut (see blocks). Each refit is
// polished to its points' own optimum, from theta, or, where a law's own search stops short
// of the optimum (the Multi-Power Law's release procedure), from every point's optimum: the
// replicates' spread about their mean is the jackknife's either way. progress goes from 0 to
// 1 over the refits.
//
// The refits polish with the Gauss-Newton Hessian self-scaled (see polisher.scaled), to the
// fit's own convergence test: on per-step training losses, whose residuals lie mostly beyond
// the Huber delta, the secant puts the curvature at about a fifth of the Gauss-Newton
// Hessian's, and unscaled steps, that much too short, take 13 to 25 evaluations a refit where
// scaled ones take 3 to 6 and end nearer the refit's optimum.
func (j *fitJob) intervals(ctx context.Context, theta []float64, fitted Model, progress func(float64)) (map[string]Interval, []Values, error) {
	// the refits share the curves' noise, and so the Gauss-Newton Hessian's overstatement of
	// the curvature: each starts from the factor the one before ended with
	curvature := 0.0
	from := theta
	if j.strategy != SearchOptimum {
		// a law's own search may stop short of the optimum (the release's procedure does, by
		// design): polished once to every point's optimum, that is where the refits start,
		// each a block's worth from its own, rather than each making the whole way from theta
		pl := &polisher{obj: j.objective(ctx, fitted, j.logObs), scaled: true}
		got, err := pl.polish(start{theta: theta, f: math.Inf(1)})
		if err != nil {
			return nil, nil, err
		}
		from, curvature = got.theta, pl.curvature
	}
	return j.jackknife(ctx, theta, fitted, progress, func(obj *Objective) ([]float64, error) {
		// the start's objective is left unevaluated (+Inf): a descent only ever returns a
		// point no worse than where it starts
		pl := &polisher{obj: obj, scaled: true, curvature: curvature}
		got, err := pl.polish(start{theta: from, f: math.Inf(1)})
		curvature = pl.curvature
		return got.theta, err
	})
}

// jackknife is intervals with each refit's parameters found by refit, from the refit's
// objective (the context's error when cancelled).
func (j *fitJob) jackknife(ctx context.Context, theta []float64, fitted Model, progress func(float64), refit func(*Objective) ([]float64, error)) (map[string]Interval, []Values, error) {
	blocks := j.blocks()
	if blocks == 0 {
		return nil, nil, nil
	}
	var estimates [][]float64
	keep := make([]bool, len(j.logObs))
	for b := 0; b < blocks; b++ {
		var logObs []float64
		at := 0
		for _, r := range j.fitRuns {
			n := len(r.Steps)
			for k := range r.Steps {
				if keep[at+k] = k*blocks/n != b; keep[at+k] {
					logObs = append(logObs, j.logObs[at+k])
				}
			}
			at += n
		}
		var model Model
		if s, ok := fitted.(Subsetter); ok {
			model = s.Subset(keep)
		} else {
			var err error
			if model, err = j.law.Bind(SubsetRuns(j.fitRuns, keep), BindOptions{Free: j.freeMask(), Theta: theta}); err != nil {
				return nil, nil, err
			}
		}
		obj := j.objective(ctx, model, logObs)
		evaluations := 0
		obj.tick = func() {
			evaluations++
			progress((float64(b) + math.Min(0.95, float64(evaluations)/refitEvaluations)) / float64(blocks))
		}
		got, err := refit(obj)
		if err != nil {
			return nil, nil, err
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		estimates = append(estimates, got)
		progress(float64(b+1) / float64(blocks))
	}
	replicates := make([]Values, len(estimates))
	for b, e := range estimates {
		replicates[b] = j.spec.Values(e)
	}
	out := map[string]Interval{}
	values := make([]float64, len(estimates))
	for _, i := range j.free {
		for b, e := range estimates {
			values[b] = e[i]
		}
		half := TQuantile(blocks) * numeric.JackknifeStdErr(values)
		p := j.spec.Params[i]
		lo, hi := theta[i]-half, theta[i]+half
		switch p.Domain { // an interval stays within the parameter's domain
		case Positive:
			lo = math.Max(lo, 0)
		case UnitInterval:
			lo, hi = math.Max(lo, 0), math.Min(hi, 1)
		}
		out[p.Name] = Interval{Low: lo, High: hi}
	}
	return out, replicates, nil
}
