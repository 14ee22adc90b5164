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
	w.stages, w.done = stages, 0
}

// stageDone ends a stage.
func (w *work) stageDone() {
	w.done = min(w.done+1, w.stages)
	w.report()
}

// report reports the share of the stages ended; a cancelled call reports nothing more.
func (w *work) report() {
	switch {
	case w.ctx.Err() != nil:
	case w.stages > 0:
		w.progress(float64(w.done) / float64(w.stages))
	default:
		w.progress(0)
	}
}

// check is called before each evaluation: it reports progress (so that a cancel can arrive)
// and returns the context's error once the call is cancelled. A nil work (an evaluator built
// outside an analysis) is never cancelled.
func (w *work) check() error {
	if w == nil {
		return nil
	}
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
