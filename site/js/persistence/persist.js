// The user's work as this browser keeps it: which parts of the page state are stored, in what
// format, and how a stored workspace is read back. Pure (no IndexedDB, no DOM):
// workspace-db.js stores what packWorkspace makes, controllers/workspace.js decides when.
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
//
// A stored workspace is untrusted input (another tab, an older page, a damaged disk, a hand-edited
// store): readWorkspace checks every part as a share link is checked (with the checks of
// state/view-checks.js), and drops what it cannot read, saying what; only a record it cannot read
// at all starts the page clean. The record carries its format; an older one is migrated
// (MIGRATIONS), a newer one is left alone.
import { checkSettings, checkSchedule, X_UNITS } from '../state/view-checks.js';
import { thinSchedule } from '../schedules/thin-schedule.js';
import { DEFAULT_SETTINGS } from '../state/settings.js';
import { paramsOf, predictedLine, fitCovers, lineBand, restoredBand, averagedLaws } from '../state/selectors.js';
import { LAWS, LAW_NAMES, ROLES, MAX_SCHEDULE_STEPS } from '../engine/schema.js';
import { PALETTE, nextColor } from '../common/theme.js';
import { grouped } from '../common/format.js';
import { isRef, MAX_DEPTH } from './array-refs.js';

/** arrayRefs lists the ids of the arrays a stored record refers to (array-refs.js). */
export { arrayRefs } from './array-refs.js';

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
/** MAX_TEXT bounds the names and sources read back (the page shows them as text only). */
const MAX_TEXT = 10000;
/** LINE_FIELDS are the columns of a fitted or predicted line. */
const LINE_FIELDS = ['steps', 'lr', 'loss', 's1Term', 's2Term', 'lower', 'upper'];
const CURVE_TEXT = ['lrFile', 'file', 'run', 'source', 'label'];
/** ANALYSIS_CHOICES are the Analyses panel's parts that are the user's choices, and are kept. */
export const ANALYSIS_CHOICES = ['open', 'view', 'options', 'sizeTarget', 'relative'];
/** MAX_OPTIONS_TEXT bounds the analyses' options read back, as JSON. */
const MAX_OPTIONS_TEXT = 100000;

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

const isNumber = (x) => typeof x === 'number';

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

// ---- reading --------------------------------------------------------------------------------

/**
 * MIGRATIONS[n] turns a record of format n into format n + 1. Format 1 kept the curves' points
 * inline (read as they are: the next save moves them apart), no results, and settings from
 * before the law choice (the defaults fill them).
 */
const MIGRATIONS = {
  1: (r) => ({
    ...r,
    format: 2,
    settings:
      r.settings && typeof r.settings === 'object' ? { ...DEFAULT_SETTINGS, auto: false, ...r.settings } : r.settings,
    stale: true,
    manual: null,
    fits: [],
    lines: [],
  }),
  // Format 2 fitted every curve whole; format 3's curves are fitted from the end of their
  // warmup unless a window is set: a fit kept from format 2 is marked stale (Fit fits the
  // windows), and its settings keep auto off as they had it.
  2: (r) => ({
    ...r,
    format: 3,
    settings: r.settings && typeof r.settings === 'object' ? { auto: false, ...r.settings } : r.settings,
    stale: r.stale !== false || (Array.isArray(r.fits) && r.fits.length > 0),
    example: null,
  }),
};

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x) && !ArrayBuffer.isView(x);

function fail(where, what) {
  throw new Error(`${where}: ${what}`);
}

function text(x, where) {
  if (typeof x !== 'string' || x.length === 0 || x.length > MAX_TEXT) fail(where, 'not a name');
  return x;
}

function oneOf(x, list, where) {
  if (!list.includes(x)) fail(where, `must be one of ${list.join(', ')}`);
  return x;
}

/**
 * unpacker returns unpack(value, where): value with its references replaced by the arrays read
 * (a plain array for those stored from one), each remembered under its id.
 */
function unpacker(arrays, ids) {
  return function unpack(v, where, depth = 0) {
    if (depth > MAX_DEPTH) fail(where, 'nested too deeply');
    if (isRef(v)) {
      const a = arrays.get(v.$a);
      if (!(a instanceof Float64Array)) fail(where, 'its points are missing from the store');
      if (a.length !== v.n) fail(where, `holds ${a.length} values where ${v.n} were saved`);
      const out = v.plain ? Array.from(a) : a;
      ids.remember(out, v.$a);
      return out;
    }
    if (ArrayBuffer.isView(v)) return v instanceof Float64Array ? v : fail(where, 'not an array of numbers');
    if (Array.isArray(v)) return v.map((x, i) => unpack(x, `${where}[${i}]`, depth + 1));
    if (v !== null && typeof v === 'object') {
      if (Object.getPrototypeOf(v) !== Object.prototype) fail(where, 'not plain data');
      const out = {};
      for (const [k, x] of Object.entries(v)) out[k] = unpack(x, `${where}.${k.slice(0, 40)}`, depth + 1);
      return out;
    }
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') fail(where, 'not plain data');
    return v;
  };
}

/** points checks one of a curve's columns: a Float64Array of n finite numbers (n: its steps'). */
function points(x, where, n) {
  if (!(x instanceof Float64Array)) fail(where, 'not an array of numbers');
  if (n !== undefined && x.length !== n) fail(where, `${x.length} values for ${n} steps`);
  for (let k = 0; k < x.length; k++) if (!Number.isFinite(x[k])) fail(`${where}[${k}]`, 'not a finite number');
  return x;
}

/** readSchedule checks a schedule as a link's is checked, with as many points as lawcore allows. */
const readSchedule = (s, where) =>
  s === null || s === undefined ? null : checkSchedule(s, where, MAX_SCHEDULE_STEPS + 1);

/** readCurve checks a stored curve: with its points, a curve; without (storage was full), {name, schedule, points}. */
function readCurve(c, where) {
  if (!isObject(c)) fail(where, 'not an object');
  const out = {
    name: text(c.name, `${where}.name`),
    role: oneOf(c.role, ROLES, `${where}.role`),
    schedule: readSchedule(c.schedule, `${where}.schedule`),
    scheduleSource:
      c.scheduleSource === undefined
        ? 'builder'
        : oneOf(c.scheduleSource, ['file', 'builder'], `${where}.scheduleSource`),
    color: c.color,
  };
  if (c.fromExample === true) out.fromExample = true;
  if (c.scheduleProblems !== undefined) {
    if (
      !Array.isArray(c.scheduleProblems)
      || !c.scheduleProblems.every(
        (p) =>
          isObject(p) && ['ends', 'lr'].includes(p.kind) && typeof p.text === 'string' && p.text.length <= MAX_TEXT,
      )
    ) {
      fail(`${where}.scheduleProblems`, 'not a list of problems');
    }
    out.scheduleProblems = c.scheduleProblems.map((p) => ({ kind: p.kind, text: p.text }));
  }
  for (const k of CURVE_TEXT) {
    if (c[k] === undefined) continue;
    if (typeof c[k] !== 'string' || c[k].length > MAX_TEXT) fail(`${where}.${k}`, 'not a text');
    out[k] = c[k];
  }
  if (c.size !== undefined && c.size !== null) {
    if (!(Number.isFinite(c.size) && c.size > 0)) fail(`${where}.size`, 'not a model size');
    out.size = c.size;
  }
  if (c.steps === undefined && c.loss === undefined) {
    if (!(Number.isInteger(c.points) && c.points >= 0)) fail(where, 'neither points nor their count');
    return { ...out, dataDropped: c.points };
  }
  out.steps = points(c.steps, `${where}.steps`);
  if (!out.steps.length) fail(`${where}.steps`, 'empty');
  out.loss = points(c.loss, `${where}.loss`, out.steps.length);
  for (let k = 0; k < out.steps.length; k++) {
    if (out.steps[k] < 1 || (k && out.steps[k] <= out.steps[k - 1]))
      fail(`${where}.steps[${k}]`, 'steps must be ≥ 1 and increasing');
    if (!(out.loss[k] > 0)) fail(`${where}.loss[${k}]`, 'must be > 0');
  }
  if (c.lr !== undefined) {
    out.lr = points(c.lr, `${where}.lr`);
    // The LR column's steps (format 2 kept them only in a file's explicit schedule, which
    // curve-facts.js reads the column from when there are none).
    if (c.lrSteps !== undefined) out.lrSteps = points(c.lrSteps, `${where}.lrSteps`, out.lr.length);
  }
  if (c.from !== undefined) {
    if (!(Number.isFinite(c.from) && c.from >= 0 && c.from <= out.steps[out.steps.length - 1]))
      fail(`${where}.from`, 'not a step of the curve');
    out.from = c.from;
  }
  return out;
}

/** readParams checks a law's parameters: every one of the law's, finite. */
function readParams(law, p, where) {
  if (!isObject(p)) fail(where, 'not an object');
  const out = {};
  for (const k of LAWS[law].params) {
    if (!Number.isFinite(p[k])) fail(`${where}.${k}`, 'not a finite number');
    out[k] = p[k];
  }
  return out;
}

/** readLine checks a fitted or predicted line: columns of the same length (some may be absent). */
function readLine(line, where) {
  if (!isObject(line)) fail(where, 'not an object');
  const out = {};
  let n;
  for (const k of LINE_FIELDS) {
    if (line[k] === undefined) continue;
    out[k] = points(line[k], `${where}.${k}`, n);
    n = out[k].length;
  }
  if (!out.steps) fail(where, 'no steps');
  if (line.finalLoss !== undefined) {
    if (!Number.isFinite(line.finalLoss)) fail(`${where}.finalLoss`, 'not a finite number');
    out.finalLoss = line.finalLoss;
  }
  return out;
}

/** readNamedLines checks [[name, line]] pairs into a Map. */
function readNamedLines(pairs, where) {
  if (!Array.isArray(pairs)) fail(where, 'not a list');
  return new Map(
    pairs.map((p, i) => {
      if (!Array.isArray(p) || p.length !== 2) fail(`${where}[${i}]`, 'not a name and a line');
      return [text(p[0], `${where}[${i}]`), readLine(p[1], `${where}[${i}]`)];
    }),
  );
}

/**
 * readResponse checks the parts of a stored fit answer the page reads (lawcore wrote it; the
 * store may not have kept it whole): the curves' names, roles and metrics, the objective.
 */
function readResponse(r, law, where) {
  if (!isObject(r)) fail(where, 'not an object');
  if (r.law !== law) fail(`${where}.law`, `not ${law}`);
  if (!Array.isArray(r.curves) || !r.curves.length) fail(`${where}.curves`, 'not a list of curves');
  r.curves.forEach((c, i) => {
    const w = `${where}.curves[${i}]`;
    if (!isObject(c)) fail(w, 'not an object');
    text(c.name, `${w}.name`);
    oneOf(c.role, ROLES, `${w}.role`);
    if (!isObject(c.metrics)) fail(`${w}.metrics`, 'not an object');
    if (c.predicted !== undefined && !(Array.isArray(c.predicted) && c.predicted.every(isNumber)))
      fail(`${w}.predicted`, 'not a list of numbers');
  });
  if (typeof r.objective !== 'number') fail(`${where}.objective`, 'not a number');
  for (const k of ['fitMetrics', 'validateMetrics', 'search', 'settings'])
    if (r[k] !== undefined && r[k] !== null && !isObject(r[k])) fail(`${where}.${k}`, 'not an object');
  if (r.auto !== undefined) {
    if (
      !isObject(r.auto)
      || !isObject(r.auto.chosen)
      || !Array.isArray(r.auto.candidates)
      || !r.auto.candidates.every(isObject)
    )
      fail(`${where}.auto`, 'not what auto answers');
  }
  // auto's average of laws: predictions are made with every member, so each must be whole
  if (
    r.members !== undefined
    && !(
      Array.isArray(r.members)
      && r.members.length
      && r.members.every(
        (m) =>
          isObject(m)
          && LAW_NAMES.includes(m.law)
          && isObject(m.params)
          && Object.values(m.params).every(isNumber)
          && Number.isFinite(m.weight)
          && m.weight >= 0,
      )
    )
  )
    fail(`${where}.members`, 'not a list of laws with their parameters and weights');
  if (
    r.band !== undefined
    && !(
      isObject(r.band)
      && Number.isFinite(r.band.base)
      && Number.isFinite(r.band.level)
      && r.band.level > 0
      && r.band.level < 1
    )
  )
    fail(`${where}.band`, 'not a band');
  if (
    r.warnings !== undefined
    && !(
      Array.isArray(r.warnings)
      && r.warnings.every((w) => isObject(w) && typeof w.message === 'string' && typeof w.kind === 'string')
    )
  )
    fail(`${where}.warnings`, 'not a list of warnings');
  if (r.intervals !== undefined) {
    if (!isObject(r.intervals)) fail(`${where}.intervals`, 'not an object');
    for (const [k, v] of Object.entries(r.intervals))
      if (!(isObject(v) && Number.isFinite(v.low) && Number.isFinite(v.high)))
        fail(`${where}.intervals.${k.slice(0, 40)}`, 'not an interval');
  }
  return r;
}

/**
 * readValidation checks a stored validation (lawcore's leave-one-schedule-out answer): its rows
 * and, for each law, the band the page predicts with.
 */
function readValidation(v, where) {
  if (!isObject(v)) fail(where, 'not an object');
  if (!Array.isArray(v.rows)) fail(`${where}.rows`, 'not a list');
  v.rows.forEach((row, i) => {
    if (!isObject(row) || typeof row.curve !== 'string' || !LAW_NAMES.includes(row.law) || !isObject(row.metrics))
      fail(`${where}.rows[${i}]`, 'not a held-out curve with its law and metrics');
  });
  if (!Array.isArray(v.summaries) || !v.summaries.length) fail(`${where}.summaries`, 'not a list of laws');
  v.summaries.forEach((s, i) => {
    const w = `${where}.summaries[${i}]`;
    if (!isObject(s) || !LAW_NAMES.includes(s.law) || !isObject(s.mean)) fail(w, 'not a law with its mean metrics');
    if (!(Number.isFinite(s.bandHalfWidth) && Number.isFinite(s.bandLevel) && s.bandLevel > 0 && s.bandLevel < 1))
      fail(`${w}.band`, 'not a band');
    if (
      s.band !== undefined
      && s.band !== null
      && !(isObject(s.band) && Number.isFinite(s.band.base) && Number.isFinite(s.band.level))
    )
      fail(`${w}.band`, 'not a band');
  });
  return v;
}

/** readFit checks a stored fit; covering maps the names of the curves it covers to the curves read. */
function readFit(f, where, curvesByName) {
  if (!isObject(f)) fail(where, 'not an object');
  const law = oneOf(f.law, LAW_NAMES, `${where}.law`);
  if (!Array.isArray(f.covers)) fail(`${where}.covers`, 'not a list');
  const covered = new Map();
  for (const name of f.covers) if (curvesByName.has(name)) covered.set(name, curvesByName.get(name));
  return {
    law,
    params: readParams(law, f.params, `${where}.params`),
    settings: checkSettings(f.settings),
    response: readResponse(f.response, law, `${where}.response`),
    lines: readNamedLines(f.lines, `${where}.lines`),
    curves: covered,
  };
}

/** readManual checks parameters entered by hand (or from a link) as stored. */
function readManual(m) {
  if (!isObject(m) || !isObject(m.params)) fail('manual', 'not parameters');
  const params = {};
  for (const [law, p] of Object.entries(m.params))
    params[oneOf(law, LAW_NAMES, 'manual.params')] = readParams(law, p, `manual.params.${law}`);
  if (!Object.keys(params).length) fail('manual.params', 'empty');
  return { params, settings: checkSettings(m.settings), from: oneOf(m.from, ['hand', 'link'], 'manual.from') };
}

/** nameOf is a stored item's name for a message, or what it is when it has none. */
const nameOf = (x, what) => (x && typeof x.name === 'string' && x.name ? x.name.slice(0, 80) : what);

/** plural is "1 curve", "3 curves". */
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** listNames is "a, b and 3 more". */
function listNames(names, at = 4) {
  const shown = names.slice(0, at).join(', ');
  return names.length > at ? `${shown} and ${names.length - at} more` : shown;
}

/**
 * describeWork says what a view holds, in words: "3 curves, 2 schedules to predict and the fit
 * of the annealing law".
 */
export function describeWork(view) {
  const parts = [];
  if (view.curves.length) parts.push(plural(view.curves.length, 'curve'));
  if (view.predictions.length) parts.push(`${plural(view.predictions.length, 'schedule')} to predict`);
  const laws = LAW_NAMES.filter((law) => view.fits && view.fits[law]);
  // an auto fit's average of laws is kept in its leading law's place
  const fitOf = (l) =>
    averagedLaws(view.fits[l])
      ? `the average of ${averagedLaws(view.fits[l])} laws auto picked`
      : `the ${LAWS[l].label}`;
  if (laws.length) parts.push(`the fit of ${laws.map(fitOf).join(' and ')}`);
  else if (view.manual) parts.push('the parameters entered by hand');
  if (!parts.length) return 'nothing';
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * describeRecord says what a stored record held, as far as it can be read: what a page that
 * could not read it dropped.
 */
function describeRecord(record) {
  const names = (list) =>
    Array.isArray(list) ? list.map((x) => (x && typeof x.name === 'string' ? x.name.slice(0, 80) : '?')) : [];
  const curves = names(record && record.curves);
  const predictions = names(record && record.predictions);
  const parts = [];
  if (curves.length) parts.push(`${plural(curves.length, 'curve')} (${listNames(curves)})`);
  if (predictions.length)
    parts.push(`${plural(predictions.length, 'schedule')} to predict (${listNames(predictions)})`);
  return parts.length ? parts.join(' and ') : 'the saved work';
}

/**
 * readWorkspace reads a stored record (and the arrays it refers to: Map id -> Float64Array)
 * back into a view the store restores (restoreView). It answers one of
 *   {kind: 'restored', view, savedAt, notes}: notes say what was dropped and why;
 *   {kind: 'newer', format}: written by a newer page (left alone);
 *   {kind: 'unreadable', reason, lost}: nothing can be read (lost says what it held).
 * Arrays read are remembered in ids under their ids, so that they are not written again.
 */
export function readWorkspace(record, arrays, ids) {
  const unreadable = (reason) => ({ kind: 'unreadable', reason, lost: describeRecord(record) });
  if (!isObject(record) || !Number.isInteger(record.format) || record.format < 1)
    return unreadable('it is not a saved workspace');
  if (record.format > FORMAT) return { kind: 'newer', format: record.format };
  let r = record;
  try {
    while (r.format < FORMAT) r = MIGRATIONS[r.format](r);
  } catch (err) {
    return unreadable(`format ${record.format} could not be brought up to date (${err.message})`);
  }
  if (!Array.isArray(r.curves) || !Array.isArray(r.predictions)) return unreadable('it holds no list of curves');
  // Each part is read on its own: one that cannot be read is dropped and the others kept.
  const unpack = unpacker(arrays, ids);
  const notes = [];
  let settings;
  try {
    settings = checkSettings(unpack(r.settings, 'settings'));
  } catch (err) {
    settings = { ...DEFAULT_SETTINGS };
    notes.push(`The saved settings could not be read (${err.message}): the defaults are used.`);
  }

  const taken = new Set();
  const curves = [];
  const predictions = [];
  const dropped = [];
  r.curves.forEach((c, i) => {
    const where = `curves[${i}]`;
    let curve;
    try {
      curve = readCurve(unpack(c, where), where);
      if (taken.has(curve.name)) fail(where, `a second curve named ${curve.name}`);
    } catch (err) {
      dropped.push(`${nameOf(c, 'a curve')} (${err.message})`);
      return;
    }
    taken.add(curve.name);
    if (curve.dataDropped === undefined) {
      curves.push(curve);
      return;
    }
    // Storage was full: the curve's name and schedule were kept, its points were not.
    const why = `its ${grouped(curve.dataDropped)} points were not kept (the browser's storage was full)`;
    if (curve.schedule) {
      predictions.push({ name: curve.name, schedule: curve.schedule, color: curve.color });
      notes.push(`${curve.name}: ${why}; its schedule is predicted. Add its file again to fit it.`);
    } else notes.push(`${curve.name}: ${why}, nor a schedule; add its file again.`);
  });
  r.predictions.forEach((p, i) => {
    const where = `predictions[${i}]`;
    try {
      const q = unpack(p, where);
      if (!isObject(q)) fail(where, 'not an object');
      const name = text(q.name, `${where}.name`);
      if (taken.has(name)) fail(where, `a second schedule named ${name}`);
      predictions.push({
        name,
        schedule: checkSchedule(q.schedule, `${where}.schedule`, MAX_SCHEDULE_STEPS + 1),
        color: q.color,
        ...(q.fromExample === true ? { fromExample: true } : {}),
      });
      taken.add(name);
    } catch (err) {
      dropped.push(`${nameOf(p, 'a schedule to predict')} (${err.message})`);
    }
  });
  if (dropped.length) notes.unshift(`Dropped what could not be read: ${dropped.join('; ')}.`);
  recolor([...curves, ...predictions]);

  // The results: one that cannot be read is dropped (Fit makes it again).
  const byName = new Map(curves.map((c) => [c.name, c]));
  const fits = {};
  for (const [i, f] of (Array.isArray(r.fits) ? r.fits : []).entries()) {
    try {
      const fit = readFit(unpack(f, `fits[${i}]`), `fits[${i}]`, byName);
      fits[fit.law] = fit;
    } catch (err) {
      notes.push(`The saved fit could not be read (${err.message}): press Fit to fit again.`);
    }
  }
  let manual = null;
  if (r.manual !== null && r.manual !== undefined) {
    try {
      manual = readManual(unpack(r.manual, 'manual'));
    } catch (err) {
      notes.push(`The parameters entered by hand could not be read (${err.message}).`);
    }
  }
  let validation = null;
  if (r.validation !== null && r.validation !== undefined) {
    try {
      validation = readValidation(unpack(r.validation, 'validation'), 'validation');
    } catch (err) {
      notes.push(`The saved validation could not be read (${err.message}): press Validate to run it again.`);
    }
  }
  // The example shown, when the saved work was one (its curves carry fromExample): the user's
  // first curves still replace it.
  const example =
    isObject(r.example)
    && typeof r.example.title === 'string'
    && r.example.title.length <= MAX_TEXT
    && [...curves, ...predictions].some((x) => x.fromExample)
      ? { title: r.example.title }
      : null;
  if (!example) for (const x of [...curves, ...predictions]) delete x.fromExample;
  // How the charts count x (entered once: the tokens per step and N stay).
  const c = isObject(r.chart) ? r.chart : {};
  const positive = (x) => (Number.isFinite(x) && x > 0 ? x : null);
  const chart = {
    xUnit: X_UNITS.includes(c.xUnit) ? c.xUnit : 'steps',
    tokensPerStep: positive(c.tokensPerStep),
    modelSize: positive(c.modelSize),
  };
  let analysis = null;
  if (r.analysis !== undefined && r.analysis !== null) {
    try {
      analysis = readAnalysisChoices(unpack(r.analysis, 'analysis'));
    } catch (err) {
      notes.push(`The Analyses panel's choices could not be read (${err.message}): it starts from its defaults.`);
    }
  }
  const view = {
    settings,
    curves,
    predictions,
    fits,
    manual,
    validation,
    lines: {},
    stale: r.stale !== false,
    example,
    chart,
    analysis,
  };
  view.band = restoredBand(view);
  view.lines = readPredictedLines(r.lines, view, unpack);
  delete view.band;
  return { kind: 'restored', view, savedAt: Number.isFinite(r.savedAt) ? r.savedAt : 0, notes };
}

/**
 * readAnalysisChoices checks the Analyses panel's choices: whether it was open, the view shown
 * (an id the page no longer has shows its first view), the options set for each analysis
 * (plain data, which lawcore checks when they are run) and the model-size view's unseen N.
 */
function readAnalysisChoices(a) {
  if (!isObject(a)) fail('analysis', 'not an object');
  if (typeof a.view !== 'string' || a.view.length > 100) fail('analysis.view', 'not a view');
  if (!isObject(a.options) || !Object.values(a.options).every(isObject))
    fail('analysis.options', 'not the options of each analysis');
  if (JSON.stringify(a.options).length > MAX_OPTIONS_TEXT)
    fail('analysis.options', `over ${MAX_OPTIONS_TEXT} characters`);
  if (typeof a.sizeTarget !== 'string' || a.sizeTarget.length > 100)
    fail('analysis.sizeTarget', 'not a model size as typed');
  return {
    open: a.open === true,
    view: a.view,
    options: a.options,
    sizeTarget: a.sizeTarget,
    relative: a.relative === true,
  };
}

/**
 * readPredictedLines reads the stored predicted lines of view's parameters: a line is kept for
 * the item of its name, with that item's schedule; others are predicted again.
 */
function readPredictedLines(stored, view, unpack) {
  const lines = {};
  if (!Array.isArray(stored)) return lines;
  const items = new Map([...view.curves, ...view.predictions].map((x) => [x.name, x]));
  for (const l of stored) {
    try {
      if (!isObject(l) || !LAW_NAMES.includes(l.law)) continue;
      const p = paramsOf(view, l.law);
      if (!p || (l.from === 'manual') !== !!view.manual) continue;
      // Lines drawn with a band read back with the band restored (a validation's, else an auto
      // fit's); those of another band are predicted again.
      const band = lineBand(view, l.law);
      if ((l.band || null) !== (band ? view.band.from : null)) continue;
      const byName = new Map();
      for (const [name, line] of readNamedLines(unpack(l.byName, `lines.${l.law}`), `lines.${l.law}`)) {
        const item = items.get(name);
        if (item && item.schedule) byName.set(name, { ...line, schedule: item.schedule });
      }
      lines[l.law] = { source: p.source, band, byName };
    } catch {
      // a line that cannot be read is predicted again
    }
  }
  return lines;
}

/** recolor gives every item a colour of the palette, distinct while there are enough. */
function recolor(items) {
  const used = [];
  for (const item of items) {
    if (!PALETTE.includes(item.color) || used.includes(item.color)) item.color = nextColor(used);
    used.push(item.color);
  }
}
