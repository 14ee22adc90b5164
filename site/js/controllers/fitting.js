// Fitting and validating: the laws of the settings fitted to the curves marked "fit" (the
// others predicted), or each curve left out in turn. One runs at a time; an example or a link
// that replaces the curves cancels the running one first. A fit's result is kept only if the
// curves it fitted are still there.
import { LAWS } from '../engine/schema.js';
import { lawsOf } from '../state/settings.js';
import * as fmt from '../common/format.js';
import { flaggedProblems } from '../schedules/curve-facts.js';
import { bandOfFits, validationBand } from '../state/selectors.js';
import { warnOf } from './predicting.js';

/** sameData says whether a curve still holds the data and schedule it had (its role may differ). */
const sameData = (a, b) => a.name === b.name && a.steps === b.steps && a.loss === b.loss && a.schedule === b.schedule;

/**
 * fitStatus is the status line of a fit (records: its fit records, elapsed: ms): which laws were
 * fitted to how many curves, how many held-out curves it predicted, and how long it took.
 */
function fitStatus(records, elapsed) {
  const first = records[0].response;
  const nVal = first.curves.length - first.curves.filter((c) => c.role === 'fit').length;
  let laws = '';
  if (records.length === 2) laws = 'both laws to ';
  else if (first.members) laws = `an average of ${first.members.length} laws (picked by auto) to `;
  else if (first.auto) laws = `the ${LAWS[first.law].label} (picked by auto) to `;
  const heldOut = nVal ? `, predicted ${nVal} held out` : '';
  return `Fitted ${laws}${first.curves.length - nVal} curve(s)${heldOut} in ${fmt.ms(elapsed)}.`;
}

/**
 * createFitting returns {fit({keepMessage, replace}), validate(), cancel()}. The lines of the
 * curves and schedules come with a fit or validation (predicting.linesFor), in the same change;
 * what the change leaves missing (a schedule added meanwhile), and the Analyses panel's
 * answer, are derived.js's to compute again.
 */
export function createFitting({ store, engine, predicting }) {
  /** running is the fit or validation under way (it never rejects), or null. */
  let running = null;
  /**
   * cancelAsked: Cancel was pressed during the run under way. A cancel that lands after lawcore
   * answered (while the lines are predicted) still cancels: the user asked for no new result.
   */
  let cancelAsked = false;

  /** exclusive runs job as the one fit or validation under way. */
  async function exclusive(job) {
    cancelAsked = false;
    running = job().catch(() => {});
    try {
      await running;
    } finally {
      running = null;
      store.fitEnded();
    }
  }

  /** failed reports a fit's or validation's error (what: "Fit" or "Validate"); a cancel is no error. */
  function failed(err, what, { cancelled, status }) {
    if (/cancel/i.test(err.message)) return store.setStatus(cancelled);
    store.setStatus(status);
    store.showMessage(`${what}: ${err.message}`);
  }

  /**
   * fitRecord is what the page keeps of a fit of curves with settings. Its law is the answer's
   * (auto picks one), and its settings those the fit used: auto's warmup convention and lambda.
   */
  function fitRecord({ response, lines }, curves, settings) {
    const used = { ...settings, warmupConvention: response.settings.warmupConvention };
    if (response.auto) {
      const lambda = response.auto.chosen.lambda;
      Object.assign(used, {
        fitLambda: lambda === 'fit',
        ...(typeof response.settings.lambda === 'number' ? { lambda: response.settings.lambda } : {}),
      });
    }
    return {
      law: response.law,
      params: response.params,
      response,
      lines,
      settings: used,
      curves: new Map(curves.map((c) => [c.name, c])),
    };
  }

  async function runFit(settings) {
    const curves = store.state.curves;
    const editsAtStart = store.state.edits;
    // With auto, one request compares every law on held-out data and answers with the one it picks.
    const laws = settings.auto ? ['auto'] : lawsOf(settings);
    const nFit = curves.filter((c) => c.role === 'fit').length;
    const started = performance.now();
    const labelOf = (law) => (law === 'auto' ? 'laws, choosing by held-out error,' : `the ${LAWS[law].label}`);
    store.fitStarted(`Fitting ${labelOf(laws[0])} to ${nFit} curve(s)…`);
    try {
      const fits = {};
      for (const law of laws) {
        const label = labelOf(law);
        store.fitProgress(0, `Fitting ${label} to ${nFit} curve(s)…`);
        const got = await engine.fit(law === 'auto' ? 'annealing' : law, curves, settings, (f) =>
          store.fitProgress(f, `Fitting ${label}… ${Math.round(f * 100)}%`),
        );
        const record = fitRecord(got, curves, settings);
        fits[record.law] = record;
      }
      // The lines of the schedules come with the fit, so that the charts redraw once.
      let lines = [];
      let refused = null;
      try {
        lines = await predicting.linesFor({ ...store.state, fits, manual: null, band: bandOfFits(fits) });
      } catch (err) {
        refused = err;
      }
      if (cancelAsked) {
        store.setStatus('Fit cancelled; the previous results are kept.');
        return;
      }
      const now = store.state.curves;
      if (now.length !== curves.length || now.some((c, i) => !sameData(c, curves[i]))) {
        store.setStatus('The curves changed while the fit ran: its result is set aside. Fit again.');
        return;
      }
      const records = Object.values(fits);
      const elapsed = records.reduce((t, f) => t + (f.response.elapsedMs ?? 0), 0) || performance.now() - started;
      // a role or a setting changed while it ran: the fit is stale already
      const stale = store.state.edits !== editsAtStart;
      store.fitted(fits, { stale, status: fitStatus(records, elapsed) }, lines);
      if (refused) store.showMessage(`Predict: ${refused.message}`, 'error', 'predict');
      else warnOf(store, lines);
    } catch (err) {
      failed(err, 'Fit', { cancelled: 'Fit cancelled; the previous results are kept.', status: 'The fit failed.' });
    }
  }

  return {
    /**
     * fit fits the laws of the settings to the curves marked fit and predicts the rest. While a
     * fit runs it does nothing, unless replace is set (an example or a link replaced the
     * curves): the running fit is cancelled first.
     */
    async fit({ keepMessage = false, replace = false } = {}) {
      if (running && !replace) return;
      while (running) {
        engine.cancel();
        await running;
      }
      if (!keepMessage) store.clearMessage();
      const { curves, settings } = store.state;
      const problems = [];
      if (!curves.length) problems.push('Add at least one loss curve (drop a CSV file, paste, or load an example).');
      else if (!curves.some((c) => c.role === 'fit')) problems.push('Mark at least one curve as "fit".');
      const missing = curves.filter((c) => !c.schedule).map((c) => c.name);
      if (missing.length) problems.push(`These curves need a schedule (button "Schedule…"): ${missing.join(', ')}.`);
      // A schedule that disagrees with its curve's data is flagged before fitting: one that ends
      // too soon cannot be fitted; one whose LR differs from the LR column is fitted as asked.
      const flagged = curves.flatMap((c) => flaggedProblems(c).map((p) => ({ ...p, text: `${c.name}: ${p.text}` })));
      for (const p of flagged.filter((x) => x.kind === 'ends'))
        problems.push(`${p.text}: give it a schedule that runs to the end of its data (button "Schedule…").`);
      if (problems.length) return store.showMessage(problems);
      const differs = flagged.filter((x) => x.kind !== 'ends');
      if (differs.length) {
        store.showMessage(
          [
            ...differs.map((p) => `${p.text}.`),
            'The fit uses the schedules as given; the curve’s own LR column is what the run did.',
          ],
          'notice',
        );
      }
      await exclusive(() => runFit(settings));
    },

    /**
     * validate leaves each curve marked fit out in turn, fits each law of the settings on the
     * others and predicts it.
     */
    async validate() {
      if (running) return;
      store.clearMessage();
      const { settings } = store.state;
      // The curves marked fit are left out in turn (the held-out curves are predicted by the fit
      // itself); every fold refits, so this keeps the cost at one fit per fitting curve.
      const curves = store.state.curves.filter((c) => c.schedule && c.role === 'fit');
      if (curves.length < 2)
        return store.showMessage('Validation needs at least two curves marked "fit" (with schedules).');
      await exclusive(async () => {
        store.fitStarted(`Validating: ${curves.length} fits per law, each leaving one curve out…`);
        try {
          const result = await engine.validate(lawsOf(settings), curves, settings, 0.9, (f) => store.fitProgress(f));
          // The lines again, with the validation's band, kept with it in one change.
          let lines = [];
          try {
            lines = await predicting.linesFor({ ...store.state, validation: result, band: validationBand(result) });
          } catch {
            /* predicted again once validated (derived.js), saying why if it fails */
          }
          if (cancelAsked) return store.setStatus('Validation cancelled.');
          store.validated(result, `Validated ${curves.length} curve(s) in ${fmt.ms(result.elapsedMs)}.`, lines);
        } catch (err) {
          failed(err, 'Validate', { cancelled: 'Validation cancelled.', status: 'The validation failed.' });
        }
      });
    },

    /** cancel stops the running fit or validation. */
    cancel() {
      if (running) cancelAsked = true;
      store.setStatus('Cancelling…');
      engine.cancel();
    },
  };
}
