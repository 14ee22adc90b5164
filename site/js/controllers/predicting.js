// Predicted lines: each law with parameters draws every curve with a schedule and every schedule
// to predict. A fit's own lines come with it (the fit answer carries them): only what has no
// line yet is predicted, thinned for drawing. Parameters entered by hand are put in use only once
// lawcore has predicted with them.
import { LAW_NAMES } from '../schema.js';
import { paramsOf, missingLines, lineBand } from '../selectors.js';

/** DRAWN_POINTS thins each predicted line to about this many steps: enough to draw. */
export const DRAWN_POINTS = 2000;

/** createPredicting returns {update() -> ok, linesFor(state), applyManual(params, settings), useLink(manual)}. */
export function createPredicting({ store, engine, analyses }) {
  let seq = 0;

  /**
   * linesFor predicts the lines state (the store's, or as it is about to be) is missing, with
   * the band in use (lower and upper at each step); it resolves to the results
   * linesPredicted, fitted and useManual take.
   */
  async function linesFor(state) {
    const jobs = LAW_NAMES.map((law) => ({ law, p: paramsOf(state, law), band: lineBand(state, law), items: missingLines(state, law) })).filter((j) => j.items.length);
    const maps = await Promise.all(jobs.map((j) => engine.predict(j.law, j.p, j.items, DRAWN_POINTS, j.band)));
    return jobs.map((j, i) => ({ law: j.law, source: j.p.source, band: j.band, byName: maps[i] }));
  }

  /**
   * update predicts the lines missing; it resolves to false when lawcore refused (the message
   * says why; a later update's answer wins).
   */
  async function update() {
    if (!LAW_NAMES.some((law) => missingLines(store.state, law).length)) return true;
    const my = ++seq;
    try {
      store.linesPredicted(await linesFor(store.state));
      return true;
    } catch (err) {
      if (my === seq) store.showMessage(`Predict: ${err.message}`, 'error', 'predict');
      return false;
    }
  }

  return {
    update,
    linesFor,
    /** applyManual predicts with a law's parameters typed by hand (the annealing law's by default), and uses them if lawcore could. */
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
      analyses.refresh();
    },
    /** useLink puts a link's parameters in use and predicts with them (a refusal is shown, the parameters stay). */
    async useLink(manual) {
      let results = [];
      let refused = null;
      try {
        results = await linesFor({ ...store.state, manual });
      } catch (err) {
        refused = err;
      }
      store.useManual(manual, results);
      if (refused) store.showMessage(`Predict: ${refused.message}`, 'error', 'predict');
    },
  };
}
