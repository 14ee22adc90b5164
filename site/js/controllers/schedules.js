// Editing schedules: a curve's schedule, a schedule to predict, a new schedule to predict, all
// through the schedule builder (editSchedule, a dialog), then predicted. The builder starts
// from the run at hand: a curve's own data (its last step, its LR column's peak and warmup),
// else the loaded runs'. A curve's schedule is checked against its data when saved (the
// problems stay on the curve, shown in its row and before a fit). And the builder's service:
// what it asks lawcore (an expanded schedule, the presets, a file's learning rates). The lines
// of a schedule changed or added are predicted as every missing line is (derived.js).
import { explicitSchedule, importText, fileBytes } from '../import/import-files.js';
import { PRESETS } from '../engine/schema.js';
import { curveFacts, nominalLength, scheduleDefaults, scheduleProblems } from '../schedules/curve-facts.js';
import * as fmt from '../common/format.js';

/** BUILDER_DEFAULTS: a new schedule with no run to go by (the paper's Fig. 3 runs). */
const BUILDER_DEFAULTS = { total: 60000, peak: 2e-4 };

/**
 * createSchedules returns {editCurve(name), editPrediction(name), addPrediction(),
 * checkCurve(curve), copyCode(name, flavour), service}.
 */
export function createSchedules({ store, engine, editSchedule }) {
  const fallback = () => ({ warmup: store.state.settings.warmupSteps });
  /** context is the run a schedule to predict starts from: the loaded runs', the settings' warmup. */
  const context = () => ({
    ...scheduleDefaults(store.state, { ...BUILDER_DEFAULTS, warmup: store.state.settings.warmupSteps }),
    from: store.state.curves.length ? 'the loaded curves' : '',
  });

  /**
   * checkCurve lists where a curve's schedule disagrees with its data; its LR is compared with
   * the curve's LR column as lawcore expands it (a schedule lawcore refuses is left to the fit).
   */
  async function checkCurve(curve) {
    let expanded = null;
    try {
      if (curve.schedule)
        expanded = await engine.schedule({ warmup: store.state.settings.warmupSteps, ...curve.schedule });
    } catch {
      /* the fit says why */
    }
    return scheduleProblems(curve, expanded);
  }

  return {
    checkCurve,
    /**
     * copyCode writes a schedule to predict as a PyTorch scheduler ('pytorch': a LambdaLR, or
     * PyTorch's own CyclicLR or MultiStepLR) or a Hugging Face call ('huggingface'), shows it
     * under the answers table and copies it (copy(text) may throw: the code stays shown).
     */
    async copyCode(name, flavour, copy) {
      const p = store.state.predictions.find((x) => x.name === name);
      if (!p) return;
      const warmup = store.state.settings.warmupSteps;
      try {
        // The code writers load on first use: the first view does not need them.
        const { pytorchCode, pytorchScheduler, huggingFaceCode } = await import('../schedules/schedule-code.js');
        let text = flavour === 'huggingface' ? huggingFaceCode(p.schedule, { warmup }) : null;
        let title = `${name} as a Hugging Face call:`;
        if (!text) {
          const needsPoints = p.schedule.kind === 'concat' || (p.schedule.kind === 'explicit' && !p.schedule.steps);
          const expanded = needsPoints ? await engine.schedule({ warmup, ...p.schedule }) : null;
          text = pytorchCode(p.schedule, { name, warmup, expanded });
          // a LambdaLR of lawcore's formula, or PyTorch's own scheduler where the schedule is one
          const own = pytorchScheduler(p.schedule, { warmup });
          const what = own === 'LambdaLR' ? 'a PyTorch LambdaLR' : `PyTorch’s ${own}`;
          title =
            flavour === 'huggingface'
              ? `transformers has no schedule like ${name}; here it is as ${what} instead.`
              : `${name} as ${what}${own === 'LambdaLR' ? ' (lawcore’s formula in Python)' : ''}:`;
        }
        let copied = true;
        try {
          await copy(text);
        } catch {
          copied = false;
        }
        store.setAnswerOptions({ code: { title: `${title} ${copied ? '(copied)' : '(copy it from the box)'}`, text } });
      } catch (err) {
        store.showMessage(`Copy ${name} as code: ${err.message}`);
      }
    },
    /** editCurve gives a curve with data its schedule (from the builder, or a file's learning rates). */
    async editCurve(name) {
      const c = store.state.curves.find((x) => x.name === name);
      if (!c) return;
      const facts = curveFacts(c);
      const length = nominalLength(c);
      const near = context();
      const forRun = {
        total: length,
        peak: facts.peak ?? near.peak,
        warmup: facts.warmup ?? near.warmup,
        data: { total: length, peak: facts.peak, warmup: facts.warmup },
        from: `the curve: ${facts.from}${length > facts.lastStep ? `; its run’s length ${fmt.steps(length)}` : ''}`,
        curve: c,
      };
      const guess = c.schedule || {
        kind: 'constant',
        total: length,
        peak: forRun.peak,
        ...(Number.isFinite(forRun.warmup) ? { warmup: forRun.warmup } : {}),
      };
      const got = await editSchedule({ title: `Schedule of ${c.name}`, schedule: guess, fallback: fallback(), forRun });
      if (!got) return;
      // Learning rates from a file are the curve's LR column from then on.
      const column =
        got.fromFile && got.schedule.steps
          ? { lr: Float64Array.from(got.schedule.lr), lrSteps: Float64Array.from(got.schedule.steps) }
          : {};
      const change = {
        schedule: got.schedule,
        scheduleSource: got.fromFile ? 'file' : 'builder',
        lrFile: got.fromFile || undefined,
        ...column,
      };
      const scheduleProblemsFound = await checkCurve({ ...c, ...change });
      store.setSchedule(name, { ...change, scheduleProblems: scheduleProblemsFound });
    },
    /** editPrediction changes a schedule to predict (and its name). */
    async editPrediction(name) {
      const p = store.state.predictions.find((x) => x.name === name);
      if (!p) return;
      const got = await editSchedule({
        title: `Edit ${p.name}`,
        name: p.name,
        schedule: p.schedule,
        fallback: fallback(),
        forRun: context(),
      });
      if (!got) return;
      store.editPrediction(name, got);
    },
    /**
     * addPrediction adds a schedule to predict, or a sweep's family of them, starting from the
     * last one's, else from the loaded runs.
     */
    async addPrediction() {
      const last = store.state.predictions[store.state.predictions.length - 1];
      const got = await editSchedule({
        title: 'Add a schedule to predict',
        name: '',
        schedule: last ? { ...last.schedule } : null,
        fallback: fallback(),
        forRun: context(),
        sweep: true,
      });
      if (!got) return;
      if (got.sweep) store.addPredictions(got.sweep);
      else store.addPrediction(got.name, got.schedule);
    },
    service: {
      expand: (desc) => engine.schedule(desc),
      presets: async () => {
        await engine.ready;
        return PRESETS;
      },
      onRestart: (fn) => engine.on('restart', fn),
      /**
       * learningRates reads a file's learning rates as a schedule: {schedule, run} (of the first
       * run chosen), or {skipped}.
       */
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
