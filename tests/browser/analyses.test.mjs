// The Analyses panel: every view computes from the fitted parameters through lawcore's
// `analyze` (or `sizefit`), draws a chart and fills a table with numbers; with the Fig. 2 fit,
// cosine overtakes constant between 10K and 100K total steps.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { useServerAndBrowser, openPage, waitForFit } from './harness.mjs';

const env = useServerAndBrowser(before, after);

async function showView(page, id) {
  await page.selectOption('#analysis-view', id);
  await page.waitForFunction(
    (v) =>
      document.querySelector('#analysis-result').dataset.view === v
      && !document.querySelector('#analysis-table').hidden
      && !/Computing/.test(document.querySelector('#analysis-status').textContent),
    id,
    { timeout: 60000 },
  );
}

test('every analysis view draws a chart and a table of numbers; constant vs cosine crosses over', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#analyses-panel > summary');
    const views = await page.$$eval('#analysis-view option', (os) => os.map((o) => o.value));
    for (const id of [
      'decomposition',
      'cosine-cycle',
      'constant-vs-cosine',
      'wsd-ratio',
      'anneal-function',
      'rewarmup-peak',
      'lambda',
      'optimize',
      'chinchilla',
      'compute',
      'sizefit',
    ]) {
      assert.ok(views.includes(id), `view ${id} missing: ${views}`);
    }
    for (const id of views) {
      if (id === 'sizefit') {
        await page.selectOption('#analysis-view', id);
        // The Fig. 2 curves have one size: the view asks for sizes, the example has two.
        await page.waitForSelector('#analysis-error:not([hidden])');
        assert.match(await page.textContent('#analysis-error'), /two model sizes/);
        // a size that is no number is refused, naming the curve (it was taken for "no size")
        const sizeField = page.locator('#sizefit-curves input').first();
        const curveName = await sizeField.getAttribute('data-curve-name');
        const tagged = await sizeField.inputValue();
        await sizeField.fill('594 million');
        await sizeField.dispatchEvent('change');
        await page.waitForFunction(
          (name) =>
            document
              .querySelector('#message')
              .textContent.trim()
              .startsWith(`Model size N of ${name}: "594 million" is not a model size`),
          curveName,
        );
        assert.equal(await sizeField.inputValue(), tagged);
        await page.click('#sizefit-example');
        await page.waitForFunction(
          () =>
            /MultiPowerLaw/.test(document.querySelector('#analysis-status').textContent)
            && !document.querySelector('#analysis-table').hidden,
          null,
          { timeout: 60000 },
        );
        const rows = await page.$$eval('#analysis-table tbody tr', (trs) => trs.map((tr) => tr.textContent));
        assert.ok(
          rows.some((r) => /N=400M/.test(r)),
          'a prediction at the unseen size',
        );
        // its answer: the sizes fitted, each schedule's final loss at the unseen size as the table has it
        const answer = await page.textContent('#analysis-answer');
        assert.match(
          answer,
          /^Extrapolated: N = 400M is 4× the largest size fitted \(100M\), where the curves held out at the fitted sizes cannot check the law's N terms\. Fitted to 25M, 100M, the model-size law predicts at N = 400M final losses of \d\.\d{3} \(cosine_24000\), .*; the curves it held out at the fitted sizes it predicts with a mean error of [\d.]+%\.$/,
        );
        const finals = new Map(
          await page.$$eval('#analysis-table tbody tr', (trs) =>
            trs.map((tr) => [tr.cells[0].textContent, Number(tr.cells[tr.cells.length - 1].dataset.value)]),
          ),
        );
        assert.match(
          answer,
          new RegExp(`final losses of ${finals.get('N=400M cosine_24000').toFixed(3)} \\(cosine_24000\\)`),
        );
        // Another unseen size, written as researchers write sizes, is predicted at once (the
        // field changed the size only for the next press of the example); text that is no size
        // is refused with a message, and the answer stays.
        await page.fill('#sizefit-target', '1.3B');
        await page.dispatchEvent('#sizefit-target', 'change');
        await page.waitForFunction(
          () => /predicts at N = 1\.3B final losses/.test(document.querySelector('#analysis-answer').textContent),
          null,
          { timeout: 60000 },
        );
        const at13B = new Map(
          await page.$$eval('#analysis-table tbody tr', (trs) =>
            trs.map((tr) => [tr.cells[0].textContent, Number(tr.cells[tr.cells.length - 1].dataset.value)]),
          ),
        );
        assert.ok(at13B.get('N=1.3B cosine_24000') < finals.get('N=400M cosine_24000'), 'a larger model ends lower');
        await page.fill('#sizefit-target', '1.3 billion');
        await page.dispatchEvent('#sizefit-target', 'change');
        await page.waitForFunction(() =>
          /Predict at unseen N: "1\.3 billion" is not a model size/.test(
            document.querySelector('#message').textContent,
          ),
        );
        assert.equal(await page.inputValue('#sizefit-target'), '1.3B');
        assert.match(await page.textContent('#analysis-answer'), /N = 1\.3B/);
      } else await showView(page, id);
      const values = await page.$$eval('#analysis-table td[data-value]', (tds) =>
        tds.map((td) => Number(td.dataset.value)),
      );
      assert.ok(values.length >= 4 && values.every(Number.isFinite), `${id}: ${values.length} numbers`);
      // the compute table is a count, and the Paper view a list of claims (paper.test.mjs): no chart
      if (id !== 'compute' && id !== 'paper')
        assert.ok((await page.locator('#chart-analysis canvas').count()) >= 1, `${id}: no chart`);
    }

    // Constant vs cosine with the Fig. 2 fit: the crossover lies between 10K and 100K steps.
    await showView(page, 'constant-vs-cosine');
    const crossover = Number(await page.getAttribute('#analysis-result', 'data-crossover'));
    assert.ok(crossover > 10000 && crossover < 100000, `crossover ${crossover}`);
    assert.match(await page.getAttribute('#chart-analysis', 'data-series'), /crossover/);

    // The optimiser warns that the law's free-form optimum is a sudden drop.
    await showView(page, 'optimize');
    assert.match(await page.textContent('#analysis-note'), /sudden drop/);

    // The table's CSV.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#analysis-csv')]);
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n');
    // (with the fit's uncertainty: each family's ± and whether it is within the band of the best)
    assert.equal(lines[0], 'family,best,final loss,± (90%),within the band of the best,S1,S2,evaluations');
    assert.equal(lines.length, 6);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the model-size view computes again as the curves’ sizes are tagged: from “two sizes needed” to an answer from the page’s curves', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('#analyses-panel > summary');
    await page.selectOption('#analysis-view', 'sizefit');
    await page.waitForSelector('#analysis-error:not([hidden])');
    assert.match(await page.textContent('#analysis-error'), /two model sizes/);
    const fields = page.locator('#sizefit-curves input');
    assert.equal(await fields.count(), 2);
    await fields.nth(0).fill('100M');
    await fields.nth(0).dispatchEvent('change');
    await fields.nth(1).fill('400M');
    await fields.nth(1).dispatchEvent('change');
    // no Recompute pressed: the second size tagged computes the view
    await page.waitForFunction(
      () =>
        /^Fitted to 100M, 400M, the model-size law/.test(document.querySelector('#analysis-answer').textContent)
        && !/Computing/.test(document.querySelector('#analysis-status').textContent),
      null,
      { timeout: 60000 },
    );
    assert.match(await page.textContent('#analysis-status'), /your curves · 100M, 400M/);
    await fields.nth(0).fill('200M');
    await fields.nth(0).dispatchEvent('change');
    await page.waitForFunction(
      () => /^Fitted to 200M, 400M/.test(document.querySelector('#analysis-answer').textContent),
      null,
      { timeout: 60000 },
    );
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
