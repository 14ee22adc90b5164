// Running the Analyses panel's views: one of the paper's analyses (`analyze`) from the current
// parameters, or the model-size law (`fit` with law "size", then `predict` at an unseen size, or
// `analyze` "size-drop" for the annealing drop against N), with the answers kept in the store for
// the panel to draw. The Paper view (`analyze` "paper") lists the paper's claims; opening a claim
// shows its view under the paper's setting, with the claim's verdict above it (analysis.claim).
// The λ views refit the law for each λ to the curves of the fit in use. The analyses that compare
// choices get the fit's replicates, and answer with each choice's ± and which cannot be told
// apart. Only the latest run's answer is kept; an option typed wrong (in a field or the JSON
// view), or refused by lawcore, is named in the error and the view's last answer stays on screen
// (also when the answer of the options before it arrives after it).
import {
  VIEWS,
  viewById,
  sizeOfCurve,
  SIZE_EXAMPLE_RUNS,
  sizefitView,
  unseenSchedules,
  parseModelSize,
} from '../analysis/analysis-views.js';
import { sizeDropOptions, sizeDropView } from '../analysis/size-drop.js';
import { claimOf, claimView } from '../analysis/paper-claims.js';
import {
  fieldsOf,
  defaultOptions,
  optionsInUse,
  withField,
  parseOptionsJSON,
  labelledError,
} from '../analysis/analysis-forms.js';
import { answerSentence } from '../analysis/analysis-answers.js';
import { previewOf } from '../analysis/analysis-preview.js';
import { UNCERTAIN_ANALYSES, uncertainTable } from '../analysis/analysis-uncertainty.js';
import { analysisSetup, analysisFitCurves, fittedPeak, analysisRuns } from '../state/selectors.js';
import { importText } from '../import/import-files.js';
import * as fmt from '../common/format.js';

/** PREVIEW_SHARE is the share of the progress bar a first answer takes (analysis-preview.js). */
const PREVIEW_SHARE = 0.15;

/** The model-size example's settings: the release's 2160 warmup steps, counted as run. */
const SIZE_EXAMPLE = { warmup: 2160, warmupConvention: 'actual' };

/**
 * createAnalyses returns {run({example}), cancel(), refresh(), select(id), setField(key, text),
 * setOptionsText(text), resetOptions(), toggled(open), loadDefaults(), setSizeTarget(text),
 * setCurveSize(name, size), openClaim(id)}.
 */
export function createAnalyses({ store, engine }) {
  /** answers caches analyze's answers by request, until the parameters change. */
  const answers = new Map();
  /**
   * lasting caches the answers of views that take no setup (the paper's claims): they do not
   * change with the parameters.
   */
  const lasting = new Map();
  /** sizeFit is the latest model-size fit: {curves, lambda, warmup, warmupConvention, value}. */
  let sizeFit = null;
  let seq = 0;
  /**
   * refusedInput is the option typed wrong since the latest run started ({view, message, key}):
   * that run's answer is of the options before it, so the error must stay on screen beside it.
   */
  let refusedInput = null;
  let sizeExample = null;
  /**
   * beforeFirst is the answer shown before a run drew its first, coarser answer: a cancel, or an
   * error, puts it back (the first answer is only shown while the answer computes).
   */
  let beforeFirst = null;
  /** shownBefore is the answer shown, or the one before a first answer that is still refining. */
  const shownBefore = () => {
    const r = store.state.analysis.result;
    return r && r.refining ? beforeFirst : r;
  };

  const current = () => viewById(store.state.analysis.view);

  /**
   * showError shows what is wrong with the view's options (key: the option at fault) and keeps
   * the view's last answer, saying that it is from the last options that worked; another view's
   * answer is cleared.
   */
  function showError(v, message, key = '') {
    const kept = shownBefore();
    const keep = !!(kept && kept.view === v.id && (kept.chart || kept.claims));
    store.analysisChanged({
      ...(keep
        ? { result: kept }
        : { result: { view: v.id, chart: null, table: null, note: '', answer: '', crossover: null, claims: null } }),
      error: `${v.label}: ${message}${keep ? ' (The answer shown is from the last options that worked.)' : ''}`,
      errorField: key,
    });
  }

  let defaults = null;
  /** loadDefaults asks lawcore, once, for every analysis's default options, for the options box. */
  function loadDefaults() {
    defaults ||= engine.analysisDefaults().then(
      (d) => store.analysisChanged({ defaults: d }, { showOptions: true }),
      () => {
        defaults = null; /* the options box stays at {}; asked again on the next opening */
      },
    );
    return defaults;
  }

  /** refuseInput names an option typed wrong; the options in use, and any run under way, stay. */
  function refuseInput(v, message, key) {
    refusedInput = { view: v.id, message, key };
    showError(v, message, key);
  }

  /** run computes the view shown (example: the model-size law on the release's 25M and 100M runs). */
  async function run({ example = false } = {}) {
    const v = current();
    const my = ++seq;
    refusedInput = null;
    store.analysisChanged({ status: `Computing “${v.label}”…`, computing: true, progress: 0 });
    try {
      // the bar moves for this run only: a report of a run since replaced must not move it
      const onProgress = (fraction) => {
        if (my === seq) store.analysisChanged({ progress: fraction });
      };
      // a coarser first answer (analysis-preview.js), drawn marked as refining while the answer computes
      const onFirst = (out) => {
        if (my !== seq) return false;
        if (!(store.state.analysis.result && store.state.analysis.result.refining))
          beforeFirst = store.state.analysis.result;
        store.analysisChanged({
          result: { ...shownResult(v, out), refining: out.refining },
          status: `Computing “${v.label}”: a first answer drawn in ${fmt.ms(out.elapsed)}, without ${out.refining}; refining…`,
          error: '',
          errorField: '',
        });
        return true;
      };
      const out = v.sizefit
        ? await runSizefit(v, example, onProgress)
        : await runAnalysis(v, onProgress, onFirst, () => my === seq);
      if (my !== seq) return;
      const holds = typeof v.holds === 'function' ? v.holds(out.result) : v.holds;
      store.analysisChanged({
        computing: false,
        result: shownResult(v, out),
        status: `${out.source ? `From ${out.source}` : 'Computed'}${holds ? ` (${holds})` : ''} · took ${fmt.ms(out.elapsed)}`,
        error: '',
        errorField: '',
      });
      if (refusedInput && refusedInput.view === v.id) showError(v, refusedInput.message, refusedInput.key);
    } catch (err) {
      if (my !== seq) return;
      store.analysisChanged({ status: '', computing: false });
      if (v.analysis) {
        const { message, key } = labelledError(v.analysis, err.message);
        showError(v, message, key);
      } else showError(v, err.message);
    }
  }

  /** shownResult is the store's result of a view's answer (out: runAnalysis's or runSizefit's). */
  const shownResult = (v, out) => ({
    view: v.id,
    chart: out.chart,
    table: out.table,
    note: out.note || '',
    answer: out.answer || '',
    crossover: (out.chart && out.chart.crossover) || null,
    claims: v.claims ? out.result.claims : null,
  });

  /**
   * runAnalysis computes an analysis's view. When the answer can take seconds, a coarser first
   * answer (analysis-preview.js) goes to onFirst(out, with refining: what it leaves out) as soon
   * as it is computed, its progress the bar's first PREVIEW_SHARE; live() says whether the run is
   * still the latest (a run replaced or cancelled after its first answer asks for no more).
   */
  async function runAnalysis(v, onProgress, onFirst = null, live = () => true) {
    const pageSetup = analysisSetup(store.state);
    let options = optionsInUse(store.state.analysis, v.analysis, analysisRuns(store.state), pageSetup.warmup);
    const setup = v.noSetup ? null : pageSetup;
    if (setup && (options.params || (options.law && options.law !== setup.law))) {
      // parameters set in the options (the JSON view) are not the fit's: a partial set is taken
      // over the current parameters of the same law, another law starts from its own defaults;
      // the fit's replicates do not apply to them
      if (options.law && options.law !== setup.law) delete setup.params;
      else options = { ...options, params: { ...setup.params, ...options.params } };
      delete setup.replicates;
      delete setup.members;
      delete setup.band;
      setup.source = `the parameters set in the options${setup.params ? ` (the rest: ${setup.source})` : ''}`;
    }
    // a view opened from one of the paper's claims runs under the paper's setting, which its options hold
    const claim = store.state.analysis.claim;
    if (setup && claim && claim.view === v.id && options.params)
      setup.source = `the paper’s Fig. 2 parameters, as its §${claim.section} claim`;
    // the fit's replicates go to the analyses that compare choices: they answer with each one's ±
    if (setup && !UNCERTAIN_ANALYSES.has(v.analysis)) {
      delete setup.replicates;
      delete setup.band;
    }
    // the λ views refit the law for each λ to the fit's curves (not to parameters set in the options)
    if (setup && v.refits && !options.fit && !options.params) {
      const fit = analysisFitCurves(store.state);
      if (fit) setup.fit = fit;
    }
    const key = JSON.stringify([v.analysis, options, { ...setup, fit: setup && setup.fit && setup.fit.curves.length }]);
    const cache = setup ? answers : lasting;
    if (!cache.has(key)) {
      const started = performance.now();
      const first = onFirst && previewOf(v.analysis, options, setup, v.id);
      let progress = onProgress;
      if (first) {
        try {
          const early = await engine.analyze(v.analysis, first.options, first.setup, undefined, (f) =>
            onProgress(f * PREVIEW_SHARE),
          );
          const out = present(v, early, '', first.options, first.setup, performance.now() - started);
          onFirst({ ...out, refining: first.what, answer: `First answer, refining: ${out.answer}` });
        } catch (err) {
          // a first answer that fails leaves the answer itself to say what is wrong
          if (!live()) throw err;
        }
        if (!live()) throw new Error('replaced');
        progress = (f) => onProgress(PREVIEW_SHARE + (1 - PREVIEW_SHARE) * f);
      }
      let result;
      let refused = '';
      try {
        result = await engine.analyze(v.analysis, options, setup, undefined, progress);
      } catch (err) {
        // replicates lawcore refuses (a stored fit's, say) cost the ±, not the answer
        if (!setup || !(setup.replicates || setup.band) || !/^(replicates|band)\b/.test(err.message)) throw err;
        refused = err.message;
        const without = { ...setup, replicates: undefined, band: undefined };
        result = await engine.analyze(v.analysis, options, without, undefined, progress);
      }
      cache.set(key, { result, refused, elapsed: performance.now() - started });
    }
    const { result, refused, elapsed } = cache.get(key);
    return present(v, result, refused, options, setup, elapsed);
  }

  /**
   * present turns an analysis's answer into the view's chart, table, note, answer sentence and
   * source (refused: the fit's replicates lawcore refused).
   */
  function present(v, result, refused, options, setup, elapsed) {
    const chart = v.chart(result);
    const peak = options.peak !== undefined ? `, peak LR ${fmt.lr(options.peak)} (set here)` : '';
    const spread = refused
      ? `, no ± (the fit's replicates were refused: ${refused})`
      : setup && setup.band && setup.band.replicates
        ? `, ± from the fit's band (90%): its ${setup.band.replicates[0].sets.length} jackknife refits${setup.members ? ' of each law' : ''}`
        : setup && setup.replicates
          ? `, ± from the fit's ${setup.replicates.length} jackknife refits (90%)`
          : setup && UNCERTAIN_ANALYSES.has(v.analysis)
            ? ', no ± (a fit gives one: not parameters entered by hand, nor a fit with under 20 points in a curve or over 200,000 in all)'
            : '';
    const source = setup && !v.ownParams ? `${setup.source}${peak}${spread}` : '';
    // parameters set in the options are not the fit's: no fitted peak to measure against
    const context = { fittedPeak: setup && !options.params ? fittedPeak(store.state) : 0 };
    return {
      chart,
      table: uncertainTable(v.analysis, result),
      note: chart ? chart.note : '',
      answer: v.answer ? v.answer(result) : answerSentence(v.id, result, options, context),
      source,
      elapsed,
      result,
    };
  }

  /** exampleCurves imports the release's runs at 25M and 100M (the curves of the page stay). */
  async function exampleCurves() {
    const out = [];
    for (const size of [25, 100]) {
      for (const [name, role] of SIZE_EXAMPLE_RUNS) {
        const file = `examples/mpl/csv_${size}/${name}.csv`;
        const response = await fetch(file);
        if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
        const {
          curves: [c],
        } = await importText(engine, `${name}.csv`, await response.text());
        out.push({ ...c, name: `${size}M ${name}`, role, size: size * 1e6 });
      }
    }
    return out;
  }

  /**
   * fitSizes fits the model-size law to the curves tagged with N (two sizes at least), or to the
   * release's example (example, or when the page has no tagged curves and the example was
   * loaded): {response, lines, curves, warmup, warmupConvention, example}. The latest fit is
   * kept for the next view or unseen N of the same curves and settings.
   */
  async function fitSizes(example, onProgress) {
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
        throw new Error(
          'tag curves of at least two model sizes with N (fields above), or press “MultiPowerLaw 25M + 100M example”.',
        );
      }
    }
    const lambda = Number.isFinite(setup.params?.lambda) ? setup.params.lambda : 0.999;
    const same = (a, b) =>
      a.name === b.name
      && a.size === b.size
      && a.role === b.role
      && a.steps === b.steps
      && a.loss === b.loss
      && a.schedule === b.schedule;
    const f = sizeFit;
    if (
      f
      && f.lambda === lambda
      && f.warmup === warmup
      && f.warmupConvention === warmupConvention
      && f.curves.length === curves.length
      && f.curves.every((c, i) => same(c, curves[i]))
    )
      return f.value;
    const { response, lines } = await engine.sizefit(
      curves,
      { lambda, warmupSteps: warmup, warmupConvention, huberDelta: 0.001, points: 400 },
      onProgress,
    );
    const value = { response, lines, curves, warmup, warmupConvention, example: curves === sizeExample };
    sizeFit = { curves, lambda, warmup, warmupConvention, value };
    return value;
  }

  /**
   * runSizefit computes a model-size view (v): the fit and its prediction at the unseen N, or the
   * annealing drop against N (v.sizeDrop).
   */
  async function runSizefit(v, example, onProgress) {
    const started = performance.now();
    const {
      response,
      lines,
      curves,
      warmup,
      warmupConvention,
      example: isExample,
    } = await fitSizes(example, onProgress);
    const targetN = parseModelSize(store.state.analysis.sizeTarget, 'Predict at unseen N');
    if (v.sizeDrop) {
      const { ratio } = optionsInUse(store.state.analysis, 'size-drop');
      const options = {
        ...sizeDropOptions({ response, curves, warmup, warmupConvention, target: targetN }),
        ...(Number.isFinite(ratio) ? { ratio } : {}),
      };
      const result = await engine.analyze('size-drop', options, null, undefined, onProgress);
      return { ...sizeDropView(result, options, { example: isExample }), elapsed: performance.now() - started };
    }
    const schedules = unseenSchedules(curves, targetN);
    const predicted = await engine.predict(
      'size',
      { params: response.params, settings: { warmupSteps: warmup, warmupConvention } },
      schedules,
      400,
    );
    const out = sizefitView({ response, lines, curves, predicted, targetN, warmup, example: isExample });
    return { ...out, elapsed: performance.now() - started };
  }

  /**
   * cancel stops the analysis under way: lawcore is asked to stop (a worker that does not is
   * replaced), its answer is dropped, and the view's last answer stays.
   */
  function cancel() {
    if (!store.state.analysis.computing) return;
    seq++;
    // a fit running meanwhile is the user's too: only the analysis is stopped then, by dropping its answer
    if (!store.state.fitting) engine.cancel();
    const kept = shownBefore();
    store.analysisChanged({
      computing: false,
      result: kept,
      status: `Cancelled.${kept && kept.chart ? ' The answer shown is from before.' : ''}`,
    });
  }

  /**
   * runSizeViewIfShown computes the model-size view again when the panel shows it (its input
   * changed): also over its error, which the second size tagged resolves.
   */
  function runSizeViewIfShown() {
    const a = store.state.analysis;
    if (a.open && viewById(a.view).sizefit) run();
  }

  return {
    run,
    cancel,
    /**
     * refresh recomputes the view shown once what it is computed from changed (new parameters,
     * another peak LR or warmup: derived.js decides), if the panel is open and drawn, or
     * computing: an answer under way is of the inputs before (a link's panel computed while its
     * fit was made again kept the answer of no fit).
     */
    refresh() {
      answers.clear();
      const a = store.state.analysis;
      if (a.open && ((a.result && a.result.table) || a.computing)) run();
    },
    /**
     * setSizeTarget sets the unseen model size the model-size view predicts at, and computes the
     * view again if it is shown.
     */
    setSizeTarget(text) {
      store.analysisChanged({ sizeTarget: text });
      runSizeViewIfShown();
    },
    /**
     * setCurveSize tags a curve with its model size N (null: none), and computes the
     * model-size view again if it is shown: its answer was of the sizes before.
     */
    setCurveSize(name, size) {
      store.setCurveSize(name, size);
      runSizeViewIfShown();
    },
    /**
     * select shows another view and computes it; a view borrowed by a claim (openClaim) gets its
     * options back.
     */
    select(id) {
      const claim = store.state.analysis.claim;
      if (claim && claim.analysis) store.setAnalysisOptions(claim.analysis, claim.previous);
      store.analysisChanged({ view: id, claim: null }, { showOptions: true });
      run();
    },
    /**
     * openClaim shows the view of one of the paper's claims (id, in the Paper view's answer)
     * under the paper's setting: its analysis's options set to the claim's (the Fig. 2
     * parameters, peak and warmup among them), with the claim's verdict above the answer; the
     * model-size claim shows the model-size view, on the release's example unless the page has
     * curves of two sizes. It returns the view shown, 'fit' for the claim about the page's own
     * fit (which main.js shows), or null when there is no such claim.
     */
    openClaim(id) {
      const claim = claimOf(store.state.analysis.result, id);
      if (!claim) return null;
      const view = claimView(claim, VIEWS);
      if (!view || view === 'fit') return view;
      const { section, source, verdict, status } = claim;
      const shown = { id, section, source, verdict, status, view };
      if (claim.analysis && claim.options) {
        // the view is borrowed: its options come back when another view is chosen (select)
        Object.assign(shown, { analysis: claim.analysis, previous: store.state.analysis.options[claim.analysis] });
        const defaults = defaultOptions(store.state.analysis.defaults, claim.analysis);
        store.setAnalysisOptions(claim.analysis, { ...defaults, ...claim.options });
      }
      store.analysisChanged({ view, claim: shown }, { showOptions: true });
      const sized = new Set(store.state.curves.map(sizeOfCurve).filter(Boolean));
      run({ example: viewById(view).sizefit && sized.size < 2 });
      return view;
    },
    /**
     * setField sets one option of the view's analysis from its field's text and computes the
     * view; text that is wrong is named in the error, and nothing changes.
     */
    setField(key, text) {
      const v = current();
      const field = fieldsOf(v.analysis, store.state.analysis.defaults).find((f) => f.key === key);
      if (!field) return;
      let options;
      try {
        options = withField(
          optionsInUse(store.state.analysis, v.analysis, analysisRuns(store.state), analysisSetup(store.state).warmup),
          field,
          text,
        );
      } catch (err) {
        return refuseInput(v, err.message, key);
      }
      store.setAnalysisOptions(v.analysis, options, { showOptions: true });
      store.analysisChanged({ claim: null });
      run();
    },
    /**
     * setOptionsText sets the view's analysis's options from the JSON view and computes it; JSON
     * that is wrong is named, and nothing changes.
     */
    setOptionsText(text) {
      const v = current();
      if (!v.analysis) return;
      let options;
      try {
        // an option left out is lawcore's default, and the form shows it so (it showed a blank field)
        options = {
          ...defaultOptions(
            store.state.analysis.defaults,
            v.analysis,
            analysisRuns(store.state),
            analysisSetup(store.state).warmup,
          ),
          ...parseOptionsJSON(text),
        };
      } catch (err) {
        return refuseInput(v, err.message, 'json');
      }
      store.setAnalysisOptions(v.analysis, options, { showOptions: true });
      store.analysisChanged({ claim: null });
      run();
    },
    /** resetOptions puts the view's analysis back to lawcore's defaults and computes it. */
    resetOptions() {
      const v = current();
      if (v.analysis) store.setAnalysisOptions(v.analysis, undefined, { showOptions: true });
      store.analysisChanged({ claim: null });
      run();
    },
    /** toggled: the panel opened or closed; it computes on the first opening. */
    async toggled(open) {
      store.analysisChanged({ open });
      if (!open) return;
      // The analyses are in lawcore.wasm, which the page loads only now (the first view runs on
      // the small core): their defaults first, for the options box. A view chosen (or its
      // example asked for) while they load has started its own run, which this must not replace.
      const started = seq;
      await loadDefaults();
      if (seq === started && !(store.state.analysis.result && store.state.analysis.result.table)) run();
    },
    loadDefaults,
  };
}
