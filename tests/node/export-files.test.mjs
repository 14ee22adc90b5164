// The files the page exports (site/js/export/export-files.js) under node: predicted curves as CSV
// (with the band), observed points with each law's fitted loss, an analysis's table, and the
// parameters' JSON; and how long a predicted-curves CSV may get.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { predictionCSV, observedCSV, tableCSV, fitDocument } from '../../site/js/export/export-files.js';
import { csvPoints, MAX_CSV_ROWS } from '../../site/js/controllers/exports.js';
import { createStore } from '../../site/js/state/store.js';
import { DEFAULT_SETTINGS } from '../../site/js/state/settings.js';
import { LAWS } from '../../site/js/engine/schema.js';

const lines = async (blob) => (await blob.text()).trimEnd().split('\n');

test("predicted curves: one row per curve, law and step; the band on the annealing law's rows", async () => {
  const curves = [
    {
      name: 'a, "quoted"',
      law: 'annealing',
      steps: [1, 2],
      lr: [1e-4, 1e-4],
      loss: [3, 2],
      s1Term: [1.5, 0.5],
      s2Term: [0.5, 0.5],
    },
    { name: 'b', law: 'multi-power', steps: [1], lr: [2e-4], loss: [4], s1Term: [2], s2Term: [0] },
  ];
  assert.deepEqual(await lines(predictionCSV(curves)), [
    'curve,law,step,lr,loss,s1_term,s2_term',
    '"a, ""quoted""",annealing,1,0.0001,3,1.5,0.5',
    '"a, ""quoted""",annealing,2,0.0001,2,0.5,0.5',
    'b,multi-power,1,0.0002,4,2,0',
  ]);
  const banded = await lines(predictionCSV(curves, 0.5));
  assert.equal(banded[0], 'curve,law,step,lr,loss,s1_term,s2_term,lower,upper');
  assert.equal(banded[1], '"a, ""quoted""",annealing,1,0.0001,3,1.5,0.5,1.5,4.5');
  assert.equal(banded[3], 'b,multi-power,1,0.0002,4,2,0,,', 'the Multi-Power Law has no band');

  // Auto's average of laws is no one law: its rows say so, and keep the band set for it.
  const averaged = await lines(predictionCSV([{ ...curves[0], average: true }], { law: 'annealing', halfWidth: 0.5 }));
  assert.equal(averaged[1], '"a, ""quoted""",average,1,0.0001,3,1.5,0.5,1.5,4.5');
});

test('a predicted-curves CSV past a million rows thins each curve evenly', () => {
  assert.equal(csvPoints(MAX_CSV_ROWS, 7), 0);
  // Two laws' nine curves of 20,339,998 steps in all: about 111,111 steps each.
  assert.equal(csvPoints(20_339_998, 9), 111_111);
  assert.equal(csvPoints(1e9, 1e6), 100, 'never fewer than 100 steps');
});

test("observed points with each law's fitted loss, and an analysis table", async () => {
  const store = createStore();
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [{ name: 'a', steps: [1, 2], loss: [3, 2.9], schedule: { kind: 'constant', total: 2, peak: 1e-4 } }],
  });
  const [a] = store.state.curves;
  const fit = (law, predicted) => ({
    law,
    params: {},
    settings: DEFAULT_SETTINGS,
    lines: new Map(),
    curves: new Map([['a', a]]),
    response: { curves: [{ name: 'a', role: 'fit', predicted }] },
  });
  assert.deepEqual(await lines(observedCSV(store.state)), [
    'curve,role,step,observed,in_window',
    'a,fit,1,3,1',
    'a,fit,2,2.9,1',
  ]);
  store.fitted(
    { annealing: fit('annealing', [3.01, 2.91]), 'multi-power': fit('multi-power', [3.02, 2.92]) },
    { stale: false, status: '' },
  );
  assert.deepEqual(await lines(observedCSV(store.state)), [
    'curve,role,step,observed,in_window,fitted,fitted_multi_power',
    'a,fit,1,3,1,3.01,3.02',
    'a,fit,2,2.9,1,2.91,2.92',
  ]);
  // auto's average of laws, led by the Multi-Power Law, is the average's column, not that law's
  const averaged = fit('multi-power', [3.015, 2.915]);
  averaged.response.members = [
    { law: 'multi-power', params: {}, weight: 0.6 },
    { law: 'annealing', params: {}, weight: 0.4 },
  ];
  store.fitted({ 'multi-power': averaged }, { stale: false, status: '' });
  assert.deepEqual(await lines(observedCSV(store.state)), [
    'curve,role,step,observed,in_window,fitted_average',
    'a,fit,1,3,1,3.015',
    'a,fit,2,2.9,1,2.915',
  ]);
  store.fitted({ 'multi-power': fit('multi-power', [3.02, 2.92]) }, { stale: false, status: '' });
  assert.equal((await lines(observedCSV(store.state)))[0], 'curve,role,step,observed,in_window,fitted_multi_power');
  // a window from step 2: the point before it was predicted only, not fitted
  store.setWindow(['a'], 2);
  assert.deepEqual((await lines(observedCSV(store.state))).slice(1), ['a,fit,1,3,0,3.02', 'a,fit,2,2.9,1,2.92']);
  assert.deepEqual(
    fitDocument(store.state, '1.0.0').schedules[0].window,
    { from: 2, set: true },
    "the parameters' JSON says it too",
  );
  store.setWindow(['a'], null);
  assert.deepEqual(
    fitDocument(store.state, '1.0.0').schedules[0].window,
    { from: 0, set: false },
    'the default: no warmup, every point',
  );

  assert.deepEqual(
    await lines(
      tableCSV({
        columns: ['family', 'final loss'],
        rows: [
          ['wsd, 1-sqrt', 2.5],
          ['free', null],
        ],
      }),
    ),
    ['family,final loss', '"wsd, 1-sqrt",2.5', 'free,'],
  );
});

test("the parameters' JSON: each law's fit, the settings, the schedules and the predictions", () => {
  const store = createStore();
  assert.equal(fitDocument(store.state, '1.0.0'), null, 'nothing to export before a fit');
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [],
    predictions: [{ name: 'p', schedule: { kind: 'constant', total: 9, peak: 1e-4 } }],
  });
  const params = { L0: 2.6, A: 0.4, alpha: 0.5, C: 0.4, lambda: 0.999 };
  const manual = { params: { annealing: params }, settings: { ...DEFAULT_SETTINGS, fitLambda: true }, from: 'link' };
  store.useManual(manual, [
    {
      law: 'annealing',
      source: manual,
      byName: new Map([
        ['p', { schedule: store.state.predictions[0].schedule, steps: [1], loss: [3], finalLoss: 2.75 }],
      ]),
    },
  ]);
  const doc = fitDocument(store.state, '1.0.0', new Date(0));
  assert.equal(doc.version, '1.0.0');
  assert.equal(doc.exported, '1970-01-01T00:00:00.000Z');
  assert.equal(doc.source, 'share link');
  assert.equal(doc.law, LAWS.annealing.formula);
  assert.deepEqual(doc.params, params);
  assert.equal(doc.settings.lambda, 'fit');
  assert.equal(doc.multiPower, undefined);
  assert.deepEqual(doc.predictions, [
    {
      name: 'p',
      schedule: { kind: 'constant', total: 9, peak: 1e-4 },
      finalLoss: 2.75,
      finalLossMultiPower: undefined,
      finalLosses: { annealing: 2.75 },
    },
  ]);
  assert.deepEqual(Object.keys(doc.laws), ['annealing'], 'every law with parameters, by name');
  assert.deepEqual(doc.laws.annealing.params, params);

  // A law other than the annealing law and the Multi-Power Law is exported too.
  const s2 = { L0: 2.5, A: 0.4, alpha: 0.5, C: 0.3, zeta: 0.9, lambda: 0.999 };
  const manualS2 = { params: { 's2-power': s2 }, settings: DEFAULT_SETTINGS, from: 'hand' };
  store.useManual(manualS2, [
    {
      law: 's2-power',
      source: manualS2,
      byName: new Map([
        ['p', { schedule: store.state.predictions[0].schedule, steps: [1], loss: [3], finalLoss: 2.7 }],
      ]),
    },
  ]);
  const docS2 = fitDocument(store.state, '1.0.0', new Date(0));
  assert.equal(docS2.laws['s2-power'].law, LAWS['s2-power'].formula);
  assert.deepEqual(docS2.laws['s2-power'].params, s2);
  assert.deepEqual(docS2.predictions[0].finalLosses, { 's2-power': 2.7 });

  // An auto fit that averages laws: every member is exported, for the average is what predicts.
  const members = [
    { law: 'annealing', warmupConvention: 'peak', params, weight: 0.7 },
    {
      law: 'multi-power',
      warmupConvention: 'peak',
      params: { L0: 2.5, A: 0.5, alpha: 0.4, B: 300, C: 2, beta: 0.5, gamma: 0.6 },
      weight: 0.3,
    },
  ];
  const response = { objective: 1e-5, curves: [], members };
  const fit = (r) => ({
    annealing: {
      law: 'annealing',
      params,
      settings: DEFAULT_SETTINGS,
      lines: new Map(),
      curves: new Map(),
      response: r,
    },
  });
  store.fitted(fit(response), { stale: false, status: '' });
  const docAveraged = fitDocument(store.state, '1.0.0', new Date(0));
  assert.deepEqual(docAveraged.members, members);
  assert.deepEqual(docAveraged.params, params, "the heaviest member's parameters at the top");
  // the average predicts in the annealing law's place: its final losses are the average's, not the law's
  store.linesPredicted([
    {
      law: 'annealing',
      source: store.state.fits.annealing,
      byName: new Map([
        ['p', { schedule: store.state.predictions[0].schedule, steps: [1], loss: [3], finalLoss: 2.74 }],
      ]),
    },
  ]);
  assert.deepEqual(fitDocument(store.state, '1.0.0', new Date(0)).predictions[0], {
    name: 'p',
    schedule: { kind: 'constant', total: 9, peak: 1e-4 },
    finalLoss: undefined,
    finalLossMultiPower: undefined,
    finalLossAverage: 2.74,
    finalLosses: { average: 2.74 },
  });
  store.fitted(fit({ ...response, members: undefined }), { stale: false, status: '' });
  assert.equal(fitDocument(store.state, '1.0.0', new Date(0)).members, undefined, 'one law: no members');
});

test('the band in the CSV is lawcore’s own lower and upper where the line has them (wider beyond the fitted data)', async () => {
  const curves = [
    {
      name: 'wsd',
      law: 'annealing',
      steps: [1000, 60000],
      lr: [2e-4, 0],
      loss: [3, 2.9],
      s1Term: [1, 0.5],
      s2Term: [0, 0.2],
      lower: [2.99, 2.8],
      upper: [3.01, 3.0],
    },
    { name: 'cosine', law: 'annealing', steps: [1000], lr: [2e-4], loss: [3], s1Term: [1], s2Term: [0] },
  ];
  const rows = await lines(predictionCSV(curves, { law: 'annealing', halfWidth: 0.01 }));
  assert.deepEqual(rows.slice(1), [
    'wsd,annealing,1000,0.0002,3,1,0,2.99,3.01',
    'wsd,annealing,60000,0,2.9,0.5,0.2,2.8,3',
    `cosine,annealing,1000,0.0002,3,1,0,${3 * (1 - 0.01)},${3 * (1 + 0.01)}`,
  ]);
});
