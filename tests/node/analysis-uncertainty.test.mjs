// The analyses with the fit's uncertainty (site/js/analysis/analysis-uncertainty.js and the sentences of
// analysis-answers.js), from real answers: the Fig. 2 curves fitted through lawcore with
// intervals, their replicates given to the analyses that compare choices; every ± and mark in
// the table is checked against the answer's own fields, the sentence's numbers are written here
// independently, and without replicates lawcore's own table and sentence are unchanged.
import './schema-setup.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import { answerSentence } from '../../site/js/analysis/analysis-answers.js';
import { uncertainTable, spanText, tiedPoints, hasSpread } from '../../site/js/analysis/analysis-uncertainty.js';
import { fig2PageFit, okJSON } from './cli-helpers.mjs';

/** lawcore runs a command of the CLI on a JSON request and returns its JSON answer. */
const lawcore = (command, request) => okJSON([command, '--json'], JSON.stringify(request));

const FIT = fig2PageFit();

/** analyze runs an analysis on the fit, with its replicates unless without. */
async function analyze(analysis, options = {}, { without = false } = {}) {
  const fit = FIT;
  return lawcore('analyze', {
    analysis,
    law: 'annealing',
    params: fit.params,
    peak: 2e-4,
    warmup: 500,
    warmupConvention: 'peak',
    ...(without ? {} : { replicates: fit.replicates }),
    ...options,
  });
}

const loss3 = (x) => x.toFixed(3);
const sig2 = (x) => String(Number(x.toPrecision(2)));
const pctPlain = (x) => `${Math.round(x * 1000) / 10}%`;

test('wsd-ratio: each optimum with its ±, the band of ratios, the sentence and the verdict', async () => {
  const r = await analyze('wsd-ratio', { totals: [10000, 50000, 200000] });
  assert.ok(hasSpread(r));
  const t = uncertainTable('wsd-ratio', r);
  assert.deepEqual(
    t.rows.map((row) => [row[0], row[3], row[4]]),
    r.optima.map((o) => [o.total, o.final.loss, o.plusMinus]),
  );
  r.optima.forEach((o, i) => {
    assert.ok(o.plusMinus > 0 && o.tied.from <= o.ratio + 1e-12 && o.tied.to >= o.ratio - 1e-12, JSON.stringify(o));
    const from = pctPlain(o.tied.from);
    const to = pctPlain(o.tied.to);
    assert.equal(t.rows[i][5], from === to ? `${from} only` : `${from}–${to}`);
  });
  // Each line's marks within the band are the grid's points between the band's ends, on the line.
  const marks = tiedPoints(r, r.byRatio);
  r.optima.forEach((o, i) => {
    const want = r.byRatio[i].x.filter((x) => x >= o.tied.from - 1e-12 && x <= o.tied.to + 1e-12);
    assert.deepEqual(marks[i].x, want);
    marks[i].x.forEach((x, k) => {
      assert.equal(marks[i].y[k], r.byRatio[i].y[r.byRatio[i].x.indexOf(x)]);
    });
  });
  const s = answerSentence('wsd-ratio', r, {});
  const o = r.optima[1];
  assert.ok(s.includes(`final loss ${loss3(o.final.loss)} ± ${sig2(o.plusMinus)}`), s);
  assert.ok(s.endsWith(` ${r.verdict}`), s);
  assert.doesNotMatch(r.verdict, /(\d+%)-\1 /, 'a band of one ratio is not written as a range');
});

test('optimize: each family with its ±, the ones tied with the best marked, the best stated with its ±', async () => {
  const r = await analyze('optimize', { total: 20000, families: ['wsd', 'cosine', 'multistep'] });
  const t = uncertainTable('optimize', r);
  const top = r.ranking[0];
  r.best.forEach((b, i) => {
    assert.deepEqual([t.rows[i][0], t.rows[i][2], t.rows[i][3]], [b.family, b.final.loss, b.plusMinus]);
    assert.equal(t.rows[i][4], b.family === top ? 'the best' : b.tiedWithBest ? 'yes' : 'no');
    assert.equal(t.tied[i], b.family !== top && b.tiedWithBest);
  });
  const best = r.best.find((b) => b.family === top);
  const s = answerSentence('optimize', r, {});
  assert.ok(s.includes(`the ${top} family's, ${loss3(best.final.loss)} ± ${sig2(best.plusMinus)}`), s);
  assert.ok(s.endsWith(` ${r.verdict}`), s);
});

test('constant-vs-cosine and anneal-function: the rows the fit cannot decide are marked', async () => {
  const c = await analyze('constant-vs-cosine');
  const t = uncertainTable('constant-vs-cosine', c);
  const inside = c.constant.x.map((x) => x >= c.crossover.low && x <= c.crossover.high);
  assert.deepEqual(t.tied, inside);
  assert.ok(inside.some(Boolean));
  assert.deepEqual(
    t.rows.map((row) => row[row.length - 1]),
    inside.map((x) => (x ? 'no, within the band' : 'yes')),
  );
  assert.ok(answerSentence('constant-vs-cosine', c, {}).endsWith(` ${c.verdict}`));

  const a = await analyze('anneal-function');
  const ta = uncertainTable('anneal-function', a);
  assert.deepEqual(
    ta.tied,
    a.winners.map((w) => w.apart === false),
  );
  assert.deepEqual(ta.rows, a.table.rows, "lawcore's own rows, with its margin's ±");
  const best = a.winners.reduce((x, w) => (w.loss < x.loss ? w : x));
  const s = answerSentence('anneal-function', a, {});
  assert.ok(s.includes(`${sig2(best.margin)} ± ${sig2(best.marginPlusMinus)} below the next shape`), s);
});

test("without replicates: lawcore's table and the plain sentence", async () => {
  const r = await analyze('optimize', { total: 20000, families: ['wsd', 'cosine'] }, { without: true });
  assert.ok(!hasSpread(r));
  assert.equal(uncertainTable('optimize', r), r.table);
  assert.doesNotMatch(answerSentence('optimize', r, {}), /±|band/);
  assert.equal(spanText({ from: 0.26, to: 0.2597 }), '26% only');
  assert.equal(spanText({ from: 0.14, to: 0.4 }), '14%–40%');
});
