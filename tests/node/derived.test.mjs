// The results derived from the page state (site/js/controllers/derived.js) under node: one rule,
// staleResults, says what a change leaves stale, whichever action made it (a removal, "clear
// all", an undo, a fit, a schedule added), and deriveResults has exactly that computed again:
// the missing lines predicted once per change, the Analyses panel's answer once its inputs
// changed (after the fit under way, if one runs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { createStore } from '../../site/js/state/store.js';
import { DEFAULT_SETTINGS } from '../../site/js/state/settings.js';
import { staleResults, deriveResults } from '../../site/js/controllers/derived.js';
import { createPredicting } from '../../site/js/controllers/predicting.js';

const schedule = (peak, total = 2) => ({ kind: 'constant', total, peak });
const curve = (name, peak = 1e-4) => ({
  name,
  steps: Float64Array.from([1, 2]),
  loss: Float64Array.from([3, 2.9]),
  schedule: schedule(peak),
});
const line = (item) => ({ schedule: item.schedule, steps: [1, 2], loss: [3, 2.9], finalLoss: 2.9 });

/** fittedStore is a page with curves a (peak 2e-4) and b (peak 1e-4), a schedule p, fitted, every line drawn. */
function fittedStore() {
  const store = createStore();
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [curve('a', 2e-4), curve('b')],
    predictions: [{ name: 'p', schedule: schedule(1e-4, 9) }],
  });
  const [a, b] = store.state.curves;
  const [p] = store.state.predictions;
  const fit = {
    law: 'annealing',
    params: { L0: 2 },
    settings: DEFAULT_SETTINGS,
    response: { curves: [] },
    lines: new Map([
      ['a', line(a)],
      ['b', line(b)],
    ]),
    curves: new Map([
      ['a', a],
      ['b', b],
    ]),
  };
  store.fitted({ annealing: fit }, { stale: false, status: 'Fitted.' }, [
    { law: 'annealing', source: fit, byName: new Map([['p', line(p)]]) },
  ]);
  return store;
}

/**
 * following is a fitted page whose derived results are kept by deriveResults, with fakes that count
 * what they are asked.
 */
function following(store = fittedStore()) {
  const asked = { update: 0, refresh: 0 };
  deriveResults({ store, predicting: { update: () => asked.update++ }, analyses: { refresh: () => asked.refresh++ } });
  return { store, asked };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

test('removing a curve and "clear all" go through the same rule: what each changed decides what is computed again', () => {
  const store = fittedStore();
  const before = store.state;
  store.remove('b');
  assert.deepEqual(
    staleResults(before, store.state),
    { lines: false, analysis: false },
    'no line missing, the parameters, peak and warmup as they were',
  );
  store.undo();
  assert.deepEqual(staleResults(before, store.state), { lines: false, analysis: false });

  // the first curve sets the peak LR the analyses run at: removing it changes their inputs
  store.remove('a');
  assert.deepEqual(staleResults(before, store.state), { lines: false, analysis: true });
  store.undo();

  store.clearAll();
  assert.deepEqual(
    staleResults(before, store.state),
    { lines: false, analysis: true },
    'the fit is gone: the analyses start from no fit',
  );
  const cleared = store.state;
  store.undo();
  assert.deepEqual(staleResults(cleared, store.state), { lines: false, analysis: true }, 'the fit is back');
});

test('new parameters, a new schedule or a schedule changed leave lines missing; settings with a fit in use change nothing', () => {
  const store = fittedStore();
  let before = store.state;
  store.addPrediction('q', schedule(1e-4, 19));
  assert.deepEqual(staleResults(before, store.state), { lines: true, analysis: false });
  before = store.state;
  store.setRole('a', 'validate');
  assert.deepEqual(staleResults(before, store.state).lines, false, 'q was missing already: asked for once');
  before = store.state;
  store.setSettings({ ...DEFAULT_SETTINGS, warmupSteps: 10 });
  assert.deepEqual(
    staleResults(before, store.state),
    { lines: false, analysis: false },
    'the fit says which warmup the analyses use',
  );
  before = store.state;
  store.useManual({ params: { annealing: { L0: 3 } }, settings: DEFAULT_SETTINGS, from: 'hand' });
  assert.deepEqual(staleResults(before, store.state), { lines: true, analysis: true });
});

test('deriveResults computes again once per change, whichever action made it', async () => {
  const { store, asked } = following();
  store.remove('b');
  await settled();
  assert.deepEqual(asked, { update: 0, refresh: 0 }, 'a removal leaves nothing stale');
  store.undo();
  await settled();
  assert.deepEqual(asked, { update: 0, refresh: 0 }, 'nor does its undo');

  store.clearAll();
  await settled();
  assert.deepEqual(asked, { update: 0, refresh: 1 }, '"clear all" drops the fit the analysis was computed from');
  store.undo();
  await settled();
  assert.deepEqual(asked, { update: 0, refresh: 2 }, 'its undo brings the fit back');

  // changes made together (the curves of an import, the learning rates of loaded curves) are one look
  store.addPrediction('q', schedule(1e-4, 19));
  store.addPrediction('r', schedule(1e-4, 29));
  await settled();
  assert.deepEqual(asked, { update: 1, refresh: 2 }, 'one prediction for both');
  store.remove('q');
  await settled();
  assert.deepEqual(asked, { update: 1, refresh: 2 }, 'a removal while lines are predicted asks nothing again');
});

test('while a fit runs the analysis waits for its end; the lines do not', async () => {
  const { store, asked } = following();
  store.fitStarted('Fitting…');
  store.addPrediction('q', schedule(1e-4, 19));
  await settled();
  assert.deepEqual(
    asked,
    { update: 1, refresh: 0 },
    'a schedule added while the fit runs is predicted with the parameters in use',
  );
  store.remove('a');
  await settled();
  assert.deepEqual(asked, { update: 1, refresh: 0 }, "the analyses' peak LR changed: the analysis waits");
  store.fitEnded();
  await settled();
  assert.deepEqual(asked, { update: 1, refresh: 1 }, 'computed once, when the fit ended');
  store.useManual({ params: { annealing: { L0: 3 } }, settings: DEFAULT_SETTINGS, from: 'hand' });
  await settled();
  assert.deepEqual(asked, { update: 2, refresh: 2 });
});

test("a link's parameters lawcore refused stay in use, and are not asked for again until the schedules change", async () => {
  const store = createStore();
  const calls = [];
  const engine = {
    predict: async (_law, _p, items) => {
      calls.push(items.map((x) => x.name));
      throw new Error('the loss overflows');
    },
  };
  const predicting = createPredicting({ store, engine });
  deriveResults({ store, predicting, analyses: { refresh() {} } });
  store.loadView({ settings: DEFAULT_SETTINGS, predictions: [{ name: 'p', schedule: schedule(1e-4, 9) }] });
  await predicting.useLink({
    params: { annealing: { L0: 2, A: 1, alpha: 0.5, C: 1, lambda: 0.999 } },
    settings: DEFAULT_SETTINGS,
    from: 'hand',
  });
  await settled();
  assert.deepEqual(calls, [['p']], 'asked once');
  assert.deepEqual(store.state.message.lines, ['Predict: the loss overflows']);
  assert.ok(store.state.manual, 'the parameters stay');
  store.addPrediction('q', schedule(1e-4, 19));
  await settled();
  assert.deepEqual(calls, [['p'], ['p', 'q']], 'a new schedule asks again, for every missing line');
});
