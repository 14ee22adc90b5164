// A malformed file is refused with a message that names it and the line; nothing else is lost.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser,
  openPage,
  waitForFit,
  messageText,
  curveNames,
  keepExample,
  saveSchedule,
} from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('a malformed file names itself and its line; loaded curves stay', async () => {
  const { context, page } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    assert.deepEqual(await curveNames(page), ['cosine', 'constant']);

    const bad = 'step,lr,loss\n1000,2e-4,3.67\n2000,2e-4,3.33\n3000,2e-4,three\n4000,2e-4,3.11\n';
    const good = 'step\tloss\n100\t4.0\n200\t3.8\n300\t3.7\n';
    await page.setInputFiles('#file-input', [
      { name: 'broken-run.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) },
      { name: 'good-run.tsv', mimeType: 'text/tab-separated-values', buffer: Buffer.from(good) },
    ]);
    await page.waitForSelector('#message:not([hidden])');
    const text = await messageText(page);
    assert.match(text, /broken-run\.csv/);
    assert.match(text, /line 4/i);
    assert.equal(await page.getAttribute('#message', 'role'), 'alert');

    // The good file was added (it has no LR column, so it asks for a schedule); the others stayed.
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 3);
    assert.deepEqual(await curveNames(page), ['cosine', 'constant', 'good-run']);
    assert.match(await page.textContent('#curve-list [data-curve-name="good-run"]'), /needs a schedule/);
    // The fit shown is still the Fig. 2 one.
    assert.equal(await page.textContent('#param-L0'), '2.628');

    // Fitting with a curve that has no schedule says so instead of failing somewhere deep.
    await page.click('#fit-button');
    await page.waitForFunction(() => /good-run/.test(document.querySelector('#message').textContent));
    assert.match(await messageText(page), /schedule/);
  } finally {
    await context.close();
  }
});

test('steps beyond the schedule: the fit names the curve and the step, and nothing is lost', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await keepExample(page); // the files below go beside the example
    // Logged to step 30,000, given a 20,000-step schedule.
    const text = `step,loss\n${[5000, 10000, 20000, 30000].map((s, i) => `${s},${(3.6 - 0.2 * i).toFixed(2)}`).join('\n')}\n`;
    await page.setInputFiles('#file-input', [
      { name: 'long-run.csv', mimeType: 'text/csv', buffer: Buffer.from(text) },
    ]);
    const row = page.locator('#curve-list [data-curve-name="long-run"]');
    await row.waitFor();
    await saveSchedule(page, row.getByRole('button', { name: /Schedule/ }), {
      kind: 'constant',
      fields: { total: '20000', peak: '2e-4' },
    });
    await page.waitForFunction(() =>
      /constant · 20,000 steps/.test(document.querySelector('#curve-list [data-curve-name="long-run"]').textContent),
    );

    await page.click('#fit-button');
    await page.waitForSelector('#message:not([hidden])');
    const message = await messageText(page);
    assert.match(message, /long-run/);
    // Flagged before the fit, in the page's words (lawcore would refuse it too).
    assert.match(message, /long-run: its schedule ends at step 20,000, before its last observed step 30,000/);
    // The previous fit and every curve stay; the page still fits once the curve is set aside.
    assert.equal(await page.textContent('#param-L0'), '2.628');
    assert.deepEqual(await curveNames(page), ['cosine', 'constant', 'long-run']);
    await row.getByRole('button', { name: /Remove/ }).click();
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted 2 curve/.test(document.querySelector('#status').textContent));
    assert.equal(await page.textContent('#param-L0'), '2.628');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
