package analysis

import (
	"context"

	"gonum.org/v1/gonum/optimize"
)

// work is one call of an analysis: the caller's context, checked before every evaluation so
// that a cancel stops the analysis within one schedule, and its progress, reported at every
// evaluation as the share of the analysis's stages done. In the browser a progress report is
// also where the bridge hands control back to JavaScript, which is how a cancel arrives.
type work struct {
	ctx      context.Context
	progress func(float64)
	stages   int // the stages planned (such as the families to optimise); 0 before plan
	done     int // the stages ended
	// typical is how many evaluations a stage of a search usually takes (0: not a search);
	// evals counts those of the stage under way.
	typical, evals int
	// part is the share of the stage under way that work reporting its own progress within
	// it (within) has reached: it never goes back within a stage.
	part float64
}

// newWork starts a call; a nil progress reports nothing.
func newWork(ctx context.Context, progress func(float64)) *work {
	if ctx == nil {
		ctx = context.Background()
	}
	if progress == nil {
		progress = func(float64) {}
	}
	return &work{ctx: ctx, progress: progress}
}

// plan says how many stages the analysis has: progress is the share of them ended.
func (w *work) plan(stages int) {
	w.stages, w.done, w.typical, w.evals, w.part = stages, 0, 0, 0, 0
}

// planSearch says how many stages the analysis has, each a search of no known length that
// usually takes about typical evaluations: progress also moves within a stage, by
// evals/(evals+typical) of it (half at typical, never its end), so that a stage that runs for
// seconds (a family optimised over a million steps) does not show as stuck.
func (w *work) planSearch(stages, typical int) {
	w.plan(stages)
	w.typical = typical
}

// stageDone ends a stage.
func (w *work) stageDone() {
	w.done = min(w.done+1, w.stages)
	w.evals, w.part = 0, 0
	w.report()
}

// report reports the share of the stages ended; a cancelled call reports nothing more.
func (w *work) report() {
	switch {
	case w.ctx.Err() != nil:
	case w.stages > 0:
		share := float64(w.done)
		if w.typical > 0 && w.done < w.stages {
			share += float64(w.evals) / float64(w.evals+w.typical)
		} else if w.done < w.stages {
			share += w.part
		}
		w.progress(share / float64(w.stages))
	default:
		w.progress(0)
	}
}

// within reports progress f (0 to 1) through the stage under way, for work inside a stage that
// reports its own progress (a fit, or another analysis): it is also where a cancel arrives.
// Several such pieces of work in one stage each start again at 0; the share reported never
// goes back, and stays short of the stage's end, which only stageDone reaches.
func (w *work) within(f float64) {
	if w.stages == 0 {
		return
	}
	w.part = max(w.part, min(max(f, 0), 1)*0.99)
	w.report()
}

// check is called before each evaluation: it reports progress (so that a cancel can arrive)
// and returns the context's error once the call is cancelled. A nil work (an evaluator built
// outside an analysis) is never cancelled.
func (w *work) check() error {
	if w == nil {
		return nil
	}
	w.evals++
	w.report() // nothing once cancelled
	return w.ctx.Err()
}

// settle, deferred by every analysis, makes a cancelled call return no answer and the
// context's error: after a cancel each evaluation is +Inf or an error, which the searches
// would otherwise turn into a wrong answer or a confusing message ("no ratio gives a
// cooldown").
func settle[R any](w *work, answer *R, err *error) {
	if e := w.err(); e != nil {
		var none R
		*answer, *err = none, e
	}
}

// err is the context's error once the call is cancelled.
func (w *work) err() error {
	if w == nil {
		return nil
	}
	return w.ctx.Err()
}

// status stops a gonum search once the call is cancelled (optimize.Problem.Status).
func (w *work) status() (optimize.Status, error) {
	return optimize.NotTerminated, w.err()
}
