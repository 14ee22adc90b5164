// The first view runs on the small core (lawcore-core.wasm): the full lawcore.wasm is not
// downloaded until a call needs it; then the page says what it is loading, and the call gets
// its answer. In a person's browser the worker then warms up for the next visit, and calls made
// meanwhile are answered as ever.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, waitForFit, params, fullParams } from './harness.mjs';

const env = useServerAndBrowser(before, after);

test('the first view loads only the core; the first analysis loads lawcore.wasm, saying so', async () => {
  const context = await env.browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const wasm = [];
    const finished = [];
    context.on('requestfinished', (r) => finished.push(r));
    // The page's requests and its worker's, names without their hash.
    context.on('request', (r) => {
      if (r.url().endsWith('.wasm'))
        wasm.push(
          r
            .url()
            .replace(/.*\//, '')
            .replace(/\.[0-9a-f]{12}\./, '.'),
        );
    });
    await page.goto(env.url);
    await waitForFit(page);
    assert.deepEqual(await params(page), { L0: '2.628', A: '0.430', C: '0.411', alpha: '0.550' });
    assert.deepEqual(wasm, ['lawcore-core.wasm'], 'the first view downloads the core only');
    // The first view's budget (docs/performance.md): at most 1.0 MB sent, bodies and headers, as
    // tests/browser/measure-load.mjs counts them. Chromium reports the worker script's body as 0
    // bytes; its Content-Length says what was sent.
    const sizes = await Promise.all(
      finished.map(async (r) => {
        const s = await r.sizes();
        const length = Number((await r.response())?.headers()['content-length'] || 0);
        return (s.responseBodySize || length) + s.responseHeadersSize;
      }),
    );
    const sent = sizes.reduce((a, b) => a + b, 0);
    assert.ok(sent <= 1_000_000, `the first view sent ${sent} bytes in ${sizes.length} requests, over its 1,000,000`);
    assert.ok(await page.isHidden('#engine-loading'));

    // Every text the loading line shows from now on.
    await page.evaluate(() => {
      const line = document.querySelector('#engine-loading');
      globalThis.loadingSeen = [];
      new MutationObserver(() => {
        if (!line.hidden) globalThis.loadingSeen.push(line.textContent);
      }).observe(line, { attributes: true, childList: true, characterData: true, subtree: true });
    });
    await page.click('#analyses-panel > summary');
    await page.waitForFunction(() => !document.querySelector('#analysis-table').hidden, null, { timeout: 60000 });
    const values = await page.$$eval('#analysis-table td[data-value]', (tds) =>
      tds.map((td) => Number(td.dataset.value)),
    );
    assert.ok(values.length >= 4 && values.every(Number.isFinite), `${values.length} numbers`);
    const seen = await page.evaluate(() => globalThis.loadingSeen);
    assert.ok(
      seen.some((t) => t === 'Loading the importers, analyses and other laws (lawcore.wasm)…'),
      `loading line: ${JSON.stringify(seen)}`,
    );
    await page.waitForFunction(() => document.querySelector('#engine-loading').hidden);
    assert.deepEqual(wasm, ['lawcore-core.wasm', 'lawcore.wasm']);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("in a person's browser the worker warms up after the first view, and a fit asked meanwhile is the same fit", async () => {
  const context = await env.browser.newContext({ serviceWorkers: 'block' });
  try {
    // navigator.webdriver false, as without automation: the page lets its worker warm up
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }));
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(env.url);
    await waitForFit(page);
    assert.equal(await page.evaluate(() => navigator.webdriver), false);
    const first = await fullParams(page);
    // past the worker's 700 ms of idleness: its replays of the first fit are under way
    await page.waitForTimeout(1500);
    await page.evaluate(() => {
      document.querySelector('#status').textContent = '';
    });
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted/.test(document.querySelector('#status').textContent), null, {
      timeout: 30000,
    });
    await waitForFit(page);
    assert.deepEqual(await fullParams(page), first, 'the same parameters, to the last digit');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
