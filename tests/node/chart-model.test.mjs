// The result charts' view model (site/js/charts/chart-model.js) under node: which lines each chart
// draws, their labels and styles, the band, the residuals and where the x axis starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { resultCharts } from '../../site/js/charts/chart-model.js';
import { createStore } from '../../site/js/state/store.js';
import { DEFAULT_SETTINGS } from '../../site/js/state/settings.js';

const schedule = { kind: 'constant', total: 3000, peak: 1e-4 };
const line = (extra = {}) => ({
  steps: [1000, 2000, 3000],
  lr: [1e-4, 1e-4, 1e-4],
  loss: [3, 2.9, 2.8],
  s1Term: [1, 0.9, 0.8],
  s2Term: [0, 0, 0],
  ...extra,
});
const labels = (spec) => spec.lines.map((l) => l.label);

/**
 * fitted is a store holding curves a (fit) and b (validate), fitted with laws, and a schedule p
 * predicted with each.
 */
function fitted(laws) {
  const store = createStore();
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: ['a', 'b'].map((name, i) => ({
      name,
      role: i ? 'validate' : 'fit',
      steps: [1000, 2000, 3000],
      loss: [3.1, 2.9, 2.8],
      schedule,
    })),
    predictions: [{ name: 'p', schedule }],
  });
  const { curves } = store.state;
  const fits = Object.fromEntries(
    laws.map((law) => [
      law,
      {
        law,
        params: {},
        settings: DEFAULT_SETTINGS,
        lines: new Map(curves.map((c) => [c.name, line()])),
        curves: new Map(curves.map((c) => [c.name, c])),
        response: { curves: curves.map((c) => ({ name: c.name, role: c.role, predicted: [3, 2.9, 2.8] })) },
      },
    ]),
  );
  store.fitted(fits, { stale: false, status: '' });
  store.linesPredicted(
    laws.map((law) => ({ law, source: fits[law], byName: new Map([['p', { schedule, ...line(), finalLoss: 2.8 }]]) })),
  );
  return store;
}

test('one law: observed points, fitted and held-out lines, the schedules predicted, their LR and terms', () => {
  const { lr, loss, residuals, terms } = resultCharts(fitted(['annealing']).state);
  assert.deepEqual(labels(loss), ['a (observed)', 'b (observed)', 'a (fitted)', 'b (predicted)', 'p']);
  assert.deepEqual(
    loss.lines.map((l) => l.dash || null),
    [null, null, null, [6, 4], null],
    'held-out curves dashed',
  );
  assert.ok(loss.lines[0].points && !loss.lines[2].points);
  assert.deepEqual(labels(lr), ['a', 'b', 'p']);
  assert.deepEqual(labels(terms), ['a: A·S1^−α', 'a: C·S2', 'b: A·S1^−α', 'b: C·S2', 'p: A·S1^−α', 'p: C·S2']);
  assert.deepEqual(labels(residuals), ['zero', 'a', 'b']);
  assert.ok(Math.abs(residuals.lines[1].y[0] - 0.1) < 1e-12, 'observed minus fitted');
  // After the 500 warmup steps, and not before the first observation.
  assert.equal(loss.xMin, 1000);
});

test("two laws: the Multi-Power Law's lines dotted beside the annealing law's, one LR line each, the band on the annealing law's", () => {
  const store = fitted(['annealing', 'multi-power']);
  store.validated({ rows: [], summaries: [{ law: 'annealing', bandHalfWidth: 0.01, bandLevel: 0.9 }] }, '');
  const { lr, loss, terms } = resultCharts(store.state);
  assert.deepEqual(labels(loss).slice(2), [
    'a (fitted)',
    'a band lower',
    'a band upper',
    'b (predicted)',
    'b band lower',
    'b band upper',
    'p',
    'p band lower',
    'p band upper',
    'a (Multi-Power Law, fitted)',
    'b (Multi-Power Law, predicted)',
    'p (Multi-Power Law)',
  ]);
  const band = loss.lines.find((l) => l.label === 'a band upper');
  assert.ok(Math.abs(band.y[0] - 3.03) < 1e-12);
  assert.ok(loss.lines.filter((l) => /Multi-Power/.test(l.label)).every((l) => l.dash.join() === '2,3'));
  assert.deepEqual(labels(lr), ['a', 'b', 'p'], 'the learning rate once per curve');
  assert.ok(
    labels(terms).every((l) => !/Multi-Power/.test(l)),
    'the terms of the first law only',
  );
});

test('the Multi-Power Law alone draws its own LR and terms; nothing to draw says so', () => {
  const { lr, terms, loss } = resultCharts(fitted(['multi-power']).state);
  assert.deepEqual(labels(lr), ['a (Multi-Power Law)', 'b (Multi-Power Law)', 'p (Multi-Power Law)']);
  assert.deepEqual(labels(terms).slice(0, 2), ['a (Multi-Power Law): A·(S1+S_W)^−α', 'a (Multi-Power Law): LD']);
  assert.equal(loss.lines.find((l) => l.label === 'b (Multi-Power Law, predicted)').dash.join(), '6,4');

  const empty = resultCharts(createStore().state);
  assert.deepEqual(labels(empty.loss), []);
  assert.equal(empty.residuals.empty, 'Residuals appear after a fit.');
  assert.deepEqual(empty.residuals.lines[0].x, [], 'no residuals: an empty zero line');
});

test("auto's average of laws, drawn in its leading law's place, is labelled the average, not that law", () => {
  const store = fitted(['multi-power']);
  store.state.fits['multi-power'].response.members = [
    { law: 'multi-power', params: {}, weight: 0.6 },
    { law: 'annealing', params: {}, weight: 0.4 },
  ];
  const { loss } = resultCharts(store.state);
  assert.deepEqual(labels(loss).slice(2), [
    'a (average of laws, fitted)',
    'b (average of laws, predicted)',
    'p (average of laws)',
  ]);
  assert.deepEqual(
    loss.lines.slice(2).map((l) => l.role),
    ['average, fitted', 'average, predicted', 'average, predicted'],
  );
});

test('parameters entered by hand: no residuals, every curve predicted; log axes start at step 1 or later', () => {
  const store = fitted(['annealing']);
  store.useManual({
    params: { annealing: { L0: 2 } },
    settings: { ...DEFAULT_SETTINGS, warmupSteps: 0 },
    from: 'hand',
  });
  store.setChartOption('logX', true);
  const { loss, residuals, lr } = resultCharts(store.state);
  assert.deepEqual(labels(loss), ['a (observed)', 'b (observed)'], 'no lines until predicted with them');
  assert.deepEqual(labels(residuals), ['zero']);
  assert.equal(lr.xMin, 1);
  assert.equal(loss.xMin, 1000);
});

test('the x axis counts steps, tokens (tokens per step entered once) or FLOPs (≈ 6·N·tokens); without its numbers it counts steps and says so', async () => {
  const { xAxis } = await import('../../site/js/charts/chart-model.js');
  assert.deepEqual(
    { ...xAxis({ xUnit: 'steps' }), ticks: null, format: null },
    { unit: 'steps', factor: 1, label: 'step', ticks: null, format: null, note: '' },
  );
  const tokens = xAxis({ xUnit: 'tokens', tokensPerStep: 524288 });
  assert.equal(tokens.unit, 'tokens');
  assert.equal(tokens.factor * 60000, 31457280000, '60K steps of 2^19 tokens');
  const flops = xAxis({ xUnit: 'flops', tokensPerStep: 524288, modelSize: 124e6 });
  assert.equal(flops.factor, 6 * 124e6 * 524288);
  assert.equal(flops.ticks(2.34e19), '2.34e19');
  const missing = xAxis({ xUnit: 'flops', tokensPerStep: 524288, modelSize: null });
  assert.equal(missing.unit, 'steps');
  assert.match(missing.note, /^Enter the tokens per step and the model size N to count the x axis in FLOPs/);
});

test('big counts read in ticks: K, M, B, then powers of ten', async () => {
  const { bigLabel } = await import('../../site/js/charts/chart-model.js');
  assert.deepEqual([950, 12500, 3.1e6, 31457280000, 2.34e19, 1e21].map(bigLabel), [
    '950',
    '12.5K',
    '3.1M',
    '31.5B',
    '2.34e19',
    '1e21',
  ]);
});

test('smoothing for display: a moving average takes the noise off a curve and keeps its level; the chart draws it beside the points only when asked', async () => {
  const { smoothLoss } = await import('../../site/js/charts/chart-model.js');
  // 3 ± 0.1 alternating: any odd window of 5 averages to 3 ± 0.02 inside, 3 ± 0.0333 at the ends.
  const y = Float64Array.from({ length: 200 }, (_, i) => 3 + (i % 2 ? 0.1 : -0.1));
  const s = smoothLoss(y, 5);
  for (let i = 2; i < 198; i++) assert.ok(Math.abs(s[i] - 3) <= 0.02 + 1e-12, `${i}: ${s[i]}`);
  assert.ok(Math.abs(s[0] - (2.9 + 3.1 + 2.9) / 3) < 1e-12);
  const store = createStore();
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [
      {
        name: 'noisy',
        role: 'fit',
        steps: Float64Array.from({ length: 200 }, (_, i) => i + 1),
        loss: y,
        schedule: { kind: 'constant', total: 200, peak: 2e-4 },
      },
    ],
  });
  assert.ok(!resultCharts(store.state).loss.lines.some((l) => l.role.startsWith('smoothed')));
  store.setChartOption('smooth', true);
  const smoothed = resultCharts(store.state).loss.lines.find((l) => l.label === 'noisy (smoothed)');
  assert.equal(smoothed.role, 'smoothed (5 points)');
  assert.ok(Math.abs(smoothed.y[100] - 3) <= 0.02 + 1e-12);
});
