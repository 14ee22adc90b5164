// After one visit the calculator loads and fits with the server stopped and the browser
// offline: the service worker serves every file from its cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, waitForFit, params } from './harness.mjs';

test('with the server stopped and the browser offline, a reload still fits the example', async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const { context, page, errors } = await openPage(browser, server.url, { serviceWorkers: 'allow' });
    await waitForFit(page);
    // wait until the service worker has cached the build and controls the page
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
      }
    });
    const cached = await page.evaluate(async () => (await caches.keys()).join(' '));
    assert.match(cached, /^annealing-calculator-[0-9a-f]{16}$/);

    await server.stop();
    await context.setOffline(true);
    await page.reload();
    await waitForFit(page);
    assert.deepEqual(await params(page), { L0: '2.628', A: '0.430', C: '0.411', alpha: '0.550' });
    assert.deepEqual(errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e)), []);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});
