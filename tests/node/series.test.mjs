// The page's series helpers (site/js/common/series.js), which need no browser: the one thinning
// routine, and lines aligned on a chart's shared x.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawnIndices, unionSteps, exactOnto, alignLines, MAX_DRAWN_POINTS } from '../../site/js/common/series.js';

test("drawnIndices keeps each run's lowest and highest point, first and last, at most max", () => {
  assert.equal(drawnIndices(new Float64Array(4000), 4000), null, 'short curves are drawn whole');
  // 0 and 9 always; 1..8 in three runs [1,3), [3,6), [6,9): lowest and highest of each.
  assert.deepEqual(drawnIndices([5, 4, 3, 9, 1, 2, 7, 7, 6, 0], 8), [0, 1, 2, 3, 4, 6, 8, 9]);
  // A flat run keeps one point.
  assert.deepEqual(drawnIndices([1, 1, 1, 1, 1, 1], 4), [0, 1, 5]);

  // A million-step decaying loss with one spike at a step an even stride would skip.
  const n = 1_000_000;
  const loss = Float64Array.from({ length: n }, (_, i) => 3 + 1 / Math.sqrt(i + 1));
  const spike = 123_457;
  loss[spike] = 9;
  const keep = drawnIndices(loss, 4000);
  assert.ok(keep.length <= 4000 && keep.length >= 3990, `${keep.length} points`);
  assert.equal(keep[0], 0);
  assert.equal(keep.at(-1), n - 1);
  for (let k = 1; k < keep.length; k++) assert.ok(keep[k] > keep[k - 1], `increasing at ${k}`);
  assert.ok(keep.includes(spike), 'the spike is drawn');
  assert.ok(
    keep.every((i, k) => k === 0 || i - keep[k - 1] <= 2 * 500),
    'no gap longer than two runs',
  );
});

test('observed points land on their own steps of the union', () => {
  const xs = unionSteps([
    [1, 3, 5],
    [2, 3, 6],
  ]);
  assert.deepEqual(xs, [1, 2, 3, 5, 6]);
  assert.deepEqual(exactOnto(xs, [2, 6], [0.5, 0.25]), [null, 0.5, null, null, 0.25]);
});

test('alignLines: lines interpolated and points placed on the union of their steps, each thinned and cut to its range', () => {
  const data = alignLines(
    [
      { x: [0, 10], y: [0, 1] },
      { x: [5, 10, 20], y: [7, 8, 9], points: true },
      { x: [0, 10, 20], y: [1, 2, 3], from: 10 },
    ],
    5,
  );
  assert.deepEqual(data, [
    [5, 10, 20],
    [0.5, 1, null],
    [7, 8, 9],
    [null, 2, 3],
  ]);
  const n = 100_000;
  const [xs, ys] = alignLines([
    {
      x: Array.from({ length: n }, (_, i) => i),
      y: Array.from({ length: n }, (_, i) => (i === 777 ? 50 : 1)),
      points: true,
    },
  ]);
  assert.ok(xs.length <= MAX_DRAWN_POINTS, `${xs.length} points drawn`);
  assert.ok(ys.includes(50), 'the spike is drawn');
});
