// Predicted lines: each law with parameters draws every curve with a schedule and every schedule
// to predict. A fit's own lines come with it (the fit answer carries them): only what has no
// line yet is predicted, thinned for drawing. Parameters entered by hand are put in use only once
// lawcore has predicted with them.
import { LAW_NAMES, LAWS } from '../engine/schema.js';
import { paramsOf, missingLines, lineBand, schedulePeak, fittedPeak } from '../state/selectors.js';
import { FAR_PEAK } from '../analysis/analysis-answers.js';
import * as fmt from '../common/format.js';

/** DRAWN_POINTS thins each predicted line to about this many steps: enough to draw. */
export const DRAWN_POINTS = 2000;

/**
 * predictionWarnings are lawcore's warnings on the lines of results (as linesFor resolves to),
 * one line each, naming the schedule and the law: a loss that falls to 0 or below.
 */
export function predictionWarnings(results) {
  const out = [];
  for (const { law, byName } of results) {
    for (const [name, line] of byName) if (line.warning) out.push(`${name} (${LAWS[law].label}): ${line.warning}.`);
  }
  return out;
}

/**
 * farPeakWarnings name the schedules to predict whose peak LR is past FAR_PEAK times the fitted
 * curves' (the law's parameters are fitted at the curves' peak; the paper predicts other schedules
 * at the same peak).
 */
export function farPeakWarnings(state) {
  const top = fittedPeak(state);
  if (!top) return [];
  return state.predictions
    .filter((p) => schedulePeak(p.schedule) > FAR_PEAK * top)
    .map((p) => {
      const peak = schedulePeak(p.schedule);
      return `${p.name}: its peak LR (${fmt.lr(peak)}) is ${fmt.sig(peak / top, 2)}× the highest of the curves fitted (${fmt.lr(top)}); the law was fitted at their learning rates, so this prediction, and its band, are an extrapolation the fit cannot vouch for.`;
    });
}

/**
 * warnOf shows results' warnings, and schedules predicted far past the fitted peak, as a notice
 * that the next prediction clears (none: nothing).
 */
export function warnOf(store, results) {
  const lines = [...predictionWarnings(results), ...farPeakWarnings(store.state)];
  if (lines.length) store.showMessage(lines, 'notice', 'predict');
}

/** jobsOf lists what predicting the lines state is missing asks lawcore: per law, {law, p (paramsOf), band, items}. */
const jobsOf = (state) =>
  LAW_NAMES.map((law) => ({
    law,
    p: paramsOf(state, law),
    band: lineBand(state, law),
    items: missingLines(state, law),
  })).filter((j) => j.items.length);

/** sameJobs says whether two lists of jobs ask the same: the same parameters' record, band and items. */
const sameJobs = (a, b) =>
  a.length === b.length
  && a.every(
    (j, i) =>
      j.law === b[i].law
      && j.p.source === b[i].p.source
      && j.band === b[i].band
      && j.items.length === b[i].items.length
      && j.items.every((x, k) => x.name === b[i].items[k].name && x.schedule === b[i].items[k].schedule),
  );

/**
 * createPredicting returns {update() -> ok, linesFor(state), applyManual(params, settings),
 * useLink(manual)}. update is deriveResults's (derived.js), after every change; the
 * controllers predict only the lines that come with a change of theirs, in the same change (a
 * fit's, parameters entered by hand or from a link).
 */
export function createPredicting({ store, engine }) {
  let seq = 0;
  /** refused are the jobs lawcore refused for a link's parameters, which stay in use: not asked again. */
  let refused = null;

  /**
   * predictJobs predicts jobs (jobsOf's) with the band in use: the results linesPredicted, fitted
   * and useManual take.
   */
  async function predictJobs(jobs) {
    const maps = await Promise.all(jobs.map((j) => engine.predict(j.law, j.p, j.items, DRAWN_POINTS, j.band)));
    return jobs.map((j, i) => ({ law: j.law, source: j.p.source, band: j.band, byName: maps[i] }));
  }

  /**
   * linesFor predicts the lines state (the store's, or as it is about to be) is missing, with
   * the band in use (lower and upper at each step); it resolves to the results
   * linesPredicted, fitted and useManual take.
   */
  const linesFor = (state) => predictJobs(jobsOf(state));

  /**
   * update predicts the lines missing (none: nothing is asked), unless lawcore refused those
   * very lines for a link's parameters; it resolves to false when lawcore refused (the message
   * says why; a later update's answer wins).
   */
  async function update() {
    const jobs = jobsOf(store.state);
    if (!jobs.length) return true;
    if (refused && sameJobs(jobs, refused)) return false;
    const my = ++seq;
    try {
      const results = await predictJobs(jobs);
      store.linesPredicted(results);
      warnOf(store, results);
      return true;
    } catch (err) {
      if (my === seq) store.showMessage(`Predict: ${err.message}`, 'error', 'predict');
      return false;
    }
  }

  return {
    update,
    linesFor,
    /**
     * applyManual predicts with a law's parameters typed by hand (the annealing law's by default),
     * and uses them if lawcore could.
     */
    async applyManual(params, settings, law = 'annealing') {
      store.clearMessage();
      const manual = { params: { [law]: params }, settings, from: 'hand' };
      store.setStatus('Predicting with the parameters entered by hand.');
      let results;
      try {
        results = await linesFor({ ...store.state, manual });
      } catch (err) {
        // lawcore refused them (a loss that overflows, say): the view stays as it was.
        store.showMessage(`Predict: ${err.message}`, 'error', 'predict');
        store.setStatus('The parameters entered by hand were not applied.');
        return;
      }
      store.useManual(manual, results);
      warnOf(store, results);
    },
    /**
     * useLink puts a link's parameters in use and predicts with them (a refusal is shown, the
     * parameters stay, and the lines lawcore refused are not asked for again).
     */
    async useLink(manual) {
      const jobs = jobsOf({ ...store.state, manual });
      let results = [];
      let failed = null;
      try {
        results = await predictJobs(jobs);
      } catch (err) {
        failed = err;
      }
      if (failed) refused = jobs;
      store.useManual(manual, results);
      if (failed) store.showMessage(`Predict: ${failed.message}`, 'error', 'predict');
      else warnOf(store, results);
    },
  };
}
