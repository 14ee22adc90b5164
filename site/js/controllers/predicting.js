// Predicted lines: each law with parameters draws every curve with a schedule and every schedule
// to predict. A fit's own lines come with it (the fit answer carries them): only what has no
// line yet is predicted, thinned for drawing. Parameters entered by hand are put in use only once
// lawcore has predicted with them.
import { LAW_NAMES } from '../schema.js';
import { paramsOf, missingLines } from '../selectors.js';

/** DRAWN_POINTS thins each predicted line to about this many steps: enough to draw. */
const DRAWN_POINTS = 2000;

/** createPredicting returns {update() -> ok, applyManual(params, settings), useLink(manual)}. */
export function createPredicting({ store, engine, analyses }) {
  let seq = 0;

  /** predictAll predicts items of each job ({law, p, items}) and resolves to linesPredicted's results. */
  async function predictAll(jobs) {
    const maps = await Promise.all(jobs.map((j) => engine.predict(j.law, j.p, j.items, DRAWN_POINTS)));
    return jobs.map((j, i) => ({ law: j.law, source: j.p.source, byName: maps[i] }));
  }

  /**
   * update predicts the lines missing; it resolves to false when lawcore refused (the message
   * says why; a later update's answer wins).
   */
  async function update() {
    const state = store.state;
    const jobs = LAW_NAMES.map((law) => ({ law, p: paramsOf(state, law), items: missingLines(state, law) })).filter((j) => j.items.length);
    if (!jobs.length) return true;
    const my = ++seq;
    try {
      store.linesPredicted(await predictAll(jobs));
      return true;
    } catch (err) {
      if (my === seq) store.showMessage(`Predict: ${err.message}`, 'error', 'predict');
      return false;
    }
  }

  return {
    update,
    /** applyManual predicts with the annealing law's parameters typed by hand, and uses them if lawcore could. */
    async applyManual(params, settings) {
      store.clearMessage();
      const manual = { params: { annealing: params }, settings, from: 'hand' };
      const state = store.state;
      const items = [...state.curves.filter((c) => c.schedule), ...state.predictions];
      store.setStatus('Predicting with the parameters entered by hand.');
      let results;
      try {
        results = items.length ? await predictAll([{ law: 'annealing', p: { params, settings, source: manual }, items }]) : [];
      } catch (err) {
        // lawcore refused them (a loss that overflows, say): the view stays as it was.
        store.showMessage(`Predict: ${err.message}`, 'error', 'predict');
        store.setStatus('The parameters entered by hand were not applied.');
        return;
      }
      store.useManual(manual, results);
      analyses.refresh();
    },
    /** useLink puts a link's parameters in use and predicts with them. */
    async useLink(manual) {
      store.useManual(manual);
      await update();
    },
  };
}
