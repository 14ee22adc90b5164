// After one visit the calculator loads and fits with the server stopped and the browser
// offline: the service worker serves every file from its cache. A new build replaces it. The
// page can be installed as an app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import {
  startServer,
  launchBrowser,
  openPage,
  waitForFit,
  params,
  ROOT,
  SITE,
  CHROMIUM,
  CHROMIUM_ARGS,
} from './harness.mjs';

/** controlled waits until a service worker has cached the build and controls the page. */
function controlled(page) {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    }
  });
}

const cacheNames = (page) => page.evaluate(async () => caches.keys());

test('with the server stopped and the browser offline, a reload still fits the example', async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const { context, page, errors } = await openPage(browser, server.url, { serviceWorkers: 'allow' });
    await waitForFit(page);
    await controlled(page);
    const cached = (await cacheNames(page)).join(' ');
    assert.match(cached, /^annealing-calculator-[0-9a-f]{16}$/);

    await server.stop();
    await context.setOffline(true);
    await page.reload();
    await waitForFit(page);
    assert.deepEqual(await params(page), { L0: '2.628', A: '0.430', C: '0.411', alpha: '0.550' });
    assert.deepEqual(
      errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e)),
      [],
    );
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
});

test('a new build replaces the old cache, and the page shows the new build', async () => {
  // A copy of the build, served, visited, then rebuilt in place (one changed file, a new
  // sw-manifest.js and their compressed copies, as `make build` writes them). Timestamps kept:
  // precompress then rewrites only the copies of the files changed here.
  const dir = mkdtempSync(path.join(tmpdir(), 'lawcalc-site-'));
  cpSync(SITE, dir, { recursive: true, preserveTimestamps: true });
  const server = await startServer(dir);
  const browser = await launchBrowser();
  try {
    const { context, page, errors } = await openPage(browser, server.url, { serviceWorkers: 'allow' });
    await waitForFit(page);
    await controlled(page);
    const [oldCache] = await cacheNames(page);

    const index = path.join(dir, 'index.html');
    writeFileSync(
      index,
      readFileSync(index, 'utf8').replace(
        '<footer class="page-footer">',
        '<footer class="page-footer" data-build="new">',
      ),
    );
    execFileSync(path.join(ROOT, 'scripts/sw-manifest.sh'), [dir]);
    execFileSync('go', ['run', './scripts/precompress', '-dir', dir], { cwd: ROOT });
    // The browser checks the worker's scripts on navigation, installs the new one, and that one
    // deletes the old cache when it takes over.
    await page.reload();
    let names = [];
    for (const deadline = Date.now() + 30000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      names = await cacheNames(page);
      if (names.length === 1 && names[0] !== oldCache) break;
    }
    assert.equal(names.length, 1, `caches: ${names}`);
    const [newCache] = names;
    assert.match(newCache, /^annealing-calculator-[0-9a-f]{16}$/);
    assert.notEqual(newCache, oldCache);
    // Served from the new cache, offline: the new build.
    await server.stop();
    await context.setOffline(true);
    await page.reload();
    await waitForFit(page);
    assert.equal(await page.getAttribute('footer', 'data-build'), 'new');
    assert.deepEqual(await params(page), { L0: '2.628', A: '0.430', C: '0.411', alpha: '0.550' });
    assert.deepEqual(
      errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e)),
      [],
    );
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the page can be installed as an app: Chromium finds nothing missing', async () => {
  const server = await startServer();
  // Not an incognito context (Playwright's contexts are): a profile on disk, as a user's.
  const profile = mkdtempSync(path.join(tmpdir(), 'lawcalc-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await context.newPage();
    await page.goto(server.url);
    await waitForFit(page);
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, []);
    const parsed = JSON.parse(manifest.data);
    assert.equal(parsed.display, 'standalone');
    assert.equal(parsed.start_url, './');
  } finally {
    await context.close();
    await server.stop();
    rmSync(profile, { recursive: true, force: true });
  }
});
