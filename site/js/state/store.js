// The page state and its actions. Every change goes through an action, which replaces the
// changed parts of the state (never edits them in place) and tells the subscribers, so that a
// view compares references to know what to redraw. lawcore is stateless: everything the page
// shows is derived from this state. No DOM here (node's tests create stores).
import { nextColor } from '../common/theme.js';
import { DEFAULT_SETTINGS, sameSettings } from './settings.js';
import { paramsOf, lineBand, bandOfFits, validationBand, restoredBand } from './selectors.js';

/** MAX_UNDO is how many changes can be undone; older ones are forgotten. */
export const MAX_UNDO = 20;

/** VIEW_KEYS are the parts of the state an example or a link replaces, and an undo of that brings back. */
const VIEW_KEYS = [
  'curves',
  'predictions',
  'settings',
  'fits',
  'manual',
  'lines',
  'validation',
  'band',
  'stale',
  'example',
];
/** CHART_VIEW_KEYS are the chart's settings a link carries (how x is counted), which an undo brings back too. */
export const CHART_VIEW_KEYS = ['xUnit', 'tokensPerStep', 'modelSize'];

/**
 * initialState is the empty page:
 *   curves       curves with data: {name, label? (the name shown, the user's: common/names.js),
 *                role: 'fit'|'validate', steps, loss, lr?, lrSteps? (the
 *                LR column: lr at lrSteps), schedule, scheduleSource: 'file'|'builder', lrFile?,
 *                scheduleProblems? (curve-facts.js), from? (the step the fit window starts at, as
 *                the user set it; absent: curve-facts.js's defaultWindow), file?, run?, size?,
 *                color, source}
 *   predictions  schedules without data, to predict: {name, schedule, color}; an example's
 *                curves and schedules carry fromExample: true
 *   example      the bundled example shown ({title}), or null: the user's first curves replace it
 *   fits         law -> its latest fit: {law, params, response, lines (Map name -> line),
 *                settings, curves (Map name -> the curve as fitted)}
 *   manual       parameters entered by hand or from a link, used instead of the fits:
 *                {params: {law: params}, settings, from: 'hand'|'link'}, or null
 *   lines        law -> predicted lines: {source (the parameters' record), byName: Map name ->
 *                {schedule, steps, lr, loss, s1Term, s2Term, finalLoss}}
 *   validation   the latest `validate` answer; band: the prediction band in use, {law,
 *                halfWidth, level, spec (lawcore's band, which predict takes), from: 'auto'|
 *                'validation'}: an auto fit's, replaced by a validation's (its first law's)
 *   stale        curves or settings changed since the latest fit; edits counts those changes
 *   fitting      {progress} while a fit or validation runs, else null
 *   message      {lines, kind: 'error'|'notice', from?, report?} or null (report: an import's
 *                curves, see showMessage); status: the status line
 *   undo         the changes that can be undone, the latest last: {text, restore, focusLabel}
 *   share        the latest share link and what it holds: {link, note}
 *   chart        {logX, logY, scheme, xUnit: 'steps'|'tokens'|'flops', tokensPerStep, modelSize
 *                (N, for FLOPs ≈ 6·N·tokens), smooth (observed losses smoothed for display)}: how
 *                the result charts are drawn
 *   engine       {version, memory}: lawcore's version and its worker's memory
 *   answers      the answers table's choices, as typed: {baseline, atStep, reachLoss} ('' : default),
 *                and code: the schedule last copied as code ({title, text}) or null
 *   analysis     the Analyses panel: {open, view, options (analysis -> the options set, as an
 *                object), optionsRevision, defaults, result, error, errorField (the option at
 *                fault), relative (losses less each line's best), status, sizeTarget}; the
 *                user's choices among them (persist.js's ANALYSIS_CHOICES) are kept with the work
 *   workspace    what the page says of the work it keeps in the browser (controllers/workspace.js):
 *                {line: {text, kind: 'notice'|'warning', actions} or null, kept (the footer's
 *                text), saving, savedAt, canForget}
 */
/** noFit is the part of the state a fit sets, as it is before any fit (new objects each time). */
const noFit = () => ({ fits: {}, manual: null, lines: {}, validation: null, band: null, stale: false });

export function initialState() {
  return {
    curves: [],
    predictions: [],
    settings: { ...DEFAULT_SETTINGS },
    ...noFit(),
    edits: 0,
    example: null,
    fitting: null,
    message: null,
    status: '',
    undo: [],
    share: { link: '', note: '' },
    chart: {
      logX: false,
      logY: false,
      scheme: 'light',
      xUnit: 'steps',
      tokensPerStep: null,
      modelSize: null,
      smooth: false,
    },
    engine: { version: '', memory: 0, loading: '' },
    answers: { baseline: '', atStep: '', reachLoss: '', code: null },
    analysis: {
      open: false,
      view: 'decomposition',
      options: {},
      optionsRevision: 0,
      defaults: null,
      result: null,
      error: '',
      errorField: '',
      relative: false,
      status: '',
      computing: false,
      progress: 0,
      sizeTarget: '400e6',
    },
    workspace: { line: null, kept: '', saving: false, savedAt: 0, canForget: false },
  };
}

/**
 * keptLines are the predicted lines of state with results ([{law, source, byName}]) added:
 * lines predicted with parameters no longer in use, or for a schedule since changed, are not kept.
 */
function keptLines(state, results) {
  const lines = { ...state.lines };
  const itemOf = new Map([...state.curves, ...state.predictions].map((x) => [x.name, x]));
  for (const { law, source, band = null, byName } of results) {
    const p = paramsOf(state, law);
    if (!p || p.source !== source || band !== lineBand(state, law)) continue;
    const kept =
      lines[law] && lines[law].source === source && lines[law].band === band ? new Map(lines[law].byName) : new Map();
    for (const [name, line] of byName) if (itemOf.get(name)?.schedule === line.schedule) kept.set(name, line);
    lines[law] = { source, band: lineBand(state, law), byName: kept };
  }
  return lines;
}

/**
 * withChoices is the Analyses panel a with the user's choices set (a saved workspace's or a
 * link's: open, view, options, ...): its answer and error go, computed again when it is open,
 * and the panel shows the options set.
 */
function withChoices(a, choices) {
  return {
    ...a,
    ...choices,
    result: null,
    error: '',
    errorField: '',
    status: '',
    optionsRevision: a.optionsRevision + 1,
  };
}

/** createStore returns {state, subscribe(fn(state, previous)) -> unsubscribe, ...actions}. */
export function createStore(initial = initialState()) {
  let state = initial;
  const listeners = new Set();

  function set(patch) {
    const previous = state;
    state = { ...state, ...patch };
    for (const fn of listeners) fn(state, previous);
  }

  /** touched is the patch of a change to the curves, schedules or settings: the latest fit is stale. */
  const touched = () => ({ stale: true, edits: state.edits + 1 });

  /** uniqueName returns name, or name (2), name (3)... so that no curve or schedule shares it. */
  function uniqueName(name, taken) {
    if (!taken.has(name)) return name;
    for (let i = 2; ; i++) if (!taken.has(`${name} (${i})`)) return `${name} (${i})`;
  }

  /** named gives new items unique names and colours next to those already there. */
  function named(items, existing) {
    const taken = new Set(existing.map((c) => c.name));
    const colors = existing.map((c) => c.color);
    return items.map((item) => {
      const out = { ...item, name: uniqueName(item.name, taken), color: nextColor(colors) };
      taken.add(out.name);
      colors.push(out.color);
      return out;
    });
  }

  const all = () => [...state.curves, ...state.predictions];
  const listOf = (name) => (state.curves.some((c) => c.name === name) ? 'curves' : 'predictions');
  const replaceItem = (list, name, change) => state[list].map((x) => (x.name === name ? { ...x, ...change } : x));

  /**
   * undoable applies patch (a change that can be undone) and keeps restore(state) -> patch. When
   * nothing else changed in between, the undo also puts back whether the fit was stale: undoing
   * the last change restores the page as it was.
   */
  function undoable(text, focusLabel, patch, restore) {
    const stale = state.stale;
    const edits = state.edits + 1;
    const entry = {
      text,
      focusLabel,
      restore: (s) => ({
        ...restore(s),
        ...(s.edits === edits ? { stale, edits: edits - 1 } : { stale: true, edits: s.edits + 1 }),
      }),
    };
    set({ ...patch, stale: true, edits, undo: [...state.undo, entry].slice(-MAX_UNDO) });
  }

  const actions = {
    // ---- messages ----------------------------------------------------------------------------

    /**
     * showMessage shows errors (or a notice); from names what raised it ('predict' is cleared by
     * the next prediction). report (an import's: {curves: [{name, points, first, last, lr,
     * schedule}], shown}) puts the curves added first, one line each, with the first `shown`
     * lines and the rest behind a disclosure.
     */
    showMessage(lines, kind = 'error', from = null, report = null) {
      set({ message: { lines: Array.isArray(lines) ? lines : [lines], kind, from, ...(report ? { report } : {}) } });
    },
    clearMessage() {
      if (state.message) set({ message: null });
    },
    setStatus(status) {
      set({ status });
    },

    // ---- curves and schedules ----------------------------------------------------------------

    /** addCurves adds curves with data under unique names, each with a colour; it returns them as added. */
    addCurves(curves) {
      if (!curves.length) return [];
      const added = named(
        curves.map((c) => ({ role: 'fit', scheduleSource: 'builder', ...c })),
        all(),
      );
      set({ curves: [...state.curves, ...added], ...touched() });
      return added;
    },
    /**
     * setWindow sets the step a curve is fitted from (null: the default, the end of its
     * warmup); names: one curve's name or a list of them.
     */
    setWindow(names, from) {
      const list = new Set(Array.isArray(names) ? names : [names]);
      const curves = state.curves.map((c) =>
        list.has(c.name) ? { ...c, from: Number.isFinite(from) ? from : undefined } : c,
      );
      set({ curves, ...touched() });
    },
    setRole(name, role) {
      set({ curves: replaceItem('curves', name, { role }), ...touched() });
    },
    /**
     * setSchedule gives a curve its schedule: change is {schedule, scheduleSource, lrFile?, lr?,
     * lrSteps?, scheduleProblems?} (the problems found checking it against the curve's data).
     */
    setSchedule(name, change) {
      set({
        curves: replaceItem('curves', name, { lrFile: undefined, scheduleProblems: undefined, ...change }),
        ...touched(),
      });
    },
    /**
     * renameCurve gives a curve the name the page shows (label; '' goes back to what tells it
     * from the others): its full name stays its own, in exports, links and lawcore's messages.
     */
    renameCurve(name, label) {
      const text = String(label || '').trim();
      set({ curves: replaceItem('curves', name, { label: text && text !== name ? text : undefined }) });
    },
    /** setCurveSize tags a curve with its model size N (null: none), for the model-size law. */
    setCurveSize(name, size) {
      set({ curves: replaceItem('curves', name, { size }) });
    },
    /** addPrediction adds a schedule to predict under a unique name; it returns it. */
    addPrediction(name, schedule) {
      const [p] = named([{ name, schedule }], all());
      set({ predictions: [...state.predictions, p] });
      return p;
    },
    /** addPredictions adds schedules to predict ([{name, schedule}], a sweep's) in one change; it returns them. */
    addPredictions(items) {
      const added = named(items, all());
      set({ predictions: [...state.predictions, ...added] });
      return added;
    },
    /** editPrediction renames a schedule to predict (keeping the name unique) and changes its schedule. */
    editPrediction(name, { name: newName, schedule }) {
      const taken = new Set(
        all()
          .filter((x) => x.name !== name)
          .map((x) => x.name),
      );
      set({ predictions: replaceItem('predictions', name, { name: uniqueName(newName, taken), schedule }) });
    },
    /** remove takes a curve or a schedule to predict off the page; Undo puts it back in its place. */
    remove(name) {
      const list = listOf(name);
      const item = state[list].find((x) => x.name === name);
      if (!item) return;
      const at = state[list].indexOf(item);
      undoable(`Removed ${name}.`, `Remove ${name}`, { [list]: state[list].filter((x) => x !== item) }, (s) => {
        if (s[list].includes(item)) return {};
        const back = [...s[list]];
        back.splice(Math.min(at, back.length), 0, item);
        return { [list]: back };
      });
    },
    /**
     * clearAll takes every curve and every schedule to predict off the page, with the results
     * drawn from them (an example's too); Undo puts the view back as it was.
     */
    clearAll() {
      const { curves, predictions } = state;
      if (!curves.length && !predictions.length) return;
      const restore = actions.snapshotView();
      // An example's settings (the paper's, auto off) give way to the user's default: auto.
      const settings = state.example ? { ...state.settings, auto: true } : state.settings;
      set({
        curves: [],
        predictions: [],
        example: null,
        settings,
        ...noFit(),
        edits: state.edits + 1,
      });
      actions.offerUndo(`Cleared ${curves.length} curve(s) and ${predictions.length} schedule(s) to predict.`, restore);
    },
    /** keepExample makes the example the user's own view: curves added go beside it from then on. */
    keepExample() {
      if (state.example) set({ example: null });
    },
    /**
     * replaceExample adds the user's first curves in place of the example: its curves,
     * schedules to predict and results go (what the user added to it stays), settings (given)
     * replace the example's; Undo brings the example back. It returns the curves as added.
     */
    replaceExample(curves, settings = state.settings) {
      const title = state.example ? state.example.title : 'the example';
      const restore = actions.snapshotView();
      const kept = state.curves.filter((c) => !c.fromExample);
      const keptPredictions = state.predictions.filter((p) => !p.fromExample);
      const added = named(
        curves.map((c) => ({ role: 'fit', scheduleSource: 'builder', ...c })),
        [...kept, ...keptPredictions],
      );
      set({
        settings,
        curves: [...kept, ...added],
        predictions: keptPredictions,
        example: null,
        ...noFit(),
        stale: true,
        edits: state.edits + 1,
      });
      actions.offerUndo(`Your data replaced ${title}.`, restore);
      return added;
    },

    // ---- the view as a whole -----------------------------------------------------------------

    /**
     * loadView replaces the view (an example, a link): settings, curves and schedules, and no
     * results. example ({title}) marks the view as a bundled example, which the user's first
     * curves replace. chart (a link's: how x is counted) replaces those chart settings.
     */
    loadView({ settings, curves = [], predictions = [], example = null, chart = null, analysis = null }) {
      const mark = (item) => (example ? { ...item, fromExample: true } : item);
      const added = named(
        curves.map((c) => mark({ role: 'fit', scheduleSource: 'builder', ...c })),
        [],
      );
      set({
        settings: { ...DEFAULT_SETTINGS, ...settings },
        curves: added,
        predictions: named(predictions.map(mark), added),
        ...noFit(),
        edits: state.edits + 1,
        example,
        chart: chart ? { ...state.chart, ...chart } : state.chart,
        ...(analysis ? { analysis: withChoices(state.analysis, analysis) } : {}),
      });
    },
    /**
     * restoreView puts back a view the browser kept (persist.js's readWorkspace): the curves and
     * schedules as they were (names and colours checked there), their fits, validation and
     * predicted lines.
     */
    restoreView({
      settings,
      curves,
      predictions,
      fits,
      manual,
      validation = null,
      lines,
      stale,
      example = null,
      chart = null,
      analysis = null,
    }) {
      set({
        chart: chart ? { ...state.chart, ...chart } : state.chart,
        settings,
        curves,
        predictions,
        fits,
        manual,
        lines,
        validation,
        band: restoredBand({ validation, manual, fits }),
        stale,
        example,
        edits: state.edits + 1,
        // the panel's choices as they were kept (its answer is computed again when it is open)
        ...(analysis ? { analysis: withChoices(state.analysis, analysis) } : {}),
      });
    },
    /** snapshotView returns what puts the view back as it is now (the undo of loading an example). */
    snapshotView() {
      const saved = Object.fromEntries(VIEW_KEYS.map((k) => [k, state[k]]));
      const counted = Object.fromEntries(CHART_VIEW_KEYS.map((k) => [k, state.chart[k]]));
      return (s) => ({ ...saved, chart: { ...s.chart, ...counted }, edits: s.edits + 1 });
    },
    /** offerUndo keeps restore (from snapshotView) on the undo stack under text. */
    offerUndo(text, restore) {
      set({ undo: [...state.undo, { text, restore, focusLabel: null }].slice(-MAX_UNDO) });
    },
    /** undo puts back the latest change that can be undone; it returns it ({text, focusLabel}), or null. */
    undo() {
      const entry = state.undo[state.undo.length - 1];
      if (!entry) return null;
      set({ ...entry.restore(state), undo: state.undo.slice(0, -1) });
      return entry;
    },

    // ---- settings ----------------------------------------------------------------------------

    /** setSettings takes the settings form; a change makes the latest fit stale. */
    setSettings(settings) {
      if (sameSettings(settings, state.settings)) return;
      set({ settings, ...touched() });
    },

    // ---- fits, validations and predictions ---------------------------------------------------

    /** fitStarted: a fit or validation runs (status says what). */
    fitStarted(status) {
      set({ fitting: { progress: 0 }, status });
    },
    /** fitProgress shows how far it is (status, when given, replaces the status line). */
    fitProgress(progress, status = state.status) {
      set({ fitting: { progress }, status });
    },
    fitEnded() {
      set({ fitting: null });
    },
    /**
     * fitted keeps new fits (law -> fit record) in place of every earlier fit, parameters entered
     * by hand and validation, with the lines predicted with them (results, as linesPredicted
     * takes them); stale says whether curves or settings changed while it ran. An auto fit
     * brings the band its held-out errors calibrate.
     */
    fitted(fits, { stale, status }, results = []) {
      const band = bandOfFits(fits);
      set({
        fits,
        manual: null,
        band,
        lines: keptLines({ ...state, fits, manual: null, band }, results),
        validation: null,
        stale,
        status,
      });
    },
    /**
     * validated keeps a `validate` answer and the prediction band of its first law (the
     * annealing law when it was validated; see selectors.js validationBand), with the lines
     * predicted with that band (results, as linesPredicted takes them), so that no line
     * leaves the charts while they are predicted again.
     */
    validated(validation, status, results = []) {
      const band = validationBand(validation);
      set({ validation, band, status, lines: keptLines({ ...state, band }, results) });
    },
    /**
     * linesPredicted keeps predicted lines: results is [{law, source, byName}] (see keptLines). A
     * message a failed prediction left goes away.
     */
    linesPredicted(results) {
      set({
        lines: keptLines(state, results),
        message: state.message && state.message.from === 'predict' ? null : state.message,
      });
    },
    /**
     * useManual puts parameters entered by hand or from a link ({params: {law: params}, settings,
     * from}) in use, with the lines predicted with them (results, as linesPredicted takes them).
     */
    useManual(manual, results = []) {
      set({ manual, lines: keptLines({ ...state, manual }, results) });
    },

    // ---- share links, charts and the engine --------------------------------------------------

    setShare(share) {
      set({ share });
    },
    /** setChartOption sets how the result charts are drawn: logX, logY or scheme ('light'|'dark'). */
    setChartOption(key, value) {
      set({ chart: { ...state.chart, [key]: value } });
    },
    engineReady(version) {
      set({ engine: { ...state.engine, version } });
    },
    /** engineLoading: what the engine is loading now ('' when nothing). */
    engineLoading(loading) {
      set({ engine: { ...state.engine, loading } });
    },
    engineMemory(memory) {
      set({ engine: { ...state.engine, memory } });
    },

    /** setAnswerOptions changes the answers table's choices: {baseline?, atStep?, reachLoss?, code?}. */
    setAnswerOptions(change) {
      // The same choice again (a field left after a change) redraws nothing: a button clicked
      // as the field loses focus stays the button clicked.
      if (Object.keys(change).every((k) => state.answers[k] === change[k])) return;
      set({ answers: { ...state.answers, ...change } });
    },
    /** setWorkspace changes what the page says of the work it keeps (see initialState). */
    setWorkspace(change) {
      set({ workspace: { ...state.workspace, ...change } });
    },

    // ---- the Analyses panel ------------------------------------------------------------------

    /**
     * analysisChanged changes the Analyses panel's state; showOptions: the options box shows the
     * view's options again.
     */
    analysisChanged(change, { showOptions = false } = {}) {
      const a = state.analysis;
      set({ analysis: { ...a, ...change, optionsRevision: a.optionsRevision + (showOptions ? 1 : 0) } });
    },
    /** setAnalysisOptions keeps the options set for an analysis, an object (undefined: its defaults again). */
    setAnalysisOptions(analysis, set, { showOptions = false } = {}) {
      const options = { ...state.analysis.options };
      if (set === undefined) delete options[analysis];
      else options[analysis] = set;
      actions.analysisChanged({ options }, { showOptions });
    },
  };

  return {
    get state() {
      return state;
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    ...actions,
  };
}

/**
 * watch calls render(state) now and after every change to one of keys (the parts of the state
 * render reads): how a view follows the store.
 */
export function watch(store, keys, render) {
  render(store.state);
  return store.subscribe((state, previous) => {
    if (keys.some((k) => state[k] !== previous[k])) render(state);
  });
}
