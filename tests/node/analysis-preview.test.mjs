// A view's first answer (site/js/analysis/analysis-preview.js): asked only where the answer can
// take seconds, with less to compute than the answer (no ± of the fit's refits, a thinner grid
// of the user's own options, the families or claims that draw first), and the options of the
// answer itself left as they were.
import test from 'node:test';
import assert from 'node:assert/strict';
import { previewOf, every, PAPER_FIRST } from '../../site/js/analysis/analysis-preview.js';

const annealing = { law: 'annealing', params: { L0: 2.6 } };
const band = { replicates: [{ sets: [{}, {}] }] };

test('every keeps every k-th value and the last', () => {
  assert.deepEqual(every([1, 2, 3, 4, 5, 6, 7], 2), [1, 3, 5, 7]);
  assert.deepEqual(every([1, 2, 3, 4, 5, 6], 4), [1, 5, 6]);
  assert.deepEqual(every([1, 2, 3], 2), [1, 2, 3]);
});

test('no first answer where the answer is quick: the annealing law without a band', () => {
  const ratios = Array.from({ length: 40 }, (_, i) => (i + 1) / 50);
  assert.equal(previewOf('wsd-ratio', { ratios }, annealing), null);
  assert.equal(previewOf('cosine-cycle', { cycles: [0.5, 1, 1.5, 2, 2.5, 3] }, annealing), null);
  assert.equal(previewOf('decomposition', {}, { ...annealing, band }), null);
  assert.equal(previewOf('rewarmup', {}, { law: 'multi-power' }), null);
  assert.equal(previewOf('paper', { claims: ['fit'] }, null), null);
});

test('the fit’s band: the first answer is without it, the options and setup given unchanged', () => {
  const options = { totals: [50000], ratios: [0.1, 0.2] };
  const setup = { ...annealing, band };
  const p = previewOf('wsd-ratio', options, setup);
  assert.equal(p.options, options);
  assert.equal(p.setup.band, undefined);
  assert.equal(p.setup.replicates, undefined);
  assert.deepEqual(p.setup.params, annealing.params);
  assert.equal(setup.band, band, 'the answer’s setup keeps its band');
  assert.match(p.what, /±/);
});

test('a slow law: a thinner grid of the user’s own ratios, cycles or totals', () => {
  const ratios = Array.from({ length: 40 }, (_, i) => (i + 1) / 50);
  const mpl = { law: 'multi-power', params: {} };
  const wsd = previewOf('wsd-ratio', { ratios, totals: [10000, 20000, 50000, 100000, 200000] }, mpl);
  assert.deepEqual(wsd.options.ratios, [0.02, 0.18, 0.34, 0.5, 0.66, 0.8]);
  assert.deepEqual(wsd.options.totals, [10000, 50000, 200000], 'the shortest and the longest total stay');
  assert.deepEqual(previewOf('wsd-ratio', { ratios, totals: [50000] }, mpl).options.totals, [50000]);
  const cycles = [0.5, 0.625, 0.75, 0.875, 1, 1.125, 1.25];
  assert.deepEqual(previewOf('cosine-cycle', { cycles }, { members: [{}, {}] }).options.cycles, [0.5, 0.75, 1, 1.25]);
  assert.equal(previewOf('constant-vs-cosine', { count: 40 }, mpl).options.count, 20);
});

test('the optimiser draws one family first; the paper its quick claims', () => {
  const families = ['wsd', 'cosine', 'multistep'];
  assert.deepEqual(previewOf('optimize', { families }, annealing).options.families, ['cosine']);
  assert.deepEqual(previewOf('optimize', { families }, { law: 'multi-power' }).options.families, ['multistep']);
  const paper = previewOf('paper', { tuples: 1000 }, null);
  assert.deepEqual(paper.options, { tuples: 1000, claims: PAPER_FIRST });
  assert.deepEqual(previewOf('paper', { claims: ['fit', 'chinchilla'] }, null).options.claims, ['fit']);
});

test('re-warmup under a slow law: the first answer draws the view’s own comparison on three runs', () => {
  const options = { peaks: [0.25, 0.5, 1, 1.5, 2], lengths: [100, 500, 1000, 2000, 5000] };
  const mpl = { law: 'multi-power', params: {} };
  const byPeak = previewOf('rewarmup', options, mpl, 'rewarmup-peak');
  assert.deepEqual(byPeak.options, { peaks: [0.25, 1, 2], lengths: [] });
  const byLength = previewOf('rewarmup', options, mpl, 'rewarmup-length');
  assert.deepEqual(byLength.options, { peaks: [0.25], lengths: [100, 5000] });
  assert.equal(previewOf('rewarmup', options, annealing, 'rewarmup-peak'), null, 'the annealing law answers at once');
});
