// The worker that runs lawcore can die (a failed load, a crash): the page replaces it, says so,
// and keeps its curves and results.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, openPage, waitForFit, params, messageText } from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('a worker that fails to load lawcore.wasm is replaced, and the start-up fit waiting for it runs in the new one', async () => {
  // no service worker: its cache would fetch lawcore.wasm too, past the route
  const context = await env.browser.newContext({ serviceWorkers: 'block' });
  let failed = 0;
  await context.route('**/assets/lawcore-core.*.wasm', async (route) => {
    // The worker asks twice (streaming, then a plain fetch) before it gives up. The answers come
    // late, so that the page has asked for the example's fit before the worker dies: the fit
    // waits for lawcore, in the next worker.
    if (failed++ < 2) {
      await new Promise((r) => setTimeout(r, 1500));
      return route.fulfill({ status: 503, body: 'unavailable' });
    }
    return route.continue();
  });
  const page = await context.newPage();
  try {
    await page.goto(env.url);
    await waitForFit(page);
    assert.equal((await params(page)).L0, '2.628');
    assert.equal(failed, 3, 'the new worker requested lawcore.wasm again');
    assert.match(await messageText(page), /HTTP 503.*restarted/);
    assert.match(await page.textContent('#status'), /^Fitted/);
  } finally {
    await context.close();
  }
});

test('a worker that crashes mid-session is replaced without losing the page', async () => {
  const { context, page } = await openPage(env.browser, env.url);
  try {
    await waitForFit(page);
    const curves = await page.$$eval('#curve-list [data-curve-name]', (rows) => rows.map((r) => r.dataset.curveName));
    // Simulate an uncaught error in the worker.
    await page.evaluate(() =>
      globalThis.lawcoreClient.worker.dispatchEvent(new ErrorEvent('error', { message: 'simulated crash' })),
    );
    await page.waitForSelector('#message:not([hidden])');
    assert.match(await messageText(page), /simulated crash.*restarted/);
    assert.deepEqual(
      await page.$$eval('#curve-list [data-curve-name]', (rows) => rows.map((r) => r.dataset.curveName)),
      curves,
    );
    assert.equal((await params(page)).L0, '2.628');
    // The new worker fits.
    await page.fill('#lambda', '0.998');
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted/.test(document.querySelector('#status').textContent));
    assert.notEqual((await params(page)).L0, '2.628');
  } finally {
    await context.close();
  }
});
