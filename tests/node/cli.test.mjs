// Tests of scripts/lawcore.mjs, the command-line front of lawcore.wasm, run as a child process
// exactly as a user would. They need build/site/lawcore.wasm: `make build` (make test does).
//
//   node --test tests/node/

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cli = join(root, 'scripts', 'lawcore.mjs');
const wasm = process.env.LAWCORE_WASM || join(root, 'build', 'site', 'lawcore.wasm');
const fig2 = JSON.parse(readFileSync(join(root, 'site', 'examples', 'paper-fig2.json'), 'utf8'));

const PEAK = 2e-4;
const TOTAL = 20000;
const WARMUP = 500;
const PAPER = { L0: 2.628, A: 0.43, C: 0.411, alpha: 0.55, lambda: 0.999 };

let tmp;
before(() => {
  assert.ok(existsSync(wasm), `${wasm} is missing: run \`make build\` first`);
  tmp = mkdtempSync(join(tmpdir(), 'lawcore-cli-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** run runs the CLI with args, input on stdin, and returns {code, stdout, stderr}. */
function run(args, input) {
  const out = spawnSync(process.execPath, [cli, ...args], {
    input: input ?? '',
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    timeout: 300_000,
  });
  assert.equal(out.error, undefined, `spawning the CLI: ${out.error}`);
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** ok runs the CLI and asserts that it succeeded, returning what it printed. */
function ok(args, input) {
  const r = run(args, input);
  assert.equal(r.code, 0, `exit code ${r.code}, stderr:\n${r.stderr}`);
  return r.stdout;
}

/** okJSON runs the CLI, asserts that it succeeded and returns the JSON it printed. */
function okJSON(args, input) {
  const stdout = ok(args, input);
  try {
    return JSON.parse(stdout);
  } catch (err) {
    assert.fail(`stdout is not JSON (${err.message}):\n${stdout.slice(0, 500)}`);
  }
}

/** writeTmp writes a request to a temporary file and returns its path. */
function writeTmp(name, value) {
  const path = join(tmp, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

/** fig2Request is the fit of the paper's Fig. 2, with schedules or (lrList) explicit LR lists. */
function fig2Request({ lrList = false } = {}) {
  const schedules = {
    constant: { kind: 'constant', total: TOTAL, peak: PEAK, warmup: WARMUP },
    cosine: { kind: 'cosine', total: TOTAL, peak: PEAK, warmup: WARMUP, final: 0 },
  };
  const lists = { constant: constantLR(), cosine: cosineLR() };
  return {
    curves: ['constant', 'cosine'].map((name) => ({
      name,
      role: 'fit',
      steps: fig2.steps,
      loss: fig2.loss[name],
      ...(lrList ? { lr: lists[name] } : { schedule: schedules[name] }),
    })),
    lambda: 0.999,
    warmupSteps: WARMUP,
    warmupConvention: 'peak',
    huberDelta: 1e-3,
  };
}

/** constantLR is the per-step LR of the constant run: 20001 values, all at the peak. */
function constantLR() {
  return Array.from({ length: TOTAL + 1 }, () => PEAK);
}

/** cosineLR is the per-step LR of the cosine run: the peak for steps 0..500, then cosine to 0 at 20000. */
function cosineLR() {
  return Array.from({ length: TOTAL + 1 }, (_, s) =>
    s <= WARMUP ? PEAK : PEAK * 0.5 * (1 + Math.cos((Math.PI * (s - WARMUP)) / (TOTAL - WARMUP))),
  );
}

const round3 = (x) => Math.round(x * 1000) / 1000;

/** checkFig2Fit checks a fit response of the Fig. 2 request against the paper's fit. */
function checkFig2Fit(res) {
  const p = res.params;
  assert.deepEqual(
    { L0: round3(p.L0), A: round3(p.A), C: round3(p.C), alpha: round3(p.alpha) },
    { L0: 2.628, A: 0.43, C: 0.411, alpha: 0.55 },
    `params ${JSON.stringify(p)}`,
  );
  assert.equal(p.lambda, 0.999);
  assert.ok(res.objective <= 1.63e-5, `objective ${res.objective} > 1.63e-5`);
  assert.equal(res.curves.length, 2);
  for (const [i, name] of ['constant', 'cosine'].entries()) {
    const c = res.curves[i];
    assert.equal(c.name, name);
    assert.equal(c.role, 'fit');
    for (const m of ['R2', 'MAE', 'RMSE', 'PredE', 'WorstE', 'FinalErr']) {
      assert.equal(typeof c.metrics[m], 'number', `curve ${name}: metrics.${m}`);
    }
    assert.ok(c.metrics.R2 > 0.99, `curve ${name}: R2 ${c.metrics.R2}`);
    assert.equal(c.predicted.length, fig2.steps.length, `curve ${name}: predicted`);
    // The fitted line, from the answer's columns, at every step.
    const line = c.line;
    assert.ok(line && Array.isArray(line.steps) && Array.isArray(line.loss), `curve ${name}: line.steps/line.loss`);
    assert.equal(line.steps.length, line.loss.length);
    assert.equal(line.steps.at(-1), TOTAL);
    const last = fig2.loss[name].at(-1);
    assert.ok(Math.abs(line.loss.at(-1) - last) < 0.01, `curve ${name}: fitted end ${line.loss.at(-1)} vs ${last}`);
  }
  assert.equal(typeof res.fitMetrics, 'object');
}

test('fit of the paper Fig. 2 (schedules, request on stdin) gives the paper params', () => {
  checkFig2Fit(okJSON(['fit', '--json'], JSON.stringify(fig2Request())));
});

test('fit of the paper Fig. 2 with explicit lr lists (request file) gives the same params', () => {
  const req = fig2Request({ lrList: true });
  assert.equal(req.curves[1].lr.length, TOTAL + 1);
  checkFig2Fit(okJSON(['fit', writeTmp('fig2-lr.json', req), '--json']));
});

test('predict gives the documented fields, per curve, with the columns merged', () => {
  const req = {
    params: PAPER,
    warmupSteps: WARMUP,
    warmupConvention: 'peak',
    curves: [
      { name: 'constant', schedule: { kind: 'constant', total: TOTAL, peak: PEAK, warmup: WARMUP } },
      { name: 'cosine 60K', schedule: { kind: 'cosine', total: 60000, peak: PEAK, warmup: WARMUP, final: 0 } },
      { name: 'mine', lr: cosineLR() },
    ],
    points: 2000,
  };
  const res = okJSON(['predict', writeTmp('predict.json', req)]);
  const curves = Array.isArray(res) ? res : res.curves;
  assert.ok(Array.isArray(curves), `result has no curves: ${JSON.stringify(res).slice(0, 300)}`);
  assert.deepEqual(curves.map((c) => c.name), ['constant', 'cosine 60K', 'mine']);
  const totals = [TOTAL, 60000, TOTAL];
  for (const [i, c] of curves.entries()) {
    for (const f of ['finalLoss', 'finalS1', 'finalS2']) assert.equal(typeof c[f], 'number', `${c.name}: ${f}`);
    assert.equal(c.total, totals[i], `${c.name}: total`);
    const n = c.steps.length;
    assert.ok(n >= 1500 && n <= 2500, `${c.name}: ${n} points for points=2000`);
    for (const f of ['lr', 'loss', 's1Term', 's2Term']) {
      assert.ok(Array.isArray(c[f]), `${c.name}: column ${f} missing`);
      assert.equal(c[f].length, n, `${c.name}: column ${f} has ${c[f].length} values, steps ${n}`);
    }
    assert.equal(c.steps.at(-1), c.total, `${c.name}: the last step is always included`);
    assert.ok(c.steps.every((s, j) => j === 0 || s > c.steps[j - 1]), `${c.name}: steps increase`);
    assert.ok(Math.abs(c.loss.at(-1) - c.finalLoss) < 1e-12, `${c.name}: finalLoss is the last loss`);
    // The loss is L0 plus the S1 term, lowered by the S2 term (whichever sign s2Term carries).
    const sign = c.s2Term.some((v) => v < 0) ? 1 : -1;
    for (let j = 0; j < n; j += 97) {
      const sum = PAPER.L0 + c.s1Term[j] + sign * c.s2Term[j];
      assert.ok(Math.abs(c.loss[j] - sum) < 1e-9, `${c.name}: loss[${j}] ${c.loss[j]} != L0+s1Term-|s2Term| ${sum}`);
    }
  }
  // Constant LR, warmup counted at the peak: S1 = 20001 * peak (sums from step 0), S2 = 0.
  const [constant, cosine60, mine] = curves;
  assert.ok(Math.abs(constant.finalS1 - (TOTAL + 1) * PEAK) < 1e-9, `finalS1 ${constant.finalS1}`);
  assert.ok(Math.abs(constant.finalS2) < 1e-12, `finalS2 ${constant.finalS2}`);
  assert.ok(constant.s2Term.every((v) => Math.abs(v) < 1e-12), 'constant LR: s2Term is 0');
  const expected = PAPER.L0 + PAPER.A * ((TOTAL + 1) * PEAK) ** -PAPER.alpha;
  assert.ok(Math.abs(constant.finalLoss - expected) < 1e-9, `constant finalLoss ${constant.finalLoss} != ${expected}`);
  // The cosine anneals (S2 > 0) and has a smaller S1; a longer run ends lower.
  assert.ok(mine.finalS2 > 0, `cosine finalS2 ${mine.finalS2}`);
  assert.ok(mine.finalS1 < constant.finalS1, `cosine finalS1 ${mine.finalS1}`);
  assert.ok(cosine60.finalLoss < mine.finalLoss);
  // The cosine of Fig. 2 predicted with the paper's params lands on the measured end loss.
  assert.ok(Math.abs(mine.finalLoss - fig2.loss.cosine.at(-1)) < 0.01, `cosine end ${mine.finalLoss}`);
});

test('schedule gives the summary and the LR of steps 0..total', () => {
  const res = okJSON(['schedule'], JSON.stringify({ kind: 'cosine', total: 1000, peak: 1e-3, warmup: 100, final: 1e-4 }));
  assert.equal(res.total, 1000);
  assert.equal(res.peak, 1e-3);
  assert.equal(res.final, 1e-4);
  assert.equal(res.warmup, 100);
  assert.equal(res.steps.length, 1001);
  assert.equal(res.lr.length, 1001);
  assert.deepEqual([res.steps[0], res.steps.at(-1)], [0, 1000]);
  assert.equal(res.lr[0], 0, 'warmupFrom defaults to 0');
  assert.ok(Math.abs(res.lr[100] - 1e-3) < 1e-15, `lr[100] ${res.lr[100]}`);
  assert.ok(Math.abs(res.lr[1000] - 1e-4) < 1e-15, `lr[1000] ${res.lr[1000]}`);
});

test('presets lists schedules, with no request', () => {
  const out = okJSON(['presets']);
  // README: an array; the bridge may wrap it as {presets: [...], kinds, ...}.
  const res = Array.isArray(out) ? out : out.presets;
  assert.ok(Array.isArray(res) && res.length > 0, `presets: ${JSON.stringify(out).slice(0, 200)}`);
  for (const p of res) {
    for (const f of ['id', 'name', 'origin']) assert.equal(typeof p[f], 'string', `preset ${p.id}: ${f}`);
    assert.equal(typeof p.schedule, 'object', `preset ${p.id}: schedule`);
  }
  assert.equal(new Set(res.map((p) => p.id)).size, res.length, 'preset ids are unique');
});

test('import reads a log file given as is, and a {name, text} request', () => {
  const csv = 'step,loss,lr\n0,10.5,0\n100,4.25,1e-4\n200,3.5,2e-4\n';
  for (const res of [okJSON(['import', writeTmp('run.csv', csv), '--json']), okJSON(['import', '--json'], JSON.stringify({ name: 'run.csv', text: csv }))]) {
    assert.equal(res.name, 'run.csv');
    assert.equal(res.format, 'csv');
    const c = res.curves[0];
    assert.equal(c.points, 3);
    assert.equal(c.hasLR, true);
    assert.deepEqual(c.steps, [0, 100, 200]);
    assert.deepEqual(c.loss, [10.5, 4.25, 3.5]);
    assert.deepEqual(c.lr, [0, 1e-4, 2e-4]);
  }
});

test('laws lists every law with its parameters and formula', () => {
  const laws = okJSON(['laws', '--json']);
  const names = laws.map((l) => l.name);
  for (const want of ['annealing', 'multi-power', 'lr-weighted', 's2-power', 'size']) assert.ok(names.includes(want), `no ${want} in ${names}`);
  const ann = laws.find((l) => l.name === 'annealing');
  assert.deepEqual(ann.params.map((p) => p.name), ['L0', 'A', 'alpha', 'C', 'lambda']);
  assert.match(ann.formula, /S1/);
});

test('a curve with a negative loss is refused, naming the curve and the field', () => {
  const req = fig2Request();
  req.curves[1].loss = req.curves[1].loss.slice();
  req.curves[1].loss[3] = -1;
  const r = run(['fit'], JSON.stringify(req));
  assert.equal(r.code, 1, `exit code ${r.code}`);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /cosine/, `stderr does not name the curve: ${r.stderr}`);
  assert.match(r.stderr, /loss/, `stderr does not name the field: ${r.stderr}`);
});

test('invalid JSON is refused with a message', () => {
  for (const method of ['fit', 'predict', 'schedule']) {
    const r = run([method], '{"curves": [');
    assert.equal(r.code, 1, `${method}: exit code ${r.code}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /\S/, `${method}: nothing on stderr`);
  }
});

test('a schedule with a bad field is refused, naming the field', () => {
  const r = run(['schedule'], JSON.stringify({ kind: 'cosine', total: 1000, peak: -1 }));
  assert.equal(r.code, 1);
  assert.match(r.stderr, /peak/, `stderr: ${r.stderr}`);
});

test('usage errors exit 2, missing files exit 1', () => {
  for (const args of [[], ['nosuchmethod'], ['fit', 'a.json', 'b.json'], ['fit', '--bogus']]) {
    const r = run(args);
    assert.equal(r.code, 2, `${JSON.stringify(args)}: exit code ${r.code}`);
    assert.match(r.stderr, /usage:/);
  }
  const r = run(['fit', join(tmp, 'does-not-exist.json')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /does-not-exist\.json/);
});
