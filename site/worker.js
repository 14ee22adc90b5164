// The Web Worker that hosts lawcore, so that long fits never freeze the page.
//
// It starts with lawcore-core.wasm, a small build of the bridge with what the first view needs
// (fit and predict with the annealing law, schedules), and loads the full
// lawcore.wasm (importers, analyses, validation, auto, the other laws and the size law) the
// first time the core answers that a call needs it; from then on every call goes to the full
// one. The page is told while that download runs.
//
// Protocol (page -> worker):  {id, method, request: JSON string, columns?}  |  {cancel: true}
//                             {warmup: false}   (no warm-up: the browser is automated)
// Protocol (worker -> page):  {ready: true, version, memory}  |  {fatal: message}
//                             {loading: what}  |  {loaded: what, ms, memory}   (lawcore.wasm on first use)
//                             {id, progress: fraction}  |  {id, error, memory}
//                             {id, result: JSON string, columns, memory}
// memory is the byte size of the wasm instances' linear memories: Go's heap lives there, and
// it never shrinks, so it is the worker's high-water mark.
// Typed-array buffers are transferred both ways, never copied.
/* global Go */
'use strict';

const CORE_URL = 'lawcore-core.wasm';
// The core's download starts before anything else here.
const coreResponse = fetch(CORE_URL);

// Go's wasm_exec.js (it defines Go), copied beside the site's files by make build.
importScripts('wasm_exec.js');

const FULL_URL = 'lawcore.wasm';
/** What the full module adds, as the page says it while it loads. */
const FULL_WHAT = 'the importers, analyses and other laws';

const memories = [];

/** memoryBytes is the size of the loaded modules' linear memories (0 before one is loaded). */
function memoryBytes() {
  return memories.reduce((sum, m) => sum + m.buffer.byteLength, 0);
}

/**
 * loadModule instantiates the Go program at url (response: its fetch, if already started),
 * starts it and waits for the globalThis.lawcore it defines, which it returns (each program
 * defines its own; the later one replaces the global, so each is kept here).
 */
async function loadModule(url, response = fetch(url)) {
  const go = new Go();
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(response, go.importObject));
    performance.mark(`${url} instantiated`);
  } catch {
    // Servers that do not send application/wasm, or browsers without streaming.
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject));
  }
  memories.push(instance.exports.mem);
  const before = globalThis.lawcore;
  go.run(instance).then(
    () => postMessage({ fatal: `the Go program in ${url} exited` }),
    (err) => postMessage({ fatal: `${url} crashed: ${messageOf(err)}` }),
  );
  for (let i = 0; globalThis.lawcore === before && i < 200; i++) await new Promise((r) => setTimeout(r, 5));
  if (globalThis.lawcore === before) throw new Error(`${url} did not define globalThis.lawcore`);
  return globalThis.lawcore;
}

// The page creates this worker first thing (boot.js), so the core loads while the page does.
const core = loadModule(CORE_URL, coreResponse);
core.then(
  (api) => {
    performance.mark('core-up'); // for tests/browser/measure-timeline.mjs, as the marks below
    postMessage({ ready: true, version: api.version, memory: memoryBytes() });
  },
  (err) => postMessage({ fatal: `cannot start ${CORE_URL}: ${messageOf(err)}` }),
);

let full = null;
/** fullModule loads lawcore.wasm once, saying so to the page. */
function fullModule() {
  if (!full) {
    const started = performance.now();
    postMessage({ loading: FULL_WHAT });
    full = loadModule(FULL_URL);
    full.then(
      () => postMessage({ loaded: FULL_WHAT, ms: Math.round(performance.now() - started), memory: memoryBytes() }),
      (err) => postMessage({ fatal: `cannot start ${FULL_URL}: ${messageOf(err)}` }),
    );
  }
  return full;
}

/** MARKED_CALLS: the calls up to this id leave performance marks when they start and are answered. */
const MARKED_CALLS = 8;

/** engineFor is the module that answers calls now: the full one once it is loaded or loading. */
const engineFor = () => full || core;

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.warmup === false) {
    warmup.stop();
    return;
  }
  if (msg.cancel) {
    engineFor().then(
      (api) => api.cancel(),
      () => {},
    );
    return;
  }
  const { id, method, request, columns } = msg;
  warmup.callStarted();
  const started = performance.now();
  // the first calls' times (the first view's), not every call's: marks are kept until the page goes
  const marked = id <= MARKED_CALLS;
  if (marked) performance.mark(`call ${id} ${method} started`);
  try {
    const report = throttle((fraction) => postMessage({ id, progress: fraction }));
    // lawcore waits for resume after each report: the tasks queued meanwhile (a cancel) run first
    const progress = (fraction, resume) => {
      report(fraction);
      if (typeof resume !== 'function') return false;
      resumeAfterQueued(resume);
      return true;
    };
    let out;
    try {
      out = await (await engineFor()).run(method, request, columns || undefined, progress);
    } catch (err) {
      if (!err || !err.needsFull) throw err;
      out = await (await fullModule()).run(method, request, columns || undefined, progress);
    }
    const cols = (out && out.columns) || [];
    if (marked) performance.mark(`call ${id} ${method} answered`);
    postMessage({ id, result: out.result, columns: cols, memory: memoryBytes() }, buffersOf(cols));
    warmup.remember(method, request, columns, performance.now() - started);
  } catch (err) {
    postMessage({ id, error: messageOf(err), memory: memoryBytes() });
  } finally {
    warmup.callEnded();
  }
};

// The warm-up after the first view. V8 runs a wasm function on its baseline compiler until it
// has run a while, then optimises it: a fresh worker's first fit is 5-10 times a warm one. The
// browser keeps the optimised code (the next visit's worker starts with it), but only once V8 has
// made 1 MB of it, which the first view alone does not. So, once the page leaves the worker idle,
// it repeats the core's first fit and prediction, one call at a time while the page has none
// under way; it stops at once if the first repeat shows that the module was warm already, and
// never starts in an automated browser, which has no next visit (the page says so).
const warmup = (() => {
  const IDLE_MS = 700;
  const REPLAYS = { fit: 40, predict: 24 };
  const REPLAY_MAX_MS = 400; // a slower call (a large data set) is not repeated
  const calls = new Map(); // method -> {method, request, columns, ms}: the core's first of each
  let running = 0; // the page's calls under way
  let timer = 0;
  let order = null; // the repeats, in turn
  let done = 0;
  let replaying = false;
  let stopped = false;
  const left = () => (stopped ? 0 : order ? order.length - done : 1);
  const schedule = () => {
    clearTimeout(timer);
    if (calls.has('fit') && left() > 0 && !running) timer = setTimeout(replay, IDLE_MS);
  };
  async function replay() {
    if (replaying) return;
    replaying = true;
    // the core's, even if the full module answers by now: the next visit starts with the core
    const api = await core;
    order ||= ['fit', 'predict'].filter((m) => calls.has(m)).flatMap((m) => Array(REPLAYS[m]).fill(calls.get(m)));
    while (left() > 0 && !running) {
      const call = order[done++];
      const started = performance.now();
      try {
        await api.run(call.method, call.request, call.columns);
      } catch {
        done = order.length; // cancelled, or refused: no more
      }
      if (done === 1 && call.ms < 2 * (performance.now() - started)) done = order.length;
      await new Promise((r) => setTimeout(r, 0)); // the page's messages first
    }
    replaying = false;
    schedule();
  }
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    callStarted() {
      running++;
      clearTimeout(timer);
    },
    callEnded() {
      running--;
      schedule();
    },
    remember(method, request, columns, ms) {
      if ((method !== 'fit' && method !== 'predict') || calls.has(method) || full || ms > REPLAY_MAX_MS) return;
      calls.set(method, { method, request, columns: columns || undefined, ms });
    },
  };
})();

/** buffersOf lists the distinct ArrayBuffers behind the typed arrays of columns. */
function buffersOf(columns) {
  const buffers = new Set();
  for (const col of columns) {
    for (const value of Object.values(col || {})) {
      if (ArrayBuffer.isView(value) && value.buffer.byteLength > 0) buffers.add(value.buffer);
    }
  }
  return [...buffers];
}

// resumeAfterQueued calls resume after the tasks already queued, through a message this worker
// posts itself: a timer would do it too, but browsers clamp nested timers to 4 ms or more.
const yieldChannel = new MessageChannel();
const resumes = [];
yieldChannel.port1.onmessage = () => resumes.shift()();
function resumeAfterQueued(resume) {
  resumes.push(resume);
  yieldChannel.port2.postMessage(null);
}

/** throttle forwards at most one progress report every 50 ms, and always the last one (1). */
function throttle(fn) {
  let last = 0;
  return (fraction) => {
    const now = Date.now();
    if (now - last >= 50 || fraction >= 1) {
      last = now;
      fn(fraction);
    }
  };
}

function messageOf(err) {
  return err && err.message ? err.message : String(err);
}
