// Helpers of the command-line tests: running scripts/lawcore.mjs as a user would, temporary
// files, the paper's Fig. 2 curves as CSV files, and TensorBoard event files written in the
// real format (tests/tfevents.mjs, shared with the browser tests).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export { crc32c, eventFile } from '../tfevents.mjs';

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
  return `${['step', ...names].join(',')}\n${rows.join('\n')}\n`;
}

/** writeFig2 writes the paper's Fig. 2 curves as constant.csv and cosine.csv (step,loss) in dir. */
export function writeFig2(dir) {
  for (const name of ['constant', 'cosine']) writeFile(dir, `${name}.csv`, csv(fig2.steps, { loss: fig2.loss[name] }));
}

/**
 * fig2PageFit fits the Fig. 2 curves through the CLI with the request the page sends for them
 * (the paper's settings, intervals asked: the answer carries the jackknife's replicates).
 */
export function fig2PageFit() {
  const schedules = {
    constant: { kind: 'constant', total: fig2.total_steps, peak: fig2.eta_max, warmup: fig2.warmup },
    cosine: { kind: 'cosine', total: fig2.total_steps, peak: fig2.eta_max, final: fig2.eta_min, warmup: fig2.warmup },
  };
  return okJSON(
    ['fit', '--json'],
    JSON.stringify({
      law: 'annealing',
      lambda: 0.999,
      warmupSteps: 500,
      warmupConvention: 'peak',
      huberDelta: 0.001,
      intervals: true,
      curves: Object.entries(fig2.loss).map(([name, loss]) => ({
        name,
        role: 'fit',
        steps: fig2.steps,
        loss,
        schedule: schedules[name],
      })),
    }),
  );
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
