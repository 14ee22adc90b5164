// Polish: every control has a label, and the fit can be run from the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit } from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('every input, select and textarea has a label', async () => {
  const { context, page } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const unlabelled = await page.$$eval('input:not([type=hidden]), select, textarea', (els) => els
      .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
      .map((el) => el.id || el.outerHTML.slice(0, 80)));
    assert.deepEqual(unlabelled, []);
  } finally {
    await context.close();
  }
});

test('the fit runs from the keyboard', async () => {
  const { context, page } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    await page.fill('#lambda', '0.998');
    await page.focus('#fit-button');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /^Fitted/.test(document.querySelector('#status').textContent));
    assert.notEqual(await page.textContent('#param-L0'), '2.628');
  } finally {
    await context.close();
  }
});
