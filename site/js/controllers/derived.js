// The results derived from the page state, kept in step with it in one place: the predicted
// lines and the Analyses panel's answer. Controllers and store actions only change the state;
// after every change (the changes made one after another without a pause, as an import's
// curves and their schedules are, counted as one) staleResults compares the state with the
// state last looked at and says which derived results the change left stale, and
// deriveResults has them computed again: the missing lines predicted (predicting.update), the
// panel's answer computed again (analyses.refresh, which does so when the panel shows an
// answer or computes one). So a removal, "clear all", an undo, a fit, a restored workspace or
// parameters entered by hand all follow the same rule. What a controller computes as part of
// its own change (a fit's lines, the lines of parameters entered by hand or from a link) comes
// with that change, so that the charts redraw once, and leaves nothing missing here.
import { LAW_NAMES } from '../engine/schema.js';
import { paramsOf, lineBand, missingLines, analysisInputs } from '../state/selectors.js';

/** LINE_KEYS are the parts of the state a predicted line depends on, or that hold the lines. */
const LINE_KEYS = ['curves', 'predictions', 'fits', 'manual', 'band', 'lines'];
/** ANALYSIS_KEYS are the parts of the state analysisInputs reads. */
const ANALYSIS_KEYS = ['curves', 'predictions', 'fits', 'manual', 'settings'];

const changed = (a, b, keys) => keys.some((k) => a[k] !== b[k]);

/**
 * missingOf is what each law with parameters has no line for yet: law -> {source, band, items:
 * Map name -> schedule}, a line being of the parameters' record, the band and the item's schedule.
 */
function missingOf(state) {
  const out = new Map();
  for (const law of LAW_NAMES) {
    const items = missingLines(state, law);
    if (items.length)
      out.set(law, {
        source: paramsOf(state, law).source,
        band: lineBand(state, law),
        items: new Map(items.map((x) => [x.name, x.schedule])),
      });
  }
  return out;
}

/**
 * newlyMissing says whether state lacks a line previous did not lack: a line missing already was
 * asked for then (or refused), and a change that leaves it missing (a curve removed or given
 * another role while its line is predicted) asks for nothing again.
 */
function newlyMissing(previous, state) {
  const before = missingOf(previous);
  for (const [law, now] of missingOf(state)) {
    const was = before.get(law);
    if (!was || was.source !== now.source || was.band !== now.band) return true;
    for (const [name, schedule] of now.items) if (was.items.get(name) !== schedule) return true;
  }
  return false;
}

/**
 * staleResults says which derived results the change from previous to state left stale:
 *   lines     a curve or schedule to predict lacks the line of a law with parameters, and did not
 *             before (new parameters, a new band, a curve or schedule added or given a new
 *             schedule): the missing lines are to be predicted
 *   analysis  what the analyses are computed from changed (analysisInputs: the parameters in
 *             use, the peak LR, the fitted peak, the warmup): the panel's answer is of other inputs
 */
export function staleResults(previous, state) {
  const lines = changed(previous, state, LINE_KEYS) && newlyMissing(previous, state);
  let analysis = false;
  if (changed(previous, state, ANALYSIS_KEYS)) {
    const was = analysisInputs(previous);
    analysis = analysisInputs(state).some((x, i) => !Object.is(x, was[i]));
  }
  return { lines, analysis };
}

/**
 * deriveResults keeps the derived results in step with store: after each change (those made
 * together, in one run of code without an await, looked at once, a microtask later) it predicts the lines staleResults
 * says are missing, and computes the analysis again when its inputs changed. While a fit or
 * validation runs, the analysis waits for its end: the fit brings the parameters it is to be
 * computed from (an example or a link loaded over a fit is fitted at once). It returns the
 * unsubscribe function.
 */
export function deriveResults({ store, predicting, analyses }) {
  let seen = store.state;
  let analysisWaits = false;
  let queued = false;

  function look() {
    queued = false;
    const state = store.state;
    const stale = staleResults(seen, state);
    seen = state;
    if (stale.lines) predicting.update();
    analysisWaits ||= stale.analysis;
    if (analysisWaits && !state.fitting) {
      analysisWaits = false;
      analyses.refresh();
    }
  }

  return store.subscribe(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(look);
  });
}
