// Tests of scripts/lawcore.mjs, the command-line front of lawcore.wasm, run as a child process
// exactly as a user would. They need build/wasm/lawcore.wasm: `make build` (make test does).
//
//   node --test tests/node/

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  crc32c,
  csv,
  eventFile,
  fig2,
  ok,
  okJSON,
  PAPER,
  paramsOfReport,
  root,
  run,
  wasm,
  writeFig2,
  writeFile,
} from './cli-helpers.mjs';
import { parseScheduleSpec } from '../../scripts/cli/schedule-spec.mjs';
import { fitReport, predictionsTable } from '../../scripts/cli/report.mjs';

const PEAK = 2e-4;
const TOTAL = 20000;
const WARMUP = 500;

let tmp;
before(() => {
  assert.ok(existsSync(wasm), `${wasm} is missing: run \`make build\` first`);
  tmp = mkdtempSync(join(tmpdir(), 'lawcore-cli-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** writeTmp writes a file (a request: JSON) in the temporary folder and returns its path. */
const writeTmp = (name, value) => writeFile(tmp, name, value);

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
  // at least as good as the paper's printed parameters (2.628, 0.429, 0.411, 0.550): 1.6577e-5
  // (lawcore/fig2_test.go evaluates them)
  assert.ok(res.objective <= 1.6577e-5, `objective ${res.objective} > 1.6577e-5`);
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
  assert.deepEqual(
    curves.map((c) => c.name),
    ['constant', 'cosine 60K', 'mine'],
  );
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
    assert.ok(
      c.steps.every((s, j) => j === 0 || s > c.steps[j - 1]),
      `${c.name}: steps increase`,
    );
    assert.ok(Math.abs(c.loss.at(-1) - c.finalLoss) < 1e-12, `${c.name}: finalLoss is the last loss`);
    // loss = L0 + s1Term - s2Term, with s2Term = C*S2 (docs/api.md#predict-request): never negative here, as the LR
    // never rises after the warmup counted at the peak
    for (let j = 0; j < n; j += 97) {
      const sum = PAPER.L0 + c.s1Term[j] - c.s2Term[j];
      assert.ok(Math.abs(c.loss[j] - sum) < 1e-9, `${c.name}: loss[${j}] ${c.loss[j]} != L0+s1Term-s2Term ${sum}`);
    }
    assert.ok(
      c.s2Term.every((v) => v >= 0),
      `${c.name}: s2Term is C*S2 >= 0`,
    );
  }
  // Constant LR, warmup counted at the peak: S1 = 20001 * peak (sums from step 0), S2 = 0.
  const [constant, cosine60, mine] = curves;
  assert.ok(Math.abs(constant.finalS1 - (TOTAL + 1) * PEAK) < 1e-9, `finalS1 ${constant.finalS1}`);
  assert.ok(Math.abs(constant.finalS2) < 1e-12, `finalS2 ${constant.finalS2}`);
  assert.ok(
    constant.s2Term.every((v) => Math.abs(v) < 1e-12),
    'constant LR: s2Term is 0',
  );
  const expected = PAPER.L0 + PAPER.A * ((TOTAL + 1) * PEAK) ** -PAPER.alpha;
  assert.ok(Math.abs(constant.finalLoss - expected) < 1e-9, `constant finalLoss ${constant.finalLoss} != ${expected}`);
  // The cosine anneals (S2 > 0) and has a smaller S1; a longer run ends lower.
  assert.ok(mine.finalS2 > 0, `cosine finalS2 ${mine.finalS2}`);
  assert.ok(mine.finalS1 < constant.finalS1, `cosine finalS1 ${mine.finalS1}`);
  assert.ok(cosine60.finalLoss < mine.finalLoss);
  // The cosine of Fig. 2 predicted with the paper's params lands on the measured end loss.
  assert.ok(Math.abs(mine.finalLoss - fig2.loss.cosine.at(-1)) < 0.01, `cosine end ${mine.finalLoss}`);
  assert.ok(
    curves.every((c) => c.warning === undefined),
    'positive losses: no warning',
  );

  // With C = 100 the cosine's C*S2 is tens: its loss falls below 0, which the answer says, and
  // the fit report's predictions table repeats.
  const below = okJSON(
    ['predict', '--no-columns'],
    JSON.stringify({ ...req, params: { ...PAPER, C: 100 }, curves: [req.curves[1]] }),
  );
  assert.match(
    below.curves[0].warning,
    /^the predicted loss falls to -[\d.]+ \(at step \d+; 0 or below from step \d+\): no loss can/,
  );
  assert.match(predictionsTable(below.curves, null), /^warnings:\n {2}- cosine 60K: the predicted loss falls to -/m);
});

test('an eval loss every 1,000 steps beside an LR logged every 100: the schedule is the LR as logged, and the fit finds the truth', () => {
  const schedule = { kind: 'multistep', total: 20000, peak: 2e-4, stages: [0.75, 0.15, 0.1], levels: [1, 0.316, 0.1] };
  const { lr } = okJSON(['schedule', JSON.stringify(schedule)]);
  const evalSteps = Array.from({ length: 20 }, (_, i) => 1000 * (i + 1));
  const { loss } = okJSON(
    ['predict'],
    JSON.stringify({ params: PAPER, warmupSteps: 0, curves: [{ name: 'eval', schedule, steps: evalSteps }] }),
  ).curves[0];
  // one row every 100 steps: the LR on each, the eval loss on every tenth
  const lossAt = new Map(evalSteps.map((s, i) => [s, loss[i]]));
  const rows = Array.from({ length: 201 }, (_, i) => 100 * i);
  const file = writeTmp(
    'multistep-eval.csv',
    csv(rows, { eval_loss: rows.map((s) => lossAt.get(s) ?? ''), lr: rows.map((s) => lr[s]) }),
  );
  const report = ok(['fit', '--fit', file]);
  const p = paramsOfReport(report);
  // exact data on the exact schedule: the law's own parameters, to 0.1%
  for (const k of ['L0', 'A', 'alpha', 'C'])
    assert.ok(Math.abs(p[k] - PAPER[k]) <= 1e-3 * PAPER[k], `${k} = ${p[k]}, truth ${PAPER[k]}\n${report}`);
});

test('log files with their LR: the warmup and the fit window come from the LR column, as in the page, and the fit finds the truth', () => {
  // two runs with a 500-step warmup, logged every 50 steps from step 50 with their LR; the
  // loss is the law's with the warmup counted at the peak (the paper's convention)
  const rows = Array.from({ length: 400 }, (_, i) => 50 * (i + 1));
  const files = ['wsd 0.2', 'cosine'].map((kind) => {
    const schedule =
      kind === 'cosine'
        ? { kind: 'cosine', total: 20000, peak: 3e-4, final: 0, warmup: 500 }
        : { kind: 'wsd', total: 20000, peak: 3e-4, decayFraction: 0.2, warmup: 500 };
    const { lr } = okJSON(['schedule', JSON.stringify(schedule)]);
    const { loss } = okJSON(
      ['predict'],
      JSON.stringify({ params: PAPER, warmupSteps: 500, curves: [{ name: kind, schedule, steps: rows }] }),
    ).curves[0];
    return writeTmp(`warm-${kind.split(' ')[0]}.csv`, csv(rows, { loss, lr: rows.map((s) => lr[s]) }));
  });
  const report = ok(['fit', '--fit', ...files]);
  const p = paramsOfReport(report);
  // exact data: the law's own parameters, to 0.1% (fitted from step 0 with no warmup, the
  // warmup's points pulled L0 to 2.28 where the truth is 2.63)
  for (const k of ['L0', 'A', 'alpha', 'C'])
    assert.ok(Math.abs(p[k] - PAPER[k]) <= 1e-3 * PAPER[k], `${k} = ${p[k]}, truth ${PAPER[k]}\n${report}`);
  assert.match(report, /warmupSteps 500\)/);
  assert.match(
    report,
    /^ {2}- Warmup steps set to 500: the learning rates of warm-cosine reach their peak there \(--warmup sets it\)\.$/m,
  );
  assert.match(
    report,
    /^ {2}- Fitted from the end of the warmup \(its points follow no scaling law; --from 0 fits every point\): warm-cosine from step 500, warm-wsd from step 500\.$/m,
  );
  assert.equal(rowOf(report, 'warm-wsd')[2], '391', 'the 9 points before step 500 are left out');
  // --from 0 fits every point; --from FILE=STEP one file's; a step past the curve is refused
  assert.equal(rowOf(ok(['fit', '--fit', ...files, '--from', '0']), 'warm-wsd')[2], '400');
  const one = ok(['fit', '--fit', ...files, '--from', `${files[0]}=1000`]);
  assert.equal(rowOf(one, 'warm-wsd')[2], '381');
  assert.match(one, /: warm-cosine from step 500\.$/m, 'the other file keeps its default');
  const past = run(['fit', '--fit', ...files, '--from', '30000']);
  assert.equal(past.code, 2);
  assert.match(
    past.stderr,
    /--from 30000: warm-\w+'s points run from step 50 to 20000; give a step in that range \(0: every point\)/,
  );
});

test('runs with different warmups are each counted with their own, in any order', () => {
  // two cosine runs from the law, warmed up over 500 and 2,000 steps, each counted at its peak
  const rows = Array.from({ length: 400 }, (_, i) => 50 * (i + 1));
  const write = (name, warmup) => {
    const schedule = { kind: 'cosine', total: 20000, peak: 3e-4, final: 0, warmup };
    const { lr } = okJSON(['schedule', JSON.stringify(schedule)]);
    const { loss } = okJSON(
      ['predict'],
      JSON.stringify({ params: PAPER, warmupSteps: warmup, curves: [{ name, schedule, steps: rows }] }),
    ).curves[0];
    return writeTmp(`${name}.csv`, csv(rows, { loss, lr: rows.map((s) => lr[s]) }));
  };
  const files = [write('a-warm500', 500), write('b-warm2000', 2000)];
  for (const order of [files, [...files].reverse()]) {
    const report = ok(['fit', '--fit', ...order]);
    const p = paramsOfReport(report);
    // exact data: the truth to 0.1% (with one warmup for both, the 500-step run first, L0 went to 1e-7)
    for (const k of ['L0', 'A', 'alpha', 'C'])
      assert.ok(Math.abs(p[k] - PAPER[k]) <= 1e-3 * PAPER[k], `${k} = ${p[k]}, truth ${PAPER[k]}\n${report}`);
  }
});

test('fit and validate of log files say what the import left out, and say it when nothing is left to fit', () => {
  const dir = join(tmp, 'notes-run');
  writeFig2(dir);
  writeFile(dir, 'README.txt', 'two runs of the Fig. 2 study\n');
  const spec = [
    '--schedule',
    `${join(dir, 'constant.csv')}=constant 20000 peak=2e-4 warmup=500`,
    '--schedule',
    `${join(dir, 'cosine.csv')}=cosine 20000 peak=2e-4 warmup=500`,
  ];
  const report = ok(['fit', '--fit', dir, ...spec]);
  assert.match(report, /^notes:\n {2}- skipped [^\n]*README\.txt: not a log format I know$/m);
  const validated = ok(['validate', '--fit', dir, ...spec]);
  assert.match(validated, /^import notes:\n {2}- skipped [^\n]*README\.txt: not a log format I know$/m);
  // nothing to fit: lawcore's refusal, then why
  const lrOnly = join(tmp, 'lr-only');
  writeFile(lrOnly, 'lr.csv', csv([0, 100], { lr: [1e-3, 5e-4] }));
  writeFile(lrOnly, 'README.txt', 'learning rates only\n');
  const r = run(['fit', '--fit', lrOnly, '--schedule', 'constant 100']);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /curves: no curves to fit\nimport notes:\n(?: {2}- .*\n)* {2}- skipped [^\n]*README\.txt: not a log format I know\n(?: {2}- .*\n)* {2}- lr-only lr: no loss values \(learning rates only\); left out\./,
  );
});

test('schedule gives the summary and the LR of steps 0..total', () => {
  const res = okJSON(
    ['schedule'],
    JSON.stringify({ kind: 'cosine', total: 1000, peak: 1e-3, warmup: 100, final: 1e-4 }),
  );
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
  // an array (docs/cli.md#commands); the bridge may wrap it as {presets: [...], kinds, ...}.
  const res = Array.isArray(out) ? out : out.presets;
  assert.ok(Array.isArray(res) && res.length > 0, `presets: ${JSON.stringify(out).slice(0, 200)}`);
  for (const p of res) {
    for (const f of ['id', 'name', 'origin']) assert.equal(typeof p[f], 'string', `preset ${p.id}: ${f}`);
    assert.equal(typeof p.schedule, 'object', `preset ${p.id}: schedule`);
  }
  assert.equal(new Set(res.map((p) => p.id)).size, res.length, 'preset ids are unique');
});

test('import reads a log file given as is, and a {name, text} request', () => {
  const text = 'step,loss,lr\n0,10.5,0\n100,4.25,1e-4\n200,3.5,2e-4\n';
  for (const res of [
    okJSON(['import', writeTmp('run.csv', text), '--json']),
    okJSON(['import', '--json'], JSON.stringify({ name: 'run.csv', text })),
  ]) {
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
  for (const want of ['annealing', 'multi-power', 'lr-weighted', 's2-power', 'size'])
    assert.ok(names.includes(want), `no ${want} in ${names}`);
  const ann = laws.find((l) => l.name === 'annealing');
  assert.deepEqual(
    ann.params.map((p) => p.name),
    ['L0', 'A', 'alpha', 'C', 'lambda'],
  );
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

// The command line of researchers: log files in, readable reports out.

const FIG2_SCHEDULES = [
  '--schedule',
  'constant.csv=constant 20000 peak=2e-4',
  '--schedule',
  'cosine.csv=cosine 20000 peak=2e-4',
  '--warmup',
  '500',
];

/** fig2Dir writes the Fig. 2 curves as CSV files in a folder of their own and returns it. */
function fig2Dir(name) {
  const dir = join(tmp, name);
  writeFig2(dir);
  return dir;
}

/** rowOf finds the line of a table that starts with name (after any indent). */
function rowOf(text, name) {
  const line = text.split('\n').find((l) => l.trimStart().startsWith(`${name} `));
  assert.ok(line, `no row ${JSON.stringify(name)} in:\n${text}`);
  return line.trim().split(/\s{2,}/);
}

test('the tests write CRC-32C right (the check value of "123456789")', () => {
  assert.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
});

test('import of a CSV prints a table of its curve; --json gives the arrays', () => {
  const path = writeTmp(
    'csv/run1.csv',
    csv([0, 100, 200, 300], { loss: [10.5, 4.25, 3.5, 3.25], lr: [0, 1e-4, 2e-4, 2e-4] }),
  );
  const out = ok(['import', path]);
  assert.match(out, /run1\.csv: csv, 1 curve/);
  assert.match(out, /^curve\s+format\s+points\s+steps\s+loss column\s+LR\s+files$/m);
  assert.deepEqual(rowOf(out, 'run1'), ['run1', 'csv', '4', '0–300', 'loss', 'yes (lr)', 'run1.csv']);
  const res = okJSON(['import', path, '--json']);
  assert.equal(res.format, 'csv');
  assert.deepEqual(res.curves[0].steps, [0, 100, 200, 300]);
  assert.deepEqual(res.curves[0].loss, [10.5, 4.25, 3.5, 3.25]);
  assert.deepEqual(res.curves[0].lr, [0, 1e-4, 2e-4, 2e-4]);
  // the same file named twice, or with its folder, is read once
  for (const args of [
    [path, path],
    [path, dirname(path)],
  ]) {
    assert.deepEqual(
      okJSON(['import', ...args, '--json']).curves.map((c) => c.steps),
      [[0, 100, 200, 300]],
      args.join(' '),
    );
  }
});

test('import of a TensorBoard event file (written in the real format) prints its curve; --json gives the arrays', () => {
  const steps = Array.from({ length: 11 }, (_, i) => i * 100);
  const loss = steps.map((s) => 2.5 + 8 / Math.sqrt(1 + s));
  const lr = steps.map((s) => 3e-4 * Math.min(1, s / 200));
  const path = writeTmp(
    'tb/run/events.out.tfevents.1700000000.host',
    eventFile(steps, { 'train/loss': loss, 'train/learning_rate': lr }),
  );
  const out = ok(['import', path]);
  assert.match(out, /events\.out\.tfevents\.1700000000\.host: tensorboard-events, 1 curve/);
  const row = rowOf(
    out,
    out
      .split('\n')[3]
      .trim()
      .split(/\s{2,}/)[0],
  );
  assert.deepEqual(row.slice(1, 6), ['tensorboard-events', '11', '0–1000', 'train/loss', 'yes (train/learning_rate)']);
  const res = okJSON(['import', path, '--json']);
  assert.equal(res.format, 'tensorboard-events');
  const c = res.curves[0];
  assert.equal(c.metric, 'train/loss');
  assert.equal(c.hasLR, true);
  assert.deepEqual(c.steps, steps);
  assert.deepEqual(c.loss, loss.map(Math.fround), 'float32 losses as written');
  assert.deepEqual(c.lr, lr.map(Math.fround), 'float32 learning rates as written');
});

test('import of a folder lists each run with its files; a question lists the choices and how to choose', () => {
  const dir = join(tmp, 'runs');
  const steps = [0, 100, 200];
  writeFile(dir, 'a/events.out.tfevents.1700000000.host', eventFile(steps, { loss: [9, 4, 3.5] }));
  writeFile(dir, 'b/metrics.csv', csv(steps, { loss: [9.5, 4.5, 3.75] }));
  const out = ok(['import', dir]);
  assert.match(out, /runs: folder, 2 curves/);
  assert.match(out, /a\/events\.out\.tfevents\.1700000000\.host/);
  assert.match(out, /b\/metrics\.csv/);

  const two = writeTmp('two-losses.csv', csv(steps, { train_loss: [9, 4, 3.5], val_loss: [9.5, 4.5, 3.75] }));
  const ask = ok(['import', two]);
  assert.match(ask, /2 columns that may be the loss/);
  assert.match(ask, /^train_loss\s+train\s+3\s+0–200$/m);
  assert.match(ask, /^val_loss\s+validation\s+3\s+0–200$/m);
  assert.match(ask, /--column NAME/);
  const chosen = ok(['import', two, '--column', 'val_loss']);
  assert.equal(rowOf(chosen, 'two-losses')[4], 'val_loss');
  assert.ok(okJSON(['import', two, '--json']).ambiguity.columns.length === 2);
  // fit cannot go on without the choice: it says so, with the choices
  const r = run(['fit', '--fit', two, '--schedule', 'constant 200 peak=1e-4']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /val_loss/);
  assert.match(r.stderr, /--column NAME/);
});

test('fit --fit a.csv --fit b.csv of the paper Fig. 2 gives the paper parameters and predicts cosine 60000', () => {
  const dir = fig2Dir('fig2');
  const args = ['fit', '--fit', 'constant.csv', '--fit', 'cosine.csv', ...FIG2_SCHEDULES, '--predict', 'cosine 60000'];
  const out = ok(args, '', { cwd: dir });
  const p = paramsOfReport(out);
  const round3 = (x) => Math.round(x * 1000) / 1000;
  assert.deepEqual(
    { L0: round3(p.L0), A: round3(p.A), C: round3(p.C), alpha: round3(p.alpha), lambda: p.lambda },
    PAPER,
    out,
  );
  assert.match(out, /^law: annealing \(annealing law\)$/m);
  assert.match(out, /settings: λ 0\.999, warmup counted at the peak \(warmupSteps 500\)/);
  assert.match(out, /^λ\s+lambda\s+0\.999\s+held/m);
  assert.match(out, /search: optimum, .* objective /);
  for (const name of ['constant', 'cosine']) {
    const [, role, points, r2, predE, worstE, finalErr] = rowOf(out, name);
    assert.deepEqual([role, points], ['fit', '20']);
    assert.ok(Number(r2) > 0.99, `${name}: R² ${r2}`);
    for (const e of [predE, worstE, finalErr]) assert.match(e, /^[-+]?\d+\.\d{3}%$/, `${name}: error ${e}`);
  }
  // a fit with intervals has a band: its replicates and the paper's error on unseen schedules
  assert.match(out, /predicted final loss \(with the 90% band\):/);
  assert.match(out, /no held-out data having measured it/);
  const [, total, withBand] = rowOf(out, 'cosine 60000');
  const [final, half] = withBand.split(' ± ');
  assert.equal(total, '60000');
  assert.match(final, /^\d\.\d{4}$/);
  // three times the fitted steps: at least the prior's discrepancy at d = ln 3, 1.645·sqrt(0.25%² + (0.1%·ln 3)²)
  assert.ok(Number(half) >= 0.00425 * Number(final), `± ${half} around ${final}`);

  // --json: the same fit, and the prediction with its arrays; it is the law's value
  const res = okJSON([...args, '--json', '--points', '100'], '', { cwd: dir });
  assert.equal(round3(res.params.alpha), 0.55);
  assert.deepEqual(
    res.curves.map((c) => [c.name, c.role]),
    [
      ['constant', 'fit'],
      ['cosine', 'fit'],
    ],
  );
  const [pred] = res.predictions;
  assert.equal(pred.name, 'cosine 60000');
  assert.equal(pred.total, 60000);
  assert.equal(pred.finalLoss.toFixed(4), final);
  assert.ok(pred.loss.length >= 50 && pred.loss.length <= 150, `${pred.loss.length} points for --points 100`);
  const direct = okJSON(
    ['predict', '--no-columns'],
    JSON.stringify({
      params: res.params,
      warmupSteps: WARMUP,
      warmupConvention: 'peak',
      curves: [{ name: 'c', schedule: { kind: 'cosine', total: 60000, peak: PEAK } }],
    }),
  );
  assert.ok(Math.abs(direct.curves[0].finalLoss - pred.finalLoss) < 1e-12);
});

test("fit takes a curve's schedule from its learning rates (an event file) and scores --validate curves", () => {
  const dir = fig2Dir('fig2-tb');
  // the cosine run as TensorBoard logged it: the loss every 1000 steps, the LR every 100
  const steps = Array.from({ length: TOTAL / 100 + 1 }, (_, i) => i * 100);
  const lrAt = (s) =>
    s < WARMUP ? (PEAK * s) / WARMUP : PEAK * 0.5 * (1 + Math.cos((Math.PI * (s - WARMUP)) / (TOTAL - WARMUP)));
  const lossAt = new Map(fig2.steps.map((s, i) => [s, fig2.loss.cosine[i]]));
  writeFile(
    dir,
    'cosine/events.out.tfevents.1700000000.host',
    eventFile(steps, { loss: steps.map((s) => lossAt.get(s) ?? null), lr: steps.map(lrAt) }),
  );
  const args = [
    'fit',
    '--fit',
    'constant.csv',
    '--schedule',
    'constant 20000 peak=2e-4',
    '--validate',
    'cosine',
    '--warmup',
    '500',
    '--predict',
    'wsd 0.2 60000',
  ];
  const out = ok(args, '', { cwd: dir });
  const [, role, points, , predE] = rowOf(out, 'cosine');
  assert.deepEqual([role, points], ['validate', '20']);
  assert.ok(parseFloat(predE) < 2, `the cosine run predicted from the constant one: PredE ${predE}`);
  assert.match(
    out,
    /^\s*wsd 0\.2 60000\s+60000\s+\d\.\d{4}( ± \d\.\d{4})?$/m,
    'the peak of the prediction comes from the curves',
  );
  const res = okJSON([...args, '--json', '--no-columns'], '', { cwd: dir });
  assert.equal(res.curves[1].role, 'validate');
  assert.equal(typeof res.validateMetrics.PredE, 'number');
});

test('validate reads log files too and reports each curve left out', () => {
  const out = ok(['validate', '--fit', 'constant.csv', 'cosine.csv', ...FIG2_SCHEDULES, '--laws', 'annealing'], '', {
    cwd: fig2Dir('fig2-validate'),
  });
  assert.match(out, /each curve left out in turn/);
  for (const name of ['constant', 'cosine']) assert.equal(rowOf(out, name)[1], 'annealing');
  assert.match(out, /^annealing\s+\d+\.\d{3}%\s+\d+\.\d{3}%\s+± \d+\.\d{3}%\s+90%$/m);
});

test('schedule specs: kinds, totals, fractions and key=values', () => {
  assert.deepEqual(parseScheduleSpec('constant 20000').schedule, { kind: 'constant', total: 20000 });
  assert.deepEqual(parseScheduleSpec('cosine 60k final=2e-5', { peak: 3e-4 }).schedule, {
    kind: 'cosine',
    total: 60000,
    final: 2e-5,
    peak: 3e-4,
  });
  assert.deepEqual(parseScheduleSpec('wsd 0.2 60000 decay=1-sqrt peak=1e-3 warmup=500').schedule, {
    kind: 'wsd',
    decayFraction: 0.2,
    total: 60000,
    decay: '1-sqrt',
    peak: 1e-3,
    warmup: 500,
  });
  assert.deepEqual(parseScheduleSpec('multistep 1000 stages=0.8,0.1,0.1 levels=1,0.316,0.1').schedule, {
    kind: 'multistep',
    total: 1000,
    stages: [0.8, 0.1, 0.1],
    levels: [1, 0.316, 0.1],
  });
  assert.deepEqual(parseScheduleSpec('linear 30000 size=25e6', { warmup: 100 }), {
    schedule: { kind: 'linear', total: 30000, warmup: 100 },
    size: 25e6,
  });
  assert.deepEqual(parseScheduleSpec('{"kind":"constant","total":5}').schedule, { kind: 'constant', total: 5 });
  // the --warmup setting fills a missing warmup, as lawcore does: not "warmup=0" (a run without
  // one), nor a one-cycle (its own rise) or a concatenation (its segments' own warmups)
  assert.deepEqual(parseScheduleSpec('constant 100 warmup=0', { warmup: 50 }).schedule, {
    kind: 'constant',
    total: 100,
    warmup: 0,
  });
  assert.deepEqual(parseScheduleSpec('one-cycle 100', { warmup: 50 }).schedule, { kind: 'one-cycle', total: 100 });
  assert.deepEqual(parseScheduleSpec('{"kind":"concat","segments":[]}', { warmup: 50 }).schedule, {
    kind: 'concat',
    segments: [],
  });
  for (const bad of ['sideways 100', 'cosine', 'cosine 100 200', 'cosine abc', '{"kind":']) {
    assert.throws(() => parseScheduleSpec(bad), undefined, bad);
  }
  // a field given both ways is refused, not one of the two dropped
  assert.deepEqual(parseScheduleSpec('cosine total=600').schedule, { kind: 'cosine', total: 600 });
  assert.throws(
    () => parseScheduleSpec('cosine 60000 total=100'),
    /^Error: schedule "cosine 60000 total=100": total given twice \(by position and as total=\): give it once$/,
  );
  assert.throws(() => parseScheduleSpec('wsd 0.2 600 decayFraction=0.3'), /decayFraction given twice/);
  // the command: the same schedule as its JSON description
  const res = okJSON(['schedule', 'cosine 1000 peak=1e-3 warmup=100 final=1e-4', '--no-columns']);
  assert.deepEqual(res, { total: 1000, peak: 1e-3, final: 1e-4, warmup: 100 });
});

test('schedule specs take the fields that follow the libraries: cycles, start and drop', () => {
  assert.deepEqual(parseScheduleSpec('cosine 60000 cycles=4').schedule, { kind: 'cosine', total: 60000, cycles: 4 });
  assert.deepEqual(
    parseScheduleSpec('cyclic 60000 stepSize=7500 final=2e-5 start=base warmup=0', { warmup: 500 }).schedule,
    { kind: 'cyclic', total: 60000, stepSize: 7500, final: 2e-5, start: 'base', warmup: 0 },
  );
  assert.deepEqual(parseScheduleSpec('multistep 100 stages=0.8,0.2 levels=1,0.1 drop=at').schedule, {
    kind: 'multistep',
    total: 100,
    stages: [0.8, 0.2],
    levels: [1, 0.1],
    drop: 'at',
  });
  // the command computes them as the libraries: CyclicLR from its base, MultiStepLR's milestone
  // step at the new level, transformers' hard restarts at the peak on a restart step
  const lr = (spec) => okJSON(['schedule', spec]).lr;
  const cyclic = lr('cyclic 40 peak=1 final=0.1 stepSize=10 start=base warmup=0');
  assert.deepEqual(
    [0, 5, 10, 20].map((s) => Number(cyclic[s].toFixed(12))),
    [0.1, 0.55, 1, 0.1],
  );
  const multistep = lr('multistep 100 peak=1 stages=0.8,0.2 levels=1,0.1 drop=at warmup=0');
  assert.deepEqual([multistep[79], multistep[80]], [1, 0.1]);
  const restarts = lr('cosine 1000 peak=1 warmup=100 cycles=3');
  assert.deepEqual([restarts[400], restarts[1000]], [1, 0]);
  const bad = run(['schedule', 'cyclic 40 peak=1 stepSize=10 start=middle']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /schedule\.start: must be peak \(down to final first\) or base/);
});

test('laws prints every law with its formula and parameters', () => {
  const out = ok(['laws']);
  for (const law of ['annealing', 'multi-power', 'lr-weighted', 's2-power', 'size'])
    assert.match(out, new RegExp(`^${law}: `, 'm'), law);
  assert.match(out, /L\(s\) = L0 \+ A·S1\(s\)\^\(−α\) − C·S2\(s\)/);
  assert.match(out, /^\s+α\s+alpha\s+0\.55\s+positive/m);
});

test('analyze runs an analysis from --analysis and key=value options', () => {
  const out = ok(['analyze', '--analysis', 'wsd-ratio', 'totals=50000,100000', 'decay=linear']);
  assert.match(out, /^analysis: wsd-ratio$/m);
  assert.match(out, /^total steps\s+best ratio\s+decay steps\s+final loss/m);
  assert.match(out, /^\s+50000\s+0\.\d+\s+\d+\s+\d\.\d{4}\s/m);
  assert.match(out, /^\s+100000\s/m);
  const res = okJSON(['analyze', '--analysis', 'wsd-ratio', 'totals=50000', 'params.alpha=0.5', '--json']);
  assert.equal(res.setup.params.alpha, 0.5);
  assert.equal(res.optima.length, 1);
  const r = run(['analyze', 'totals=50000']);
  assert.equal(r.code, 2, 'no analysis named');
});

test('the auto report lists every candidate and the reason (a natively computed answer)', () => {
  const { answer } = JSON.parse(readFileSync(join(root, 'tests', 'node', 'fixtures', 'auto-release25.json'), 'utf8'));
  const law = okJSON(['laws', '--json']).find((l) => l.name === answer.law);
  // the band reaches predict: its lower and upper columns
  const predicted = okJSON(
    ['predict'],
    JSON.stringify({
      law: answer.law,
      params: answer.params,
      members: answer.members,
      warmupSteps: 2160,
      band: answer.band,
      points: 10,
      curves: [
        {
          name: 'wsd 0.2 50000',
          schedule: { kind: 'wsd', total: 50000, peak: 3e-4, decayFraction: 0.2, decay: 'linear' },
        },
      ],
    }),
  );
  const p = predicted.curves[0];
  assert.equal(p.lower.length, p.loss.length);
  const half = (p.upper.at(-1) - p.lower.at(-1)) / 2;
  assert.ok(half > 0 && p.lower.at(-1) < p.finalLoss && p.finalLoss < p.upper.at(-1));
  const out = fitReport(answer, { law, predictions: [{ ...p, bandHalf: half }] });
  // an average of laws (this answer's): its size and held-out error, every member marked with its weight
  const members = answer.auto.candidates.filter((c) => c.weight > 0);
  assert.ok(members.length > 1 && answer.members.length === members.length);
  assert.match(
    out,
    new RegExp(
      `^auto: chose the average of ${members.length} laws \\(held-out ${(100 * answer.auto.averaged).toFixed(3)}%\\)$`,
      'm',
    ),
  );
  assert.match(out.replace(/\n\s+/g, ' '), new RegExp(answer.auto.reason.slice(0, 60).replace(/[().^]/g, '\\$&')));
  // held-out beside in-sample error, for every candidate
  assert.match(out, /^\s+candidate\s+weight\s+held-out\s+std err\s+in-sample$/m);
  for (const c of answer.auto.candidates) {
    const line = out.split('\n').find((l) => l.slice(3).startsWith(`${c.label}  `));
    assert.ok(line, `no row for ${c.label}`);
    assert.equal(line.startsWith('*'), c.weight > 0, line);
    if (c.weight > 0) assert.ok(line.includes(` ${Math.round(100 * c.weight)}% `), line);
    if (!c.error)
      assert.ok(
        line.includes(`${(100 * c.heldOut).toFixed(3)}%`) && line.includes(`${(100 * c.inSample).toFixed(3)}%`),
        line,
      );
  }
  assert.match(out, /^constant_72000\s+validate\s+\d+\s/m);
  assert.match(
    predictionsTable([{ ...p, bandHalf: half }], answer.band),
    new RegExp(`${p.finalLoss.toFixed(4)} ± ${half.toFixed(4)}`),
  );
  // the paper's Fig. 2 (both curves fitted): the heaviest member's row is marked with its weight and held-out error
  const fig2Auto = JSON.parse(readFileSync(join(root, 'tests', 'node', 'fixtures', 'auto-fig2.json'), 'utf8')).answer;
  const plain = fitReport(fig2Auto, { law: okJSON(['laws', '--json']).find((l) => l.name === fig2Auto.law) });
  const chosen = fig2Auto.auto.candidates.find((c) => c.label === fig2Auto.auto.chosen.label);
  assert.match(
    plain,
    new RegExp(
      `^\\*  ${fig2Auto.auto.chosen.label}\\s+${Math.round(100 * chosen.weight)}%\\s+${(100 * chosen.heldOut).toFixed(3)}%`,
      'm',
    ),
  );
});

test('--help explains every command with an example; help COMMAND and COMMAND --help too', () => {
  const out = ok(['--help']);
  for (const c of [
    'import',
    'fit',
    'validate',
    'predict',
    'schedule',
    'analyze',
    'laws',
    'presets',
    'schema',
    'pairlr',
  ]) {
    assert.match(out, new RegExp(`^  ${c}\\s+\\S`, 'm'), c);
    const help = ok(['help', c]);
    assert.match(help, /^usage: /, c);
    assert.match(help, /Example/, c);
    assert.equal(ok([c, '--help']), help);
  }
  assert.match(ok(['help', 'fit']), /--predict SPEC/);
});

test("bad usage exits 2 with the command's usage; bad input exits 1 with lawcore's message", () => {
  const dir = fig2Dir('fig2-bad');
  const usage = [
    ['fit', '--fit'],
    ['fit', '--fit', 'constant.csv'],
    ['fit', '--fit', 'constant.csv', '--schedule', 'sideways 100'],
    ['fit', '--fit', 'constant.csv', ...FIG2_SCHEDULES, '--predict', 'cosine'],
    ['fit', '--fit', 'constant.csv', ...FIG2_SCHEDULES, '--convention', 'sideways'],
    ['fit', '--fit', 'constant.csv', '--schedule', 'nosuch.csv=constant 100'],
    ['fit', 'request.json', '--fit', 'constant.csv'],
    ['import', '--json=yes'],
    ['help', 'nosuchcommand'],
  ];
  for (const args of usage) {
    const r = run(args, '', { cwd: dir });
    assert.equal(r.code, 2, `${JSON.stringify(args)}: exit code ${r.code}, stderr ${r.stderr}`);
    assert.match(r.stderr, /usage:/, JSON.stringify(args));
  }
  assert.match(run(['fit', '--fit', 'constant.csv'], '', { cwd: dir }).stderr, /--schedule/);
  const missing = run(['fit', '--fit', 'nosuch.csv'], '', { cwd: dir });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /nosuch\.csv/);
  writeFile(dir, 'bad.csv', 'step,loss\n1,3.5\n2,three\n');
  const bad = run(['import', 'bad.csv'], '', { cwd: dir });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /bad\.csv: line 3/);
});

test("pairlr with an LR curve's values continues them to a loss one logging interval before them (a cooldown's branch step); with steps alone it leaves that loss out", () => {
  const curves = (withLR) => [
    { name: 'loss', file: 'run-c-tag-loss.csv', hasLoss: true, steps: [20000, 20050, 20100, 20150] },
    {
      name: 'lr',
      file: 'run-c-tag-lr.csv',
      hasLR: true,
      steps: [20050, 20100, 20150],
      ...(withLR ? { lr: [1e-4, 9e-5, 8e-5] } : {}),
    },
  ];
  const reached = okJSON(['pairlr'], JSON.stringify({ curves: curves(true) }));
  assert.equal(reached.pairs.length, 1);
  assert.equal(reached.pairs[0].keep, undefined);
  assert.equal(reached.pairs[0].reach.length, 1);
  assert.equal(reached.pairs[0].reach[0].step, 20000);
  assert.ok(
    Math.abs(reached.pairs[0].reach[0].lr - 1.1e-4) < 1e-15,
    `continued linearly: ${reached.pairs[0].reach[0].lr}`,
  );
  assert.match(
    reached.notes.join(' '),
    /the learning rate at step 20000 \(a loss before the first logged learning rate, at step 20050\) 0\.00011, continuing the logged ones linearly/,
  );
  const stepsOnly = okJSON(['pairlr'], JSON.stringify({ curves: curves(false) }));
  assert.deepEqual(stepsOnly.pairs, [{ loss: 0, lr: 1, keep: [1, 4] }]);
});
