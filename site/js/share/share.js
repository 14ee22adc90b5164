// Share links: the whole view (settings, curves with their schedules and, while small enough,
// their data, the parameters, the schedules to predict) as versioned JSON, deflated with the
// browser's CompressionStream('deflate-raw') and written base64url into the URL fragment
// (#s=...). Nothing leaves the browser: the fragment is never sent to a server.
//
// A link is untrusted input. decodeShare checks the fragment's size, the decompressed size, the
// version and every field's type (finite numbers, short strings, known enumerations) and throws
// an Error that says what is wrong; it never evaluates anything. Names from a link are only ever
// shown through textContent.

import { scheduleSteps } from '../schedules/schedule-kinds.js';
import { ROLES, LAWS } from '../engine/schema.js';
import {
  X_UNITS,
  MAX_ITEMS,
  isObject,
  fail,
  onlyKeys,
  finite,
  str,
  oneOf,
  numbers,
  checkSettings,
  checkSchedule,
} from '../state/view-checks.js';
import { grouped } from '../common/format.js';

/** SHARE_VERSION is the version links are written in; version 2 added the Multi-Power Law's parameters. */
export const SHARE_VERSION = 2;
const READS = [1, 2];
/** MAX_FRAGMENT is the largest fragment (base64url characters) a link may carry. */
export const MAX_FRAGMENT = 200 * 1024;
/** MAX_JSON is the largest decompressed JSON a link may expand to (a deflate bomb stops here). */
export const MAX_JSON = 8 * 1024 * 1024;
/**
 * MAX_LINK_STEPS bounds the steps of all the schedules of a link together: each is predicted on
 * opening, so a short link could otherwise ask for minutes of work.
 */
export const MAX_LINK_STEPS = 20_000_000;
/** paramKeys are the fields a link's `params` may hold: the parameter names of the laws. */
const paramKeys = () => [...new Set([...LAWS.annealing.params, ...LAWS['multi-power'].params])];
const multiPowerKeys = () => LAWS['multi-power'].params;

// ---- encoding -------------------------------------------------------------------------------

function toBase64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('the link holds characters that are not base64url');
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  let bin;
  try {
    bin = atob(b64);
  } catch {
    throw new Error('the link is not valid base64url');
  }
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function deflate(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** inflate decompresses bytes, stopping with an error past MAX_JSON bytes. */
async function inflate(bytes) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_JSON) {
        reader.cancel().catch(() => {});
        throw new Error(`the link expands to more than ${MAX_JSON / 1024 / 1024} MB`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (/expands/.test(err.message)) throw err;
    throw new Error('the link is corrupted (it does not decompress)');
  }
  const all = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(all);
  } catch {
    throw new Error('the link is corrupted (not UTF-8 text)');
  }
}

/** encodeShare returns the fragment text (without "#s=") of a view. */
export async function encodeShare(view) {
  return toBase64url(await deflate(JSON.stringify(view)));
}

/** decodeShare reads a fragment's payload (without "#s=") into a checked view, or throws. */
export async function decodeShare(payload) {
  if (payload.length > MAX_FRAGMENT)
    throw new Error(
      `the link is too large (${Math.round(payload.length / 1024)} KB; at most ${MAX_FRAGMENT / 1024} KB)`,
    );
  const text = await inflate(fromBase64url(payload));
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the link is corrupted (not JSON)');
  }
  return checkView(value);
}

// ---- checking (the checks a link shares with a stored workspace: state/view-checks.js) --------

function checkCurve(c, i) {
  const where = `curves[${i}]`;
  if (!isObject(c)) fail(where, 'not an object');
  onlyKeys(c, ['name', 'label', 'role', 'schedule', 'steps', 'loss', 'from', 'scheduleSource'], where);
  const out = {
    name: str(c.name, `${where}.name`),
    ...(c.label !== undefined ? { label: str(c.label, `${where}.label`) } : {}),
    role: oneOf(c.role, ROLES, `${where}.role`),
    schedule: c.schedule === null || c.schedule === undefined ? null : checkSchedule(c.schedule, `${where}.schedule`),
  };
  if (c.steps !== undefined || c.loss !== undefined) {
    const steps = numbers(c.steps, `${where}.steps`);
    const loss = numbers(c.loss, `${where}.loss`);
    if (steps.length !== loss.length || steps.length === 0)
      fail(where, 'steps and loss must be non-empty and of the same length');
    for (let k = 0; k < steps.length; k++) {
      if (steps[k] < 1 || (k && steps[k] <= steps[k - 1]))
        fail(`${where}.steps[${k}]`, 'steps must be ≥ 1 and increasing');
      if (!(loss[k] > 0)) fail(`${where}.loss[${k}]`, 'must be > 0');
    }
    out.steps = Float64Array.from(steps);
    out.loss = Float64Array.from(loss);
    if (c.from !== undefined) {
      const from = finite(c.from, `${where}.from`);
      if (!(from >= 0 && from <= steps[steps.length - 1]))
        fail(`${where}.from`, 'the fit window must start at a step of the curve');
      out.from = from;
    }
  } else if (c.from !== undefined) fail(`${where}.from`, 'a fit window without the curve’s points');
  if (c.scheduleSource !== undefined)
    out.scheduleSource = oneOf(c.scheduleSource, ['file', 'builder'], `${where}.scheduleSource`);
  return out;
}

function checkView(v) {
  if (!isObject(v)) fail('link', 'not a JSON object');
  if (!READS.includes(v.v))
    fail(
      'link',
      `version ${JSON.stringify(v.v)?.slice(0, 20)} is not supported (this page reads versions ${READS.join(' and ')})`,
    );
  onlyKeys(
    v,
    v.v >= 2
      ? ['v', 'settings', 'params', 'multiPower', 'source', 'curves', 'predictions', 'chart', 'analysis']
      : ['v', 'settings', 'params', 'source', 'curves', 'predictions'],
    'link',
  );
  const settings = checkSettings(v.settings);
  let params = null;
  if (v.params !== null && v.params !== undefined) {
    if (!isObject(v.params)) fail('params', 'not an object');
    onlyKeys(v.params, paramKeys(), 'params');
    params = {};
    for (const [k, x] of Object.entries(v.params)) params[k] = finite(x, `params.${k}`);
    for (const k of LAWS.annealing.params) if (!(k in params)) fail('params', `${k} is missing`);
    for (const k of LAWS.annealing.params.filter((x) => x !== 'lambda'))
      if (params[k] < 0) fail(`params.${k}`, 'must be zero or more');
    if (!(params.lambda > 0 && params.lambda < 1)) fail('params.lambda', 'must be between 0 and 1');
  }
  let multiPower = null;
  if (v.multiPower !== null && v.multiPower !== undefined) {
    if (!isObject(v.multiPower)) fail('multiPower', 'not an object');
    onlyKeys(v.multiPower, multiPowerKeys(), 'multiPower');
    multiPower = {};
    for (const k of multiPowerKeys()) {
      if (!(k in v.multiPower)) fail('multiPower', `${k} is missing`);
      multiPower[k] = finite(v.multiPower[k], `multiPower.${k}`);
      if (multiPower[k] < 0) fail(`multiPower.${k}`, 'must be zero or more');
    }
  }
  const source = v.source === undefined || v.source === null ? null : oneOf(v.source, ['fit', 'manual'], 'source');
  if (!Array.isArray(v.curves) || v.curves.length > MAX_ITEMS) fail('curves', `not a list of at most ${MAX_ITEMS}`);
  if (!Array.isArray(v.predictions) || v.predictions.length > MAX_ITEMS)
    fail('predictions', `not a list of at most ${MAX_ITEMS}`);
  const curves = v.curves.map(checkCurve);
  const predictions = v.predictions.map((p, i) => {
    const where = `predictions[${i}]`;
    if (!isObject(p)) fail(where, 'not an object');
    onlyKeys(p, ['name', 'schedule'], where);
    return { name: str(p.name, `${where}.name`), schedule: checkSchedule(p.schedule, `${where}.schedule`) };
  });
  const steps = [...curves, ...predictions].reduce((n, c) => n + (c.schedule ? scheduleSteps(c.schedule) : 0), 0);
  if (steps > MAX_LINK_STEPS)
    fail(
      'link',
      `its schedules run ${grouped(Math.round(steps))} steps in all, more than the ${grouped(MAX_LINK_STEPS)} a link may ask for`,
    );
  const chart = v.chart === undefined || v.chart === null ? null : checkChart(v.chart);
  const analysis = v.analysis === undefined || v.analysis === null ? null : checkAnalysis(v.analysis);
  return {
    v: SHARE_VERSION,
    settings,
    params,
    multiPower,
    source,
    curves,
    predictions,
    ...(chart ? { chart } : {}),
    ...(analysis ? { analysis } : {}),
  };
}

/** MAX_OPTIONS_TEXT bounds a link's analysis options, as JSON. */
const MAX_OPTIONS_TEXT = 20000;

/**
 * checkAnalysis copies the Analyses panel's view a link opens ({view, options, sizeTarget}),
 * checked, or throws: the view's id and the unseen N as text, the options as plain JSON data
 * (numbers, text, true or false, and lists and objects of them), which lawcore checks in turn
 * when the view is computed.
 */
function checkAnalysis(a) {
  if (!isObject(a)) fail('analysis', 'not an object');
  onlyKeys(a, ['view', 'options', 'sizeTarget'], 'analysis');
  const out = { view: str(a.view, 'analysis.view', 100) };
  if (a.sizeTarget !== undefined) out.sizeTarget = str(a.sizeTarget, 'analysis.sizeTarget', 100);
  if (a.options !== undefined) {
    if (!isObject(a.options)) fail('analysis.options', 'not an object');
    const plain = (x, where, depth) => {
      if (depth > 4) fail(where, 'nested too deeply');
      if (typeof x === 'number') return finite(x, where);
      if (typeof x === 'string' || typeof x === 'boolean') return x;
      if (Array.isArray(x)) return x.map((y, i) => plain(y, `${where}[${i}]`, depth + 1));
      if (isObject(x))
        return Object.fromEntries(
          Object.entries(x).map(([k, y]) => [k, plain(y, `${where}.${k.slice(0, 40)}`, depth + 1)]),
        );
      return fail(where, 'not a number, text, true or false, or a list or object of them');
    };
    out.options = plain(a.options, 'analysis.options', 0);
    if (JSON.stringify(out.options).length > MAX_OPTIONS_TEXT)
      fail('analysis.options', `over ${MAX_OPTIONS_TEXT} characters`);
  }
  return out;
}

/** checkChart copies how a link's charts count x ({xUnit, tokensPerStep, modelSize}), checked, or throws. */
function checkChart(c) {
  if (!isObject(c)) fail('chart', 'not an object');
  onlyKeys(c, ['xUnit', 'tokensPerStep', 'modelSize'], 'chart');
  const positiveOrNull = (x, where) => {
    if (x === null || x === undefined) return null;
    if (!(finite(x, where) > 0)) fail(where, 'must be a positive number');
    return x;
  };
  return {
    xUnit: oneOf(c.xUnit, X_UNITS, 'chart.xUnit'),
    tokensPerStep: positiveOrNull(c.tokensPerStep, 'chart.tokensPerStep'),
    modelSize: positiveOrNull(c.modelSize, 'chart.modelSize'),
  };
}

/**
 * checkShareable runs a view the page is about to put in a link through the checks of a link
 * opened, so that the page never hands out a link it would refuse; it throws the reason.
 */
export function checkShareable(view) {
  checkView(JSON.parse(JSON.stringify(view)));
}
