// The bridge under node: loads lawcore.wasm with Go's wasm_exec.js, as the page does, and calls
// lawcore.run; and the JSON form of its answers (columns merged in as plain arrays).

import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

// build/wasm holds the modules as built (the site's copies have content-hashed names) and wasm_exec.js.
const wasmDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'build', 'wasm');

/**
 * startLawcore loads wasm_exec.js and lawcore.wasm (LAWCORE_WASM, default build/wasm/lawcore.wasm),
 * runs the Go program and returns {call}: call(method, request, columns?, onProgress?) resolves
 * to {result (parsed), columns} and rejects with lawcore's message; onProgress(fraction) hears
 * how much of the call is done.
 */
export async function startLawcore() {
  const wasmPath = resolve(process.env.LAWCORE_WASM || join(wasmDir, 'lawcore.wasm'));
  if (!existsSync(wasmPath)) {
    throw new Error(`${wasmPath} not found: run \`make build\` (or set LAWCORE_WASM)`);
  }
  let execPath = join(dirname(wasmPath), 'wasm_exec.js');
  if (!existsSync(execPath)) execPath = join(wasmDir, 'wasm_exec.js');
  if (!existsSync(execPath)) throw new Error(`${execPath} not found: run \`make build\``);

  vm.runInThisContext(readFileSync(execPath, 'utf8'), { filename: execPath });
  // Whatever the Go program prints goes to stderr: stdout carries only the answer.
  globalThis.fs.writeSync = (_fd, buf) => {
    process.stderr.write(buf);
    return buf.length;
  };

  const go = new globalThis.Go();
  go.argv = ['lawcore.wasm'];
  let exitCode;
  go.exit = (code) => {
    exitCode = code;
  };
  const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), go.importObject);
  const exited = go.run(instance).then(() => {
    throw new Error(`the Go program in ${basename(wasmPath)} exited (code ${exitCode})`);
  });
  exited.catch(() => {}); // observed below and by call()

  for (let i = 0; !globalThis.lawcore; i++) {
    if (i >= 2000) throw new Error(`${basename(wasmPath)} did not define globalThis.lawcore`);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5))]);
  }
  const lawcore = globalThis.lawcore;
  return {
    version: lawcore.version,
    async call(method, request, columns, onProgress) {
      const text = typeof request === 'string' ? request : JSON.stringify(request);
      // onProgress returns nothing: lawcore then goes on after a 1 ms pause (no cancel here to let through)
      const progress =
        onProgress
        && ((fraction) => {
          onProgress(fraction);
        });
      const answer = await Promise.race([lawcore.run(method, text, columns, progress), exited]);
      try {
        return { result: JSON.parse(answer.result), columns: answer.columns || [] };
      } catch (err) {
        throw new Error(`lawcore returned a result that is not JSON: ${err.message}`);
      }
    },
  };
}

/** mergeColumns returns result with the typed-array columns of the answer merged in as plain arrays. */
export function mergeColumns(method, result, columns) {
  if (!Array.isArray(columns) || columns.length === 0) return result;
  const merge = (target, col) => {
    if (!target || typeof target !== 'object' || !col) return;
    for (const [key, value] of Object.entries(col)) {
      let name = key;
      if (Object.hasOwn(target, name)) name += 'Column'; // never overwrite a field of the result
      target[name] = ArrayBuffer.isView(value) ? Array.from(value) : value;
    }
  };
  if (method === 'schedule') {
    merge(result, columns[0]);
    return result;
  }
  if (method === 'fit') {
    columns.forEach((col, i) => {
      if (!(result.curves && result.curves[i])) return;
      result.curves[i].line = {};
      merge(result.curves[i].line, col);
    });
    return result;
  }
  const curves = Array.isArray(result) ? result : result && result.curves;
  if (!Array.isArray(curves)) return result;
  columns.forEach((col, i) => {
    merge(curves[i], col);
  });
  return result;
}

/** formatJSON writes JSON indented, with arrays of numbers (and other scalars) kept on one line. */
export function formatJSON(value, indent = '') {
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return JSON.stringify(value);
    const inner = `${indent}  `;
    return `[\n${value.map((v) => inner + formatJSON(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    const lines = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJSON(v, inner)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * progressWriter returns onProgress for a call of method, writing to stream (stderr): on a
 * terminal one line kept up to date ("lawcore fit: 42%"), erased by done(); elsewhere (--progress
 * into a file or a pipe) a line at each tenth, so that a log is not flooded. done(finished)
 * ends it: a call that reported and finished says 100% (lawcore's last report may fall within
 * its 50 ms throttle); one that never reported (a quick call) says nothing.
 */
export function progressWriter(method, stream) {
  let shown = -1;
  const onProgress = (fraction) => {
    const pct = Math.floor(100 * Math.min(Math.max(fraction, 0), 1));
    if (stream.isTTY) {
      if (pct !== shown) stream.write(`\rlawcore ${method}: ${pct}%`);
    } else if (Math.floor(pct / 10) > Math.floor(shown / 10)) {
      stream.write(`lawcore ${method}: ${pct}%\n`);
    }
    shown = Math.max(shown, pct);
  };
  const done = (finished) => {
    if (shown < 0) return;
    if (finished) onProgress(1);
    if (stream.isTTY) stream.write('\r\x1b[K');
  };
  return { onProgress, done };
}
