#!/usr/bin/env node
// lawcore.mjs: the calculator's core from the command line, through the same lawcore.wasm and
// bridge as the page.
//
//   node scripts/lawcore.mjs <method> [request.json] [--no-columns]
//
// Every method of the bridge: fit, predict, schedule, validate, import, pairlr, analyze and
// schema; and laws and presets, which print those parts of the schema. The request is read
// from the file argument, or from stdin when there is none (or it is "-"). schema, laws and
// presets need no request. For `import` the input may also be the log file itself, whose
// bytes are then read as they are.
//
// The answer is printed to stdout as JSON: the result of lawcore.run with the large arrays of
// the answer (its columns) merged in as plain arrays: into each curve of the result for
// `predict` and `import`, as each curve's `line` for `fit` (steps, lr, loss, s1Term, s2Term:
// a fit request is sent with "lines": true unless it says otherwise), into the top object for
// `schedule` (steps, lr). --no-columns leaves them out.
//
// Exit codes: 0 done; 1 bad input or any failure (the message on stderr); 2 bad usage.
// LAWCORE_WASM names another lawcore.wasm (default: build/site/lawcore.wasm next to this
// script's repository); wasm_exec.js is taken from the same directory, else from build/site.

import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const METHODS = ['fit', 'predict', 'schedule', 'validate', 'import', 'pairlr', 'analyze', 'schema', 'laws', 'presets'];
/** SCHEMA_PARTS are the commands that print a part of the schema. */
const SCHEMA_PARTS = { laws: 'laws', presets: 'presets' };
const USAGE = `usage: node scripts/lawcore.mjs <${METHODS.join('|')}> [request.json] [--no-columns]
  The request is read from the file, or from stdin without one. Prints the answer as JSON.`;

const here = dirname(fileURLToPath(import.meta.url));
const siteDir = resolve(here, '..', 'build', 'site');

/** UsageError is a bad command line: exit code 2. */
class UsageError extends Error {}

/** parseArgs returns {method, file, columns} from the command line arguments. */
function parseArgs(args) {
  const positional = [];
  let columns = true;
  for (const arg of args) {
    if (arg === '--no-columns') columns = false;
    else if (arg === '-h' || arg === '--help') {
      process.stdout.write(USAGE + '\n');
      process.exit(0);
    } else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  if (positional.length === 0) throw new UsageError('no method given');
  if (positional.length > 2) throw new UsageError(`too many arguments: ${positional.slice(2).join(' ')}`);
  const [method, file] = positional;
  if (!METHODS.includes(method)) throw new UsageError(`unknown method ${JSON.stringify(method)}`);
  return { method, file: file === '-' ? undefined : file, columns };
}

/** readRequest returns {request: JSON text, file?: bytes} for method, from file or stdin. */
async function readRequest(method, file) {
  let text;
  let name = 'stdin';
  if (file !== undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`cannot read ${file}: ${err.message}`);
    }
    name = basename(file);
  } else if (process.stdin.isTTY) {
    if (method === 'schema' || SCHEMA_PARTS[method]) return { request: '{}' };
    throw new UsageError('no request file given and stdin is a terminal');
  } else {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    text = Buffer.concat(chunks).toString('utf8');
  }
  if ((method === 'schema' || SCHEMA_PARTS[method]) && text.trim() === '') return { request: '{}' };
  if (method === 'import' && !text.trimStart().startsWith('{')) {
    // A log file given as is: its bytes, read as they are.
    return { request: JSON.stringify({ name }), file: file !== undefined ? readFileSync(file) : Buffer.from(text, 'utf8') };
  }
  if (method === 'fit') {
    let req;
    try {
      req = JSON.parse(text);
    } catch (err) {
      throw new Error(`the request is not JSON: ${err.message}`);
    }
    if (req && typeof req === 'object' && !('lines' in req)) req.lines = true;
    return { request: JSON.stringify(req) };
  }
  return { request: text };
}

/** startLawcore loads wasm_exec.js and lawcore.wasm, runs the Go program and returns globalThis.lawcore. */
async function startLawcore() {
  const wasmPath = resolve(process.env.LAWCORE_WASM || join(siteDir, 'lawcore.wasm'));
  if (!existsSync(wasmPath)) {
    throw new Error(`${wasmPath} not found: run \`make build\` (or set LAWCORE_WASM)`);
  }
  let execPath = join(dirname(wasmPath), 'wasm_exec.js');
  if (!existsSync(execPath)) execPath = join(siteDir, 'wasm_exec.js');
  if (!existsSync(execPath)) throw new Error(`${execPath} not found: run \`make build\``);

  vm.runInThisContext(readFileSync(execPath, 'utf8'), { filename: execPath });
  // Whatever the Go program prints goes to stderr: stdout carries only the answer.
  globalThis.fs.writeSync = (fd, buf) => {
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
  const exited = go.run(instance).then(
    () => {
      throw new Error(`the Go program in ${basename(wasmPath)} exited (code ${exitCode})`);
    },
  );
  exited.catch(() => {}); // observed below and by run()

  for (let i = 0; !globalThis.lawcore; i++) {
    if (i >= 2000) throw new Error(`${basename(wasmPath)} did not define globalThis.lawcore`);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5))]);
  }
  return { lawcore: globalThis.lawcore, exited };
}

/** mergeColumns returns result with the typed-array columns of the answer merged in as plain arrays. */
function mergeColumns(method, result, columns) {
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
      if (result.curves && result.curves[i]) merge((result.curves[i].line = {}), col);
    });
    return result;
  }
  const curves = Array.isArray(result) ? result : result && result.curves;
  if (!Array.isArray(curves)) return result;
  columns.forEach((col, i) => merge(curves[i], col));
  return result;
}

/** format writes JSON indented, with arrays of numbers (and other scalars) kept on one line. */
function format(value, indent = '') {
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return JSON.stringify(value);
    const inner = indent + '  ';
    return `[\n${value.map((v) => inner + format(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const inner = indent + '  ';
    const lines = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${format(v, inner)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** exit flushes stdout and stderr, then ends the process (the Go program never returns by itself). */
function exit(code) {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`lawcore: ${err.message}\n${USAGE}\n`);
    return exit(2);
  }
  try {
    const { request, file } = await readRequest(args.method, args.file);
    const { lawcore, exited } = await startLawcore();
    const method = SCHEMA_PARTS[args.method] ? 'schema' : args.method;
    const answer = await Promise.race([lawcore.run(method, request, file ? [new Uint8Array(file)] : undefined), exited]);
    let result;
    try {
      result = JSON.parse(answer.result);
    } catch (err) {
      throw new Error(`lawcore returned a result that is not JSON: ${err.message}`);
    }
    if (SCHEMA_PARTS[args.method]) result = result[SCHEMA_PARTS[args.method]];
    else if (args.columns) result = mergeColumns(args.method, result, answer.columns);
    process.stdout.write(format(result) + '\n');
    exit(0);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`lawcore ${args.method}: ${message}\n`);
    exit(err instanceof UsageError ? 2 : 1);
  }
}

main();
