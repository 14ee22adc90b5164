// The user's work as this browser keeps it: which parts of the page state are stored, in what
// format, and how they are written (read-workspace.js reads them back). Pure (no IndexedDB, no
// DOM): workspace-db.js stores what packWorkspace makes, controllers/workspace.js decides when.
//
// A stored workspace is a record and the large arrays it refers to. The record holds the
// settings, the curves (names, roles, schedules, where they came from), the schedules to
// predict, the fits (parameters, settings, lawcore's answer, the fitted lines), the parameters
// entered by hand and the predicted lines. Every array of more than INLINE numbers (a curve's
// points, an LR file's schedule, a fit's predicted values) is stored apart, once, as a
// Float64Array under an id, and the record holds {$a: id, n: length, plain?} in its place. An
// array keeps its id for as long as the page holds it (ArrayIds; the store never edits an
// array in place), so a save after a change of settings writes the small record and not the
// megabytes of points again. Both are written in one transaction (workspace-db.js).
import { thinSchedule } from '../schedules/thin-schedule.js';
import { paramsOf, predictedLine, fitCovers, lineBand } from '../state/selectors.js';
import { LAW_NAMES } from '../engine/schema.js';

/**
 * FORMAT is the format records are written in. 1: the first layout, the record alone (points
 * inline, no results kept, settings without the law choice); 2: arrays stored apart, results
 * kept; 3: each curve's fit window (from), its LR column's steps (lrSteps), the problems found
 * with its schedule, whether it came with the example shown (and which: example), predicted
 * lines with their band (lower, upper), and how the charts count x (chart: xUnit,
 * tokensPerStep, modelSize). The Analyses panel's choices (analysis: open, view, options,
 * sizeTarget, relative) were added to format 3 later: a record without them reads as before.
 */
export const FORMAT = 3;
/** INLINE is the most numbers an array may hold and stay in the record. */
const INLINE = 64;
/** CURVE_TEXT are a curve's texts that are kept: where it came from, and the name the user gave it. */
export const CURVE_TEXT = ['lrFile', 'file', 'run', 'source', 'label'];
/** ANALYSIS_CHOICES are the Analyses panel's parts that are the user's choices, and are kept. */
export const ANALYSIS_CHOICES = ['open', 'view', 'options', 'sizeTarget', 'relative'];

/**
 * ArrayIds gives each array the page holds the id it is stored under. ids are random (two tabs
 * never make the same one) and forgotten with the array (a WeakMap).
 */
export class ArrayIds {
  constructor(newId = randomId) {
    this.ids = new WeakMap();
    this.newId = newId;
  }

  /** idOf returns array's id, making one the first time. */
  idOf(array) {
    let id = this.ids.get(array);
    if (!id) {
      id = this.newId();
      this.ids.set(array, id);
    }
    return id;
  }

  /** has says whether array has an id already. */
  has(array) {
    return this.ids.has(array);
  }

  /** remember records that array (read back from the store) is stored under id. */
  remember(array, id) {
    this.ids.set(array, id);
  }
}

/** randomId is a fresh id: a UUID where the browser has them. */
function randomId() {
  if (globalThis.crypto && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

// ---- writing --------------------------------------------------------------------------------

export const isNumber = (x) => typeof x === 'number';

/**
 * packer returns pack(value): value with its long arrays replaced by references, each added to
 * arrays (id -> a function giving the Float64Array to store: a plain array is copied only when
 * it has to be written). Without ids everything stays inline.
 */
function packer(ids, arrays) {
  function ref(a) {
    const plain = Array.isArray(a);
    const id = ids.idOf(a);
    if (!arrays.has(id)) arrays.set(id, () => (a instanceof Float64Array ? a : Float64Array.from(a)));
    return plain ? { $a: id, n: a.length, plain: true } : { $a: id, n: a.length };
  }
  return function pack(v) {
    if (ArrayBuffer.isView(v)) return ids && v.length > INLINE ? ref(v) : Float64Array.from(v);
    if (Array.isArray(v)) {
      if (ids && v.length > INLINE && (ids.has(v) || v.every(isNumber))) return ref(v);
      return v.map(pack);
    }
    if (v instanceof Map) return [...v].map(([k, x]) => [k, pack(x)]);
    if (v !== null && typeof v === 'object') {
      const out = {};
      for (const [k, x] of Object.entries(v)) if (x !== undefined && typeof x !== 'function') out[k] = pack(x);
      return out;
    }
    return v;
  };
}

/** isEmptyWork says whether the page holds no work to keep: no curve and no schedule to predict. */
export function isEmptyWork(state) {
  return state.curves.length === 0 && state.predictions.length === 0;
}

/**
 * packWorkspace is what the browser stores of state: {record, arrays}, arrays mapping each id
 * the record refers to to a function giving its Float64Array. withData(curve) says which
 * curves keep their points (all by default; when storage is full, fewer): a curve without them
 * keeps its name, role and schedule (an LR file's thinned to 2,000 points). The fits and
 * predicted lines are kept when results is set and every curve keeps its points.
 */
export function packWorkspace(state, ids, { withData = () => true, results = true, savedAt = Date.now() } = {}) {
  const arrays = new Map();
  const pack = packer(ids, arrays);
  const inline = packer(null, null);
  const complete = results && state.curves.every(withData);
  const curves = state.curves.map((c) => {
    const out = {
      name: c.name,
      role: c.role,
      scheduleSource: c.scheduleSource || 'builder',
      color: c.color,
      ...Object.fromEntries(CURVE_TEXT.filter((k) => typeof c[k] === 'string').map((k) => [k, c[k]])),
      ...(Number.isFinite(c.size) ? { size: c.size } : {}),
      ...(Number.isFinite(c.from) ? { from: c.from } : {}),
      ...(c.fromExample ? { fromExample: true } : {}),
      ...(Array.isArray(c.scheduleProblems)
        ? { scheduleProblems: c.scheduleProblems.map((p) => ({ kind: p.kind, text: p.text })) }
        : {}),
    };
    if (withData(c)) {
      return {
        ...out,
        schedule: pack(c.schedule || null),
        steps: pack(c.steps),
        loss: pack(c.loss),
        ...(c.lr ? { lr: pack(c.lr) } : {}),
        ...(c.lr && c.lrSteps ? { lrSteps: pack(c.lrSteps) } : {}),
      };
    }
    return { ...out, schedule: inline(thinSchedule(c.schedule || null)), points: c.steps.length };
  });
  const record = {
    format: FORMAT,
    savedAt,
    settings: { ...state.settings },
    stale: !!state.stale,
    curves,
    predictions: state.predictions.map((p) => ({
      name: p.name,
      color: p.color,
      schedule: pack(p.schedule),
      ...(p.fromExample ? { fromExample: true } : {}),
    })),
    example: state.example && typeof state.example.title === 'string' ? { title: state.example.title } : null,
    chart: {
      xUnit: state.chart?.xUnit || 'steps',
      tokensPerStep: state.chart?.tokensPerStep ?? null,
      modelSize: state.chart?.modelSize ?? null,
    },
    manual: state.manual
      ? inline({ params: state.manual.params, settings: state.manual.settings, from: state.manual.from })
      : null,
    ...(state.analysis
      ? { analysis: inline(Object.fromEntries(ANALYSIS_CHOICES.map((k) => [k, state.analysis[k]]))) }
      : {}),
    fits: [],
    lines: [],
  };
  if (complete) {
    record.fits = LAW_NAMES.filter((law) => state.fits[law]).map((law) => {
      const f = state.fits[law];
      return {
        law: f.law,
        params: { ...f.params },
        settings: { ...f.settings },
        response: pack(f.response),
        lines: pack(f.lines),
        covers: state.curves.filter((c) => fitCovers(f, c)).map((c) => c.name),
      };
    });
    record.validation = state.validation ? pack(state.validation) : null;
    record.lines = LAW_NAMES.filter((law) => paramsOf(state, law))
      .map((law) => {
        const byName = [];
        for (const item of [...state.curves, ...state.predictions]) {
          const line = predictedLine(state, law, item);
          if (!line) continue;
          const { schedule, ...rest } = line;
          byName.push([item.name, pack(rest)]);
        }
        // band: which band the lines carry ('auto', 'validation' or none), to read them back
        // only beside the band they were predicted with.
        return {
          law,
          from: state.manual ? 'manual' : 'fit',
          band: lineBand(state, law) ? state.band.from : null,
          byName,
        };
      })
      .filter((l) => l.byName.length);
  }
  return { record, arrays };
}
