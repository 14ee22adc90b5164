// Reading the paper with the page (issue 47): the Paper view lists the paper's claims section by
// section with lawcore's verdicts (the same as the command line's `analyze --analysis paper`);
// a claim opens the view that shows it under the paper's Fig. 2 parameters, whatever parameters
// the page holds, with its verdict above the answer, and the view gets its own options back
// when another is chosen. The λ view refits the law for each λ to the fit's curves, and says it
// holds the parameters when there are none. The model-size view draws the annealing drop
// against N from the MultiPowerLaw example, stated as such, and warns when N lies far outside
// the fitted sizes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit } from './harness.mjs';
import { okJSON } from '../node/cli-helpers.mjs';

const env = useServerAndBrowser(before, after);

/** settled waits until the panel shows view id's answer, computed. */
async function settled(page, id) {
  await page.waitForFunction(
    (v) =>
      document.querySelector('#analysis-result').dataset.view === v
      && !document.querySelector('#analysis-table').hidden
      && !/Computing/.test(document.querySelector('#analysis-status').textContent)
      && document.querySelector('#analysis-cancel').hidden,
    id,
    { timeout: 120000 },
  );
}

/** cell is the number (data-value) in the analysis table's row whose first cells are first, at column. */
function cell(page, first, column) {
  return page.evaluate(
    ({ first, column }) => {
      const cols = [...document.querySelectorAll('#analysis-table thead th')].map((th) => th.textContent);
      const row = [...document.querySelectorAll('#analysis-table tbody tr')].find((tr) =>
        first.every(
          (v, i) =>
            Number(tr.children[i].dataset.value ?? tr.children[i].textContent) === v
            || tr.children[i].textContent === v,
        ),
      );
      return row ? Number(row.children[cols.indexOf(column)].dataset.value) : null;
    },
    { first, column },
  );
}

test('the Paper view: every claim with lawcore’s verdict; a claim opens its view under the paper’s parameters, then gives the view back', async () => {
  const cli = okJSON(['analyze', '--json'], JSON.stringify({ analysis: 'paper' }));
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    // parameters of the page's own, entered by hand: the claims' views must not use them
    await page.click('#manual-params summary');
    for (const [k, v] of Object.entries({ L0: '3', A: '0.5', alpha: '0.5', C: '0.3', lambda: '0.999' }))
      await page.fill(`#manual-${k}`, v);
    await page.click('#manual-apply');
    await page.waitForFunction(() => document.querySelector('#param-L0').textContent === '3.000');

    await page.click('#analyses-panel > summary');
    await page.selectOption('#analysis-view', 'paper');
    await settled(page, 'paper');
    const paper = await cli;
    const shown = await page.$$eval('#paper-claims article', (as) =>
      as.map((a) => ({
        id: a.dataset.claim,
        status: a.dataset.status,
        verdict: a.querySelector('.claim-verdict').textContent,
      })),
    );
    assert.equal(shown.length, paper.claims.length);
    for (const [i, c] of paper.claims.entries()) {
      assert.equal(shown[i].id, c.id);
      assert.equal(shown[i].status, c.status);
      assert.equal(shown[i].verdict, c.verdict, c.id);
    }
    assert.equal(paper.checked, 15);
    assert.equal(paper.reproduced, 12);
    assert.deepEqual(
      paper.claims.filter((c) => c.status === 'differs').map((c) => c.id),
      ['cosine-cycle', 'chinchilla', 'lambda-window'],
    );
    assert.match(
      await page.textContent('#analysis-answer'),
      /^Under the paper's own Fig\. 2 parameters, the law reproduces 12 of the 15 claims checked; on 3 it says otherwise \(§5\.2 Cosine cycle length and minimum LR; §6\.1 Reduction to the Chinchilla law; §7\.1 The decay factor λ\)/,
    );
    assert.deepEqual(await page.$$eval('#paper-claims h3', (hs) => hs.slice(0, 3).map((x) => x.textContent)), [
      '§4 Fitting and prediction',
      '§4.4 Extension to model size',
      '§5.1 Why the loss drops sharply when the LR anneals',
    ]);
    assert.match(await page.textContent('#analysis-status'), /the paper’s Fig\. 2 parameters, not yours/);

    // §5.2: the cosine cycle grid under the paper's parameters (the page's are L0 = 3), the
    // claim's verdict above it
    await page.click('[data-open-claim="cosine-cycle"]');
    await settled(page, 'cosine-cycle');
    assert.equal(await page.inputValue('#analysis-view'), 'cosine-cycle');
    assert.equal(await page.getAttribute('#analysis-claim', 'data-claim'), 'cosine-cycle');
    const verdict = paper.claims.find((c) => c.id === 'cosine-cycle').verdict;
    assert.equal(await page.textContent('#analysis-claim-verdict'), `Paper §5.2, Fig. 8: ${verdict}`);
    assert.match(await page.textContent('#analysis-status'), /From the paper’s Fig\. 2 parameters, as its §5\.2 claim/);
    // the grid's T = S, floor 0 cell is the verdict's 2.7224; T = 1.25 S ends lower
    const atS = await cell(page, [1, 0], 'final loss');
    const longer = await cell(page, [1.25, 0], 'final loss');
    assert.equal(atS.toFixed(4), '2.7224');
    assert.ok(longer < atS, `T = 1.25 S: ${longer}, T = S: ${atS}`);
    assert.match(verdict, /against 2\.7224 at T = S/);

    // back to the claims; the λ claim refits the Fig. 2 curves for each λ
    await page.click('#analysis-claim-back');
    await settled(page, 'paper');
    assert.ok(await page.isHidden('#analysis-claim'));
    await page.click('[data-open-claim="lambda-ratio"]');
    await settled(page, 'lambda');
    assert.match(
      await page.textContent('#analysis-status'),
      /refitted for each λ to the 2 fit curves, as the paper does/,
    );
    assert.match(await page.textContent('#analysis-answer'), /4\.4% with λ = 0\.99/);
    assert.match(await page.textContent('#analysis-answer'), /18\.9% with λ = 0\.999/);

    // choosing another view gives the borrowed one its options back: the λ view on the page's
    // own parameters, entered by hand, without curves to refit, says it holds them
    await page.selectOption('#analysis-view', 'cosine-cycle');
    await settled(page, 'cosine-cycle');
    assert.ok(await page.isHidden('#analysis-claim'));
    await page.selectOption('#analysis-view', 'lambda');
    await settled(page, 'lambda');
    assert.match(await page.textContent('#analysis-status'), /From the parameters entered by hand/);
    assert.match(
      await page.textContent('#analysis-status'),
      /held at the current parameters \(no fit curves to refit them to\)/,
    );
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the λ view refits the page’s fit for each λ: the Fig. 2 fit gives λ 0.99 its 4.4% cooldown at 50K', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#analyses-panel > summary');
    await page.selectOption('#analysis-view', 'lambda');
    await settled(page, 'lambda');
    assert.match(
      await page.textContent('#analysis-status'),
      /From the fitted parameters .*refitted for each λ to the 2 fit curves/,
    );
    assert.match(await page.textContent('#analysis-answer'), /4\.4% with λ = 0\.99 .* and 18\.9% with λ = 0\.999/);
    assert.match(
      await page.textContent('#analysis-note'),
      /refitted for each lambda to the 2 fit curves, as the paper does/,
    );
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the model-size view: the annealing drop against N from the MultiPowerLaw example, stated as such, with a warning far past the fitted sizes', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#analyses-panel > summary');
    await page.selectOption('#analysis-view', 'size-drop');
    // the Fig. 2 curves are of one size: the view asks for two
    await page.waitForSelector('#analysis-error:not([hidden])');
    assert.match(await page.textContent('#analysis-error'), /two model sizes/);
    await page.click('#sizefit-example');
    await settled(page, 'size-drop');
    assert.match(await page.textContent('#analysis-status'), /^From MultiPowerLaw 25M \+ 100M \(an example\)/);
    const answer = await page.textContent('#analysis-answer');
    assert.match(
      answer,
      /^Extrapolated: N = 400M is 4× the largest size fitted \(100M\), where the curves held out at the fitted sizes cannot check the law's N terms\. Fitted to 25M, 100M \(the MultiPowerLaw release’s 25M and 100M runs, an example\), the model-size law’s annealing drop \(a constant run’s final loss minus that of a WSD run annealing 10% of it\) over 71,920 steps is [\d.]+ at 25M, [\d.]+ at 100M, and [\d.]+ predicted at N = 400M: it grows with N as C·S2·N\^γ, γ = [\d.]+\.$/,
    );
    // the table: the drop grows with N at every run length, the unseen size last
    const rows = await page.$$eval('#analysis-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.children].map((td) => td.dataset.value ?? td.textContent)),
    );
    const cols = await page.$$eval('#analysis-table thead th', (ths) => ths.map((th) => th.textContent));
    const drop = cols.indexOf('drop');
    const byTotal = new Map();
    for (const r of rows) byTotal.set(r[0], [...(byTotal.get(r[0]) || []), r]);
    for (const [total, rs] of byTotal) {
      assert.deepEqual(
        rs.map((r) => r[2]),
        ['fitted', 'fitted', 'unseen'],
      );
      const drops = rs.map((r) => Number(r[drop]));
      assert.ok(drops[0] < drops[1] && drops[1] < drops[2], `${total}: ${drops}`);
    }
    assert.ok((await page.locator('#chart-analysis canvas').count()) >= 1, 'a chart');
    assert.match(await page.getAttribute('#chart-analysis', 'data-series'), /predicted at N = 400M/);
    // an unseen size among the fitted ones: no warning; the fit is kept, the drop computed anew
    await page.fill('#sizefit-target', '150M');
    await page.dispatchEvent('#sizefit-target', 'change');
    await page.waitForFunction(
      () => /and [\d.]+ predicted at N = 150M/.test(document.querySelector('#analysis-answer').textContent),
      null,
      { timeout: 60000 },
    );
    assert.match(await page.textContent('#analysis-answer'), /^Fitted to 25M, 100M/);

    // the paper's §4.4 claim opens this view, on the example
    await page.selectOption('#analysis-view', 'paper');
    await settled(page, 'paper');
    await page.click('[data-open-claim="model-size"]');
    await settled(page, 'size-drop');
    assert.equal(await page.getAttribute('#analysis-claim', 'data-status'), 'not checked');
    assert.match(await page.textContent('#analysis-claim-verdict'), /^Paper §4\.4, Fig\. 4: not checked here/);
    assert.match(await page.textContent('#analysis-answer'), /an example/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
