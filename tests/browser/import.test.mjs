// Importing through lawcore's `import`: a W&B panel export with two runs (and __MIN/__MAX
// columns) asks which runs to take and imports both; the loss at step 0 is dropped with a note.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit, messageText } from './harness.mjs';

const env = useServerAndBrowser(before, after);

const curveNames = (page) => page.$$eval('#curve-list [data-curve-name]', (rows) => rows.map((r) => r.dataset.curveName));

test('a W&B export with two runs asks which runs and imports both', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const head = 'Step,runA - train/loss,runA - train/loss__MIN,runA - train/loss__MAX,runB - train/loss,runB - train/loss__MIN,runB - train/loss__MAX';
    const rows = [0, 100, 200, 300, 400].map((s, i) => [s, 5 - i * 0.4, 5 - i * 0.4, 5 - i * 0.4, 5.1 - i * 0.4, 5.1 - i * 0.4, 5.1 - i * 0.4].join(','));
    await page.setInputFiles('#file-input', [{ name: 'wandb_export.csv', mimeType: 'text/csv', buffer: Buffer.from([head, ...rows].join('\n') + '\n') }]);

    const dialog = page.locator('#import-dialog');
    await dialog.waitFor({ state: 'visible' });
    assert.match(await page.textContent('#import-message'), /2 runs/);
    const options = await page.$$eval('#import-options input', (xs) => xs.map((x) => ({ type: x.type, value: x.value, checked: x.checked })));
    assert.deepEqual(options, [{ type: 'checkbox', value: 'runA', checked: true }, { type: 'checkbox', value: 'runB', checked: true }]);
    await page.click('#import-ok');
    await dialog.waitFor({ state: 'hidden' });

    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 4);
    assert.deepEqual(await curveNames(page), ['cosine', 'constant', 'runA', 'runB']);
    // Step 0 is dropped (the fit needs steps >= 1), with a note.
    assert.match(await page.textContent('#curve-list [data-curve-name="runA"]'), /4 points, steps 100–400/);
    assert.match(await messageText(page), /step 0/);
    assert.match(await page.textContent('#curve-list [data-curve-name="runB"]'), /needs a schedule/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a file with an LR column gets an explicit schedule through its points', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const text = 'step,lr,loss\n0,0,6\n500,2e-4,4\n1000,2e-4,3.6\n1500,1e-4,3.4\n2000,0,3.3\n';
    await page.setInputFiles('#file-input', [{ name: 'with-lr.csv', mimeType: 'text/csv', buffer: Buffer.from(text) }]);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 3);
    assert.match(await page.textContent('#curve-list [data-curve-name="with-lr"]'), /LR from the file/);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
