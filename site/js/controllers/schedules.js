// Editing schedules: a curve's schedule, a schedule to predict, a new schedule to predict, all
// through the schedule builder (editSchedule, a dialog), then predicted. And the builder's
// service: what it asks lawcore (an expanded schedule, the presets, a file's learning rates).
import { explicitSchedule, importText, fileBytes } from '../import-files.js';
import { PRESETS } from '../schema.js';
import { guessPeak } from '../selectors.js';

/** createSchedules returns {editCurve(name), editPrediction(name), addPrediction(), service}. */
export function createSchedules({ store, engine, predicting, editSchedule }) {
  const fallback = () => ({ warmup: store.state.settings.warmupSteps });
  return {
    /** editCurve gives a curve with data its schedule (from the builder, or a file's learning rates). */
    async editCurve(name) {
      const c = store.state.curves.find((x) => x.name === name);
      if (!c) return;
      const guess = c.schedule || { kind: 'constant', total: c.steps[c.steps.length - 1], peak: guessPeak(store.state) };
      const got = await editSchedule({ title: `Schedule of ${c.name}`, schedule: guess, fallback: fallback() });
      if (!got) return;
      store.setSchedule(name, { schedule: got.schedule, scheduleSource: got.fromFile ? 'file' : 'builder', lrFile: got.fromFile || undefined });
      predicting.update();
    },
    /** editPrediction changes a schedule to predict (and its name). */
    async editPrediction(name) {
      const p = store.state.predictions.find((x) => x.name === name);
      if (!p) return;
      const got = await editSchedule({ title: `Edit ${p.name}`, name: p.name, schedule: p.schedule, fallback: fallback() });
      if (!got) return;
      store.editPrediction(name, got);
      predicting.update();
    },
    /** addPrediction adds a schedule to predict, starting from the last one's. */
    async addPrediction() {
      const last = store.state.predictions[store.state.predictions.length - 1];
      const got = await editSchedule({ title: 'Add a schedule to predict', name: '', schedule: last ? { ...last.schedule } : null, fallback: fallback() });
      if (!got) return;
      store.addPrediction(got.name, got.schedule);
      predicting.update();
    },
    service: {
      expand: (desc) => engine.schedule(desc),
      presets: async () => {
        await engine.ready;
        return PRESETS;
      },
      onRestart: (fn) => engine.on('restart', fn),
      /** learningRates reads a file's learning rates as a schedule: {schedule, run} (of the first run chosen), or {skipped}. */
      async learningRates(file, ask) {
        const { lrCurves, skipped } = await importText(engine, file.name, await fileBytes(file), ask, { asLR: true });
        if (skipped) return { skipped };
        const [lr] = lrCurves;
        if (!lr) throw new Error(`${file.name}: found no learning rates`);
        return { schedule: explicitSchedule(lr.steps, lr.lr), run: lr.run };
      },
    },
  };
}
