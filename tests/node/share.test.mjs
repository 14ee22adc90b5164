// Share links (site/js/share/share.js, site/js/share/share-view.js) under node: the fragment's encoding,
// every check of a link opened, and the view written into a link and read back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { encodeShare, decodeShare, checkShareable, MAX_FRAGMENT } from '../../site/js/share/share.js';
import { shareView, linkView } from '../../site/js/share/share-view.js';
import { thinSchedule } from '../../site/js/schedules/thin-schedule.js';
import { createStore } from '../../site/js/state/store.js';

const SETTINGS = {
  lambda: 0.999,
  fitLambda: false,
  warmupSteps: 500,
  warmupConvention: 'peak',
  huberDelta: 0.001,
  law: 'annealing',
  auto: false,
  mplSearch: 'optimum',
  priors: 'weak',
};
const PARAMS = { L0: 2.6, A: 0.4, alpha: 0.5, C: 0.4, lambda: 0.999 };

/** encode deflates text as a link's payload, as the page does. */
async function encode(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return Buffer.from(await new Response(stream).arrayBuffer()).toString('base64url');
}

test('a view goes into a link and comes back the same', async () => {
  const view = {
    v: 2,
    settings: SETTINGS,
    params: PARAMS,
    multiPower: { L0: 2.5, A: 0.5, alpha: 0.5, B: 400, C: 2, beta: 0.6, gamma: 0.5 },
    source: 'fit',
    curves: [
      {
        name: 'cosine',
        role: 'fit',
        schedule: { kind: 'cosine', total: 20, peak: 2e-4 },
        steps: [1, 2],
        loss: [3.5, 3.4],
      },
    ],
    predictions: [
      { name: 'wsd', schedule: { kind: 'wsd', total: 100, peak: 2e-4, decay: 'cosine', decayFraction: 0.2 } },
    ],
  };
  const got = await decodeShare(await encodeShare(view));
  assert.deepEqual(
    { ...got, curves: got.curves.map((c) => ({ ...c, steps: Array.from(c.steps), loss: Array.from(c.loss) })) },
    view,
  ); // a link made before priors were a setting was fitted without them, and says so
  const before = { ...view, settings: { ...SETTINGS } };
  delete before.settings.priors;
  assert.equal((await decodeShare(await encodeShare(before))).settings.priors, 'none');
});

test('corrupted, oversized, wrong-version and ill-typed links are refused, saying why', async () => {
  const settings = { ...SETTINGS };
  delete settings.mplSearch;
  const cases = [
    ['corrupted', 'AAAA____not-deflate', /corrupt|decompress/i],
    ['bad characters', '%3Cscript%3E', /base64url/i],
    ['oversized', 'A'.repeat(210 * 1024), /too large/i],
    [
      'wrong version',
      await encode(JSON.stringify({ v: 3, settings: {}, curves: [], predictions: [] })),
      /version 3 is not supported.*versions 1 and 2/i,
    ],
    [
      'bad type',
      await encode(JSON.stringify({ v: 1, settings: { lambda: 'x' }, curves: [], predictions: [] })),
      /settings/i,
    ],
    ['not JSON', await encode('{"v":1, nope'), /not JSON/i],
    ['deflate bomb', await encode(' '.repeat(9 * 1024 * 1024)), /expands to more than/i],
    [
      'unexpected field',
      await encode(JSON.stringify({ v: 1, settings, curves: [], predictions: [], __proto__x: 1 })),
      /unexpected field "__proto__x"/,
    ],
    [
      'infinite number',
      await encode(
        '{"v":1,"settings":{"lambda":0.999,"fitLambda":false,"warmupSteps":500,"warmupConvention":"peak","huberDelta":1e999,"law":"annealing","auto":false},"curves":[],"predictions":[]}',
      ),
      /huberDelta: not a finite number/,
    ],
  ];
  for (const [what, payload, want] of cases) await assert.rejects(decodeShare(payload), want, what);
});

test('links asking for too much, names with control characters and parameters out of range are refused', async () => {
  const bomb = {
    v: 2,
    settings: SETTINGS,
    params: PARAMS,
    source: 'manual',
    curves: [],
    predictions: Array.from({ length: 100 }, (_, i) => ({
      name: `p${i}`,
      schedule: { kind: 'cosine', total: 9999999, peak: 2e-4 },
    })),
  };
  const payload = await encode(JSON.stringify(bomb));
  assert.ok(payload.length < 2000, `${payload.length} characters`);
  await assert.rejects(
    decodeShare(payload),
    /its schedules run 999,999,900 steps in all, more than the 20,000,000 a link may ask for/,
  );
  for (const [view, want] of [
    [
      { ...bomb, predictions: [{ name: 'cos\u202eenis', schedule: { kind: 'constant', total: 100, peak: 1e-4 } }] },
      /predictions\[0\]\.name: holds a control character/,
    ],
    [{ ...bomb, predictions: [], params: { ...PARAMS, L0: -1 } }, /params\.L0: must be zero or more/],
    [
      { ...bomb, predictions: [], settings: { ...SETTINGS, warmupSteps: 1e300 } },
      /settings\.warmupSteps: must be a whole number from 0 to 10000000/,
    ],
    [
      { ...bomb, predictions: [{ name: 'x', schedule: { kind: 'toString', total: 10 } }] },
      /predictions\[0\]\.schedule\.kind: must be one of constant/,
    ],
  ])
    await assert.rejects(decodeShare(await encode(JSON.stringify(view))), want);
  assert.throws(
    () =>
      checkShareable({
        ...bomb,
        predictions: [{ name: 'n'.repeat(240), schedule: { kind: 'constant', total: 10, peak: 1e-4 } }],
      }),
    /predictions\[0\]\.name: length must be 1\.\.200/,
  );
});

test('links with more than 100 curves or schedules, or a curve of more than 200,000 points, are refused (docs/api.md#share-links)', async () => {
  const base = { v: 2, settings: SETTINGS, params: PARAMS, source: 'manual', curves: [], predictions: [] };
  const curve = (i, n = 2) => ({
    name: `c${i}`,
    role: 'fit',
    schedule: { kind: 'constant', total: n, peak: 2e-4 },
    steps: Array.from({ length: n }, (_, k) => k + 1),
    loss: Array(n).fill(3),
  });
  const schedule = (i) => ({ name: `p${i}`, schedule: { kind: 'constant', total: 10, peak: 2e-4 } });
  const items = (n, make) => Array.from({ length: n }, (_, i) => make(i));
  // the limits themselves pass
  await decodeShare(await encode(JSON.stringify({ ...base, curves: items(100, curve) })));
  await decodeShare(await encode(JSON.stringify({ ...base, predictions: items(100, schedule) })));
  checkShareable({ ...base, curves: [curve(0, 200000)] }); // its link would pass 200 KB: checked as a view
  for (const [view, want] of [
    [{ ...base, curves: items(101, curve) }, /curves: not a list of at most 100/],
    [{ ...base, predictions: items(101, schedule) }, /predictions: not a list of at most 100/],
  ])
    await assert.rejects(decodeShare(await encode(JSON.stringify(view))), want);
  assert.throws(
    () => checkShareable({ ...base, curves: [curve(0, 200001)] }),
    /curves\[0\]\.steps: more than 200000 values/,
  );
});

test('the page writes its view into a link, with or without the data, and opens it back', async () => {
  const store = createStore();
  store.loadView({
    settings: SETTINGS,
    curves: [
      {
        name: 'cosine',
        role: 'fit',
        steps: Float64Array.from([1, 2]),
        loss: Float64Array.from([3.5, 3.4]),
        schedule: { kind: 'cosine', total: 20, peak: 2e-4 },
      },
    ],
    predictions: [{ name: 'constant', schedule: { kind: 'constant', total: 40, peak: 2e-4 } }],
  });
  store.useManual({ params: { annealing: PARAMS }, settings: SETTINGS, from: 'hand' });
  const withData = shareView(store.state, true);
  checkShareable(withData);
  assert.equal(withData.source, 'manual');
  assert.deepEqual(withData.params, PARAMS);
  assert.deepEqual(withData.curves[0].steps, [1, 2]);

  const opened = linkView(await decodeShare(await encodeShare(withData)));
  assert.equal(opened.refit, false);
  assert.deepEqual(opened.manual.params, { annealing: PARAMS });
  assert.equal(opened.manual.from, 'hand');
  assert.deepEqual(
    opened.curves.map((c) => c.name),
    ['cosine'],
  );
  assert.deepEqual(
    opened.predictions.map((p) => p.name),
    ['constant'],
  );

  // Without data, a curve comes back as a schedule to predict, with a note.
  const without = linkView(await decodeShare(await encodeShare(shareView(store.state, false))));
  assert.deepEqual(without.curves, []);
  assert.deepEqual(
    without.predictions.map((p) => p.name),
    ['cosine', 'constant'],
  );
  assert.match(without.notes[0], /cosine: the link holds no data for this curve/);

  // A fit of the link's own data is refitted on opening.
  const fitted = linkView(await decodeShare(await encodeShare({ ...withData, source: 'fit' })));
  assert.equal(fitted.refit, true);
  assert.equal(fitted.manual, null);
});

test('a link without data keeps at most 2000 points of an explicit schedule, spikes included', () => {
  const n = 100_000;
  const lr = Array.from({ length: n }, (_, i) => 2e-4 * (1 - i / n));
  lr[54_321] = 5e-4;
  const schedule = { kind: 'explicit', total: n - 1, steps: Array.from({ length: n }, (_, i) => i), lr };
  const thin = thinSchedule(schedule);
  assert.ok(thin.steps.length <= 2000 && thin.steps.length > 1900, `${thin.steps.length} points`);
  assert.equal(thin.steps[0], 0);
  assert.equal(thin.steps.at(-1), n - 1);
  assert.ok(thin.steps.includes(54_321), 'the spike is kept');
  const short = { kind: 'explicit', total: 3, steps: [0, 3], lr: [1e-4, 2e-4] };
  assert.equal(thinSchedule(short), short);
  assert.ok(MAX_FRAGMENT === 200 * 1024);
});

test('a curve’s fit window set by the user travels in a link with its data; one past its last point is refused naming the field', async () => {
  const store = createStore();
  store.loadView({
    settings: SETTINGS,
    curves: [
      {
        name: 'cosine',
        role: 'fit',
        steps: Float64Array.from([100, 200, 300]),
        loss: Float64Array.from([3.5, 3.4, 3.3]),
        schedule: { kind: 'cosine', total: 300, peak: 2e-4 },
      },
      {
        name: 'constant',
        role: 'fit',
        steps: Float64Array.from([100, 200]),
        loss: Float64Array.from([3.6, 3.5]),
        schedule: { kind: 'constant', total: 300, peak: 2e-4 },
      },
    ],
  });
  store.setWindow('cosine', 200);
  const link = shareView(store.state, true);
  assert.equal(link.curves[0].from, 200);
  assert.equal('from' in link.curves[1], false, 'a default window is left to the page that opens the link');
  const opened = linkView(await decodeShare(await encodeShare(link)));
  assert.deepEqual(
    opened.curves.map((c) => [c.name, c.from]),
    [
      ['cosine', 200],
      ['constant', undefined],
    ],
  );
  link.curves[0].from = 301;
  await assert.rejects(
    decodeShare(await encodeShare(link)),
    /curves\[0\]\.from: the fit window must start at a step of the curve/,
  );
});

test("how the charts count x (tokens per step, N) travels in a link, is checked, and an undo of the opening brings back the page's own", async () => {
  const store = createStore();
  store.loadView({
    settings: SETTINGS,
    predictions: [{ name: 'constant', schedule: { kind: 'constant', total: 40, peak: 2e-4 } }],
  });
  assert.equal(shareView(store.state, true).chart, undefined, 'steps, nothing entered: no chart in the link');
  store.setChartOption('xUnit', 'tokens');
  store.setChartOption('tokensPerStep', 524288);
  const link = await decodeShare(await encodeShare(shareView(store.state, true)));
  assert.deepEqual(link.chart, { xUnit: 'tokens', tokensPerStep: 524288, modelSize: null });

  const other = createStore();
  const restore = other.snapshotView();
  other.loadView(linkView(link));
  assert.equal(other.state.chart.xUnit, 'tokens');
  assert.equal(other.state.chart.tokensPerStep, 524288);
  other.offerUndo('Opened a shared link.', restore);
  other.undo();
  assert.equal(other.state.chart.xUnit, 'steps');
  assert.equal(other.state.chart.tokensPerStep, null);

  const view = shareView(store.state, true);
  for (const [chart, message] of [
    [{ xUnit: 'epochs', tokensPerStep: null, modelSize: null }, /chart\.xUnit/],
    [{ xUnit: 'tokens', tokensPerStep: -5, modelSize: null }, /chart\.tokensPerStep: must be a positive number/],
    [{ xUnit: 'tokens', tokensPerStep: 1, colour: 'red' }, /chart/],
  ]) {
    await assert.rejects(decodeShare(await encodeShare({ ...view, chart })), message);
  }
});

test('a fit of a law whose parameters a link does not carry (the LR-weighted law) is fitted again on opening, not dropped', async () => {
  const store = createStore();
  const settings = { ...SETTINGS, law: 'lr-weighted' };
  store.loadView({
    settings,
    curves: [
      {
        name: 'cosine',
        role: 'fit',
        steps: Float64Array.from([1, 2, 3]),
        loss: Float64Array.from([3.5, 3.4, 3.35]),
        schedule: { kind: 'cosine', total: 20, peak: 2e-4 },
      },
    ],
  });
  store.fitted(
    {
      'lr-weighted': {
        params: { L0: 2.6, A: 0.4, alpha: 0.5, C: 0.4, lambda: 0.999, epsilon: 0 },
        settings,
        response: {},
      },
    },
    { stale: false, status: '' },
  );
  const view = shareView(store.state, true);
  assert.equal(view.source, 'fit');
  assert.equal(view.params, null);
  const opened = linkView(await decodeShare(await encodeShare(view)));
  assert.equal(opened.refit, true, "the page opening it fits the data again, with the link's law");
  assert.equal(opened.settings.law, 'lr-weighted');

  // without the data it cannot be fitted again: the link says so
  const without = linkView(await decodeShare(await encodeShare(shareView(store.state, false))));
  assert.equal(without.refit, false);
  assert.match(without.notes.at(-1), /^The link was made from a fit .*: add the curves, then press Fit\.$/);
});

test('a link keeps whether an explicit schedule is a file’s LR column or typed in the builder', async () => {
  const store = createStore();
  const explicit = { kind: 'explicit', total: 3, steps: [0, 1, 2, 3], lr: [2e-4, 2e-4, 1e-4, 0] };
  const curve = (name, scheduleSource) => ({
    name,
    role: 'fit',
    steps: Float64Array.from([1, 2, 3]),
    loss: Float64Array.from([3.5, 3.4, 3.3]),
    schedule: explicit,
    scheduleSource,
  });
  store.loadView({ settings: SETTINGS, curves: [curve('typed', 'builder'), curve('logged', 'file')] });
  const opened = linkView(await decodeShare(await encodeShare(shareView(store.state, true))));
  assert.deepEqual(
    opened.curves.map((c) => [c.name, c.scheduleSource]),
    [
      ['typed', 'builder'],
      ['logged', 'file'],
    ],
  );
  // A link made before the key existed: an explicit schedule came from a file.
  const older = shareView(store.state, true);
  delete older.curves[0].scheduleSource;
  assert.equal(linkView(await decodeShare(await encodeShare(older))).curves[0].scheduleSource, 'file');
  await assert.rejects(
    decodeShare(await encodeShare({ ...older, curves: [{ ...older.curves[0], scheduleSource: 'typed' }] })),
    /curves\[0\]\.scheduleSource.*must be one of file, builder/,
  );
});

test('a link opens the Analyses panel on the view it was open on, with the options set for it', async () => {
  const { viewById } = await import('../../site/js/analysis/analysis-views.js');
  const store = createStore();
  store.loadView({
    settings: SETTINGS,
    predictions: [{ name: 'constant', schedule: { kind: 'constant', total: 40, peak: 2e-4 } }],
  });
  const { analysis } = viewById('wsd-ratio');
  store.analysisChanged({ open: true, view: 'wsd-ratio', sizeTarget: '1.3B' });
  store.setAnalysisOptions(analysis, { totals: [30000, 60000], decay: 'linear' });
  store.setAnalysisOptions('lambda', { lambdas: [0.99] }); // another view's: not the link's
  const link = shareView(store.state, true);
  assert.deepEqual(link.analysis, { view: 'wsd-ratio', options: { totals: [30000, 60000], decay: 'linear' } });
  const opened = linkView(await decodeShare(await encodeShare(link)));
  assert.deepEqual(opened.analysis, {
    open: true,
    view: 'wsd-ratio',
    options: { [analysis]: { totals: [30000, 60000], decay: 'linear' } },
  });
  const other = createStore();
  other.loadView(opened);
  assert.deepEqual(
    [other.state.analysis.open, other.state.analysis.view, other.state.analysis.options],
    [true, 'wsd-ratio', opened.analysis.options],
  );

  // the panel closed: nothing of it in the link; the model-size view carries its unseen N
  store.analysisChanged({ open: false });
  assert.equal(shareView(store.state, true).analysis, undefined);
  store.analysisChanged({ open: true, view: 'sizefit' });
  assert.deepEqual(shareView(store.state, true).analysis, { view: 'sizefit', sizeTarget: '1.3B' });

  // options that are not plain data are refused, naming them
  const bad = { ...link, analysis: { view: 'wsd-ratio', options: { totals: [[[[[[1]]]]]] } } };
  await assert.rejects(decodeShare(await encodeShare(bad)), /analysis\.options\.totals.*nested too deeply/);
  await assert.rejects(
    decodeShare(await encodeShare({ ...link, analysis: { view: 'wsd-ratio', run: true } })),
    /analysis/,
  );
});
