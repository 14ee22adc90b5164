// The pure parts of a researcher's study in a few clicks (issue 45): names a person can read
// (common/names.js), numbers from logs as a person types them and a run's nominal length
// (format.js, curve-facts.js), the decay a run's LR column shows and the analyses' defaults
// from the runs (curve-facts.js, selectors.js, analysis-forms.js), sweeps (sweep.js), what auto
// chose (settings.js), one question for an upload's loss column (import-files.js), and a
// curve's label kept by the store, the stored work and links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { shortNames, curveLabels, readableCount, readableName } from '../../site/js/common/names.js';
import { plainNumber, plainValue } from '../../site/js/common/format.js';
import {
  nominalLength,
  loggedDecay,
  scheduleDecay,
  curveFacts,
  scheduleDefaults,
} from '../../site/js/schedules/curve-facts.js';
import { sweepValues, sweepSchedules, sweepName, MAX_SWEEP } from '../../site/js/schedules/sweep.js';
import { autoChose } from '../../site/js/state/settings.js';
import { analysisRuns, analysisInputs, labelsOf } from '../../site/js/state/selectors.js';
import { defaultOptions, optionsInUse } from '../../site/js/analysis/analysis-forms.js';
import { uploadColumns, lossCandidates, importFiles } from '../../site/js/import/import-files.js';
import { createStore } from '../../site/js/state/store.js';
import { linkView, shareView } from '../../site/js/share/share-view.js';
import { decodeShare, encodeShare } from '../../site/js/share/share.js';

const STABLE =
  'stable-124m_slimpajama_llama_norm_nlayers12_nhead12_lr0.0001_sched_wsd_warmup300_decay_linear_0.0_iter50000_bs50x2_ws2_seed0_data_seed1337';
const COOLDOWN =
  'ann124-0.2_slimpajama_llama_norm_nlayers12_nhead12_lr0.0001_sched_wsd_warmup300_decay_linear_0.2_iter25000_bs50x2_ws2_seed0_data_seed1337';

const range = (from, to, by) => Array.from({ length: Math.floor((to - from) / by) + 1 }, (_, i) => from + i * by);

test('each curve shows by what tells it from the others: shared words dropped, iter25000 read as 25K', () => {
  const short = shortNames([STABLE, COOLDOWN]);
  assert.equal(short.get(STABLE), 'stable-124m 0.0 50K');
  assert.equal(short.get(COOLDOWN), 'ann124-0.2 0.2 25K');
  // nothing shared: the names as they are (the examples' and the tests' names stay)
  assert.deepEqual([...shortNames(['constant', 'cosine']).values()], ['constant', 'cosine']);
  assert.deepEqual(
    [...shortNames(['constant_24000', 'cosine_72000', 'wsd_20000_24000']).values()],
    ['constant_24000', 'cosine_72000', 'wsd_20000_24000'],
  );
  // alone, a name keeps its words, its step count readable in place
  assert.equal(shortNames(['run_iter25000_seed1']).get('run_iter25000_seed1'), 'run_25K_seed1');
  assert.equal(shortNames(['cosine-10k val/loss']).get('cosine-10k val/loss'), 'cosine-10k val/loss');
  // a name all of whose words another has (a file added twice) keeps its own, and so do the others
  assert.deepEqual([...shortNames(['run_iter5000', 'run_iter5000 (2)']).values()], ['run_5K', 'run_5K (2)']);
  assert.equal(readableCount(25000), '25K');
  assert.equal(readableCount(1500000), '1.5M');
  assert.equal(readableCount(24800), '24.8K');
  assert.equal(readableCount(1234), '1234');
  assert.equal(readableName('steps_50000'), 'steps_50000', 'a word alone, not split from its number');
  // a label the user gave wins; schedules to predict keep their names
  const labels = curveLabels([{ name: STABLE, label: 'constant 50K' }, { name: COOLDOWN }], [{ name: 'WSD 50K' }]);
  assert.deepEqual([...labels.values()], ['constant 50K', 'ann124-0.2 0.2 25K', 'WSD 50K']);
});

test('numbers from logs read as typed; a run’s nominal length from its name or a round number within one interval', () => {
  assert.equal(plainNumber(0.001999999979446888), '0.002');
  assert.equal(plainNumber(Math.fround(1e-4)), '0.0001');
  assert.equal(plainNumber(9.900000000000001e-5), '0.000099');
  assert.equal(plainNumber(0.30000000000000004), '0.3');
  assert.equal(plainNumber(0.000314159265358), '0.0003141593', 'seven digits: a log holds no more');
  assert.equal(plainNumber(1.0000005), '1.0000005', 'a difference past single precision’s: as it is');
  assert.equal(plainValue(49800), 49800);

  const steps = range(200, 49800, 200);
  assert.equal(nominalLength({ name: STABLE, steps }), 50000, 'iter50000 in its name');
  assert.equal(nominalLength({ name: 'run', steps }), 50000, 'the roundest number within one interval');
  assert.equal(nominalLength({ name: 'run', steps: range(20000, 24800, 200) }), 25000);
  assert.equal(nominalLength({ name: 'run', steps: range(1000, 20000, 1000) }), 20000, 'a last step already round');
  assert.equal(nominalLength({ name: 'run_iter60000', steps }), 50000, 'a name farther than one interval says nothing');
  assert.equal(nominalLength({ name: 'run', steps: [3, 7, 11] }), 11);
  // the LR column's steps count: a run whose LR is logged to its end
  const lrSteps = Float64Array.from(range(0, 50000, 50));
  const lr = Float64Array.from(lrSteps, (s) => Math.fround(s < 300 ? (1e-4 * s) / 300 : 1e-4));
  const curve = {
    name: 'stable',
    steps: Float64Array.from(steps),
    loss: Float64Array.from(steps, () => 3),
    lr,
    lrSteps,
  };
  assert.equal(nominalLength(curve), 50000);
  assert.equal(curveFacts(curve).peak, 1e-4, 'the peak as typed, not 9.999999747378752e-5');
  assert.deepEqual(scheduleDefaults({ curves: [curve], predictions: [] }, { total: 60000, peak: 2e-4, warmup: 500 }), {
    total: 50000,
    peak: 1e-4,
    warmup: 300,
  });
});

test('the decay a run shows, and the analyses start from the fit curves’ decay, length and floor', () => {
  const cooldown = (shape, floor = 0) => {
    const lrSteps = range(20000, 25000, 50);
    const down = { linear: (u) => u, cosine: (u) => (1 - Math.cos(Math.PI * u)) / 2, '1-sqrt': Math.sqrt }[shape];
    return {
      name: `cooldown ${shape}`,
      role: 'fit',
      steps: range(20000, 24800, 200),
      lrSteps,
      lr: lrSteps.map((s) => 1e-4 * (1 - (1 - floor) * down((s - 20000) / 5000))),
      schedule: { kind: 'explicit', total: 25000 },
    };
  };
  for (const shape of ['linear', 'cosine', '1-sqrt'])
    assert.equal(loggedDecay(cooldown(shape).lrSteps, cooldown(shape).lr).shape, shape);
  assert.deepEqual(scheduleDecay(cooldown('cosine', 0.1)), { shape: 'cosine', floor: 0.1 });
  assert.equal(
    loggedDecay(
      range(0, 1000, 50),
      range(0, 1000, 50).map(() => 1e-4),
    ),
    null,
    'a constant run',
  );
  assert.deepEqual(scheduleDecay({ schedule: { kind: 'wsd', decay: '1-sqrt', peak: 2e-4, final: 2e-5 } }), {
    shape: '1-sqrt',
    floor: 0.1,
  });

  const stable = {
    name: STABLE,
    role: 'fit',
    steps: range(200, 49800, 200),
    schedule: { kind: 'constant', total: 50000 },
  };
  const state = { curves: [stable, cooldown('linear')], predictions: [], fits: {}, manual: null, settings: {} };
  assert.deepEqual(analysisRuns(state), { total: 50000, decay: 'linear', floor: 0 });
  const defaults = {
    'wsd-ratio': { totals: [10000, 20000], ratios: [0.1, 0.2], decay: 'cosine', floor: 0, peak: 2e-4 },
    'anneal-function': { total: 50000, shapes: ['cosine', 'linear', '1-sqrt'], ratios: [0.1], floor: 0 },
    optimize: { total: 1000 },
  };
  const runs = analysisRuns(state);
  assert.deepEqual(defaultOptions(defaults, 'wsd-ratio', runs), {
    totals: [50000],
    ratios: [0.1, 0.2],
    decay: 'linear',
    floor: 0,
  });
  assert.equal(defaultOptions(defaults, 'anneal-function', { ...runs, total: 25000 }).total, 25000);
  assert.deepEqual(defaultOptions(defaults, 'optimize', runs), { total: 1000 }, 'the others keep lawcore’s');
  assert.deepEqual(defaultOptions(defaults, 'wsd-ratio').totals, [10000, 20000], 'without runs: lawcore’s');
  // options the user set stand
  assert.deepEqual(optionsInUse({ options: { 'wsd-ratio': { totals: [7] } }, defaults }, 'wsd-ratio', runs), {
    totals: [7],
  });
  // a bundled example's curves keep its paper's setting
  assert.deepEqual(analysisRuns({ ...state, curves: state.curves.map((c) => ({ ...c, fromExample: true })) }), {
    total: null,
    decay: null,
    floor: null,
  });
  // the panel's answer is of other inputs when the runs' decay changes
  const other = { ...state, curves: [stable, cooldown('cosine')] };
  assert.notDeepEqual(analysisInputs(other), analysisInputs(state));
});

test('a sweep: values as a list or a range, shown as typed; one schedule each, named by what varies', () => {
  assert.deepEqual(
    sweepValues('decayFraction', '0.1 to 0.9 by 0.1').map((v) => v.text),
    ['0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7', '0.8', '0.9'],
  );
  assert.deepEqual(
    sweepValues('decayFraction', '0.1, 0.2; 0.4 0.4').map((v) => v.value),
    [0.1, 0.2, 0.4],
    'a list, a value twice taken once',
  );
  assert.deepEqual(
    sweepValues('total', '10k to 50k by 20k').map((v) => v.value),
    [10000, 30000, 50000],
  );
  assert.deepEqual(
    sweepValues('peak', '1e-4, 3e-4').map((v) => v.text),
    ['1e-4', '3e-4'],
  );
  assert.throws(() => sweepValues('decayFraction', '0.1, 1.5'), /^Error: Values: 1\.5 is not a fraction of the run/);
  assert.throws(() => sweepValues('decayFraction', '0.1, x'), /"x" is not a number/);
  assert.throws(() => sweepValues('total', '1 to 1000 by 1'), new RegExp(`at most ${MAX_SWEEP}`));
  assert.throws(() => sweepValues('peak', ''), /type the peak LRs/);

  const base = { kind: 'wsd', decay: 'linear', total: 50000, peak: 1e-4, warmup: 300, decaySteps: 1000 };
  assert.equal(sweepName(base, 'decayFraction'), 'WSD linear 50K');
  const family = sweepSchedules(base, '', 'decayFraction', sweepValues('decayFraction', '0.1 to 0.3 by 0.1'));
  assert.deepEqual(
    family.map((f) => f.name),
    ['WSD linear 50K, decay 0.1', 'WSD linear 50K, decay 0.2', 'WSD linear 50K, decay 0.3'],
  );
  assert.deepEqual(family[2].schedule, {
    kind: 'wsd',
    decay: 'linear',
    total: 50000,
    peak: 1e-4,
    warmup: 300,
    decayFraction: 0.3,
  });
  const totals = sweepSchedules(base, 'mine', 'total', sweepValues('total', '25000, 50000'));
  assert.deepEqual(
    totals.map((f) => [f.name, f.schedule.total]),
    [
      ['mine, 25K steps', 25000],
      ['mine, 50K steps', 50000],
    ],
  );
});

test('auto’s choice as the settings form shows it in place of the fields auto picks', () => {
  const chose = autoChose({
    response: {
      params: { lambda: 0.999 },
      auto: { chosen: { law: 'multi-power', warmupConvention: 'actual', search: 'release' } },
    },
  });
  assert.deepEqual(chose, {
    law: 'the Multi-Power Law',
    lambda: '',
    convention: 'as run',
    search: 'release procedure',
  });
  assert.deepEqual(
    autoChose({
      response: {
        params: { lambda: 0.9987 },
        auto: { chosen: { law: 'annealing', warmupConvention: 'peak', lambda: 'fit' } },
      },
    }),
    { law: 'the annealing law', lambda: 'fitted: 0.9987', convention: 'at peak LR', search: '' },
  );
  const average = autoChose({
    response: {
      auto: { chosen: { law: 'multi-power' } },
      members: [
        { law: 'multi-power', warmupConvention: 'actual', search: 'optimum', params: {} },
        { law: 'annealing', warmupConvention: 'peak', lambda: 0.999, params: { lambda: 0.999 } },
      ],
    },
  });
  assert.equal(average.law, 'an average of 2 laws, led by the Multi-Power Law');
  assert.equal(average.convention, 'as run and at peak LR (each law its own)');
  assert.equal(average.lambda, '0.999 (fixed) (the laws that have one)');
  assert.equal(autoChose({ response: { params: {} } }), null, 'a fit auto did not make');
});

test('one question for an upload: lawcore’s agreement, asked once, each file read with the column it has', async () => {
  const asked = [];
  const engine = {
    agreeColumns: async (files) => {
      assert.deepEqual(
        files.map((f) => [f.name, f.chosen, f.candidates.length]),
        [
          ['a.json', '', 3],
          ['b.json', 'val_loss', 2],
          ['lr.csv', '', 0],
        ],
      );
      return {
        column: 'val_loss',
        reason: '"val_loss" is chosen: the validation loss',
        ask: true,
        message: '2 files have several columns that may be the loss: choose one for all',
        columns: [{ name: 'train_loss' }, { name: 'val_loss' }, { name: 'final_val_loss', summary: true }],
        files: ['val_loss', 'val_loss', ''],
        notes: [],
      };
    },
  };
  const read = [
    { file: { name: 'a.json' }, first: { result: { ambiguity: { columns: [{}, {}, {}] } } } },
    { file: { name: 'b.json' }, first: { result: { loss: { column: 'val_loss', candidates: [{}, {}] } } } },
    { file: { name: 'lr.csv' }, first: { result: { curves: [] } } },
  ];
  const ask = async (question, label, options) => {
    asked.push([question.default, question.reason, label, options]);
    return { column: 'val_loss' };
  };
  const notes = [];
  const plan = await uploadColumns(engine, read, ask, notes);
  assert.deepEqual(asked, [['val_loss', '"val_loss" is chosen: the validation loss', '3 files', { upload: true }]]);
  assert.deepEqual(plan, [{ column: 'val_loss' }, { column: null }, { column: null }], 'b read it already');
  // declined: the files that asked are skipped, the others come in as read
  assert.deepEqual(await uploadColumns(engine, read, async () => null, []), [
    { skip: true },
    { column: null },
    { column: null },
  ]);
  assert.deepEqual(lossCandidates('x', { curves: [] }), { name: 'x', chosen: '', candidates: [] });

  // importFiles: each file read alone first, then with the upload's column; curves not named by it
  const calls = [];
  const files = ['a.json', 'b.json'].map((name) => ({ name, size: 1, arrayBuffer: async () => new ArrayBuffer(1) }));
  const answer = (metric) => ({
    result: { curves: [{ name: 'x', run: '', metric, hasLoss: true }], loss: { column: metric, candidates: [{}, {}] } },
    columns: [{ steps: Float64Array.of(200, 400), loss: Float64Array.of(3.2, 3.1) }],
  });
  const got = await importFiles(
    {
      importFile: async (name, _bytes, choice) => {
        calls.push([name, choice.column || '']);
        if (name === 'a.json' && !choice.column)
          return {
            result: { curves: [], ambiguity: { columns: [{ name: 'train_loss' }, { name: 'val_loss' }] } },
            columns: [],
          };
        return answer('val_loss');
      },
      agreeColumns: async () => ({
        column: 'val_loss',
        reason: 'r',
        ask: true,
        message: 'm',
        columns: [],
        files: ['val_loss', 'val_loss'],
        notes: [],
      }),
    },
    files,
    async () => ({ column: 'val_loss' }),
  );
  assert.deepEqual(calls, [
    ['a.json', ''],
    ['b.json', ''],
    ['a.json', 'val_loss'],
  ]);
  assert.deepEqual(
    got.curves.map((c) => c.name),
    ['a', 'b'],
  );
});

test('a curve renamed keeps its full name; the label is kept with the work and in links', async () => {
  const store = createStore();
  const steps = Float64Array.of(1000, 2000);
  store.addCurves([
    { name: STABLE, steps, loss: Float64Array.of(3.5, 3.4), schedule: { kind: 'constant', total: 2000, peak: 2e-4 } },
    { name: COOLDOWN, steps, loss: Float64Array.of(3.5, 3.3), schedule: { kind: 'constant', total: 2000, peak: 2e-4 } },
  ]);
  const before = store.state.edits;
  store.renameCurve(STABLE, '  constant 50K ');
  assert.equal(store.state.curves[0].label, 'constant 50K');
  assert.equal(store.state.curves[0].name, STABLE);
  assert.equal(store.state.edits, before, 'a name shown is no change to the fit');
  assert.equal(labelsOf(store.state).get(STABLE), 'constant 50K');
  assert.equal(labelsOf(store.state).get(COOLDOWN), 'ann124-0.2 0.2 25K');
  const link = await decodeShare(await encodeShare(shareView(store.state, true)));
  assert.deepEqual(
    linkView(link).curves.map((c) => [c.name, c.label]),
    [
      [STABLE, 'constant 50K'],
      [COOLDOWN, undefined],
    ],
  );
  store.renameCurve(STABLE, '');
  assert.equal(store.state.curves[0].label, undefined, 'empty: the page’s name again');

  // several schedules to predict in one change
  const changes = [];
  store.subscribe(() => changes.push(1));
  store.addPredictions([
    { name: 'a', schedule: { kind: 'constant', total: 10, peak: 1 } },
    { name: 'b', schedule: { kind: 'constant', total: 10, peak: 1 } },
  ]);
  assert.deepEqual(
    store.state.predictions.map((p) => p.name),
    ['a', 'b'],
  );
  assert.equal(changes.length, 1);
});
