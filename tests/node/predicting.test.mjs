// What the page says of its predictions (site/js/controllers/predicting.js) under node: a
// schedule predicted at a peak LR far past the fitted curves' is named as an extrapolation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { createStore } from '../../site/js/state/store.js';
import { DEFAULT_SETTINGS } from '../../site/js/state/settings.js';
import { farPeakWarnings } from '../../site/js/controllers/predicting.js';
import { FAR_PEAK } from '../../site/js/analysis/analysis-answers.js';

const wsd = (total, peak) => ({ kind: 'wsd', total, peak, decay: 'linear', decayFraction: 0.1 });

test("a fitted re-warmup curve's peak is its segments' highest", () => {
  const store = createStore();
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [
      {
        name: 'rewarm run',
        steps: Float64Array.from([1, 2]),
        loss: Float64Array.from([3, 2.9]),
        schedule: { kind: 'concat', segments: [wsd(20000, 3e-4), wsd(20000, 1e-3)] },
      },
    ],
    predictions: [
      { name: 'at its second peak', schedule: wsd(60000, 1e-3) },
      { name: 'past it', schedule: wsd(60000, 2e-3) },
    ],
  });
  assert.deepEqual(
    farPeakWarnings(store.state).map((l) => l.split(':')[0]),
    ['past it'],
  );
});

test("a schedule whose peak LR is past 1.5 times the fitted curves' is named; one at or near their peak is not", () => {
  const store = createStore();
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [
      {
        name: 'wsd run',
        steps: Float64Array.from([1, 2]),
        loss: Float64Array.from([3, 2.9]),
        schedule: wsd(20000, 3e-4),
      },
      // a held-out curve's peak is not what the fit saw
      {
        name: 'held out',
        role: 'validate',
        steps: Float64Array.from([1, 2]),
        loss: Float64Array.from([3, 2.9]),
        schedule: wsd(20000, 1e-2),
      },
    ],
    predictions: [
      { name: 'same peak', schedule: wsd(60000, 3e-4) },
      { name: 'just past', schedule: wsd(60000, 3e-4 * FAR_PEAK) },
      { name: 'ten times', schedule: wsd(60000, 3e-3) },
      { name: 'explicit', schedule: { kind: 'explicit', lr: [1e-3, 6e-4] } },
      // a re-warmup's peak is its segments' highest: the second here, at 4 times the fitted peak
      { name: 'rewarm', schedule: { kind: 'concat', segments: [wsd(20000, 3e-4), wsd(20000, 1.2e-3)] } },
      { name: 'rewarm same', schedule: { kind: 'concat', segments: [wsd(20000, 3e-4), wsd(20000, 2e-4)] } },
      // the highest LR, not the nominal peak: a multi-step level of 5, a final LR above the peak
      {
        name: 'levels up',
        schedule: { kind: 'multistep', total: 60000, peak: 3e-4, stages: [0.5, 0.5], levels: [1, 5] },
      },
      {
        name: 'levels down',
        schedule: { kind: 'multistep', total: 60000, peak: 3e-4, stages: [0.5, 0.5], levels: [1, 0.1] },
      },
      { name: 'rises to final', schedule: { kind: 'linear', total: 60000, peak: 3e-4, final: 3e-3 } },
    ],
  });
  const lines = farPeakWarnings(store.state);
  assert.deepEqual(
    lines.map((l) => l.split(':')[0]),
    ['ten times', 'explicit', 'rewarm', 'levels up', 'rises to final'],
  );
  assert.match(lines[3], /its peak LR \(1\.5e-3\) is 5× the highest/);
  assert.match(lines[2], /its peak LR \(1\.2e-3\) is 4× the highest/);
  assert.match(
    lines[0],
    /^ten times: its peak LR \(3e-3\) is 10× the highest of the curves fitted \(3e-4\); .* an extrapolation/,
  );
  store.useManual({
    params: { annealing: { L0: 2.5, A: 0.5, alpha: 0.5, C: 0.4, lambda: 0.999 } },
    settings: DEFAULT_SETTINGS,
    from: 'hand',
  });
  assert.deepEqual(farPeakWarnings(store.state), [], 'parameters entered by hand were not fitted at any peak');
});
