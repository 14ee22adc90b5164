// The Web Worker that hosts lawcore.wasm, so that long fits never freeze the page.
//
// Protocol (page -> worker):  {id, method, request: JSON string, columns?}  |  {cancel: true}
// Protocol (worker -> page):  {ready: true, version, memory}  |  {fatal: message}
//                             {id, progress: fraction}  |  {id, result: JSON string, columns, memory}  |  {id, error, memory}
// memory is the byte size of the wasm instance's linear memory: Go's heap lives there, and it
// never shrinks, so it is the worker's high-water mark.
// Typed-array buffers are transferred both ways, never copied.
/* global Go, lawcore */
'use strict';

importScripts('wasm_exec.js');

let memory = null;

/** memoryBytes is the size of lawcore.wasm's linear memory (0 before it is loaded). */
function memoryBytes() {
  return memory ? memory.buffer.byteLength : 0;
}

/** loadLawcore instantiates lawcore.wasm, starts the Go program and waits for globalThis.lawcore. */
async function loadLawcore() {
  const go = new Go();
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(fetch('lawcore.wasm'), go.importObject));
  } catch (streamingError) {
    // Servers that do not send application/wasm, or browsers without streaming.
    const response = await fetch('lawcore.wasm');
    if (!response.ok) throw new Error(`lawcore.wasm: HTTP ${response.status}`);
    ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject));
  }
  memory = instance.exports.mem;
  go.run(instance).then(
    () => postMessage({ fatal: 'the Go program in lawcore.wasm exited' }),
    (err) => postMessage({ fatal: `lawcore.wasm crashed: ${messageOf(err)}` }),
  );
  for (let i = 0; !globalThis.lawcore && i < 200; i++) await new Promise((r) => setTimeout(r, 5));
  if (!globalThis.lawcore) throw new Error('lawcore.wasm did not define globalThis.lawcore');
  postMessage({ ready: true, version: lawcore.version, memory: memoryBytes() });
}

const ready = loadLawcore();
ready.catch((err) => postMessage({ fatal: `cannot start lawcore.wasm: ${messageOf(err)}` }));

onmessage = async (event) => {
  const msg = event.data;
  if (msg.cancel) {
    ready.then(() => lawcore.cancel(), () => {});
    return;
  }
  const { id, method, request, columns } = msg;
  try {
    await ready;
    const out = await lawcore.run(method, request, columns || undefined, throttle((fraction) => {
      postMessage({ id, progress: fraction });
    }));
    const cols = (out && out.columns) || [];
    postMessage({ id, result: out.result, columns: cols, memory: memoryBytes() }, buffersOf(cols));
  } catch (err) {
    postMessage({ id, error: messageOf(err), memory: memoryBytes() });
  }
};

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
