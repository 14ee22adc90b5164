// The Analyses panel's controller (site/js/controllers/analyses.js) under node, with an engine
// whose answers arrive when the test says: what the panel shows when the user types while an
// analysis is computing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { createStore } from '../../site/js/state/store.js';
import { createAnalyses } from '../../site/js/controllers/analyses.js';

/** slowEngine answers each analyze call when the test calls its release(i). */
function slowEngine() {
  const calls = [];
  return {
    calls,
    cancelled: 0,
    cancel() {
      this.cancelled++;
    },
    analyze(_analysis, options, _setup, _points, onProgress) {
      return new Promise((resolve) =>
        calls.push({
          options,
          onProgress,
          release: () =>
            resolve({
              constant: { name: 'constant', x: [1e4, 1e5], y: [2.9, 2.7] },
              cosine: { name: 'cosine', x: [1e4, 1e5], y: [2.95, 2.66] },
              crossover: null,
              note: 'the curves cross outside the range',
            }),
        }),
      );
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** computing opens the panel on constant-vs-cosine with a slow engine and starts a run. */
async function computing() {
  const store = createStore();
  const engine = slowEngine();
  const analyses = createAnalyses({ store, engine });
  store.analysisChanged({ open: true, view: 'constant-vs-cosine', defaults: {} });
  analyses.run();
  await tick();
  return { store, engine, analyses };
}

test('an option typed wrong while the last one computes stays named when that answer arrives', async () => {
  const store = createStore();
  const engine = slowEngine();
  const analyses = createAnalyses({ store, engine });
  store.analysisChanged({ open: true, view: 'constant-vs-cosine', defaults: {} });

  analyses.setField('count', '12');
  await tick();
  assert.equal(engine.calls.length, 1);
  assert.equal(engine.calls[0].options.count, 12);

  analyses.setField('count', 'twelve');
  assert.match(store.state.analysis.error, /Runs compared|count/);

  engine.calls[0].release();
  await tick();
  await tick();
  const a = store.state.analysis;
  assert.ok(a.result && a.result.chart, 'the answer of the options that worked is drawn');
  assert.match(a.error, /Runs compared: “twelve” is not a number/, 'the refusal stays');
  assert.match(a.error, /The answer shown is from the last options that worked/);
  assert.equal(a.errorField, 'count');

  analyses.setField('count', '20');
  await tick();
  engine.calls[1].release();
  await tick();
  await tick();
  assert.equal(store.state.analysis.error, '', 'a value that works clears it');
});

test('Cancel stops the analysis under way: its answer is dropped, the last one stays, and a running fit is not cancelled with it', async () => {
  const { store, engine, analyses } = await computing();
  assert.equal(store.state.analysis.computing, true, 'Cancel is offered while it computes');
  engine.calls[0].release();
  await tick();
  await tick();
  const first = store.state.analysis.result;
  assert.ok(first && first.chart);
  assert.equal(store.state.analysis.computing, false);

  analyses.setField('count', '30');
  await tick();
  analyses.cancel();
  assert.equal(engine.cancelled, 1, 'lawcore is asked to stop');
  assert.equal(store.state.analysis.computing, false);
  assert.equal(store.state.analysis.status, 'Cancelled. The answer shown is from before.');
  engine.calls[1].release(); // an answer that arrives anyway is dropped
  await tick();
  await tick();
  assert.equal(store.state.analysis.result, first);
  assert.equal(store.state.analysis.status, 'Cancelled. The answer shown is from before.');

  // with a fit running, Cancel drops the analysis's answer but leaves the fit be
  store.fitStarted('Fitting…');
  analyses.setField('count', '31');
  await tick();
  analyses.cancel();
  assert.equal(engine.cancelled, 1, 'the fit is not cancelled');
  engine.calls[2].release();
  await tick();
  await tick();
  assert.equal(store.state.analysis.result, first);
});

test('the progress bar follows the analysis under way, not one it replaced', async () => {
  const { store, engine, analyses } = await computing();
  assert.equal(store.state.analysis.progress, 0);
  engine.calls[0].onProgress(0.25);
  assert.equal(store.state.analysis.progress, 0.25);

  analyses.setField('count', '12'); // replaces the run under way
  await tick();
  assert.equal(store.state.analysis.progress, 0, 'the new run starts from 0');
  engine.calls[0].onProgress(0.75); // the replaced run reports late
  assert.equal(store.state.analysis.progress, 0);
  engine.calls[1].onProgress(0.5);
  assert.equal(store.state.analysis.progress, 0.5);
  engine.calls[1].release();
  await tick();
  await tick();
  assert.equal(store.state.analysis.computing, false);
});

test("parameters set in the options are taken over the fit's, and the fit's ± no longer claimed", async () => {
  const store = createStore();
  const calls = [];
  const engine = {
    analyze: async (_analysis, options, setup) => {
      calls.push({ options, setup });
      return {
        constant: { name: 'constant', x: [1e4], y: [2.9] },
        cosine: { name: 'cosine', x: [1e4], y: [2.95] },
        crossover: null,
        note: '',
      };
    },
  };
  const analyses = createAnalyses({ store, engine });
  const params = { L0: 2.5, A: 0.5, alpha: 0.5, C: 0.4, lambda: 0.999 };
  store.useManual({ params: { annealing: params }, settings: store.state.settings, from: 'hand' });
  store.analysisChanged({ open: true, view: 'constant-vs-cosine', defaults: {} });
  analyses.setOptionsText('{"params": {"L0": 1}}');
  await tick();
  await tick();
  assert.deepEqual(
    calls[0].options.params,
    { ...params, L0: 1 },
    "the rest of the parameters are the ones in use, not Fig. 2's",
  );
  assert.equal(calls[0].setup.replicates, undefined);
  assert.match(
    store.state.analysis.status,
    /^From the parameters set in the options \(the rest: the parameters entered by hand\)/,
  );

  analyses.setOptionsText('{"law": "multi-power"}');
  await tick();
  await tick();
  assert.equal(
    calls[1].setup.params,
    undefined,
    "another law starts from its own defaults, not the annealing law's parameters",
  );
});

test("options left out of the JSON view are lawcore's defaults, and the form shows them so", async () => {
  const store = createStore();
  const calls = [];
  const engine = {
    analyze: async (_analysis, options) => {
      calls.push(options);
      return {
        constant: { name: 'constant', x: [1e4], y: [2.9] },
        cosine: { name: 'cosine', x: [1e4], y: [2.95] },
        crossover: null,
        note: '',
      };
    },
  };
  const analyses = createAnalyses({ store, engine });
  const defaults = { 'constant-vs-cosine': { totals: [10000, 100000], count: 20, final: 0, peak: 2e-4, warmup: 500 } };
  store.analysisChanged({ open: true, view: 'constant-vs-cosine', defaults });
  analyses.setOptionsText('{"count": 5}');
  await tick();
  await tick();
  // the setup's keys (peak, warmup) stay the page's; the analysis's own come from its defaults
  assert.deepEqual(store.state.analysis.options['constant-vs-cosine'], { totals: [10000, 100000], count: 5, final: 0 });
  assert.deepEqual(calls[0], { totals: [10000, 100000], count: 5, final: 0 });
});

test('the model-size answer says when the unseen N lies past the fitted sizes: above the largest or below the smallest by over 1.5 times', async () => {
  const { sizeExtrapolation } = await import('../../site/js/analysis/analysis-views.js');
  const fitted = [25e6, 100e6];
  assert.equal(
    sizeExtrapolation(400e6, fitted),
    "Extrapolated: N = 400M is 4× the largest size fitted (100M), where the curves held out at the fitted sizes cannot check the law's N terms. ",
  );
  assert.match(
    sizeExtrapolation(10e6, fitted),
    /^Extrapolated: N = 10M is 2\.5× below the smallest size fitted \(25M\)/,
  );
  for (const n of [50e6, 25e6, 100e6, 140e6, 20e6])
    assert.equal(sizeExtrapolation(n, fitted), '', `N = ${n}: among the fitted sizes, or within 1.5 times of them`);
});

test('new parameters while the view computes compute it again: the answer under way, of the parameters before, is dropped', async () => {
  const { store, engine, analyses } = await computing();
  assert.equal(engine.calls.length, 1);
  analyses.refresh(); // a fit ended
  await tick();
  assert.equal(engine.calls.length, 2, 'computed again');
  engine.calls[0].release();
  await tick();
  await tick();
  assert.equal(store.state.analysis.computing, true, 'the first answer is not shown');
  engine.calls[1].release();
  await tick();
  await tick();
  assert.equal(store.state.analysis.computing, false);
  assert.ok(store.state.analysis.result.chart);
});
