// `fit --auto` from the command line, end to end, on the cooldown study's two-curve case (the
// stable run and one 20% cooldown at 25K fitted, the 20% cooldown at 50K predicted: a validate
// curve), and from its one 20% cooldown at 25K alone. In a file of its own so that node's test
// runner runs it beside the other CLI tests: auto fits every candidate law on every held-out
// fold (a few seconds as wasm).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csv, okJSON, root, run, wasm, writeFile } from './cli-helpers.mjs';

const STUDY = join(root, 'lawcore', 'internal', 'testcurves', 'testdata', 'lrsched-124m-lr1e-4');

let tmp;
before(() => {
  assert.ok(existsSync(wasm), `${wasm} is missing: run \`make build\` first`);
  tmp = mkdtempSync(join(tmpdir(), 'lawcore-cli-auto-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * writeRun writes a run of the study as name.csv (step,loss: the last value of each step logged
 * twice, step 0 left out) and returns its --schedule FILE=spec: warmup 300 from 1% of the peak
 * 1e-4, then constant or a linear cooldown over the run's last fraction.
 */
function writeRun(name) {
  const run = JSON.parse(readFileSync(join(STUDY, `${name}.json`), 'utf8'));
  const last = new Map();
  run.val.iter.forEach((s, k) => {
    last.set(s, run.val.val_loss[k]);
  });
  const steps = [...last.keys()].filter((s) => s >= 1).sort((a, b) => a - b);
  writeFile(tmp, `${name}.csv`, csv(steps, { loss: steps.map((s) => last.get(s)) }));
  const { iterations: total, wsd_fract_decay: f } = run.config;
  const common = 'peak=1e-4 warmup=300 warmupFrom=1e-6';
  return `${name}.csv=${f === 0 ? `constant ${total}` : `wsd ${f} ${total} decay=linear`} ${common}`;
}

test("fit --auto prints the chosen law, the reason and every candidate's held-out error", () => {
  const names = ['stable-50k', 'wsd-linear-0.2-25k', 'wsd-linear-0.2-50k'];
  const schedules = names.flatMap((n) => ['--schedule', writeRun(n)]);
  // every point, the step-200 one in the warmup too, as lawcore's own test of this study fits them
  const args = [
    'fit',
    '--auto',
    '--fit',
    'stable-50k.csv',
    'wsd-linear-0.2-25k.csv',
    '--validate',
    'wsd-linear-0.2-50k.csv',
    ...schedules,
    '--warmup',
    '300',
    '--from',
    '0',
    '--predict',
    'wsd 0.2 50000',
  ];
  const r = run(args, '', { cwd: tmp });
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  // the choice is one law, or an average whose weights sum to 100%, each member marked
  const chose = /^auto: chose (.*)$/m.exec(out);
  assert.ok(chose, out);
  assert.match(out, /held-out error \d+\.\d+%/, 'the reason');
  assert.match(out, /^\s+candidate\s+weight\s+held-out\s+std err\s+in-sample$/m);
  const chosen = out.split('\n').filter((l) => l.startsWith('*  '));
  const weights = chosen.map((l) => Number(/\s(\d+)%\s/.exec(l)[1]));
  assert.ok(Math.abs(weights.reduce((a, b) => a + b, 0) - 100) <= chosen.length, `weights ${weights}`);
  if (chosen.length > 1)
    assert.match(chose[1], new RegExp(`^the average of ${chosen.length} laws \\(held-out \\d\\.\\d+%\\)$`));
  else assert.equal(chose[1], chosen[0].slice(3).split(/\s{2,}/)[0]);
  // the heaviest is the paper's setting, as lawcore's own test of this study finds (TestAutoScenarios)
  const heaviest = chosen[weights.indexOf(Math.max(...weights))];
  assert.equal(heaviest.slice(3).split(/\s{2,}/)[0], 'annealing law, λ 0.999, warmup at the peak');
  assert.match(out, /^wsd-linear-0\.2-50k\s+validate\s+50\s/m);
  assert.match(out, /^\s+wsd 0\.2 50000\s+50000\s+\d\.\d{4} ± \d\.\d{4}$/m, 'the prediction with its band');
});

// A cooldown's log holds only the cooldown: its first validation is at the step it branched
// from the stable run, its learning rates are logged from 50 steps later. Read as they are, the
// study's files fit as the exact schedules of their config do (the same parameters, the same
// error on a held-out cooldown): the learning rate at the branch continues the logged ones, so
// the schedule before it is the stable run's peak. It held the first logged rate instead, 1%
// below the peak through the stable phase, and left that validation out: mean PredE 0.00156
// against 0.00132 on the study's eleven held-out cooldowns
// (docs/accuracy.md#the-cooldown-study-from-its-raw-logs).
test("fit from the study's raw logs gives the fit of their exact schedules", () => {
  const fit = ['stable-50k', 'wsd-linear-0.2-25k'];
  const held = 'wsd-linear-0.4-50k';
  const common = ['--lambda', '0.999', '--json', '--no-columns'];
  const raw = okJSON([
    'fit',
    '--column',
    'val_loss',
    '--fit',
    ...fit.map((n) => join(STUDY, `${n}.json`)),
    '--validate',
    join(STUDY, `${held}.json`),
    ...common,
  ]);
  const schedules = [...fit, held].flatMap((n) => ['--schedule', writeRun(n)]);
  const exact = okJSON(
    [
      'fit',
      '--fit',
      ...fit.map((n) => `${n}.csv`),
      '--validate',
      `${held}.csv`,
      ...schedules,
      '--warmup',
      '300',
      ...common,
    ],
    '',
    { cwd: tmp },
  );
  for (const [name, value] of Object.entries(exact.params)) {
    assert.ok(
      Math.abs(raw.params[name] - value) <= 2e-3 * Math.abs(value),
      `${name}: ${raw.params[name]} from the logs, ${value} from the schedules`,
    );
  }
  const predE = (r) => r.curves.find((c) => c.name.startsWith(held)).metrics.PredE;
  assert.ok(
    Math.abs(predE(raw) - predE(exact)) <= 0.02 * predE(exact),
    `held-out PredE ${predE(raw)} from the logs, ${predE(exact)} from the schedules`,
  );
  assert.ok(
    raw.importNotes.some((n) =>
      /the learning rate at step 20000 \(a loss before the first logged learning rate, at step 20050\) 0\.0001, continuing/.test(
        n,
      ),
    ),
    raw.importNotes.join('\n'),
  );
});

test('fit --auto from one short curve that leaves α open: no fold says how a law predicts, and the band is the prior', () => {
  const args = [
    'fit',
    '--auto',
    '--fit',
    'wsd-linear-0.2-25k.csv',
    '--schedule',
    writeRun('wsd-linear-0.2-25k'),
    '--warmup',
    '300',
    '--predict',
    'wsd 0.2 50000',
  ];
  const r = run(args, '', { cwd: tmp });
  assert.equal(r.code, 0, r.stderr);
  // 25 points of a cooldown cannot determine L0 and α: every fold's fit takes them from the priors
  assert.match(r.stdout.replace(/\n\s+/g, ' '), /No fold could show how a law predicts these curves/);
  assert.match(r.stdout, /no held-out data having measured it/);
  // at twice the steps the band holds at least the prior's discrepancy at d = ln 2:
  // 1.645·sqrt(0.25%² + (0.1%·ln 2)²) = 0.427% of the loss
  const m = /^\s+wsd 0\.2 50000\s+50000\s+(\d\.\d{4}) ± (\d\.\d{4})$/m.exec(r.stdout);
  assert.ok(m, r.stdout);
  assert.ok(Number(m[2]) >= 0.00427 * Number(m[1]) - 1e-4, `± ${m[2]} around ${m[1]}`);
});

test('fit --auto --progress reports on stderr how much is done, a line at each tenth, up to 100%, and prints the same report', () => {
  const args = [
    'fit',
    '--auto',
    '--fit',
    'wsd-linear-0.2-25k.csv',
    '--schedule',
    writeRun('wsd-linear-0.2-25k'),
    '--warmup',
    '300',
  ];
  const plain = run(args, '', { cwd: tmp });
  const shown = run([...args, '--progress'], '', { cwd: tmp });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(shown.code, 0, shown.stderr);
  assert.equal(plain.stderr, '', 'nothing on stderr unless asked (not a terminal)');
  const pcts = shown.stderr
    .trimEnd()
    .split('\n')
    .map((line) => {
      const m = /^lawcore fit: (\d+)%$/.exec(line);
      assert.ok(m, `a progress line: ${JSON.stringify(line)}`);
      return Number(m[1]);
    });
  // auto's folds and its final fit report as they go: several tenths, rising, the last one 100%
  assert.ok(pcts.length >= 3, `progress ${pcts}`);
  assert.deepEqual(
    pcts,
    [...pcts].sort((a, b) => a - b),
    `progress ${pcts}`,
  );
  assert.equal(new Set(pcts.map((p) => Math.floor(p / 10))).size, pcts.length, `one line a tenth: ${pcts}`);
  assert.equal(pcts.at(-1), 100);
  // the report is the same, its time aside
  const untimed = (text) => text.replace(/; [\d.,]+ m?s$/m, ''); // 812 ms, or 1.0 s
  assert.equal(untimed(shown.stdout), untimed(plain.stdout));
});
