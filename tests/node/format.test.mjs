// The page's number formats that stand in for Intl (site/js/format.js): a step count and an
// axis label read as Intl's en-US formatting writes them, which the page no longer calls in its
// first view (a page's first use of Intl loads ICU's locale data). Node's Intl is the reference.
import test from 'node:test';
import assert from 'node:assert/strict';
import { grouped, steps, tick } from '../../site/js/format.js';

const enUS = new Intl.NumberFormat('en-US');

test('grouped writes integers as en-US does', () => {
  const values = [0, 7, 999, 1000, 1001, 20000, 60000, 999999, 1000000, 1234567, 9007199254740991];
  for (const n of [...values, ...values.map((v) => -v).filter((v) => v !== 0)]) {
    assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
  }
  // every length of digits, each boundary of a group of three
  for (let k = 0; k <= 15; k++) {
    const n = 10 ** k + 7;
    assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
  }
  assert.equal(grouped(1e21), '1e+21', 'past exact integers: as String writes it');
});

test('steps rounds to a whole step and groups it, an en dash when there is no number', () => {
  assert.equal(steps(59999.6), '60,000');
  assert.equal(steps(500), '500');
  assert.equal(steps(NaN), '–');
  assert.equal(steps(Infinity), '–');
});

test('tick writes axis values as en-US does with Intl, at most three decimals', () => {
  const values = [0, 1, 2.5, 0.125, 0.1, 0.3, 2.6278, 3.0004, 0.0005, 0.0015, 1e-7, 999.9996, 1000, 12345.6789, 60000, 2e6, 0.999];
  for (const x of [...values, ...values.map((v) => -v).filter((v) => v !== 0)]) {
    const want = enUS.format(x);
    // Intl writes -0 for a negative value that rounds to zero; an axis label of 0 reads better
    assert.equal(tick(x), want === '-0' ? '0' : want, String(x));
  }
  assert.equal(tick(NaN), '');
});
