// The stored workspace (site/js/persistence/persist.js) under node: a page state goes into a record and its
// arrays and comes back the same; arrays are written once; an older format migrates, a newer
// one is left alone; what cannot be read is dropped, saying what; a save of what fits (storage
// full) comes back as schedules to predict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { ArrayIds, FORMAT, packWorkspace, isEmptyWork } from '../../site/js/persistence/persist.js';
import { readWorkspace, describeWork } from '../../site/js/persistence/read-workspace.js';
import { arrayRefs } from '../../site/js/persistence/array-refs.js';
import { createStore } from '../../site/js/state/store.js';
import { DEFAULT_SETTINGS } from '../../site/js/state/settings.js';
import { lineOf, fitCovers, predictedLine } from '../../site/js/state/selectors.js';

const N = 1000;
const range = (n, f) => Float64Array.from({ length: n }, (_, i) => f(i));

/** fitRecord is a fit of curves as fitting.js keeps it (a made-up answer of lawcore's shape). */
function fitRecord(curves, settings) {
  const params = { L0: 2.6, A: 0.43, alpha: 0.55, C: 0.41, lambda: 0.999 };
  const response = {
    law: 'annealing',
    params,
    held: ['lambda'],
    objective: 1.6e-5,
    elapsedMs: 12,
    curves: curves.map((c) => ({
      name: c.name,
      role: c.role,
      metrics: { points: c.steps.length, R2: 0.999 },
      predicted: Array.from(c.loss, (y) => y * 1.001),
    })),
    fitMetrics: { points: 2 * N, R2: 0.999 },
    validateMetrics: null,
    search: { strategy: 'optimum', starts: 1, evaluations: 9 },
    settings: { lambda: 0.999, warmupSteps: 500, warmupConvention: 'peak', huberDelta: 0.001 },
  };
  const lines = new Map(
    curves.map((c) => [
      c.name,
      {
        steps: range(200, (i) => i * 5 + 1),
        lr: range(200, () => 2e-4),
        loss: range(200, (i) => 4 - i / 100),
        s1Term: range(200, () => 1),
        s2Term: range(200, () => 0.1),
      },
    ]),
  );
  return {
    law: 'annealing',
    params,
    response,
    lines,
    settings: { ...settings },
    curves: new Map(curves.map((c) => [c.name, c])),
  };
}

/**
 * workspace is a store holding two curves (one with an LR file's schedule), a schedule to predict,
 * a fit and its predicted lines.
 */
function workspace() {
  const store = createStore();
  const settings = { ...DEFAULT_SETTINGS, lambda: 0.998, warmupSteps: 250 };
  const lrSteps = Array.from({ length: N }, (_, i) => i * 10);
  store.loadView({
    settings,
    curves: [
      {
        name: 'cosine',
        role: 'fit',
        steps: range(N, (i) => (i + 1) * 10),
        loss: range(N, (i) => 4 - i / N),
        schedule: { kind: 'cosine', total: 10000, peak: 2e-4, final: 2e-5, warmup: 500 },
        source: 'cosine.csv',
        file: 'cosine.csv',
        run: '',
      },
      {
        name: 'wsd <b>run</b>',
        role: 'validate',
        steps: range(N, (i) => (i + 1) * 10),
        loss: range(N, (i) => 3.9 - i / N),
        lr: range(N, () => 2e-4),
        schedule: { kind: 'explicit', total: 10000, steps: lrSteps, lr: lrSteps.map(() => 2e-4) },
        scheduleSource: 'file',
        lrFile: 'lr.csv',
        size: 25e6,
      },
    ],
    predictions: [{ name: 'constant 60K', schedule: { kind: 'constant', total: 60000, peak: 2e-4, warmup: 500 } }],
  });
  const fit = fitRecord(store.state.curves, settings);
  const predicted = new Map([
    [
      'constant 60K',
      {
        schedule: store.state.predictions[0].schedule,
        steps: range(100, (i) => i * 600 + 1),
        lr: range(100, () => 2e-4),
        loss: range(100, (i) => 3.5 - i / 1000),
        s1Term: range(100, () => 1),
        s2Term: range(100, () => 0),
        finalLoss: 3.401,
      },
    ],
  ]);
  store.fitted({ annealing: fit }, { stale: false, status: '' }, [
    { law: 'annealing', source: fit, byName: predicted },
  ]);
  store.setSettings({ ...settings, huberDelta: 0.002 }); // a change since the fit: stale
  return store;
}

/** stored writes state as the database would keep it: a structured clone of the record and of each array. */
function stored(state, ids = new ArrayIds(), options) {
  const { record, arrays } = packWorkspace(state, ids, options);
  return {
    record: structuredClone(record),
    arrays: new Map([...arrays].map(([id, get]) => [id, structuredClone(get())])),
    written: arrays,
  };
}

test('a workspace goes into a record and its arrays and comes back the same', () => {
  const state = workspace().state;
  const { record, arrays } = stored(state);
  assert.equal(record.format, FORMAT);
  // The points are stored apart as Float64Arrays: the record itself stays small.
  assert.ok(JSON.stringify(record).length < 20000, `the record holds ${JSON.stringify(record).length} characters`);
  assert.ok([...arrays.values()].every((a) => a instanceof Float64Array));
  assert.deepEqual(new Set(arrayRefs(record)), new Set(arrays.keys()));

  const read = readWorkspace(record, arrays, new ArrayIds());
  assert.equal(read.kind, 'restored');
  assert.deepEqual(read.notes, []);
  const { view } = read;
  assert.deepEqual(view.settings, state.settings);
  assert.equal(view.stale, true);
  assert.deepEqual(
    view.curves.map((c) => [c.name, c.role, c.color, c.scheduleSource, c.lrFile, c.size, c.source]),
    state.curves.map((c) => [c.name, c.role, c.color, c.scheduleSource, c.lrFile, c.size, c.source]),
  );
  for (const [i, c] of view.curves.entries()) {
    const was = state.curves[i];
    assert.ok(c.steps instanceof Float64Array && c.loss instanceof Float64Array);
    assert.deepEqual(c.steps, was.steps);
    assert.deepEqual(c.loss, was.loss);
    assert.deepEqual(c.schedule, was.schedule);
  }
  assert.deepEqual(view.curves[1].lr, state.curves[1].lr);
  assert.ok(Array.isArray(view.curves[1].schedule.lr), 'an LR file’s schedule comes back as the plain array it was');
  assert.deepEqual(
    view.predictions.map((p) => [p.name, p.color, p.schedule]),
    state.predictions.map((p) => [p.name, p.color, p.schedule]),
  );

  // The fit: its parameters, settings, answer and lines; it covers the curves it fitted.
  const fit = view.fits.annealing;
  assert.deepEqual(fit.params, state.fits.annealing.params);
  assert.deepEqual(fit.settings, state.fits.annealing.settings);
  assert.deepEqual(fit.response, state.fits.annealing.response);
  assert.deepEqual([...fit.lines.keys()], ['cosine', 'wsd <b>run</b>']);
  for (const c of view.curves) {
    assert.ok(fitCovers(fit, c), `${c.name}: the restored fit covers it`);
    assert.deepEqual(lineOf(view, 'annealing', c).loss, state.fits.annealing.lines.get(c.name).loss);
  }
  // The predicted line of the schedule to predict is current: nothing needs predicting again.
  const line = predictedLine(view, 'annealing', view.predictions[0]);
  assert.ok(line);
  assert.equal(line.finalLoss, 3.401);
  assert.equal(describeWork(view), '2 curves, 1 schedule to predict and the fit of the annealing law');

  // The store takes it as it is.
  const store = createStore();
  store.restoreView(view);
  assert.deepEqual(
    store.state.curves.map((c) => c.name),
    ['cosine', 'wsd <b>run</b>'],
  );
  assert.equal(store.state.stale, true);
});

test('arrays are written once: a later save writes the record alone, also after a restore', () => {
  const store = workspace();
  const ids = new ArrayIds();
  const first = stored(store.state, ids);
  store.setRole('cosine', 'validate');
  store.setSettings({ ...store.state.settings, lambda: 0.997 });
  const second = packWorkspace(store.state, ids);
  assert.deepEqual(
    [...second.arrays.keys()].sort(),
    [...first.arrays.keys()].sort(),
    'the same ids: nothing new to write',
  );

  // Read back into a fresh tab: its arrays keep their ids, so its first save writes none again.
  const tab = new ArrayIds();
  const read = readWorkspace(first.record, first.arrays, tab);
  const again = createStore();
  again.restoreView(read.view);
  again.setSettings({ ...again.state.settings, warmupSteps: 100 });
  const afterRestore = packWorkspace(again.state, tab);
  assert.deepEqual([...afterRestore.arrays.keys()].sort(), [...first.arrays.keys()].sort());

  // A curve removed: its arrays are no longer referred to (the database deletes them).
  again.remove('wsd <b>run</b>');
  const fewer = packWorkspace(again.state, tab).arrays;
  assert.ok(fewer.size < first.arrays.size);
  assert.ok([...fewer.keys()].every((id) => first.arrays.has(id)));
});

test('a record of format 1 (points inline, settings from before the law choice) migrates', () => {
  const v1 = {
    format: 1,
    savedAt: 1700000000000,
    settings: { lambda: 0.999, fitLambda: false, warmupSteps: 500, warmupConvention: 'peak', huberDelta: 0.001 },
    curves: [
      {
        name: 'old run',
        role: 'fit',
        schedule: { kind: 'constant', total: 100, peak: 1e-4 },
        steps: Float64Array.from([10, 20, 30]),
        loss: Float64Array.from([3.5, 3.4, 3.3]),
      },
    ],
    predictions: [
      { name: 'wsd', schedule: { kind: 'wsd', total: 200, peak: 1e-4, final: 0, decay: 'linear', decayFraction: 0.2 } },
    ],
  };
  const read = readWorkspace(structuredClone(v1), new Map(), new ArrayIds());
  assert.equal(read.kind, 'restored');
  assert.deepEqual(read.notes, []);
  assert.equal(read.savedAt, 1700000000000);
  // Auto was not there: the settings keep it off, as the page fitted then.
  assert.deepEqual(read.view.settings, { ...DEFAULT_SETTINGS, auto: false, ...v1.settings });
  assert.deepEqual(
    read.view.curves.map((c) => [c.name, c.role, Array.from(c.steps)]),
    [['old run', 'fit', [10, 20, 30]]],
  );
  assert.deepEqual(
    read.view.predictions.map((p) => p.name),
    ['wsd'],
  );
  assert.deepEqual(read.view.fits, {});
  // Saved again, it is format 2 with its points apart.
  const store = createStore();
  store.restoreView(read.view);
  const { record } = packWorkspace(store.state, new ArrayIds());
  assert.equal(record.format, FORMAT);
});

test('a record of a newer format is left alone; one that is no workspace at all is unreadable, saying what it held', () => {
  assert.deepEqual(readWorkspace({ format: FORMAT + 1, curves: 'whatever' }, new Map(), new ArrayIds()), {
    kind: 'newer',
    format: FORMAT + 1,
  });
  for (const [record, reason] of [
    [null, /not a saved workspace/],
    ['garbage', /not a saved workspace/],
    [{ format: 'two' }, /not a saved workspace/],
    [{ format: 2, curves: 'x', predictions: [] }, /no list of curves/],
    [{ format: 1, settings: null, curves: null, predictions: null }, /no list of curves/],
  ]) {
    const got = readWorkspace(record, new Map(), new ArrayIds());
    assert.equal(got.kind, 'unreadable', JSON.stringify(record));
    assert.match(got.reason, reason);
  }
  const got = readWorkspace(
    { format: 2, curves: [{ name: 'a' }, { name: 'b' }], predictions: {} },
    new Map(),
    new ArrayIds(),
  );
  assert.equal(got.lost, '2 curves (a, b)');
});

test('what cannot be read is dropped, named, and the rest is kept', () => {
  const state = workspace().state;
  const cases = [
    [
      'a curve’s points missing',
      (r, a) => a.delete(r.curves[1].steps.$a),
      /wsd <b>run<\/b> \(curves\[1\]\.steps: its points are missing/,
    ],
    [
      'a curve’s points cut short',
      (r, a) => a.set(r.curves[1].loss.$a, new Float64Array(10)),
      /curves\[1\]\.loss: holds 10 values where 1000 were saved/,
    ],
    [
      'a loss not a number',
      (r, a) => {
        a.get(r.curves[1].loss.$a)[5] = NaN;
      },
      /curves\[1\]\.loss\[5\]: not a finite number/,
    ],
    [
      'steps not increasing',
      (r, a) => {
        a.get(r.curves[1].steps.$a)[7] = 1;
      },
      /curves\[1\]\.steps\[7\]: steps must be ≥ 1 and increasing/,
    ],
    [
      'an unknown role',
      (r) => {
        r.curves[1].role = 'boss';
      },
      /curves\[1\]\.role: must be one of fit, validate/,
    ],
    [
      'a schedule of an unknown kind',
      (r) => {
        r.curves[1].schedule = { kind: 'rm -rf' };
      },
      /schedule\.kind: must be one of/,
    ],
    [
      'a name twice',
      (r) => {
        r.curves[1].name = 'cosine';
      },
      /a second curve named cosine/,
    ],
    [
      'an object that is no plain data',
      (r) => {
        r.curves[1].source = new Date();
      },
      /curves\[1\]\.source: not plain data/,
    ],
  ];
  for (const [what, damage, message] of cases) {
    const { record, arrays } = stored(state);
    damage(record, arrays);
    const read = readWorkspace(record, arrays, new ArrayIds());
    assert.equal(read.kind, 'restored', what);
    assert.deepEqual(
      read.view.curves.map((c) => c.name),
      ['cosine'],
      what,
    );
    assert.deepEqual(
      read.view.predictions.map((p) => p.name),
      ['constant 60K'],
      what,
    );
    assert.match(read.notes[0], /^Dropped what could not be read: /, what);
    assert.match(read.notes[0], message, what);
  }

  // Settings that cannot be read: the defaults, said; a fit that cannot be read: dropped, said.
  const { record, arrays } = stored(state);
  record.settings.lambda = 7;
  record.fits[0].params.L0 = 'x';
  const read = readWorkspace(record, arrays, new ArrayIds());
  assert.deepEqual(read.view.settings, DEFAULT_SETTINGS);
  assert.deepEqual(read.view.fits, {});
  assert.deepEqual(read.view.lines, {}, 'lines of a fit dropped are not kept');
  assert.equal(read.view.curves.length, 2);
  assert.match(
    read.notes.join('\n'),
    /saved settings could not be read \(settings\.lambda: must be between 0 and 1\): the defaults are used/,
  );
  assert.match(
    read.notes.join('\n'),
    /saved fit could not be read \(fits\[0\]\.params\.L0: not a finite number\): press Fit/,
  );

  // An average of laws with a member that cannot predict (a weight lost): the fit is dropped, said.
  const averaged = stored(state);
  averaged.record.fits[0].response.members = [
    { law: 'annealing', warmupConvention: 'peak', params: { L0: 2.6 }, weight: 0.7 },
    { law: 'annealing', params: { L0: 2.7 } },
  ];
  const readAveraged = readWorkspace(averaged.record, averaged.arrays, new ArrayIds());
  assert.deepEqual(readAveraged.view.fits, {});
  assert.match(
    readAveraged.notes.join('\n'),
    /saved fit could not be read \(fits\[0\]\.response\.members: not a list of laws with their parameters and weights\)/,
  );
  averaged.record.fits[0].response.members[1].weight = 0.3;
  assert.deepEqual(
    readWorkspace(averaged.record, averaged.arrays, new ArrayIds()).view.fits.annealing.response.members[1].weight,
    0.3,
    'whole members are kept',
  );
});

test('a save of what fits: the settings, schedules and names; curves without points come back as schedules to predict', () => {
  const state = workspace().state;
  const keep = state.curves[0];
  const { record, arrays } = stored(state, new ArrayIds(), { withData: (c) => c === keep });
  assert.deepEqual(record.fits, [], 'no fit without every curve’s points');
  assert.equal(record.curves[1].points, N);
  // The LR file's schedule is kept, thinned, inside the record.
  assert.ok(record.curves[1].schedule.lr.length <= 2000 && Array.isArray(record.curves[1].schedule.lr));
  const read = readWorkspace(record, arrays, new ArrayIds());
  assert.deepEqual(
    read.view.curves.map((c) => c.name),
    ['cosine'],
  );
  // as a link without data does: the curves turned schedules first
  assert.deepEqual(
    read.view.predictions.map((p) => p.name),
    ['wsd <b>run</b>', 'constant 60K'],
  );
  assert.match(
    read.notes.join('\n'),
    /wsd <b>run<\/b>: its 1,000 points were not kept \(the browser's storage was full\); its schedule is predicted/,
  );
  assert.deepEqual(read.view.settings, state.settings);
});

test('colours: kept when they are the palette’s and distinct, else given again', () => {
  const state = workspace().state;
  const { record, arrays } = stored(state);
  record.curves[1].color = 'red; background:url(x)';
  record.predictions[0].color = record.curves[0].color;
  const { view } = readWorkspace(record, arrays, new ArrayIds());
  const colors = [...view.curves, ...view.predictions].map((c) => c.color);
  assert.equal(colors[0], state.curves[0].color);
  assert.equal(new Set(colors).size, 3);
  assert.ok(colors.every((c) => /^#[0-9a-f]{6}$/.test(c)));
});

test('an empty page is no work to keep', () => {
  const store = createStore();
  assert.equal(isEmptyWork(store.state), true);
  store.addPrediction('p', { kind: 'constant', total: 10, peak: 1e-4 });
  assert.equal(isEmptyWork(store.state), false);
});

test('format 3 keeps each curve’s fit window, its LR column’s steps, its schedule’s problems, the example and the band’s lines', () => {
  const store = workspace();
  const lrSteps = range(N, (i) => (i + 1) * 10);
  store.setSchedule('wsd <b>run</b>', {
    schedule: store.state.curves[1].schedule,
    scheduleSource: 'file',
    lrFile: 'lr.csv',
    lr: range(N, (i) => (i < 50 ? (2e-4 * (i + 1)) / 50 : 2e-4)),
    lrSteps,
    scheduleProblems: [{ kind: 'lr', text: 'its schedule’s LR differs' }],
  });
  store.setWindow('cosine', 1200);
  const { record, arrays } = stored(store.state);
  assert.equal(record.format, 3);
  const { view } = readWorkspace(record, arrays, new ArrayIds());
  assert.equal(view.curves[0].from, 1200);
  assert.equal(view.curves[1].from, undefined, 'a window left at its default stays so');
  assert.deepEqual(Array.from(view.curves[1].lrSteps), Array.from(lrSteps));
  assert.deepEqual(view.curves[1].scheduleProblems, [{ kind: 'lr', text: 'its schedule’s LR differs' }]);
  assert.equal(view.example, null);

  // A window past the curve's last point is dropped with the curve named, the others kept.
  const bad = structuredClone(record);
  bad.curves[0].from = 1e9;
  const dropped = readWorkspace(bad, arrays, new ArrayIds());
  assert.deepEqual(
    dropped.view.curves.map((c) => c.name),
    ['wsd <b>run</b>'],
  );
  assert.match(dropped.notes[0], /cosine \(curves\[0\]\.from: not a step of the curve\)/);
});

test('an example kept as the view comes back as the example; an auto fit’s band comes back with its lines', () => {
  const store = createStore();
  store.loadView({
    settings: { ...DEFAULT_SETTINGS, auto: false },
    curves: [
      {
        name: 'cosine',
        role: 'fit',
        steps: range(N, (i) => (i + 1) * 10),
        loss: range(N, (i) => 4 - i / N),
        schedule: { kind: 'cosine', total: 10000, peak: 2e-4, final: 0, warmup: 500 },
      },
    ],
    predictions: [{ name: 'constant 60K', schedule: { kind: 'constant', total: 60000, peak: 2e-4, warmup: 500 } }],
    example: { title: 'the paper’s Fig. 2 example' },
  });
  const fit = fitRecord(store.state.curves, store.state.settings);
  fit.response.auto = {
    chosen: { label: 'annealing law' },
    candidates: [],
    reason: 'it predicts the held-out data best',
  };
  fit.response.band = {
    level: 0.9,
    base: 0.004,
    discrepancy: [{ distance: 0, halfWidth: 0.004 }],
    folds: 2,
    reach: { S1: 10, S2: 1, frontier: [[10, 1]] },
  };
  const band = {
    steps: range(100, (i) => i * 600 + 1),
    lr: range(100, () => 2e-4),
    loss: range(100, () => 3),
    lower: range(100, () => 2.98),
    upper: range(100, () => 3.02),
    finalLoss: 3,
  };
  store.fitted({ annealing: fit }, { stale: false, status: '' }, [
    {
      law: 'annealing',
      source: fit,
      band: fit.response.band,
      byName: new Map([['constant 60K', { ...band, schedule: store.state.predictions[0].schedule }]]),
    },
  ]);
  assert.equal(store.state.band.from, 'auto');
  assert.ok(
    predictedLine(store.state, 'annealing', store.state.predictions[0]),
    'the line drawn with the band is current',
  );

  const { record, arrays } = stored(store.state);
  const { view } = readWorkspace(record, arrays, new ArrayIds());
  assert.deepEqual(view.example, { title: 'the paper’s Fig. 2 example' });
  assert.ok(view.curves[0].fromExample && view.predictions[0].fromExample);
  const again = createStore();
  again.restoreView(view);
  assert.equal(again.state.band.halfWidth, 0.004);
  const line = predictedLine(again.state, 'annealing', again.state.predictions[0]);
  assert.ok(line, 'the band’s line is current after the restore');
  assert.deepEqual([line.lower[0], line.upper[99]], [2.98, 3.02]);
  // The user's first curves still replace the restored example.
  again.replaceExample([{ name: 'mine', steps: range(10, (i) => i + 1), loss: range(10, () => 3), schedule: null }]);
  assert.deepEqual(
    again.state.curves.map((c) => c.name),
    ['mine'],
  );
  assert.deepEqual(again.state.predictions, []);
});

test('a validation comes back with its band and the lines drawn with it, not the auto fit’s band', () => {
  const store = workspace();
  const fit = store.state.fits.annealing;
  const vband = { level: 0.9, base: 0.012, growth: 2, reach: { S1: 10, S2: 1, frontier: [[10, 1]] } };
  const validation = {
    rows: [{ curve: 'cosine', law: 'annealing', metrics: { PredE: 0.004, WorstE: 0.01, FinalErr: -0.002, R2: 0.99 } }],
    summaries: [{ law: 'annealing', mean: { PredE: 0.004 }, band: vband, bandLevel: 0.9, bandHalfWidth: 0.012 }],
    elapsedMs: 12,
  };
  const band = {
    steps: range(100, (i) => i * 600 + 1),
    lr: range(100, () => 2e-4),
    loss: range(100, () => 3),
    lower: range(100, () => 2.96),
    upper: range(100, () => 3.04),
    finalLoss: 3,
  };
  store.validated(validation, '', [
    {
      law: 'annealing',
      source: fit,
      band: vband,
      byName: new Map([['constant 60K', { ...band, schedule: store.state.predictions[0].schedule }]]),
    },
  ]);
  assert.equal(store.state.band.from, 'validation');

  const { record, arrays } = stored(store.state);
  const read = readWorkspace(record, arrays, new ArrayIds());
  assert.deepEqual(read.notes, []);
  const again = createStore();
  again.restoreView(read.view);
  assert.deepEqual(again.state.validation, validation);
  assert.deepEqual([again.state.band.from, again.state.band.halfWidth], ['validation', 0.012]);
  const line = predictedLine(again.state, 'annealing', again.state.predictions[0]);
  assert.ok(line, 'the line drawn with the validation’s band is current after the restore');
  assert.deepEqual([line.lower[0], line.upper[99]], [2.96, 3.04]);

  // a stored validation that is not one is dropped, said, and the rest restored with the fit's band
  record.validation = { rows: [], summaries: [{ law: 'annealing', mean: {}, bandLevel: 2, bandHalfWidth: 0.01 }] };
  const bad = readWorkspace(record, arrays, new ArrayIds());
  assert.match(
    bad.notes.join(' '),
    /^The saved validation could not be read \(validation\.summaries\[0\]\.band: not a band\): press Validate to run it again\.$/,
  );
  assert.equal(bad.view.validation, null);
  assert.equal(bad.view.fits.annealing.law, 'annealing');
});

test('a record of format 2 (windows unknown: every curve was fitted whole) migrates: auto off as it was, its fit stale', () => {
  const store = workspace();
  const { record, arrays } = stored(store.state);
  const v2 = { ...structuredClone(record), format: 2, stale: false };
  delete v2.example;
  delete v2.settings.auto;
  const read = readWorkspace(v2, arrays, new ArrayIds());
  assert.equal(read.kind, 'restored');
  assert.deepEqual(read.notes, []);
  assert.equal(read.view.settings.auto, false);
  assert.equal(read.view.stale, true, 'fitted without windows: Fit fits the windows');
  assert.ok(read.view.fits.annealing, 'the fit is kept');
});

test('how the charts count x is kept: the unit, the tokens per step and N entered once; a stored value that is no count is dropped', () => {
  const store = workspace();
  store.setChartOption('xUnit', 'flops');
  store.setChartOption('tokensPerStep', 524288);
  store.setChartOption('modelSize', 124e6);
  const { record, arrays } = stored(store.state);
  const { view } = readWorkspace(record, arrays, new ArrayIds());
  assert.deepEqual(view.chart, { xUnit: 'flops', tokensPerStep: 524288, modelSize: 124e6 });
  const again = createStore();
  again.restoreView(view);
  assert.equal(again.state.chart.xUnit, 'flops');
  assert.equal(again.state.chart.logX, false, 'the rest of the chart options stay the page’s');
  const bad = structuredClone(record);
  bad.chart = { xUnit: 'parsecs', tokensPerStep: -3, modelSize: 'big' };
  assert.deepEqual(readWorkspace(bad, arrays, new ArrayIds()).view.chart, {
    xUnit: 'steps',
    tokensPerStep: null,
    modelSize: null,
  });
});

test('the Analyses panel’s choices are kept: open or not, the view, each analysis’s options, the unseen N; its answer is not', () => {
  const store = workspace();
  store.analysisChanged({
    open: true,
    view: 'wsd',
    sizeTarget: '1.3B',
    relative: true,
    result: { view: 'wsd', chart: null, table: [] },
    status: 'Computed',
  });
  store.setAnalysisOptions('wsd', { total: 50000, ratios: [0.1, 0.2] });
  const { record, arrays } = stored(store.state);
  const { view, notes } = readWorkspace(record, arrays, new ArrayIds());
  assert.deepEqual(notes, []);
  assert.deepEqual(view.analysis, {
    open: true,
    view: 'wsd',
    options: { wsd: { total: 50000, ratios: [0.1, 0.2] } },
    sizeTarget: '1.3B',
    relative: true,
  });
  const again = createStore();
  const revision = again.state.analysis.optionsRevision;
  again.restoreView(view);
  const a = again.state.analysis;
  assert.deepEqual(
    [a.open, a.view, a.options, a.sizeTarget, a.relative, a.result],
    [true, 'wsd', { wsd: { total: 50000, ratios: [0.1, 0.2] } }, '1.3B', true, null],
  );
  assert.equal(a.optionsRevision, revision + 1, 'the panel shows the options restored');

  // A record from before the choices were kept reads as before; choices that cannot be read are
  // dropped with a note, and the rest of the work is kept.
  const older = structuredClone(record);
  delete older.analysis;
  assert.equal(readWorkspace(older, arrays, new ArrayIds()).view.analysis, null);
  const bad = structuredClone(record);
  bad.analysis.options = { wsd: 'total 50000' };
  const read = readWorkspace(bad, arrays, new ArrayIds());
  assert.equal(read.view.analysis, null);
  assert.match(
    read.notes.join(' '),
    /The Analyses panel's choices could not be read \(analysis\.options: not the options of each analysis\)/,
  );
  assert.equal(read.view.curves.length, 2);
});
