// The page's series helpers (site/js/series.js), which need no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { everyNth, unionSteps, exactOnto } from '../../site/js/series.js';

test('everyNth keeps at most max evenly spaced indices, first and last included', () => {
  assert.equal(everyNth(4000, 4000), null, 'short curves are drawn whole');
  assert.deepEqual(everyNth(11, 3), [0, 5, 10]);
  const keep = everyNth(1_000_000, 4000);
  assert.equal(keep.length, 4000);
  assert.equal(keep[0], 0);
  assert.equal(keep[3999], 999_999);
  for (let k = 1; k < keep.length; k++) {
    const gap = keep[k] - keep[k - 1];
    assert.ok(gap === 250 || gap === 251, `gap ${gap} at ${k}`);
  }
});

test('observed points land on their own steps of the union', () => {
  const xs = unionSteps([[1, 3, 5], [2, 3, 6]]);
  assert.deepEqual(xs, [1, 2, 3, 5, 6]);
  assert.deepEqual(exactOnto(xs, [2, 6], [0.5, 0.25]), [null, 0.5, null, null, 0.25]);
});
