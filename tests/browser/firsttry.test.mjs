// A researcher's first try with their own runs (issue 18): the schedule of a curve comes from
// its data, the example is an example, every view works for every law, errors in percent and
// exports as dense as the charts, legends grouped by curve, answers in a table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit, curveNames, messageText } from './harness.mjs';

const env = useServerAndBrowser(before, after);

/**
 * runCSV is a 10K-step run logged every 50 steps, computed here: a linear warmup to 3e-4 over
 * 800 steps then cosine to 0, and the annealing law's loss for it (L0 2.6, A 0.45, alpha 0.5,
 * C 0.4, lambda 0.999, the areas summed from step 0 as run).
 */
function runCSV() {
  const total = 10000;
  const lrAt = (s) => (s < 800 ? 3e-4 * s / 800 : 1.5e-4 * (1 + Math.cos(Math.PI * (s - 800) / (total - 800))));
  let s1 = 0;
  let s2 = 0;
  let m = 0;
  let prev = lrAt(0);
  const rows = ['step,lr,loss'];
  for (let s = 0; s <= total; s++) {
    const lr = lrAt(s);
    if (s > 0) m = 0.999 * m + (prev - lr);
    s1 += lr;
    s2 += m;
    prev = lr;
    if (s % 50 === 0 && s > 0) rows.push(`${s},${lr},${2.6 + 0.45 * (s1 * 1e3) ** -0.5 - 0.4 * s2 * 1e3}`);
  }
  return rows.join('\n') + '\n';
}

/** addFile adds a CSV file as the user would (the file chooser). */
const addFile = (page, name, text) => page.setInputFiles('#file-input', [{ name, mimeType: 'text/csv', buffer: Buffer.from(text) }]);

const predictionNames = (page) => page.$$eval('#predict-list [data-schedule-name]', (rows) => rows.map((r) => r.dataset.scheduleName));

test('a preset keeps a 10K-step curve at 10K steps and its peak 3e-4; a schedule that disagrees is flagged', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await addFile(page, 'run10k.csv', runCSV());
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="run10k"]'));
    // The first file replaced the example, and the warmup setting is the one its LR shows.
    assert.deepEqual(await curveNames(page), ['run10k']);
    assert.equal(await page.inputValue('#warmup-steps'), '800');

    await page.click('[aria-label="Schedule of run10k"]');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelectorAll('#schedule-preset option').length > 10);
    await page.selectOption('#schedule-preset', 'cosine');
    assert.equal(await page.inputValue('#sf-total'), '10000');
    assert.equal(await page.inputValue('#sf-peak'), '0.0003');
    assert.equal(await page.inputValue('#sf-warmup'), '800');
    assert.match(await page.textContent('#schedule-origin'), /from the curve: its last step 10,000, the peak 3e-4/);
    // The preview agrees with the column: no warning.
    await page.waitForFunction(() => /10,000 steps · peak 3e-4 · final 0 · warmup 800/.test(document.querySelector('#schedule-info').textContent));
    assert.ok(await page.locator('#schedule-warning').isHidden());

    // A peak that is not the data's is flagged in the dialog, then in the row and before the fit.
    await page.fill('#sf-peak', '2e-4');
    await page.waitForFunction(() => /differs from its LR column: 2e-4 instead of 3e-4/.test(document.querySelector('#schedule-warning').textContent));
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => /differs from its LR column/.test(document.querySelector('#curve-list [data-curve-name="run10k"]').dataset.scheduleProblems));
    await page.click('#fit-button');
    await page.waitForFunction(() => /run10k: its schedule's LR differs/.test(document.querySelector('#message').textContent));
    await waitForFit(page); // fitted as asked, flagged
    const fitted = await page.textContent('#status');

    // A schedule that ends before the data is flagged and not fitted.
    await page.click('[aria-label="Schedule of run10k"]');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.fill('#sf-total', '8000');
    await page.fill('#sf-peak', '3e-4');
    await page.waitForFunction(() => /ends at step 8,000, before its last observed step 10,000/.test(document.querySelector('#schedule-warning').textContent));
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => /ends at step 8,000/.test(document.querySelector('#curve-list [data-curve-name="run10k"]').dataset.scheduleProblems));
    await page.click('#fit-button');
    await page.waitForFunction(() => /run10k: its schedule ends at step 8,000.*runs to the end of its data/.test(document.querySelector('#message').textContent));
    assert.equal(await page.textContent('#status'), fitted, 'nothing was fitted');

    // A schedule to predict starts from the loaded run, not from the example's 60K at 2e-4.
    await page.click('#add-prediction');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    assert.equal(await page.inputValue('#sf-total'), '10000');
    assert.equal(await page.inputValue('#sf-peak'), '0.0003');
    assert.equal(await page.inputValue('#sf-warmup'), '800');
    await page.click('#schedule-cancel');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the example is labelled, replaced wholly by the first file (Undo brings it back), and "clear all" clears its schedules', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    assert.match(await page.textContent('#example-note'), /Example: the paper’s Fig\. 2/);
    assert.equal((await predictionNames(page)).length, 5);
    assert.match(await page.textContent('#predict-example-note'), /5 of these come with the example/);

    await addFile(page, 'run10k.csv', runCSV());
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="run10k"]'));
    assert.deepEqual(await curveNames(page), ['run10k']);
    assert.deepEqual(await predictionNames(page), [], 'the example\'s schedules went with it');
    assert.ok(await page.locator('#example-note').isHidden());
    assert.equal(await page.textContent('#param-L0'), '–', 'the example\'s fit went with it');
    assert.match(await messageText(page), /Your data replaced the paper’s Fig\. 2 example/);
    assert.match(await page.textContent('#undo-text'), /Your data replaced the paper’s Fig\. 2 example/);

    await page.click('#undo-button');
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 2);
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);
    assert.equal((await predictionNames(page)).length, 5);
    assert.equal(await page.textContent('#param-L0'), '2.628');
    assert.equal(await page.inputValue('#warmup-steps'), '500');
    assert.ok(await page.locator('#example-note').isVisible());

    await page.click('#clear-curves');
    assert.deepEqual(await curveNames(page), []);
    assert.deepEqual(await predictionNames(page), [], '"clear all" leaves no example schedule');
    assert.equal(await page.textContent('#param-L0'), '–');
    assert.ok(await page.locator('#example-note').isHidden());
    await page.click('#undo-button');
    await page.waitForFunction(() => document.querySelectorAll('#predict-list [data-schedule-name]').length === 5);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
