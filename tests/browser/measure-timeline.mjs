// Where the cold first view's time goes: for each of RUNS cold loads (a new browser context, no
// HTTP cache, no service worker), when the page's scripts arrived, when the worker started and
// fetched the core, when the core was instantiated and Go was up, when the page had read the
// stored work, when each of the worker's first calls (the example's fit and predictions) started
// and was answered, and when the fitted Fig. 2 was on screen, all in ms from navigation. The
// worker's marks are site/worker.js's. With REPEAT=ms, repeat visits instead: one context with
// the service worker allowed, a first visit, then RUNS reloads, each after REPEAT ms on the page
// (the worker's warm-up run, V8's code cache kept), the example kept as fitted deleted before each
// so that it is fitted again (KEPT=1 keeps it: the page then shows it as kept, with no call to
// lawcore). Not a test: run it by hand after make build,
//   node tests/browser/measure-timeline.mjs [SITE_DIR]      (RUNS=5 by default)
import { startServer, launchBrowser, firstViewShown, forgetKeptExample, KEPT_EXAMPLE_DB } from './harness.mjs';

const RUNS = Number(process.env.RUNS || 5);
const REPEAT = process.env.REPEAT === undefined ? null : Number(process.env.REPEAT);
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServer(process.argv[2]);
const browser = await launchBrowser({ person: true });
const spans = new Map(); // label -> [ms] over the runs, for the medians
const keep = (label, ms) => spans.set(label, [...(spans.get(label) || []), ms]);
try {
  const repeatContext = REPEAT === null ? null : await browser.newContext({ serviceWorkers: 'allow' });
  const repeatPage = repeatContext && (await repeatContext.newPage());
  if (repeatPage) {
    await repeatPage.goto(server.url);
    await repeatPage.waitForFunction(firstViewShown, null, { timeout: 60000 });
  }
  for (let run = 0; run < RUNS; run++) {
    const context = repeatContext || (await browser.newContext({ serviceWorkers: 'block' }));
    const page = repeatPage || (await context.newPage());
    if (repeatPage) {
      await page.waitForTimeout(REPEAT);
      if (process.env.KEPT !== '1') await page.evaluate(forgetKeptExample, KEPT_EXAMPLE_DB);
      await page.reload({ waitUntil: 'commit' });
    } else {
      await page.goto(server.url, { waitUntil: 'commit' });
    }
    const shown = await (
      await page.waitForFunction(firstViewShown, null, { timeout: 60000, polling: 'raf' })
    ).jsonValue();
    const onPage = await page.evaluate(() => {
      const ends = Object.fromEntries(
        performance.getEntriesByType('resource').map((e) => [e.name.split('/').pop(), e.responseEnd]),
      );
      const mark = (name) => performance.getEntriesByName(name)[0]?.startTime;
      return {
        origin: performance.timeOrigin,
        dcl: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
        boot: ends['boot.js'],
        main: ends['main.js'],
        ready: mark('lawcore-ready'),
        read: mark('workspace-read'),
        restored: mark('example-restored'),
      };
    });
    // The worker's clock starts when it does: its marks are moved onto the page's.
    const inWorker = await page.workers()[0].evaluate(() => ({
      origin: performance.timeOrigin,
      marks: performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]),
      core: performance.getEntriesByType('resource').find((e) => /lawcore-core/.test(e.name)),
    }));
    const shift = inWorker.origin - onPage.origin;
    const rows = [
      ['boot.js loaded', onPage.boot],
      ['main.js loaded', onPage.main],
      ['worker started', shift],
      ['core fetched', inWorker.core && inWorker.core.responseEnd + shift],
      ...inWorker.marks.map(([name, t]) => [
        name
          .replace(/^.*lawcore-core.*instantiated$/, 'core instantiated')
          .replace(/^core-up$/, 'Go up (core ready in the worker)'),
        t + shift,
      ]),
      ['page told lawcore is ready', onPage.ready],
      ['stored work read', onPage.read],
      ['DOMContentLoaded', onPage.dcl],
      ['example shown as kept', onPage.restored],
      ['fitted Fig. 2 on screen', shown],
    ]
      .filter(([, t]) => Number.isFinite(t))
      .sort((a, b) => a[1] - b[1]);
    console.log(`load ${run + 1}: ${rows.map(([label, t]) => `${label} ${t.toFixed(0)}`).join(' · ')}`);
    for (const [label, t] of rows) keep(label.replace(/^call \d+ /, ''), t);
    if (!repeatContext) await context.close();
  }
  if (repeatContext) await repeatContext.close();
  console.log(
    `medians over ${RUNS} ${REPEAT === null ? 'cold loads' : `repeat visits after ${REPEAT} ms on the page`} (ms from navigation):`,
  );
  for (const [label, ts] of [...spans].sort((a, b) => med(a[1]) - med(b[1])))
    console.log(`  ${med(ts).toFixed(0).padStart(5)}  ${label}`);
} finally {
  await browser.close();
  await server.stop();
}
