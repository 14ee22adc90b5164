// Undo: every removal, "clear all" and loading an example over the user's view can be undone,
// the latest first; an undo that brings back what the fit used leaves the fit current; the
// keyboard focus never falls to the page's body.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit, curveNames, keepExample } from './harness.mjs';

const env = useServerAndBrowser(before, after);

const predictionNames = (page) =>
  page.$$eval('#predict-list [data-schedule-name]', (rows) => rows.map((r) => r.dataset.scheduleName));
const focused = (page) =>
  page.evaluate(
    () =>
      document.activeElement.getAttribute('aria-label') || document.activeElement.id || document.activeElement.tagName,
  );

test('removals undo one after the other, the latest first, and the fit is current again', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    assert.equal(await page.isHidden('#stale-note'), true);
    await page.focus('[aria-label="Remove cosine"]');
    await page.keyboard.press('Enter');
    // The focus moves to the next row's remove button.
    assert.equal(await focused(page), 'Remove constant');
    assert.equal(await page.isHidden('#stale-note'), false);
    await page.keyboard.press('Enter');
    assert.deepEqual(await curveNames(page), []);
    assert.equal(await focused(page), 'undo-button');
    assert.match(await page.textContent('#undo-text'), /Removed constant\. \(2 changes to undo\)/);

    await page.keyboard.press('Enter');
    assert.deepEqual(await curveNames(page), ['constant']);
    assert.equal(await focused(page), 'Remove constant');
    assert.match(await page.textContent('#undo-text'), /^Removed cosine\.$/);
    await page.click('#undo-button');
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);
    assert.equal(await page.isHidden('#undo-bar'), true);
    assert.equal(await page.isHidden('#stale-note'), true, 'the curves the fit used are back: the fit is current');

    // A schedule to predict, removed and brought back in its place.
    const before = await predictionNames(page);
    await page.click(`[aria-label="Remove ${before[1]}"]`);
    assert.equal(await focused(page), `Remove ${before[2]}`);
    await page.click('#undo-button');
    assert.deepEqual(await predictionNames(page), before);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('an undo after another change leaves the fit stale', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.click('[aria-label="Remove cosine"]');
    await page.fill('#huber-delta', '0.002');
    await page.dispatchEvent('#huber-delta', 'change');
    await page.click('#undo-button');
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);
    assert.equal(await page.isHidden('#stale-note'), false, 'the settings changed since the fit');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('"clear all" and loading an example over the curves are undone too', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await keepExample(page); // mine.csv goes beside the example
    await page.setInputFiles('#file-input', [
      {
        name: 'mine.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('step,lr,loss\n100,1e-4,4\n200,1e-4,3.8\n300,1e-4,3.7\n'),
      },
    ]);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 3);
    await page.click('#clear-curves');
    assert.deepEqual(await curveNames(page), []);
    assert.deepEqual(await predictionNames(page), [], '"clear all" clears the schedules to predict too');
    assert.match(await page.textContent('#undo-text'), /Cleared 3 curve\(s\) and 5 schedule\(s\) to predict/);
    await page.click('#undo-button');
    assert.deepEqual(await curveNames(page), ['cosine', 'constant', 'mine']);
    assert.equal((await predictionNames(page)).length, 5);

    await page.fill('#lambda', '0.995');
    await page.dispatchEvent('#lambda', 'change');
    await page.click('#example-mpl25');
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 9, null, {
      timeout: 30000,
    });
    await waitForFit(page);
    assert.match(await page.textContent('#undo-text'), /Loaded the MultiPowerLaw 25M example/);
    await page.click('#undo-button');
    assert.deepEqual(await curveNames(page), ['cosine', 'constant', 'mine']);
    assert.equal(await page.inputValue('#lambda'), '0.995');
    assert.equal(await page.textContent('#param-L0'), '2.628');
    assert.equal((await predictionNames(page)).length, 5);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('after the schedule dialog the focus is back on the button that opened it', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.focus('[aria-label="Schedule of cosine"]');
    await page.keyboard.press('Enter');
    await page.locator('#schedule-dialog').waitFor({ state: 'visible' });
    await page.click('#schedule-save');
    await page.locator('#schedule-dialog').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement.getAttribute('aria-label') === 'Schedule of cosine');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
