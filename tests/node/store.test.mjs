// The page state's actions (site/js/state/store.js) under node: names and colours, removals and the
// undo stack, whether the fit is stale, views replaced and brought back, settings, and which
// predicted lines are kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { createStore, watch, MAX_UNDO } from '../../site/js/state/store.js';
import { DEFAULT_SETTINGS } from '../../site/js/state/settings.js';
import { predictedLine, missingLines, lineOf } from '../../site/js/state/selectors.js';

const curve = (name, extra = {}) => ({
  name,
  steps: Float64Array.from([1, 2]),
  loss: Float64Array.from([3, 2.9]),
  schedule: { kind: 'constant', total: 2, peak: 1e-4 },
  ...extra,
});
const names = (items) => items.map((c) => c.name);

test('curves and schedules get unique names and distinct colours', () => {
  const store = createStore();
  const added = store.addCurves([curve('run'), curve('run')]);
  assert.deepEqual(names(added), ['run', 'run (2)']);
  const p = store.addPrediction('run', { kind: 'constant', total: 10, peak: 1e-4 });
  assert.equal(p.name, 'run (3)');
  assert.equal(new Set([...store.state.curves, ...store.state.predictions].map((c) => c.color)).size, 3);
  assert.deepEqual(store.addCurves([]), []);
  store.editPrediction('run (3)', { name: 'run', schedule: p.schedule });
  assert.deepEqual(names(store.state.predictions), ['run (3)'], 'a rename keeps the name unique');
});

test('removals undo one after the other, the latest first, and the fit is current again', () => {
  const store = createStore();
  store.loadView({ settings: DEFAULT_SETTINGS, curves: [curve('a'), curve('b')] });
  assert.equal(store.state.stale, false);
  store.remove('a');
  store.remove('b');
  assert.deepEqual(names(store.state.curves), []);
  assert.equal(store.state.stale, true);
  assert.deepEqual(
    store.state.undo.map((u) => u.text),
    ['Removed a.', 'Removed b.'],
  );
  assert.equal(store.undo().focusLabel, 'Remove b');
  assert.deepEqual(names(store.state.curves), ['b']);
  store.undo();
  assert.deepEqual(names(store.state.curves), ['a', 'b'], 'back in their places');
  assert.equal(store.state.stale, false, 'nothing else changed: the fit is current');
  assert.equal(store.undo(), null);
});

test('an undo after another change leaves the fit stale', () => {
  const store = createStore();
  store.loadView({ settings: DEFAULT_SETTINGS, curves: [curve('a'), curve('b')] });
  store.remove('a');
  store.setSettings({ ...DEFAULT_SETTINGS, huberDelta: 0.002 });
  store.undo();
  assert.deepEqual(names(store.state.curves), ['a', 'b']);
  assert.equal(store.state.stale, true);
});

test('"clear all" and a view replaced come back with Undo; the stack keeps the latest changes', () => {
  const store = createStore();
  store.loadView({
    settings: { ...DEFAULT_SETTINGS, lambda: 0.995 },
    curves: [curve('a')],
    predictions: [{ name: 'p', schedule: { kind: 'constant', total: 9, peak: 1e-4 } }],
  });
  store.clearAll();
  assert.deepEqual(names(store.state.curves), []);
  assert.deepEqual(names(store.state.predictions), [], '"clear all" clears the schedules to predict too');
  assert.equal(store.state.undo.at(-1).text, 'Cleared 1 curve(s) and 1 schedule(s) to predict.');
  store.undo();
  assert.deepEqual(names(store.state.curves), ['a']);
  assert.deepEqual(names(store.state.predictions), ['p']);

  const restore = store.snapshotView();
  store.loadView({ settings: { warmupSteps: 2160 }, curves: [curve('x')] });
  assert.equal(store.state.settings.lambda, DEFAULT_SETTINGS.lambda, "a view's settings start from the defaults");
  assert.equal(store.state.settings.warmupSteps, 2160);
  store.offerUndo('Loaded x.', restore);
  store.undo();
  assert.deepEqual(names(store.state.curves), ['a']);
  assert.deepEqual(names(store.state.predictions), ['p']);
  assert.equal(store.state.settings.lambda, 0.995);

  for (let i = 0; i < MAX_UNDO + 5; i++) store.addCurves([curve(`c${i}`)]);
  for (let i = 0; i < MAX_UNDO + 5; i++) store.remove(`c${i}`);
  assert.equal(store.state.undo.length, MAX_UNDO);
  assert.equal(store.state.undo[0].text, 'Removed c5.');
});

test("settings: only a change makes the fit stale; a role change keeps the curve's data", () => {
  const store = createStore();
  store.loadView({ settings: DEFAULT_SETTINGS, curves: [curve('a')] });
  const edits = store.state.edits;
  store.setSettings({ ...DEFAULT_SETTINGS });
  assert.equal(store.state.edits, edits);
  assert.equal(store.state.stale, false);
  const before = store.state.curves[0];
  store.setRole('a', 'validate');
  const after = store.state.curves[0];
  assert.notEqual(after, before, 'replaced, not edited in place');
  assert.equal(after.role, 'validate');
  assert.equal(after.steps, before.steps);
  assert.equal(store.state.stale, true);
});

test('predicted lines are kept only for the parameters in use and the schedules as they are', () => {
  const store = createStore();
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [curve('a')],
    predictions: [{ name: 'p', schedule: { kind: 'constant', total: 9, peak: 1e-4 } }],
  });
  const manual = {
    params: { annealing: { L0: 2, A: 0.4, alpha: 0.5, C: 0.4, lambda: 0.999 } },
    settings: DEFAULT_SETTINGS,
    from: 'hand',
  };
  store.useManual(manual);
  assert.deepEqual(names(missingLines(store.state, 'annealing')), ['a', 'p']);
  assert.deepEqual(missingLines(store.state, 'multi-power'), [], 'a law without parameters draws nothing');
  const line = (item) => ({ schedule: item.schedule, steps: [1, 2], loss: [3, 2.9], finalLoss: 2.9 });
  const [a] = store.state.curves;
  const [p] = store.state.predictions;
  store.showMessage('Predict: refused', 'error', 'predict');
  store.linesPredicted([
    {
      law: 'annealing',
      source: manual,
      byName: new Map([
        ['a', line(a)],
        ['p', line(p)],
      ]),
    },
  ]);
  assert.equal(store.state.message, null, 'a prediction that worked clears the message of one that failed');
  assert.deepEqual(missingLines(store.state, 'annealing'), []);
  assert.equal(lineOf(store.state, 'annealing', p).finalLoss, 2.9);

  // Lines of other parameters are dropped; a schedule changed needs a new line.
  store.linesPredicted([
    { law: 'annealing', source: { other: true }, byName: new Map([['p', { ...line(p), finalLoss: 1 }]]) },
  ]);
  assert.equal(predictedLine(store.state, 'annealing', p).finalLoss, 2.9);
  store.editPrediction('p', { name: 'p', schedule: { kind: 'constant', total: 19, peak: 1e-4 } });
  assert.deepEqual(names(missingLines(store.state, 'annealing')), ['p']);
  store.linesPredicted([{ law: 'annealing', source: manual, byName: new Map([['p', line(p)]]) }]);
  assert.deepEqual(names(missingLines(store.state, 'annealing')), ['p'], 'a late line of the old schedule is not kept');
});

test("a fit draws its own lines and comes with the schedules' lines; a curve whose schedule changed since is predicted", () => {
  const store = createStore();
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [curve('a')],
    predictions: [{ name: 'p', schedule: { kind: 'constant', total: 9, peak: 1e-4 } }],
  });
  const [a] = store.state.curves;
  const [p] = store.state.predictions;
  const fit = {
    law: 'annealing',
    params: { L0: 2 },
    settings: DEFAULT_SETTINGS,
    response: { curves: [] },
    lines: new Map([['a', { steps: [1, 2], loss: [3, 2.9] }]]),
    curves: new Map([['a', a]]),
  };
  const updates = [];
  store.subscribe((s) => updates.push(s));
  store.fitted({ annealing: fit }, { stale: false, status: 'Fitted.' }, [
    {
      law: 'annealing',
      source: fit,
      byName: new Map([['p', { schedule: p.schedule, steps: [1], loss: [3], finalLoss: 3 }]]),
    },
  ]);
  assert.equal(updates.length, 1, 'one update: the charts redraw once');
  assert.equal(store.state.status, 'Fitted.');
  assert.deepEqual(missingLines(store.state, 'annealing'), []);
  store.setRole('a', 'validate');
  assert.deepEqual(missingLines(store.state, 'annealing'), [], 'the fit still covers a curve whose role changed');
  store.setSchedule('a', { schedule: { kind: 'constant', total: 2, peak: 2e-4 }, scheduleSource: 'builder' });
  assert.deepEqual(names(missingLines(store.state, 'annealing')), ['a']);
});

test('watch redraws only when what it reads changes', () => {
  const store = createStore();
  const seen = [];
  watch(store, ['status'], (s) => seen.push(s.status));
  store.setChartOption('logX', true);
  store.setStatus('one');
  assert.deepEqual(seen, ['', 'one']);
});

test('an example is replaced wholly by the first curves added, and comes back with Undo', () => {
  const store = createStore();
  const example = { title: 'the example' };
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [curve('cosine'), curve('constant')],
    predictions: [{ name: 'constant 60K', schedule: { kind: 'constant', total: 9, peak: 1e-4 } }],
    example,
  });
  store.fitted(
    {
      annealing: {
        law: 'annealing',
        params: { L0: 2.6 },
        response: {},
        lines: new Map(),
        settings: DEFAULT_SETTINGS,
        curves: new Map(),
      },
    },
    { stale: false, status: '' },
  );
  assert.equal(store.state.example, example);
  assert.ok(store.state.curves.every((c) => c.fromExample) && store.state.predictions.every((p) => p.fromExample));
  store.addPrediction('mine 30K', { kind: 'constant', total: 30, peak: 1e-4 });

  const added = store.replaceExample([curve('run')], { ...DEFAULT_SETTINGS, warmupSteps: 2160 });
  assert.deepEqual(names(added), ['run']);
  assert.deepEqual(names(store.state.curves), ['run']);
  assert.deepEqual(names(store.state.predictions), ['mine 30K'], "the example's schedules go, the user's stay");
  assert.equal(store.state.example, null);
  assert.deepEqual(store.state.fits, {}, "the example's fit goes");
  assert.equal(store.state.settings.warmupSteps, 2160);
  assert.equal(store.state.undo.at(-1).text, 'Your data replaced the example.');

  store.undo();
  assert.deepEqual(names(store.state.curves), ['cosine', 'constant']);
  assert.deepEqual(names(store.state.predictions), ['constant 60K', 'mine 30K']);
  assert.equal(store.state.example, example);
  assert.equal(store.state.fits.annealing.params.L0, 2.6);
  assert.equal(store.state.settings.warmupSteps, DEFAULT_SETTINGS.warmupSteps);

  store.clearAll();
  assert.equal(store.state.example, null, '"clear all" ends the example');
  assert.deepEqual(store.state.fits, {});
});
