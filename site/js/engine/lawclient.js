// The page's side of the worker protocol (see site/worker.js): one promise per call, and a new
// worker when the old one dies. The page keeps all state, so a restart loses nothing but the
// call that was running.
import { startWorker } from './worker-start.js';

const CANCEL_GRACE_MS = 3000;

/** A LawClient runs lawcore methods in a Web Worker. It fires "ready", "restart", "memory" and "loading" events. */
export class LawClient extends EventTarget {
  constructor(url = 'worker.js') {
    super();
    this.url = url;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, onProgress, method, message, columns}
    this.version = '';
    /** started: a worker has loaded lawcore (before that, calls wait for it, across restarts). */
    this.started = false;
    this.restarts = [];
    /** memoryBytes is the worker's wasm memory after its latest answer (its high-water mark). */
    this.memoryBytes = 0;
    /** ready resolves with lawcore's version when a worker first loads it (after restarts if need be). */
    this.ready = new Promise((resolve, reject) => {
      this.markReady = resolve;
      this.failStart = reject;
    });
    this.ready.catch(() => {});
    this.start();
  }

  /**
   * start creates a worker, which loads lawcore and then says it is ready. The first time, it
   * takes over the worker boot.js created as the page started, with the messages it sent since.
   */
  start() {
    const boot = globalThis.lawcoreBoot;
    globalThis.lawcoreBoot = null;
    const adopt = boot && boot.url === this.url;
    this.worker = adopt ? boot.worker : startWorker(this.url);
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this.restart(`the worker failed: ${e.message || 'unknown error'}`);
    };
    this.worker.onmessageerror = () => this.restart('the worker sent a message that could not be read');
    if (adopt) {
      const worker = this.worker;
      // In order, and stopping if one of them replaced the worker (a fatal message); after the
      // constructor has returned (a microtask: before any later message of the worker), so
      // that the events they fire reach the listeners added just after it.
      queueMicrotask(() => {
        for (const msg of boot.early.splice(0)) if (this.worker === worker) this.receive(msg);
      });
    }
  }

  receive(msg) {
    if (msg.memory) {
      this.memoryBytes = msg.memory;
      this.dispatchEvent(new CustomEvent('memory', { detail: msg.memory }));
    }
    if (msg.loading || msg.loaded) {
      // The worker loads the rest of lawcore (lawcore.wasm) for a call the first view's core lacks.
      this.dispatchEvent(
        new CustomEvent('loading', {
          detail: msg.loading ? { what: msg.loading } : { what: msg.loaded, done: true, ms: msg.ms },
        }),
      );
      return;
    }
    if (msg.ready) {
      this.started = true;
      this.version = msg.version;
      this.markReady(msg.version);
      this.dispatchEvent(new CustomEvent('ready', { detail: msg.version }));
      return;
    }
    if (msg.fatal) {
      this.restart(msg.fatal);
      return;
    }
    const call = this.pending.get(msg.id);
    if (!call) return;
    if ('progress' in msg) {
      if (call.onProgress) call.onProgress(msg.progress);
      return;
    }
    this.pending.delete(msg.id);
    if ('error' in msg) call.reject(new Error(msg.error));
    else call.resolve({ result: JSON.parse(msg.result), columns: msg.columns || [] });
  }

  /**
   * call runs method with request (an object, sent as JSON) and optional columns: one object of
   * Float64Arrays per curve, or for `import` [Uint8Array], the file's bytes. They are copied,
   * then the copies are transferred. It resolves to {result, columns} with result parsed from
   * JSON, and rejects with the bridge's Error.
   */
  call(method, request, columns, onProgress) {
    const id = this.nextId++;
    const message = { id, method, request: JSON.stringify(request) };
    return new Promise((resolve, reject) => {
      // message and columns: what the call needs to be sent again to a new worker (restart)
      this.pending.set(id, { resolve, reject, onProgress, method, message, columns });
      this.post(message, columns);
    });
  }

  /** post sends a call's message to the worker, with copies of its columns transferred. */
  post(message, columns) {
    const cols = columns ? columns.map((c) => (c instanceof Uint8Array ? c.slice() : copyColumns(c))) : undefined;
    const buffers = cols
      ? cols.flatMap((c) => (c instanceof Uint8Array ? [c.buffer] : Object.values(c).map((a) => a.buffer)))
      : [];
    this.worker.postMessage({ ...message, columns: cols }, buffers);
  }

  /**
   * cancel asks lawcore to stop the running fit (its promise rejects with "cancelled"). If the
   * worker does not answer in time, it is replaced and the calls pending at the cancel reject
   * with "cancelled"; those made since go to the new worker.
   */
  cancel() {
    this.worker.postMessage({ cancel: true });
    const waiting = [...this.pending.keys()];
    clearTimeout(this.cancelTimer);
    this.cancelTimer = setTimeout(() => {
      if (waiting.some((id) => this.pending.has(id))) {
        console.info(`lawcore did not stop within ${CANCEL_GRACE_MS} ms of cancel(): the worker was replaced`);
        this.restart('cancelled', { quiet: true, stopped: waiting });
      }
    }, CANCEL_GRACE_MS);
  }

  /**
   * restart replaces the worker; pending calls reject with reason, but those that were not what
   * the worker was stopped for go to the new worker. A worker that dies more than three times in
   * 30 s is not replaced again ("failed"); replacing one on cancel (quiet, stopped: the ids of
   * the calls cancelled) does not count.
   */
  restart(reason, { quiet = false, stopped = null } = {}) {
    this.worker.terminate();
    // A cancel stops the calls it was for; calls made since have not been cancelled. A worker
    // that dies before lawcore ever loaded ran nothing (the page's start-up view asks for its
    // fit before lawcore is up). Once it has, a worker that dies rejects every call under
    // way: one of them may be what killed it.
    const dies = stopped ? (id) => stopped.includes(id) : () => this.started;
    for (const [id, call] of this.pending) {
      if (!dies(id)) continue;
      call.reject(new Error(reason));
      this.pending.delete(id);
    }
    const now = Date.now();
    if (!quiet) this.restarts = this.restarts.filter((t) => now - t < 30000).concat(now);
    if (this.restarts.length > 3) {
      // what waited for lawcore says why it never ran (the page may show it after "failed"'s message)
      for (const call of this.pending.values())
        call.reject(new Error(`the calculator could not start (${reason}); reload the page to try again`));
      this.pending.clear();
      this.worker = { postMessage() {}, terminate() {} };
      this.failStart(new Error(reason));
      this.dispatchEvent(new CustomEvent('failed', { detail: reason }));
      return;
    }
    this.start();
    for (const call of this.pending.values()) this.post(call.message, call.columns);
    if (!quiet) this.dispatchEvent(new CustomEvent('restart', { detail: reason }));
  }
}

/** copyColumns copies one curve's typed arrays so that transferring them leaves ours intact. */
function copyColumns(col) {
  const out = {};
  for (const [key, value] of Object.entries(col)) {
    if (value) out[key] = Float64Array.from(value);
  }
  return out;
}
