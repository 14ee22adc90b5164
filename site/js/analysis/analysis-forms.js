// The Analyses panel's forms: for each of lawcore's analyses, its main options as fields a
// researcher fills in (label, unit, kind, range), and the conversions between a field's text
// and the option it sets. The values come from the options in use (lawcore's defaults until the
// user changes one), so the form and the JSON view are two views of one options object. The
// ranges here are the ones lawcore checks that depend on nothing else; what depends on other
// options (a total longer than the warmup) lawcore checks, and labelledError names the field in
// its message. Pure: no DOM, no engine.
import { MAX_SCHEDULE_STEPS, MAX_LR } from '../engine/schema.js';
import { tick } from '../common/format.js';

/** SETUP_KEYS are the options every analysis takes from the page, not from its own defaults. */
export const SETUP_KEYS = ['law', 'params', 'peak', 'warmup', 'warmupConvention', 'points'];

/**
 * Field kinds: 'steps' (a whole number of steps: 50000, 50K, 5e4), 'int' (a whole number),
 * 'number', 'peak' (a learning rate; blank: the page's), 'steps-list' and 'number-list'
 * (numbers separated by commas, or a range "0.02..0.8 by 0.02"), 'choice' (one of choices),
 * 'choices' (some of choices). A field may say where its choices come from in lawcore's
 * defaults (choicesFrom: [analysis, option]), so that a shape lawcore adds shows up.
 */
const LONGEST = () => MAX_SCHEDULE_STEPS - 1;
const steps = (key, label, more = {}) => ({ key, label, unit: 'steps', kind: 'steps', min: 1, max: LONGEST, ...more });
const stepsList = (key, label, maxLen, more = {}) => ({
  key,
  label,
  unit: 'steps',
  kind: 'steps-list',
  min: 1,
  max: LONGEST,
  maxLen,
  ...more,
});
const ratios = (key, label, maxLen) => ({
  key,
  label,
  unit: 'decay steps / total',
  kind: 'number-list',
  min: 0,
  max: 1,
  maxLen,
});
const floor = (key = 'floor', label = 'Final LR') => ({ key, label, unit: '× peak', kind: 'number', min: 0, max: 1 });
const DECAY = { key: 'decay', label: 'Decay shape', kind: 'choice', choicesFrom: ['anneal-function', 'shapes'] };
const PEAK = {
  key: 'peak',
  label: 'Peak LR',
  unit: 'learning rate',
  kind: 'peak',
  min: 0,
  minExclusive: true,
  max: () => MAX_LR,
};

/** FORMS lists each analysis's fields, in the order shown. */
export const FORMS = {
  decomposition: [steps('total', 'Total steps'), PEAK],
  'cosine-cycle': [
    steps('total', 'Total steps'),
    {
      key: 'cycles',
      label: 'Cycle lengths T',
      unit: '× total steps',
      kind: 'number-list',
      min: 0,
      max: 100,
      maxLen: 200,
    },
    { key: 'floors', label: 'Floors (final LR)', unit: '× peak', kind: 'number-list', min: 0, max: 1, maxLen: 50 },
    PEAK,
  ],
  'constant-vs-cosine': [
    steps('minTotal', 'Shortest run'),
    steps('maxTotal', 'Longest run'),
    { key: 'count', label: 'Runs compared', unit: 'totals, log-spaced', kind: 'int', min: 2, max: 500 },
    floor('floor', 'Cosine floor'),
    stepsList('curveTotals', 'Runs drawn', 10),
    PEAK,
  ],
  'wsd-ratio': [stepsList('totals', 'Total steps', 20), ratios('ratios', 'Cooldown ratios', 500), DECAY, floor(), PEAK],
  'anneal-function': [
    steps('total', 'Total steps'),
    { key: 'shapes', label: 'Decay shapes', kind: 'choices', choicesFrom: ['anneal-function', 'shapes'] },
    ratios('ratios', 'Cooldown ratios', 200),
    floor(),
    ratios('curveRatios', 'Ratios drawn', 5),
    PEAK,
  ],
  rewarmup: [
    steps('firstTotal', 'First run'),
    steps('secondTotal', 'Second run'),
    { key: 'peaks', label: 'Re-warmup peaks', unit: '× peak', kind: 'number-list', min: 1e-6, max: 100, maxLen: 20 },
    steps('rewarmupSteps', 'Re-warmup steps', { min: 0 }),
    stepsList('lengths', 'Re-warmup lengths', 20, { min: 0 }),
    PEAK,
  ],
  lambda: [
    {
      key: 'lambdas',
      label: 'Decay factors λ',
      unit: '',
      kind: 'number-list',
      min: 0,
      max: 1,
      maxExclusive: true,
      maxLen: 10,
    },
    stepsList('totals', 'Total steps', 20),
    ratios('ratios', 'Cooldown ratios', 500),
    DECAY,
    PEAK,
  ],
  optimize: [
    steps('total', 'Total steps'),
    { key: 'families', label: 'Schedule families', kind: 'choices', choicesFrom: ['optimize', 'families'] },
    { key: 'knots', label: 'Free-form knots', unit: 'knots', kind: 'int', min: 4, max: 200 },
    PEAK,
  ],
  chinchilla: [
    { key: 'tuples', label: 'Random parameter sets', unit: 'sets', kind: 'int', min: 1, max: 20000 },
    stepsList('totals', 'Total steps', 200),
    { key: 'wsdRatio', label: 'WSD cooldown ratio', unit: 'decay steps / total', kind: 'number', min: 1e-6, max: 1 },
    PEAK,
  ],
  compute: [
    { key: 'n', label: 'Fitting points n', unit: 'points', kind: 'int', min: 1, max: 1e6 },
    steps('interval', 'Steps between points K'),
    ratios('ratios', 'WSD cooldown ratios', 20),
    steps('lawSteps', 'This law’s run', { min: 0, hint: '0: n·K/2' }),
  ],
  paper: [{ key: 'tuples', label: 'Random parameter sets (§6.1)', unit: 'sets', kind: 'int', min: 1, max: 20000 }],
  'size-drop': [
    { key: 'ratio', label: 'WSD annealing ratio', unit: 'decay steps / total', kind: 'number', min: 1e-6, max: 1 },
  ],
};

const limit = (v) => (typeof v === 'function' ? v() : v);

/**
 * fieldsOf is the form of analysis: its fields with their ranges resolved and their choices
 * filled from lawcore's defaults (every analysis's options, as `analyze` answers them).
 */
export function fieldsOf(analysis, defaults) {
  return (FORMS[analysis] || []).map((f) => {
    const out = { ...f, min: limit(f.min), max: limit(f.max) };
    if (f.choicesFrom) {
      const [a, key] = f.choicesFrom;
      out.choices = (defaults && defaults[a] && defaults[a][key]) || [];
    }
    return out;
  });
}

/**
 * defaultOptions are an analysis's options as lawcore defaults them, without the setup the
 * page gives (the parameters in use, the peak of the curves, the warmup setting). With runs
 * (selectors.js analysisRuns: the user's runs' total, decay shape and floor), the analyses that
 * ask about the user's schedule start from it: the WSD ratios of the runs' length and decay, the
 * annealing functions over the runs' length. warmup is the setup's: no default total is within it.
 */
export function defaultOptions(defaults, analysis, runs = null, warmup = 0) {
  const opts = { ...((defaults && defaults[analysis]) || {}) };
  for (const k of SETUP_KEYS) delete opts[k];
  // a run must be longer than its warmup: past a long warmup (the Multi-Power release's 2,160
  // steps), the shortest total starts at the next thousand above twice the warmup
  if (analysis === 'constant-vs-cosine' && opts.minTotal <= warmup) {
    opts.minTotal = Math.min(Math.ceil((2 * warmup + 1) / 1000) * 1000, Math.floor(opts.maxTotal / 2));
  }
  if (!runs) return opts;
  const shapes = (defaults && defaults['anneal-function'] && defaults['anneal-function'].shapes) || [];
  const decay = runs.decay && (!shapes.length || shapes.includes(runs.decay)) ? runs.decay : null;
  const total = Number.isInteger(runs.total) && runs.total > 1 ? runs.total : null;
  const floor = decay && runs.floor > 0 && runs.floor < 1 ? runs.floor : null;
  if (analysis === 'wsd-ratio') {
    if (total) opts.totals = [total];
    if (decay) opts.decay = decay;
    if (floor !== null) opts.floor = floor;
  }
  if (analysis === 'anneal-function') {
    if (total) opts.total = total;
    if (floor !== null) opts.floor = floor;
  }
  return opts;
}

/**
 * optionsInUse are the options an analysis runs with: as the user set them, else the defaults
 * (defaultOptions: lawcore's, from the user's runs where they say).
 */
export function optionsInUse(analysisState, analysis, runs = null, warmup = 0) {
  const set = analysisState.options[analysis];
  return set !== undefined ? set : defaultOptions(analysisState.defaults, analysis, runs, warmup);
}

/** round10 drops float noise (0.12000000000000001 -> 0.12). */
const round10 = (v) => Number(v.toPrecision(10));

/**
 * listText writes a list of numbers for a field: a range "from..to by step" when it is one of
 * five or more evenly spaced values, else the values separated by commas.
 */
export function listText(values) {
  if (values.length >= 5 && values.every((v) => typeof v === 'number')) {
    const step = round10(values[1] - values[0]);
    const even =
      step > 0 && values.every((v, i) => Math.abs(v - (values[0] + i * step)) <= 1e-9 * Math.max(1, Math.abs(v)));
    if (even) return `${round10(values[0])}..${round10(values[values.length - 1])} by ${step}`;
  }
  return values.map((v) => (typeof v === 'number' ? String(round10(v)) : String(v))).join(', ');
}

/** fieldText is what a field shows for value (undefined: nothing, as for a peak the page gives). */
export function fieldText(field, value) {
  if (value === undefined || value === null) return '';
  if (field.kind === 'choices') return Array.isArray(value) ? value.join(', ') : String(value);
  if (Array.isArray(value)) return listText(value);
  if (typeof value === 'number') return String(round10(value));
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** big writes a bound with thousands separators when it is large: 9,999,999 (without Intl: see format.js). */
const big = (v) => (Math.abs(v) >= 10000 ? tick(v) : String(v));

/**
 * bounds says a field's range: "from 0 to 1", "above 0", "above 0, at most 1000", "from 0 to 1 (1
 * excluded)"; '' when it has none.
 */
function bounds(field) {
  if (field.min === undefined) return '';
  const low = `${field.minExclusive ? 'above' : 'from'} ${big(field.min)}`;
  if (field.max === undefined) return low;
  if (field.minExclusive) return `${low}, at most ${big(field.max)}`;
  return `${low} to ${big(field.max)}${field.maxExclusive ? ` (${big(field.max)} excluded)` : ''}`;
}

/** rangeText says a field's unit and range: "steps, from 1 to 9,999,999". */
export function rangeText(field) {
  const parts = [];
  if (field.unit) parts.push(field.unit);
  if (field.kind === 'peak') parts.push('blank: the peak of your curves');
  else if (bounds(field)) parts.push(bounds(field));
  if (field.maxLen) parts.push(`up to ${field.maxLen} values`);
  if (field.hint) parts.push(field.hint);
  return parts.join(', ');
}

const isList = (field) => field.kind === 'steps-list' || field.kind === 'number-list';
const isWhole = (field) => field.kind === 'steps' || field.kind === 'int' || field.kind === 'steps-list';

/**
 * numberOf reads one number as typed: decimal or with an exponent (3e-4), and for counts of
 * steps a K or M suffix (50K, 1.5M). NaN for anything else.
 */
function numberOf(text, whole) {
  const t = text.trim().replace(/_/g, '');
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([kKmM]?)$/.exec(t);
  if (!m || (m[2] && !whole)) return NaN;
  const x = Number(m[1]) * (m[2] ? (m[2].toUpperCase() === 'K' ? 1e3 : 1e6) : 1);
  return Number.isFinite(x) ? round10(x) : NaN;
}

/** checked returns x when it fits field's range, else throws naming the field (and which value of a list). */
function checked(field, x, text, which) {
  const at = which ? `, value ${which}` : '';
  if (Number.isNaN(x)) throw new Error(`${field.label}${at}: “${text.trim()}” is not a number`);
  if (isWhole(field) && !Number.isInteger(x))
    throw new Error(`${field.label}${at}: give a whole number${field.unit === 'steps' ? ' of steps' : ''}, not ${x}`);
  const low = field.minExclusive ? !(x > field.min) : x < field.min;
  const high = field.maxExclusive ? !(x < field.max) : x > field.max;
  if (low || high)
    throw new Error(`${field.label}${at}: must be ${bounds(field)}${field.unit ? ` (${field.unit})` : ''}, got ${x}`);
  return x;
}

/** listOf reads a list: numbers separated by commas (or spaces), or a range "from..to by step". */
function listOf(field, text) {
  const whole = isWhole(field);
  const range = /^\s*(\S+)\s*\.\.\s*(\S+)\s+by\s+(\S+)\s*$/i.exec(text);
  let values;
  if (range) {
    const [from, to, step] = range.slice(1).map((t) => numberOf(t, whole));
    if (![from, to, step].every(Number.isFinite) || !(step > 0) || to < from) {
      throw new Error(
        `${field.label}: a range is “from..to by step” with from ≤ to and step > 0, got “${text.trim()}”`,
      );
    }
    const n = Math.floor((to - from) / step + 1e-9) + 1;
    if (n > (field.maxLen || 1000))
      throw new Error(`${field.label}: at most ${field.maxLen} values, the range gives ${n}`);
    values = Array.from({ length: n }, (_, i) => round10(from + i * step));
    values.forEach((x, i) => {
      checked(field, x, String(x), i + 1);
    });
  } else {
    const parts = text.split(/[,;\s]+/).filter(Boolean);
    values = parts.map((p, i) => checked(field, numberOf(p, whole), p, i + 1));
  }
  if (!values.length) throw new Error(`${field.label}: give at least one value`);
  if (field.maxLen && values.length > field.maxLen)
    throw new Error(`${field.label}: at most ${field.maxLen} values, got ${values.length}`);
  return values;
}

/**
 * parseField reads a field's text into its option's value (undefined: left to the page, for a
 * blank peak). It throws an Error whose message starts with the field's label and says what is
 * wrong.
 */
export function parseField(field, text) {
  const t = String(text ?? '');
  if (field.kind === 'peak' && !t.trim()) return undefined;
  if (isList(field)) return listOf(field, t);
  if (field.kind === 'choice') {
    if (!field.choices.includes(t))
      throw new Error(`${field.label}: must be one of ${field.choices.join(', ')}, got “${t}”`);
    return t;
  }
  if (field.kind === 'choices') {
    const picked = t.split(/[,\s]+/).filter(Boolean);
    const unknown = picked.find((p) => !field.choices.includes(p));
    if (unknown) throw new Error(`${field.label}: “${unknown}” is not one of ${field.choices.join(', ')}`);
    if (!picked.length) throw new Error(`${field.label}: pick at least one`);
    return field.choices.filter((c) => picked.includes(c));
  }
  if (!t.trim()) throw new Error(`${field.label}: give a value`);
  return checked(field, numberOf(t, isWhole(field)), t);
}

/** withField returns options with field set from text (a blank peak removes it); it throws as parseField does. */
export function withField(options, field, text) {
  const value = parseField(field, text);
  const out = { ...options };
  if (value === undefined) delete out[field.key];
  else out[field.key] = value;
  return out;
}

/** optionsJSON writes options for the JSON view: one option a line, without float noise. */
export function optionsJSON(options) {
  const round = (v) => (typeof v === 'number' ? round10(v) : v);
  const lines = Object.entries(options).map(
    ([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v, (_key, x) => round(x))}`,
  );
  return lines.length ? `{\n${lines.join(',\n')}\n}` : '{}';
}

/**
 * parseOptionsJSON reads the JSON view: an object of options. It throws an Error naming the
 * view and what is wrong.
 */
export function parseOptionsJSON(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`Options (JSON): not valid JSON: ${err.message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error('Options (JSON): give an object, {"option": value, ...}');
  return value;
}

/**
 * labelledError puts a field's label in one of lawcore's messages about analysis's options
 * ("totals[0]: must be from 501 ..." -> "Total steps, value 1 (totals[0]): must be from 501 ...").
 * It returns {message, key} (key: the option at fault, '' when the message names none).
 */
export function labelledError(analysis, message) {
  const m = /^(?:analyze request: )?([A-Za-z]\w*)(?:\[(\d+)\])?: ([\s\S]*)$/.exec(message);
  const field = m && (FORMS[analysis] || []).find((f) => f.key === m[1]);
  if (!field) return { message, key: m ? m[1] : '' };
  const which = m[2] !== undefined ? `, value ${Number(m[2]) + 1}` : '';
  return {
    message: `${field.label}${which} (${m[1]}${m[2] !== undefined ? `[${m[2]}]` : ''}): ${m[3]}`,
    key: field.key,
  };
}
