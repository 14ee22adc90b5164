// What a curve's data says of its schedule (site/js/schedules/curve-facts.js), and presets fitted to a run
// (schedule-kinds.js fitPreset): the builder never overrides the data, and a schedule that
// disagrees with it is flagged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import {
  lrColumn,
  detectWarmup,
  warmupFromLR,
  curveFacts,
  scheduleDefaults,
  scheduleProblems,
  flaggedProblems,
  defaultWindow,
  windowOf,
  pointsInWindow,
  parseWindow,
} from '../../site/js/schedules/curve-facts.js';
import { fitPreset } from '../../site/js/schedules/schedule-kinds.js';
import { PRESETS } from '../../site/js/engine/schema.js';

/** cosineRun is a 10K-step run logged every 50 steps: a linear warmup to 3e-4 over 800 steps, then cosine to 0. */
function cosineRun() {
  const steps = [];
  const lr = [];
  for (let s = 0; s <= 10000; s += 50) {
    steps.push(s);
    lr.push(s < 800 ? (3e-4 * s) / 800 : 1.5e-4 * (1 + Math.cos((Math.PI * (s - 800)) / 9200)));
  }
  const loss = steps.map((s) => 3 + 1 / Math.sqrt(s + 1));
  return {
    name: 'run',
    steps: Float64Array.from(steps.slice(1)),
    loss: Float64Array.from(loss.slice(1)),
    lr: Float64Array.from(lr),
    lrSteps: Float64Array.from(steps),
    schedule: { kind: 'explicit', total: 10000, steps, lr },
    scheduleSource: 'file',
  };
}

/** expand is the schedule's LR at every step 0..total, for the two kinds used here (cosine, constant). */
function expand(s) {
  const lr = [];
  for (let k = 0; k <= s.total; k++) {
    const w = s.warmup || 0;
    if (k < w) lr.push((s.peak * k) / w);
    else if (s.kind === 'constant') lr.push(s.peak);
    else
      lr.push((s.final || 0) + (s.peak - (s.final || 0)) * 0.5 * (1 + Math.cos((Math.PI * (k - w)) / (s.total - w))));
  }
  return { steps: lr.map((_, k) => k), lr };
}

test("a curve's facts come from its data: last step, the peak of its LR column, the warmup it shows", () => {
  const c = cosineRun();
  assert.deepEqual(lrColumn(c).lr, c.lr);
  const f = curveFacts(c);
  assert.equal(f.lastStep, 10000);
  assert.equal(f.peak, 3e-4);
  assert.equal(f.warmup, 800);
  assert.match(f.from, /10,000.*3e-4.*800/);
  // Without a column: only the last step.
  assert.deepEqual(
    { ...curveFacts({ steps: [10, 20], loss: [3, 2], schedule: null }), from: '' },
    { lastStep: 20, peak: null, warmup: null, from: '' },
  );
  // A schedule from a file (a link keeps only that) is the column too.
  const linked = {
    steps: [1, 2],
    loss: [3, 2],
    scheduleSource: 'file',
    schedule: { kind: 'explicit', total: 4, steps: [0, 2, 4], lr: [0, 1e-3, 1e-3] },
  };
  assert.equal(curveFacts(linked).warmup, 2);
});

test('the warmup detected: where the LR first reaches its peak (logs that start later at the peak give their first step)', () => {
  assert.equal(detectWarmup([0, 100, 200, 300], [0, 1e-4, 2e-4, 2e-4]), 200);
  assert.equal(
    detectWarmup([2160, 2288, 2416], [3e-4, 2.9997e-4, 2.99e-4]),
    2160,
    'the MultiPowerLaw release logs from step 2160',
  );
  assert.equal(detectWarmup([1, 2, 3], [3e-4, 3e-4, 3e-4]), 0, 'at the peak from the first step: no warmup');
  assert.equal(detectWarmup([0, 10, 20], [0, 0.29995e-3, 3e-4]), 10, 'within 0.1% of the peak counts (logs round)');
  assert.equal(detectWarmup([0, 10], [0, 0]), 0);
});

/** loggedRun is a run of `last` steps whose LR is logged every 50 steps from `first`: `lrAt(step)`. */
function loggedRun(name, first, last, lrAt) {
  const steps = [];
  for (let s = first; s <= last; s += 50) steps.push(s);
  return {
    name,
    steps: Float64Array.from(steps),
    loss: Float64Array.from(steps, () => 3),
    lrSteps: Float64Array.from(steps),
    lr: Float64Array.from(steps, lrAt),
  };
}

test('the warmup the curves show: a logged climb first, in any order; a log that starts at its peak late in its run shows none', () => {
  // the cooldown study: the stable run climbs to 1e-4 by step 300; its cooldown, branched at
  // step 20,000 of 25,000, logs from 20,050
  const stable = loggedRun('stable', 50, 50000, (s) => (s < 300 ? 1e-6 + ((1e-4 - 1e-6) * s) / 300 : 1e-4));
  const cooldown = loggedRun('cooldown', 20050, 25000, (s) => (1e-4 * (25000 - s)) / 5000);
  for (const curves of [
    [stable, cooldown],
    [cooldown, stable],
  ]) {
    const got = warmupFromLR(curves);
    assert.equal(got.warmup, 300, `${curves.map((c) => c.name)}: ${got.note}`);
    assert.match(got.note, /the learning rates of stable reach their peak there/);
  }
  // alone, a run resumed late at its peak says nothing of its warmup (it said 20,050, and every
  // schedule without a warmup of its own climbed for 20,050 steps)
  assert.equal(warmupFromLR([loggedRun('resumed', 40200, 50000, () => 1e-4)]), null);
  assert.equal(warmupFromLR([cooldown]), null);
  // a log that starts at its peak early in its run (the release's, from step 2160 of 24,000):
  // the warmup was over by its first step, the earliest of such logs
  const release = (name, first) =>
    loggedRun(name, first, 24000, (s) => 3e-4 * (0.55 + 0.45 * Math.cos((Math.PI * (s - first)) / (24000 - first))));
  const early = warmupFromLR([release('a', 2260), release('b', 2160)]);
  assert.equal(early.warmup, 2160);
  assert.match(
    early.note,
    /the learning rates of b are at their peak from the first step logged, so the warmup ended there or before/,
  );
  // at the peak from the start: no warmup, before any log that starts later
  assert.equal(warmupFromLR([release('a', 2160), loggedRun('flat', 0, 10000, () => 1e-4)]).warmup, 0);
});

test('a preset on a 10K-step run keeps its total, peak and warmup; its other step counts and final LR scale', () => {
  const cosine = PRESETS.find((p) => p.id === 'cosine').schedule;
  assert.equal(cosine.total, 60000, 'the preset itself is the Fig. 3 run');
  assert.deepEqual(fitPreset(cosine, { total: 10000, peak: 3e-4, warmup: 800 }), {
    kind: 'cosine',
    total: 10000,
    peak: 3e-4,
    warmup: 800,
  });
  const tenth = fitPreset(PRESETS.find((p) => p.id === 'cosine-10pct').schedule, {
    total: 10000,
    peak: 3e-4,
    warmup: 800,
  });
  assert.equal(tenth.final, 3e-5, 'a tenth of the peak stays a tenth');
  const restarts = fitPreset(PRESETS.find((p) => p.id === 'cosine-restarts').schedule, { total: 10000, peak: 3e-4 });
  assert.equal(restarts.cycles, 4, 'four cycles in 60K stay four in 10K');
  assert.equal(restarts.warmup, 500, "no warmup given: the preset's stays");
  const cyclic = fitPreset(PRESETS.find((p) => p.id === 'cyclic').schedule, { total: 10000, peak: 3e-4, warmup: 800 });
  assert.deepEqual(
    cyclic,
    { warmup: 0, kind: 'cyclic', total: 10000, peak: 3e-4, final: 3e-5, stepSize: 1250, start: 'base' },
    "a CyclicLR has no warmup: the run's is not added; its step size scales with the total",
  );
  const oneCycle = fitPreset(PRESETS.find((p) => p.id === 'one-cycle').schedule, {
    total: 10000,
    peak: 3e-4,
    warmup: 800,
  });
  assert.equal(oneCycle.warmup, undefined, 'the one-cycle has its own warmup (pctStart)');
  const rewarm = fitPreset(PRESETS.find((p) => p.id === 'rewarmup').schedule, {
    total: 10001,
    peak: 3e-4,
    warmup: 800,
  });
  assert.deepEqual(
    rewarm.segments.map((s) => [s.total, s.peak, s.warmup]),
    [
      [5001, 3e-4, 800],
      [5000, 3e-4, 800],
    ],
  );
  assert.deepEqual(fitPreset(cosine, {}), cosine, 'nothing known: the preset as it is');
});

test('a schedule that ends before the last step, or differs from the LR column, is flagged', () => {
  const c = cosineRun();
  assert.deepEqual(scheduleProblems(c), [], "the file's own schedule agrees");
  const short = { ...c, schedule: { kind: 'cosine', total: 8000, peak: 3e-4, warmup: 800 }, scheduleSource: 'builder' };
  assert.deepEqual(
    scheduleProblems(short).map((p) => p.kind),
    ['ends'],
  );
  assert.match(scheduleProblems(short)[0].text, /ends at step 8,000, before its last observed step 10,000/);
  const same = { ...c, schedule: { kind: 'cosine', total: 10000, peak: 3e-4, warmup: 800 }, scheduleSource: 'builder' };
  assert.deepEqual(
    scheduleProblems(same, expand(same.schedule)),
    [],
    'the same cosine built by hand agrees with the column',
  );
  const wrongPeak = { ...same, schedule: { ...same.schedule, peak: 2e-4 } };
  const [p] = scheduleProblems(wrongPeak, expand(wrongPeak.schedule));
  assert.equal(p.kind, 'lr');
  assert.match(p.text, /2e-4 instead of 3e-4 at step 800/);
  const constant = { ...same, schedule: { kind: 'constant', total: 10000, peak: 3e-4, warmup: 800 } };
  assert.match(scheduleProblems(constant, expand(constant.schedule))[0].text, /3e-4 instead of 0 at step 10,000/);
  // flaggedProblems: those found on saving win over the quick check.
  assert.deepEqual(flaggedProblems({ ...same, scheduleProblems: [{ kind: 'lr', text: 'x' }] }), [
    { kind: 'lr', text: 'x' },
  ]);
  assert.deepEqual(
    flaggedProblems(short).map((x) => x.kind),
    ['ends'],
  );
});

test('a new schedule starts from the loaded runs: the longest, the peak and warmup of the first LR column', () => {
  const state = {
    curves: [cosineRun(), { name: 'b', steps: [1, 30000], loss: [3, 2], schedule: null }],
    predictions: [],
  };
  assert.deepEqual(scheduleDefaults(state, { total: 60000, peak: 2e-4, warmup: 500 }), {
    total: 30000,
    peak: 3e-4,
    warmup: 800,
  });
  const described = {
    curves: [],
    predictions: [{ name: 'p', schedule: { kind: 'cosine', total: 5, peak: 1e-3, warmup: 7 } }],
  };
  assert.deepEqual(scheduleDefaults(described, { total: 60000, peak: 2e-4, warmup: 500 }), {
    total: 60000,
    peak: 1e-3,
    warmup: 7,
  });
  assert.deepEqual(scheduleDefaults({ curves: [], predictions: [] }, { total: 60000, peak: 2e-4, warmup: 500 }), {
    total: 60000,
    peak: 2e-4,
    warmup: 500,
  });
});

test("the fit window starts where the warmup ends: the LR column's, the schedule's own, else the setting's for a schedule that takes it", () => {
  const steps = Float64Array.from({ length: 100 }, (_, i) => 100 * (i + 1)); // 100..10000
  const curve = (schedule) => ({
    name: 'run',
    steps,
    loss: steps.map((s) => 3 + 1 / Math.sqrt(s)),
    schedule,
    scheduleSource: 'builder',
  });
  const cosine = { kind: 'cosine', total: 10000, peak: 3e-4 };
  // the LR column's own warmup (800), whatever the setting
  assert.equal(defaultWindow(cosineRun(), 300), 800);
  // the schedule's own warmup, a given 0 included (a run without warmup: every point)
  assert.equal(defaultWindow(curve({ ...cosine, warmup: 1200 }), 300), 1200);
  assert.equal(defaultWindow(curve({ ...cosine, warmup: 0 }), 300), 0);
  // no warmup of its own: the setting's, which the fit gives it (Schedule.WithDefaultWarmup)
  assert.equal(defaultWindow(curve(cosine), 300), 300);
  assert.equal(windowOf(curve(cosine), 300).from, 300);
  assert.equal(pointsInWindow(curve(cosine), 300), 98); // steps 300..10000
  // a window the caller has: counted from it, as given
  assert.equal(pointsInWindow(curve(cosine), 300, { from: 9000 }), 11); // steps 9000..10000
  assert.deepEqual(windowOf(curve(cosine), 300, 1500), { from: 1500, set: false });
  // a one-cycle rises by its own rule and takes no warmup setting
  assert.equal(defaultWindow(curve({ kind: 'one-cycle', total: 10000, peak: 3e-4 }), 300), 0);
  // a window the user set stands
  assert.deepEqual(windowOf({ ...curve(cosine), from: 50 }, 300), { from: 50, set: true });
  assert.deepEqual(windowOf({ ...curve(cosine), from: 50 }, 300, 1500), { from: 50, set: true });
  // a warmup that ends before the first point leaves every point in
  assert.equal(defaultWindow(curve(cosine), 100), 0);
});

test('the step a window starts at is read as researchers write steps; a decimal comma is no step', () => {
  const c = { name: 'run', steps: [100, 5000, 20000], loss: [3, 2.9, 2.8] };
  for (const [text, from] of [
    ['', null],
    ['2000', 2000],
    ['2,000', 2000],
    ['2k', 2000],
    ['1.5e4', 15000],
  ])
    assert.equal(parseWindow(text, c), from, text);
  assert.throws(() => parseWindow('2,7', c), /^Error: run: fit from step: "2,7" is not a step/);
  assert.throws(
    () => parseWindow('30k', c),
    /^Error: run: fit from step: 30,000 is after the curve’s last point \(step 20,000\)/,
  );
});
