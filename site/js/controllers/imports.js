// Adding curves: files (chosen, dropped or pasted), run folders (picked or dropped, in one
// import each) and pasted text go through the engine's import; files of learning rates only
// become the schedules of the curves they belong to. The curves added are predicted with the
// parameters in use (derived.js: what an import changes is put in the store at once, so that
// its lines are asked for together). The user's first curves replace the bundled example (Undo
// brings it back), and the warmup setting becomes the warmup their learning rates show.
import { importFiles, importFolder, importText, pairLearningRates, withinPointBudget } from '../import/import-files.js';
import { warmupFromLR } from '../schedules/curve-facts.js';

/**
 * heldPoints counts the points of the curves that stay on the page when new ones come: an
 * example's go when the user's first curves replace it.
 */
const heldPoints = (state) =>
  state.curves.filter((c) => !(state.example && c.fromExample)).reduce((n, c) => n + c.steps.length, 0);

/** reported is what an import's report says of a curve added: its points, steps and learning rates. */
const reported = (c) => ({
  name: c.name,
  points: c.steps.length,
  first: c.steps[0],
  last: c.steps[c.steps.length - 1],
  lr: c.scheduleSource === 'file',
  schedule: Boolean(c.schedule),
});

/** sameArray says whether two arrays of numbers hold the same values. */
function sameArray(a, b) {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * createImports returns {addFiles(files), addFolder(folder), addPasted(text, name) -> added?,
 * reading, whenRead()}. ask(ambiguity, fileName) asks the user.
 */
export function createImports({ store, engine, ask }) {
  /**
   * giveLearningRates pairs learning-rate curves with the new curves still without a schedule,
   * or when there are none (the learning rates came alone), with the loaded ones. It returns
   * the new curves as paired, the schedules of loaded curves (scheduled: [{name, change}], for
   * giveLoaded) and the notes.
   */
  async function giveLearningRates(curves, lrCurves) {
    const waiting = curves.filter((c) => !c.schedule);
    const loaded = waiting.length ? null : store.state.curves.filter((c) => !c.schedule);
    const { pairs, notes } = await pairLearningRates(engine, loaded || waiting, lrCurves);
    const out = [...curves];
    const scheduled = [];
    for (const { index, name, change } of pairs) {
      if (loaded) scheduled.push({ name, change });
      else out[curves.indexOf(waiting[index])] = { ...waiting[index], ...change };
    }
    return { curves: out, scheduled, paired: pairs.length, notes };
  }

  /** giveLoaded gives loaded curves the schedules giveLearningRates found for them. */
  function giveLoaded(scheduled) {
    for (const { name, change } of scheduled) store.setSchedule(name, change);
  }

  /**
   * addToView adds curves to the page: beside the curves there, or in place of the example, or
   * on an empty page. In place of the example, or as the page's first, they set the warmup
   * their learning rates show. It returns {added, notes} (what changed besides, in words: a
   * curve renamed because its name was taken, and whether it holds the same points as the
   * curve of that name, as a file dropped twice does).
   */
  function addToView(curves) {
    const { added, notes } = placeInView(curves);
    added.forEach((a, i) => {
      const asked = curves[i].name;
      if (a.name === asked) return;
      const other = store.state.curves.find((c) => c.name === asked);
      const same = other && sameArray(other.steps, a.steps) && sameArray(other.loss, a.loss);
      notes.push(
        same
          ? `${asked} is already on the page with the same points: the copy added is named ${a.name} (remove it if the file was added twice).`
          : `A ${other ? 'curve' : 'schedule'} named ${asked} is already on the page: the one added is named ${a.name}.`,
      );
    });
    return { added, notes };
  }

  /** placeInView is addToView without its notes on renamed curves. */
  function placeInView(curves) {
    const replacing = Boolean(store.state.example);
    if (!curves.length || (!replacing && store.state.curves.length))
      return { added: store.addCurves(curves), notes: [] };
    const notes = [];
    let settings = store.state.settings;
    if (settings !== settingsBefore) {
      // the user set them while the files were read: for these curves, so they stand as set
      if (replacing)
        notes.push(
          `Your data replaced ${store.state.example.title} (Undo brings it back); the settings you chose while it was read are kept.`,
        );
      return { added: replacing ? store.replaceExample(curves, settings) : store.addCurves(curves), notes };
    }
    if (replacing) {
      notes.push(`Your data replaced ${store.state.example.title} (Undo brings it back).`);
      // The example's settings were its paper's; the user's own curves are fitted with auto.
      settings = { ...settings, auto: true };
      if (!store.state.settings.auto)
        notes.push(
          'Auto is on: the law and its settings are picked by how well they predict your curves’ held-out steps (the example kept its paper’s setting).',
        );
    }
    const fromLR = warmupFromLR(curves);
    if (fromLR && fromLR.warmup !== settings.warmupSteps) {
      settings = { ...settings, warmupSteps: fromLR.warmup };
      notes.push(fromLR.note);
    }
    if (replacing) return { added: store.replaceExample(curves, settings), notes };
    store.setSettings(settings); // an empty page (after "clear all"): its settings follow its first curves
    return { added: store.addCurves(curves), notes };
  }

  /**
   * addImported adds what an import read (got: {curves, lrCurves, notes, errors}), the curves
   * of learning rates given to the curves they belong to, and says what came in: the status
   * line, the errors and notes (files skipped and why) in the message area.
   */
  async function addImported(got) {
    const { lrCurves, notes, errors } = got;
    let curves = got.curves;
    let scheduled = [];
    try {
      const given = await giveLearningRates(curves, lrCurves);
      curves = given.curves;
      scheduled = given.scheduled;
      notes.push(...given.notes);
    } catch (err) {
      errors.push(err.message);
    }
    const budget = withinPointBudget(heldPoints(store.state), curves);
    errors.push(...budget.refused);
    giveLoaded(scheduled);
    const { added, notes: replaced } = addToView(budget.kept);
    notes.push(...replaced);
    const noLR = added.filter((c) => !c.schedule).map((c) => c.name);
    const given = lrCurves.length ? ` ${lrCurves.length} learning-rate file(s) read.` : '';
    store.setStatus(
      `Added ${added.length} curve(s).${given}`
        + (noLR.length
          ? ` Without learning rates: give ${noLR.join(', ')} a schedule, or add its learning-rate file.`
          : ''),
    );
    // The curves added, a line each, first; the errors below them; the notes behind a disclosure.
    const report = added.length ? { curves: added.map(reported), shown: errors.length } : null;
    if (errors.length) store.showMessage([...errors, ...notes], 'error', null, report);
    else if (notes.length || report) store.showMessage(notes, 'notice', null, report);
  }

  /** underWay counts the imports being read (a question to the user included); read settles when one ends. */
  let underWay = 0;
  let read = Promise.resolve();
  /** settingsBefore are the settings when the imports under way began: others were set by the user meanwhile. */
  let settingsBefore = store.state.settings;
  /** tracked is fn counted in underWay while it runs. */
  const tracked =
    (fn) =>
    async (...args) => {
      if (underWay === 0) settingsBefore = store.state.settings;
      underWay++;
      const running = fn(...args);
      read = Promise.allSettled([read, running]);
      try {
        return await running;
      } finally {
        underWay--;
      }
    };

  return {
    /** reading says whether files or text are being read (their curves are not on the page yet). */
    get reading() {
      return underWay > 0;
    },

    /** whenRead resolves once every import under way has added its curves (or failed). */
    async whenRead() {
      while (underWay > 0) await read;
    },

    /** addFiles imports files one after another; a file that fails is reported and the others still come in. */
    addFiles: tracked(async (files) => {
      if (!files.length) return;
      store.clearMessage();
      store.setStatus(`Reading ${files.length} file(s)…`);
      await engine.ready; // the limits come with the engine's schema
      await addImported(await importFiles(engine, files, ask));
    }),

    /**
     * addFolder imports a run folder ({name, files: [{path, file}]}, or a promise of one while
     * a dropped directory is walked) in one call: its runs' curves, each with the schedule of
     * its learning rates, and the files skipped in the notes. files (dropped beside the folder)
     * are then imported one by one, and all is reported together. A folder that cannot be read
     * is reported; the curves loaded stay.
     */
    addFolder: tracked(async (folder, files = []) => {
      store.clearMessage();
      store.setStatus('Reading the folder…');
      const got = { curves: [], lrCurves: [], notes: [], errors: [] };
      const take = (more) => {
        for (const k of Object.keys(got)) got[k].push(...(more[k] || []));
      };
      try {
        const f = await folder;
        store.setStatus(`Reading ${f.name} (${f.files.length} file(s))…`);
        await engine.ready; // the limits come with the engine's schema
        take(await importFolder(engine, f, ask));
      } catch (err) {
        got.errors.push(err.message);
      }
      if (files.length) take(await importFiles(engine, files, ask));
      await addImported(got);
    }),

    /** addPasted imports pasted text as curves named name; it resolves to whether anything was added. */
    addPasted: tracked(async (text, name) => {
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
        const budget = withinPointBudget(
          heldPoints(store.state),
          given.curves.map((c) => ({ ...c, name: curves.length === 1 ? fileName : `${fileName} ${c.name}` })),
        );
        giveLoaded(given.scheduled);
        if (budget.refused.length && !budget.kept.length) throw new Error(budget.refused.join(' '));
        const { added, notes: replaced } = addToView(budget.kept);
        notes.push(...replaced);
        store.setStatus(added.length ? `Added ${added.map((c) => c.name).join(', ')}.` : 'Learning rates read.');
        if (budget.refused.length) store.showMessage([...budget.refused, ...notes]);
        else if (notes.length) store.showMessage(notes, 'notice');
        return true;
      } catch (err) {
        store.showMessage(err.message);
        return false;
      }
    }),
  };
}
