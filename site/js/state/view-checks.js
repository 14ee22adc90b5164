// Checking a view that comes from outside the page, field by field: a share link
// (share/share.js) and a stored workspace (persistence/persist.js) hold settings and schedule
// descriptions alike, and both are untrusted input. Each check copies what it accepts and
// throws an Error that says where and what is wrong; it never evaluates anything.
import { MAX_SCHEDULE_STEPS, SCHEDULE_KINDS, WARMUP_CONVENTIONS, MULTI_POWER_SEARCHES } from '../engine/schema.js';
import { lawChoices } from './settings.js';

/** X_UNITS are what the charts may count x in. */
export const X_UNITS = ['steps', 'tokens', 'flops'];
/** MAX_NAME is the longest name (of a curve, a schedule) a view may hold. */
const MAX_NAME = 200;
/** MAX_ITEMS is the most curves, schedules to predict or schedule segments a view may hold. */
export const MAX_ITEMS = 100;
/** MAX_POINTS is the most numbers a list of a view may hold, unless its check says otherwise. */
const MAX_POINTS = 200000;
/** Control characters and bidirectional overrides: a name holding one could pass for another, or break an SVG. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds, to refuse them
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** isObject says whether x is a plain object (as JSON.parse makes them). */
export const isObject = (x) =>
  x !== null && typeof x === 'object' && !Array.isArray(x) && Object.getPrototypeOf(x) === Object.prototype;

/** fail throws the error of a field: where (its path) and what is wrong with it. */
export function fail(where, what) {
  throw new Error(`${where}: ${what}`);
}

/** onlyKeys refuses a field of obj not in allowed. */
export function onlyKeys(obj, allowed, where) {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) fail(where, `unexpected field "${k.slice(0, 40)}"`);
}

/** finite returns x, a finite number, or throws. */
export function finite(x, where) {
  if (typeof x !== 'number' || !Number.isFinite(x)) fail(where, 'not a finite number');
  return x;
}

/** str returns x, a string of 1 to max characters without control characters, or throws. */
export function str(x, where, max = MAX_NAME) {
  if (typeof x !== 'string') fail(where, 'not a string');
  if (x.length === 0 || x.length > max) fail(where, `length must be 1..${max}`);
  if (UNSAFE_TEXT.test(x)) fail(where, 'holds a control character');
  return x;
}

/** oneOf returns x, one of list, or throws. */
export function oneOf(x, list, where) {
  if (!list.includes(x)) fail(where, `must be one of ${list.join(', ')}`);
  return x;
}

/** numbers returns x, an array of at most max finite numbers, or throws. */
export function numbers(x, where, max = MAX_POINTS) {
  if (!Array.isArray(x)) fail(where, 'not an array');
  if (x.length > max) fail(where, `more than ${max} values`);
  x.forEach((v, i) => {
    finite(v, `${where}[${i}]`);
  });
  return x;
}

/**
 * checkSettings copies settings checked field by field (a link's, or a stored workspace's), or
 * throws saying what is wrong.
 */
/** PRIORS are the values of settings.priors: lawcore's FitRequest.Priors. */
const PRIORS = ['weak', 'none'];

export function checkSettings(s) {
  const where = 'settings';
  if (!isObject(s)) fail(where, 'not an object');
  onlyKeys(
    s,
    ['lambda', 'fitLambda', 'warmupSteps', 'warmupConvention', 'huberDelta', 'law', 'auto', 'mplSearch', 'priors'],
    where,
  );
  const lambda = finite(s.lambda, 'settings.lambda');
  if (!(lambda > 0 && lambda < 1)) fail('settings.lambda', 'must be between 0 and 1');
  const warmupSteps = finite(s.warmupSteps, 'settings.warmupSteps');
  if (!(warmupSteps >= 0 && warmupSteps <= MAX_SCHEDULE_STEPS && Number.isInteger(warmupSteps)))
    fail('settings.warmupSteps', `must be a whole number from 0 to ${MAX_SCHEDULE_STEPS}`);
  const huberDelta = finite(s.huberDelta, 'settings.huberDelta');
  if (!(huberDelta > 0)) fail('settings.huberDelta', 'must be > 0');
  if (typeof s.fitLambda !== 'boolean') fail('settings.fitLambda', 'not true or false');
  if (typeof s.auto !== 'boolean') fail('settings.auto', 'not true or false');
  return {
    lambda,
    fitLambda: s.fitLambda,
    warmupSteps,
    huberDelta,
    auto: s.auto,
    warmupConvention: oneOf(s.warmupConvention, WARMUP_CONVENTIONS, 'settings.warmupConvention'),
    law: oneOf(s.law, lawChoices(), 'settings.law'),
    mplSearch: s.mplSearch === undefined ? 'optimum' : oneOf(s.mplSearch, MULTI_POWER_SEARCHES, 'settings.mplSearch'),
    // a view kept before priors were a setting was fitted without them
    priors: s.priors === undefined ? 'none' : oneOf(s.priors, PRIORS, 'settings.priors'),
  };
}

/**
 * checkSchedule copies a schedule description: a known kind, field names of letters and digits,
 * values finite numbers, short strings, booleans, arrays of at most maxPoints numbers (kept as
 * they are, not copied), or (concat) arrays of schedules. lawcore checks the meaning when it
 * builds the schedule.
 */
export function checkSchedule(s, where, maxPoints = MAX_POINTS, depth = 0) {
  if (depth > 4) fail(where, 'nested too deeply');
  if (!isObject(s)) fail(where, 'not an object');
  oneOf(s.kind, SCHEDULE_KINDS, `${where}.kind`);
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    const w = `${where}.${k.slice(0, 40)}`;
    if (!/^[A-Za-z][A-Za-z0-9]{0,39}$/.test(k)) fail(where, `unexpected field "${k.slice(0, 40)}"`);
    if (typeof v === 'number') out[k] = finite(v, w);
    else if (typeof v === 'string') out[k] = str(v, w, 100);
    else if (typeof v === 'boolean') out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'number')) out[k] = numbers(v, w, maxPoints);
    else if (Array.isArray(v) && v.length <= MAX_ITEMS && v.every(isObject))
      out[k] = v.map((p, i) => checkSchedule(p, `${w}[${i}]`, maxPoints, depth + 1));
    else fail(w, 'not a number, text, or list of numbers');
  }
  return out;
}
