// The page state: loaded curves, schedules to predict, settings and the latest results. lawcore is
// stateless; everything the page shows is derived from this object.
import { nextColor } from './theme.js';

/** DEFAULT_SETTINGS are the paper's: lambda 0.999, 500 warmup steps counted at the peak LR. */
export const DEFAULT_SETTINGS = {
  lambda: 0.999,
  fitLambda: false,
  warmupSteps: 500,
  warmupConvention: 'peak',
  huberDelta: 0.001,
  law: 'annealing',
  auto: false,
  mplSearch: 'optimum',
};

/** state is the single page state. */
export const state = {
  /** curves with data: {name, role: 'fit'|'validate', steps, loss, lr?: Float64Array (sparse, from the file), schedule, scheduleSource: 'file'|'builder', lrFile?: the file the LR came from when not the curve's own, file?, run?, color, source} */
  curves: [],
  /** schedules without data, to predict: {name, schedule, color} */
  predictions: [],
  settings: { ...DEFAULT_SETTINGS },
  /** the latest fit: {params, response, settings, curveNames, at} or null */
  fit: null,
  /** the Multi-Power Law's fit when the law setting includes it: {params, response, columns, settings, curves} or null */
  fit2: null,
  /** the latest leave-one-schedule-out validation: the `validate` answer, or null */
  validation: null,
  /** the annealing law's prediction band from the validation: {halfWidth, level} or null */
  band: null,
  /** parameters entered by hand or from a link (used instead of a fit): {params, multiPower?, settings, from?} or null */
  manualParams: null,
  /** the latest prediction: Map name -> {steps, lr, loss, s1Term, s2Term, finalLoss} */
  predicted: new Map(),
  /** the Multi-Power Law's latest prediction, the same way (s2Term is its loss drop LD) */
  predicted2: new Map(),
  /** true when curves or settings changed after the latest fit */
  stale: false,
  /** counts the changes to curves, schedules and settings, so that an undo can tell whether anything else changed since */
  edits: 0,
};

/** touch records a change to the curves, schedules or settings: the latest fit is stale. */
export function touch() {
  state.stale = true;
  state.edits++;
}

/**
 * undoMark is called just before a change that can be undone; the function it returns, called
 * on undo, puts back whether the fit was stale when nothing else changed in between (so undoing
 * the last change restores the page as it was).
 */
function undoMark() {
  const stale = state.stale;
  touch();
  const edits = state.edits;
  return () => {
    if (state.edits === edits) {
      state.stale = stale;
      state.edits = edits - 1;
    } else touch();
  };
}

/** uniqueName returns name, or name (2), name (3)... so that no curve or prediction shares it. */
export function uniqueName(name, except = null) {
  const taken = new Set([...state.curves, ...state.predictions].filter((c) => c !== except).map((c) => c.name));
  if (!taken.has(name)) return name;
  for (let i = 2; ; i++) if (!taken.has(`${name} (${i})`)) return `${name} (${i})`;
}

/** addCurve adds a curve with data and gives it a unique name and a colour. */
export function addCurve(curve) {
  const c = { role: 'fit', scheduleSource: 'builder', ...curve };
  c.name = uniqueName(c.name);
  c.color = nextColor(usedColors());
  state.curves.push(c);
  touch();
  return c;
}

/** addPrediction adds a schedule to predict. */
export function addPrediction(name, schedule) {
  const p = { name: uniqueName(name), schedule, color: null };
  p.color = nextColor(usedColors());
  state.predictions.push(p);
  return p;
}

/** remove takes a curve with data or a schedule to predict off the page; it returns the undo. */
export function remove(item) {
  const list = state.curves.includes(item) ? 'curves' : 'predictions';
  const at = state[list].indexOf(item);
  const restored = undoMark();
  state.curves = state.curves.filter((c) => c !== item);
  state.predictions = state.predictions.filter((p) => p !== item);
  state.predicted.delete(item.name);
  state.predicted2.delete(item.name);
  return () => {
    if (!state[list].includes(item)) state[list].splice(Math.min(at, state[list].length), 0, item);
    restored();
  };
}

/** removeAllCurves takes every curve with data off the page; it returns the undo. */
export function removeAllCurves() {
  const removed = state.curves;
  const restored = undoMark();
  state.curves = [];
  for (const map of [state.predicted, state.predicted2]) for (const c of removed) map.delete(c.name);
  return () => {
    state.curves = [...removed.filter((c) => !state.curves.includes(c)), ...state.curves];
    restored();
  };
}

/**
 * snapshotView returns a function that puts the whole view back as it is now: curves,
 * schedules, settings, fits and predictions (the undo of loading an example).
 */
export function snapshotView() {
  const saved = {
    ...state, curves: [...state.curves], predictions: [...state.predictions], settings: { ...state.settings },
    predicted: new Map(state.predicted), predicted2: new Map(state.predicted2),
  };
  return () => {
    Object.assign(state, saved, { edits: state.edits + 1 });
  };
}

/** currentParams are the annealing law's parameters predictions use: the latest fit's, or those entered by hand. */
export function currentParams() {
  if (state.manualParams) return state.manualParams.params ? { params: state.manualParams.params, settings: state.manualParams.settings } : null;
  if (state.fit) return { params: state.fit.params, settings: state.fit.settings };
  return null;
}

/** multiPowerParams are the Multi-Power Law's parameters predictions use: its latest fit's, or a link's. */
export function multiPowerParams() {
  if (state.manualParams) return state.manualParams.multiPower ? { params: state.manualParams.multiPower, settings: state.manualParams.settings } : null;
  if (state.fit2) return { params: state.fit2.params, settings: state.fit2.settings };
  return null;
}

function usedColors() {
  return [...state.curves, ...state.predictions].map((c) => c.color);
}
