// Measures how long the page takes from navigation to the fitted Fig. 2 parameters on screen,
// median of 5 cold loads (a new browser context each time). Not a test: run it by hand,
//   node tests/browser/measure-load.mjs      (after make build)
import { startServer, launchBrowser } from './harness.mjs';

const RUNS = 5;
const server = await startServer();
const browser = await launchBrowser();
try {
  const times = [];
  const breakdown = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.url, { waitUntil: 'commit' });
    // performance.now() counts from the navigation's start.
    const handle = await page.waitForFunction(
      () => document.querySelector('#param-L0')?.textContent === '2.628' && performance.now(),
      null, { timeout: 60000, polling: 'raf' });
    times.push(await handle.jsonValue());
    await page.waitForFunction(() => performance.getEntriesByName('example-shown').length > 0);
    const marks = await page.evaluate(() => ({
      ready: performance.getEntriesByName('lawcore-ready')[0].startTime,
      shown: performance.getEntriesByName('example-shown')[0].startTime,
      module: performance.getEntriesByType('resource').find((r) => r.name.endsWith('/js/main.js'))?.responseEnd,
    }));
    breakdown.push(marks);
    await context.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`loads (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`);
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`median: main.js loaded ${med(breakdown.map((b) => b.module)).toFixed(0)} ms, lawcore.wasm ready in its worker ${med(breakdown.map((b) => b.ready)).toFixed(0)} ms, example fitted, predicted and drawn ${med(breakdown.map((b) => b.shown)).toFixed(0)} ms`);
  console.log(`median from navigation to the fitted Fig. 2 parameters: ${sorted[Math.floor(RUNS / 2)].toFixed(0)} ms`);
} finally {
  await browser.close();
  await server.stop();
}
