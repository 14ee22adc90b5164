// The page's bound on the points of all its curves together (site/js/import-files.js): curves
// that would pass it are not added, each with a message naming it and saying why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { withinPointBudget, MAX_PAGE_POINTS } from '../../site/js/import-files.js';

const curve = (name, n) => ({ name, steps: { length: n } });

test('curves are added while the page stays within its points; the others are refused by name', () => {
  const { kept, refused } = withinPointBudget(MAX_PAGE_POINTS - 3_000_000, [curve('a', 2_000_000), curve('b', 2_000_000), curve('c', 1_000_000)]);
  assert.deepEqual(kept.map((c) => c.name), ['a', 'c'], 'in order, each that still fits');
  assert.equal(refused.length, 1);
  assert.match(refused[0], /^b: not added: its 2,000,000 points would bring the page to 9,000,000, past the 8,000,000 it can fit and draw within 4 GB of memory\. Remove curves, or thin this one first/);
  assert.deepEqual(withinPointBudget(0, [curve('exactly', MAX_PAGE_POINTS)]).refused, []);
  assert.equal(withinPointBudget(1, [curve('one too many', MAX_PAGE_POINTS)]).refused.length, 1);
});
