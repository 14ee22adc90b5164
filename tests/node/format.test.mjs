// The page's number formats that stand in for Intl (site/js/common/format.js): a step count and an
// axis label read as Intl's en-US formatting writes them, and so do the times the workspace line
// gives, which the page no longer asks Intl for in its first view (a page's first use of Intl
// loads ICU's locale data). Node's Intl is the reference.
import test from 'node:test';
import assert from 'node:assert/strict';
import { grouped, steps, tick, dateTime, clock } from '../../site/js/common/format.js';

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
  const values = [
    0, 1, 2.5, 0.125, 0.1, 0.3, 2.6278, 3.0004, 0.0005, 0.0015, 1e-7, 999.9996, 1000, 12345.6789, 60000, 2e6, 0.999,
  ];
  for (const x of [...values, ...values.map((v) => -v).filter((v) => v !== 0)]) {
    const want = enUS.format(x);
    // Intl writes -0 for a negative value that rounds to zero; an axis label of 0 reads better
    assert.equal(tick(x), want === '-0' ? '0' : want, String(x));
  }
  assert.equal(tick(NaN), '');
});

test('dateTime and clock write a local time as en-US does with Intl', () => {
  // ICU writes a narrow no-break space before AM and PM (since ICU 72); the page a space
  const spaced = (text) => text.replace(/\u202f/g, ' ');
  // local times (as the page shows them), whatever the machine's time zone: each hour of the
  // 12-hour clock's edges, single and double digits, every month
  const moments = [
    [2026, 10, 29, 7, 6, 40],
    [2026, 0, 1, 0, 0, 0],
    [2025, 4, 12, 12, 0, 5],
    [2025, 11, 31, 23, 59, 59],
    [2024, 1, 29, 11, 59, 9],
    [2024, 1, 29, 13, 1, 1],
    ...Array.from({ length: 12 }, (_, m) => [2030, m, 10 + m, m * 2, m * 5, m]),
  ];
  for (const [y, mo, d, h, mi, s] of moments) {
    const t = new Date(y, mo, d, h, mi, s).getTime();
    const at = new Date(t);
    assert.equal(
      dateTime(t),
      spaced(at.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })),
      at.toString(),
    );
    assert.equal(
      clock(t),
      spaced(at.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit' })),
      at.toString(),
    );
  }
});
