// Adding curves: files (chosen, dropped or pasted) and pasted text go through the engine's
// import; files of learning rates only become the schedules of the curves they belong to. The
// curves added are predicted with the parameters in use.
import { importFiles, importText, pairLearningRates, withinPointBudget } from '../import-files.js';

/** heldPoints counts the points of the curves on the page. */
const heldPoints = (state) => state.curves.reduce((n, c) => n + c.steps.length, 0);

/** createImports returns {addFiles(files), addPasted(text, name) -> added?}. ask(ambiguity, fileName) asks the user. */
export function createImports({ store, engine, predicting, ask }) {
  /**
   * giveLearningRates pairs learning-rate curves with the new curves still without a schedule,
   * or when there are none (the learning rates came alone), with the loaded ones. It returns
   * the new curves as paired and the notes.
   */
  async function giveLearningRates(curves, lrCurves) {
    const waiting = curves.filter((c) => !c.schedule);
    const loaded = waiting.length ? null : store.state.curves.filter((c) => !c.schedule);
    const { pairs, notes } = await pairLearningRates(engine, loaded || waiting, lrCurves);
    const out = [...curves];
    for (const { index, name, change } of pairs) {
      if (loaded) store.setSchedule(name, change);
      else out[curves.indexOf(waiting[index])] = { ...waiting[index], ...change };
    }
    return { curves: out, paired: pairs.length, notes };
  }

  return {
    /** addFiles imports files one after another; a file that fails is reported and the others still come in. */
    async addFiles(files) {
      if (!files.length) return;
      store.clearMessage();
      store.setStatus(`Reading ${files.length} file(s)…`);
      await engine.ready; // the limits come with the engine's schema
      const got = await importFiles(engine, files, ask);
      const { lrCurves, notes, errors } = got;
      let curves = got.curves;
      try {
        const given = await giveLearningRates(curves, lrCurves);
        curves = given.curves;
        notes.push(...given.notes);
      } catch (err) {
        errors.push(err.message);
      }
      const budget = withinPointBudget(heldPoints(store.state), curves);
      errors.push(...budget.refused);
      const added = store.addCurves(budget.kept);
      const noLR = added.filter((c) => !c.schedule).map((c) => c.name);
      const given = lrCurves.length ? ` ${lrCurves.length} learning-rate file(s) read.` : '';
      store.setStatus(`Added ${added.length} curve(s).${given}` + (noLR.length ? ` Without learning rates: give ${noLR.join(', ')} a schedule, or add its learning-rate file.` : ''));
      if (errors.length) store.showMessage([...errors, ...notes]);
      else if (notes.length) store.showMessage(notes, 'notice');
      if (added.length || lrCurves.length) predicting.update();
    },

    /** addPasted imports pasted text as curves named name; it resolves to whether anything was added. */
    async addPasted(text, name) {
      if (!text.trim()) {
        store.showMessage('Paste some CSV or TSV text first.');
        return false;
      }
      store.clearMessage();
      try {
        const fileName = name || 'pasted';
        const { curves, lrCurves, notes, skipped } = await importText(engine, fileName, text, ask);
        if (skipped) {
          store.showMessage(notes, 'notice');
          return false;
        }
        const given = await giveLearningRates(curves, lrCurves);
        notes.push(...given.notes);
        if (!curves.length && !given.paired) throw new Error(notes.join(' ') || `${fileName}: no curves`);
        const budget = withinPointBudget(heldPoints(store.state), given.curves.map((c) => ({ ...c, name: curves.length === 1 ? fileName : `${fileName} ${c.name}` })));
        if (budget.refused.length && !budget.kept.length) throw new Error(budget.refused.join(' '));
        const added = store.addCurves(budget.kept);
        store.setStatus(added.length ? `Added ${added.map((c) => c.name).join(', ')}.` : 'Learning rates read.');
        if (budget.refused.length) store.showMessage([...budget.refused, ...notes]);
        else if (notes.length) store.showMessage(notes, 'notice');
        predicting.update();
        return true;
      } catch (err) {
        store.showMessage(err.message);
        return false;
      }
    },
  };
}
