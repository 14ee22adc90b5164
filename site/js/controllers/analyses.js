// Running the Analyses panel's views: one of the paper's analyses (`analyze`) from the current
// parameters, or the model-size law (`fit` with law "size", then `predict` at an unseen size), with the
// answers kept in the store for the panel to draw. Only the latest run's answer is kept.
import { viewById, optionsText, chartSpec, sizeOfCurve, SIZE_EXAMPLE_RUNS, sizefitView, unseenSchedules } from '../analysis-views.js';
import { analysisSetup } from '../selectors.js';
import { importText } from '../import-files.js';
import * as fmt from '../format.js';

/** The model-size example's settings: the release's 2160 warmup steps, counted as run. */
const SIZE_EXAMPLE = { warmup: 2160, warmupConvention: 'actual' };

/** createAnalyses returns {run({example}), refresh(), select(id), resetOptions(), toggled(open), loadDefaults()}. */
export function createAnalyses({ store, engine }) {
  /** answers caches analyze's answers by request, until the parameters change. */
  const answers = new Map();
  let seq = 0;
  let sizeExample = null;

  const current = () => viewById(store.state.analysis.view);

  let defaults = null;
  /** loadDefaults asks lawcore, once, for every analysis's default options, for the options box. */
  function loadDefaults() {
    defaults ||= engine.analysisDefaults().then(
      (d) => store.analysisChanged({ defaults: d }, { showOptions: true }),
      () => { defaults = null; /* the options box stays at {}; asked again on the next opening */ },
    );
    return defaults;
  }

  /** run computes the view shown (example: the model-size law on the release's 25M and 100M runs). */
  async function run({ example = false } = {}) {
    const v = current();
    const my = ++seq;
    store.analysisChanged({ status: `Computing “${v.label}”…` });
    try {
      const out = v.sizefit ? await runSizefit(example) : await runAnalysis(v);
      if (my !== seq) return;
      store.analysisChanged({
        result: { view: v.id, spec: chartSpec(out.chart), table: out.table, note: out.note || '', crossover: out.chart.crossover || null },
        status: `${out.source ? `${out.source} · ` : ''}${fmt.ms(out.elapsed)}`, error: '',
      });
    } catch (err) {
      if (my !== seq) return;
      store.analysisChanged({ result: { view: v.id, spec: null, table: null, note: '', crossover: null }, status: '', error: `${v.label}: ${err.message}` });
    }
  }

  async function runAnalysis(v) {
    let options;
    try {
      options = JSON.parse(optionsText(store.state.analysis, v) || '{}');
    } catch (err) {
      throw new Error(`options are not valid JSON: ${err.message}`);
    }
    const setup = v.noSetup ? null : analysisSetup(store.state);
    const key = JSON.stringify([v.analysis, options, setup]);
    if (!answers.has(key)) {
      const started = performance.now();
      const result = await engine.analyze(v.analysis, options, setup);
      answers.set(key, { result, elapsed: performance.now() - started });
    }
    const { result, elapsed } = answers.get(key);
    const chart = v.chart(result);
    return { chart, table: result.table, note: chart.note, source: setup ? setup.source : '', elapsed };
  }

  /** exampleCurves imports the release's runs at 25M and 100M (the curves of the page stay). */
  async function exampleCurves() {
    const out = [];
    for (const size of [25, 100]) {
      for (const [name, role] of SIZE_EXAMPLE_RUNS) {
        const file = `examples/mpl/csv_${size}/${name}.csv`;
        const response = await fetch(file);
        if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
        const { curves: [c] } = await importText(engine, `${name}.csv`, await response.text());
        out.push({ ...c, name: `${size}M ${name}`, role, size: size * 1e6 });
      }
    }
    return out;
  }

  async function runSizefit(example) {
    const state = store.state;
    const setup = analysisSetup(state);
    let curves;
    let { warmup, warmupConvention } = setup;
    if (example) sizeExample = await exampleCurves();
    const tagged = state.curves.filter((c) => sizeOfCurve(c));
    if (example || (sizeExample && !tagged.length)) {
      curves = sizeExample;
      ({ warmup, warmupConvention } = SIZE_EXAMPLE);
    } else {
      curves = tagged.filter((c) => c.schedule).map((c) => ({ ...c, size: sizeOfCurve(c) }));
      if (new Set(curves.map((c) => c.size)).size < 2) {
        throw new Error('tag curves of at least two model sizes with N (fields above), or press “MultiPowerLaw 25M + 100M example”.');
      }
    }
    const lambda = Number.isFinite(setup.params?.lambda) ? setup.params.lambda : 0.999;
    const started = performance.now();
    const { response, lines } = await engine.sizefit(curves, { lambda, warmupSteps: warmup, warmupConvention, huberDelta: 0.001, points: 400 });
    const target = store.state.analysis.sizeTarget;
    const targetN = Number(target);
    if (!(targetN > 0)) throw new Error(`unseen model size N: "${target}" is not a positive number`);
    const schedules = unseenSchedules(curves, targetN);
    const predicted = await engine.predict('size', { params: response.params, settings: { warmupSteps: warmup, warmupConvention } }, schedules, 400);
    const out = sizefitView({ response, lines, curves, predicted, targetN, warmup, example: curves === sizeExample });
    return { ...out, elapsed: performance.now() - started };
  }

  return {
    run,
    /** refresh recomputes the view shown (after a fit or new parameters), if the panel is open and drawn. */
    refresh() {
      answers.clear();
      const a = store.state.analysis;
      if (a.open && a.result && a.result.table) run();
    },
    /** select shows another view and computes it. */
    select(id) {
      store.analysisChanged({ view: id }, { showOptions: true });
      run();
    },
    /** resetOptions puts the view's analysis back to lawcore's defaults and computes it. */
    resetOptions() {
      const v = current();
      if (v.analysis) store.setAnalysisOptions(v.analysis, undefined, { showOptions: true });
      run();
    },
    /** toggled: the panel opened or closed; it computes on the first opening. */
    async toggled(open) {
      store.analysisChanged({ open });
      if (!open) return;
      // The analyses are in lawcore.wasm, which the page loads only now (the first view runs on
      // the small core): their defaults first, for the options box.
      await loadDefaults();
      if (!(store.state.analysis.result && store.state.analysis.result.table)) run();
    },
    loadDefaults,
  };
}
