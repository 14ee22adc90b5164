// Helpers of the command-line tests: running scripts/lawcore.mjs as a user would, temporary
// files, the paper's Fig. 2 curves as CSV files, and TensorBoard event files written in the
// real format (TFRecord framing with masked CRC-32C checksums, Event protobufs).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cli = join(root, 'scripts', 'lawcore.mjs');
export const wasm = process.env.LAWCORE_WASM || join(root, 'build', 'wasm', 'lawcore.wasm');
export const fig2 = JSON.parse(readFileSync(join(root, 'site', 'examples', 'paper-fig2.json'), 'utf8'));

/** run runs the CLI with args (in cwd), input on stdin, and returns {code, stdout, stderr}. */
export function run(args, input, { cwd = root } = {}) {
  const out = spawnSync(process.execPath, [cli, ...args], {
    input: input ?? '',
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    timeout: 300_000,
  });
  assert.equal(out.error, undefined, `spawning the CLI: ${out.error}`);
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** ok runs the CLI and asserts that it succeeded, returning what it printed. */
export function ok(args, input, options) {
  const r = run(args, input, options);
  assert.equal(r.code, 0, `exit code ${r.code}, stderr:\n${r.stderr}`);
  return r.stdout;
}

/** okJSON runs the CLI, asserts that it succeeded and returns the JSON it printed. */
export function okJSON(args, input, options) {
  const stdout = ok(args, input, options);
  try {
    return JSON.parse(stdout);
  } catch (err) {
    assert.fail(`stdout is not JSON (${err.message}):\n${stdout.slice(0, 500)}`);
  }
}

/** writeFile writes text or bytes (JSON for other values) to dir/name, making its folders, and returns the path. */
export function writeFile(dir, name, value) {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === 'string' || value instanceof Uint8Array ? value : JSON.stringify(value));
  return path;
}

/** csv writes a CSV with a header and one row per step: columns are {name: values}. */
export function csv(steps, columns) {
  const names = Object.keys(columns);
  const rows = steps.map((s, i) => [s, ...names.map((n) => columns[n][i])].join(','));
  return ['step', ...names].join(',') + '\n' + rows.join('\n') + '\n';
}

/** writeFig2 writes the paper's Fig. 2 curves as constant.csv and cosine.csv (step,loss) in dir. */
export function writeFig2(dir) {
  for (const name of ['constant', 'cosine']) writeFile(dir, `${name}.csv`, csv(fig2.steps, { loss: fig2.loss[name] }));
}

/** PAPER is the paper's fit of Fig. 2 (lambda 0.999, warmup 500 counted at the peak). */
export const PAPER = { L0: 2.628, A: 0.43, C: 0.411, alpha: 0.55, lambda: 0.999 };

/** paramsOfReport reads the parameter table of a fit report: {name: value}. */
export function paramsOfReport(text) {
  const params = {};
  const start = text.split('\n').findIndex((l) => /^symbol\s+parameter\s+value/.test(l));
  assert.ok(start >= 0, `no parameter table in:\n${text}`);
  for (const line of text.split('\n').slice(start + 1)) {
    if (!line.trim()) break;
    const [, name, value] = line.trim().split(/\s+/);
    params[name] = Number(value);
  }
  return params;
}

// TensorBoard event files.

/** CRC32C_TABLE is the table of CRC-32C (Castagnoli, reflected polynomial 0x82f63b78). */
const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

/** crc32c is the CRC-32C of bytes. */
export function crc32c(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC32C_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** maskedCRC is TFRecord's masked checksum of bytes. */
function maskedCRC(bytes) {
  const crc = crc32c(bytes);
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0;
}

/** tfRecord frames data: uint64 LE length, masked CRC of the length, data, masked CRC of the data. */
function tfRecord(data) {
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(data.length));
  const lenCRC = Buffer.alloc(4);
  lenCRC.writeUInt32LE(maskedCRC(len));
  const dataCRC = Buffer.alloc(4);
  dataCRC.writeUInt32LE(maskedCRC(data));
  return Buffer.concat([len, lenCRC, data, dataCRC]);
}

/** varint is a protobuf varint. */
function varint(n) {
  const out = [];
  let v = BigInt(n);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

/** field is a protobuf field: its key (number, wire type) and payload. */
const field = (num, wire, payload) => Buffer.concat([varint((num << 3) | wire), payload]);
/** bytesField is a length-delimited field. */
const bytesField = (num, bytes) => field(num, 2, Buffer.concat([varint(bytes.length), bytes]));

/** scalarEvent is an Event {wall_time = 1, step = 2, summary = 5 {value = 1 {tag = 1, simple_value = 2}}}. */
function scalarEvent(step, values) {
  const wall = Buffer.alloc(8);
  wall.writeDoubleLE(1.7e9 + step);
  const summary = Buffer.concat(
    Object.entries(values).map(([tag, v]) => {
      const f = Buffer.alloc(4);
      f.writeFloatLE(v);
      return bytesField(1, Buffer.concat([bytesField(1, Buffer.from(tag)), field(2, 5, f)]));
    }),
  );
  return Buffer.concat([field(1, 1, wall), field(2, 0, varint(step)), bytesField(5, summary)]);
}

/**
 * eventFile is an event file's bytes: the file_version event, then one event per step with the
 * scalars of each tag ({tag: values}, null where a tag is not logged at that step).
 */
export function eventFile(steps, tags) {
  const version = Buffer.concat([field(1, 1, Buffer.alloc(8)), bytesField(3, Buffer.from('brain.Event:2'))]);
  const records = [tfRecord(version)];
  steps.forEach((step, i) => {
    const values = {};
    for (const [tag, vs] of Object.entries(tags)) if (vs[i] !== null && vs[i] !== undefined) values[tag] = vs[i];
    records.push(tfRecord(scalarEvent(step, values)));
  });
  return new Uint8Array(Buffer.concat(records));
}
