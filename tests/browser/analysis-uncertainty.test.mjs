// Decisions with their uncertainty (issue 14, item 4): the page's fit asks for its jackknife
// replicates and hands them to the analyses that compare choices. Here the Fig. 2 fit is
// repeated independently through the command line (the same request the page sends), its
// replicates given to the same analyses there, and every ± and final loss in the page's table,
// every choice marked as within the band, and the numbers the sentence states are checked
// against that answer's own fields; the verdict appears in the answer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useServerAndBrowser, openPage, waitForFit } from './harness.mjs';
import { fig2PageFit, okJSON } from '../node/cli-helpers.mjs';

const env = useServerAndBrowser(before, after);

/** lawcore runs a command of the CLI on a JSON request and returns its JSON answer. */
const lawcore = (command, request) => okJSON([command, '--json'], JSON.stringify(request));

/** Independent formats: a loss to three decimals, a half-width to two significant digits. */
const loss3 = (x) => x.toFixed(3);
const sig2 = (x) => String(Number(x.toPrecision(2)));
const close = (got, want, what) =>
  assert.ok(Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${what}: ${got} != ${want}`);

/** showView picks an analysis and waits for its answer. */
async function showView(page, id) {
  await page.selectOption('#analysis-view', id);
  await page.waitForFunction(
    (v) =>
      document.querySelector('#analysis-result').dataset.view === v
      && !document.querySelector('#analysis-table').hidden
      && !/Computing/.test(document.querySelector('#analysis-status').textContent),
    id,
    { timeout: 90000 },
  );
}

/**
 * table reads the analysis table: its columns, and each row's cells (numbers as data-value) and
 * whether it is marked tied.
 */
function table(page) {
  return page.evaluate(() => ({
    columns: [...document.querySelectorAll('#analysis-table thead th')].map((th) => th.textContent),
    rows: [...document.querySelectorAll('#analysis-table tbody tr')].map((tr) => ({
      tied: tr.dataset.tied === 'true',
      cells: [...tr.children].map((td) => (td.dataset.value !== undefined ? Number(td.dataset.value) : td.textContent)),
    })),
  }));
}

/** expected runs the view's analysis through the CLI with the page's setup, options and the fit's replicates. */
async function expected(page, analysis, fit) {
  const options = JSON.parse(await page.inputValue('#analysis-options'));
  return lawcore('analyze', {
    analysis,
    law: 'annealing',
    params: fit.params,
    peak: 2e-4,
    warmup: 500,
    warmupConvention: 'peak',
    points: 400,
    replicates: fit.replicates,
    // the band the page's predictions carry: the analyses' ± is its half-width
    band: fit.band,
    ...options,
  });
}

test('the analyses give each choice its ± from the fit, mark the choices within the band, and state the verdict', async () => {
  const fit = fig2PageFit();
  assert.equal(fit.replicates.length, 10, 'the jackknife gives ten parameter sets');
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#analyses-panel > summary');
    await page.click('#analysis-options-box > summary');

    // WSD ratio: per total, the optimum's final loss and its ±, and the ratios within its band.
    await showView(page, 'wsd-ratio');
    assert.match(await page.textContent('#analysis-status'), /± from the fit's band \(90%\): its 10 jackknife refits/);
    let r = await expected(page, 'wsd-ratio', fit);
    assert.ok(r.verdict && r.optima.every((o) => o.plusMinus > 0 && o.tied), 'the CLI answer has the uncertainty');
    let t = await table(page);
    assert.deepEqual(t.columns, [
      'total steps',
      'best ratio',
      'decay steps',
      'final loss',
      '± (90%)',
      'ratios within the band',
      'S1',
      'S2',
    ]);
    assert.equal(t.rows.length, r.optima.length);
    r.optima.forEach((o, i) => {
      const [total, ratio, , final, pm, span] = t.rows[i].cells;
      assert.equal(total, o.total);
      close(ratio, o.ratio, `ratio at ${o.total}`);
      close(final, o.final.loss, `final loss at ${o.total}`);
      close(pm, o.plusMinus, `± at ${o.total}`);
      const from = `${Math.round(o.tied.from * 1000) / 10}%`;
      const to = `${Math.round(o.tied.to * 1000) / 10}%`;
      assert.equal(span, from === to ? `${from} only` : `${from}–${to}`, `band at ${o.total}`);
    });
    // The sentence states the middle total's loss with its ±, and the verdict follows it.
    let answer = await page.textContent('#analysis-answer');
    const mid = r.optima[2];
    assert.ok(answer.includes(`final loss ${loss3(mid.final.loss)} ± ${sig2(mid.plusMinus)}`), answer);
    assert.ok(answer.endsWith(` ${r.verdict}`), `the verdict is not in: ${answer}`);
    // On the chart, each line's ratios within the band are marked in its colour.
    const series = (await page.getAttribute('#chart-analysis', 'data-series')).split('|');
    for (const o of r.optima) assert.ok(series.includes(`${o.total} steps: within the band`), `${o.total}: ${series}`);

    // Annealing function: each ratio's margin, its ±, the rows that cannot tell the shapes apart marked.
    await showView(page, 'anneal-function');
    r = await expected(page, 'anneal-function', fit);
    t = await table(page);
    const at = (name) => t.columns.indexOf(name);
    assert.equal(t.rows.length, r.winners.length);
    r.winners.forEach((w, i) => {
      close(t.rows[i].cells[at('margin')], w.margin, `margin at ${w.ratio}`);
      close(t.rows[i].cells[at('± margin')], w.marginPlusMinus, `± margin at ${w.ratio}`);
      assert.equal(t.rows[i].tied, w.apart === false, `ratio ${w.ratio} marked`);
    });
    answer = await page.textContent('#analysis-answer');
    assert.ok(answer.endsWith(` ${r.verdict}`), answer);
    assert.doesNotMatch(r.verdict, /\d\.\d{6}/, 'no float noise in the verdict');

    // Constant vs cosine: the totals between the crossover's low and high are marked.
    await showView(page, 'constant-vs-cosine');
    r = await expected(page, 'constant-vs-cosine', fit);
    assert.ok(
      r.crossover && r.crossover.low <= r.crossover.total && r.crossover.total <= r.crossover.high,
      JSON.stringify(r.crossover),
    );
    t = await table(page);
    const marked = t.rows.filter((x) => x.tied).map((x) => x.cells[0]);
    assert.deepEqual(
      marked,
      r.constant.x.filter((x) => x >= r.crossover.low && x <= r.crossover.high),
    );
    assert.ok(marked.length >= 1);
    answer = await page.textContent('#analysis-answer');
    assert.ok(answer.endsWith(` ${r.verdict}`), answer);
    assert.ok(answer.includes(`anywhere from ${r.crossover.low} to ${r.crossover.high} steps`));

    // Optimiser: each family's final loss and its ±; those tied with the best marked.
    await showView(page, 'optimize');
    r = await expected(page, 'optimize', fit);
    t = await table(page);
    assert.deepEqual(t.columns, [
      'family',
      'best',
      'final loss',
      '± (90%)',
      'within the band of the best',
      'S1',
      'S2',
      'evaluations',
    ]);
    r.best.forEach((b, i) => {
      const [family, , final, pm, band] = t.rows[i].cells;
      assert.equal(family, b.family);
      close(final, b.final.loss, `${b.family} final loss`);
      close(pm, b.plusMinus, `${b.family} ±`);
      const best = b.family === r.ranking[0];
      assert.equal(band, best ? 'the best' : b.tiedWithBest ? 'yes' : 'no');
      assert.equal(t.rows[i].tied, !best && b.tiedWithBest, `${b.family} marked`);
    });
    const top = r.best.find((b) => b.family === r.ranking[0]);
    answer = await page.textContent('#analysis-answer');
    assert.ok(answer.includes(`the ${top.family} family's, ${loss3(top.final.loss)} ± ${sig2(top.plusMinus)}`), answer);
    assert.ok(answer.endsWith(` ${r.verdict}`), answer);
    // The table's CSV carries the ± too.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#analysis-csv')]);
    const csv = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n');
    assert.equal(csv[0], 'family,best,final loss,± (90%),within the band of the best,S1,S2,evaluations');

    // Parameters entered by hand (the paper's) have no replicates: lawcore's own table, no ±,
    // no verdict, and the status says why.
    await page.click('#manual-params summary');
    for (const [k, v] of Object.entries({ L0: '2.628', A: '0.43', alpha: '0.55', C: '0.411', lambda: '0.999' }))
      await page.fill(`#manual-${k}`, v);
    await page.click('#manual-apply');
    await page.waitForFunction(
      () =>
        /entered by hand/.test(document.querySelector('#analysis-status').textContent)
        && !/Computing/.test(document.querySelector('#analysis-status').textContent),
      null,
      { timeout: 90000 },
    );
    assert.match(await page.textContent('#analysis-status'), /no ± \(a fit gives one/);
    t = await table(page);
    assert.deepEqual(t.columns, ['family', 'best', 'final loss', 'S1', 'S2', 'evaluations']);
    assert.ok(t.rows.every((x) => !x.tied));
    answer = await page.textContent('#analysis-answer');
    assert.doesNotMatch(answer, /±|within the band|fit's uncertainty/);

    // An analysis that compares nothing gets no replicates, and says nothing of them.
    await showView(page, 'decomposition');
    assert.doesNotMatch(await page.textContent('#analysis-status'), /±/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
