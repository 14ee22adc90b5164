// Measures keeping a million-point workspace in IndexedDB: how long its first save takes (the
// points written), a save after a change of settings (the record alone), and on reload how long
// until the stored work is read, restored (listed and drawn from the stored fit), and the same
// for the page's first paint of the example without stored work, for comparison. Median of 3
// runs, each in a new browser context. Not a test: run it by hand (after make build),
//   node tests/browser/measure-persist.mjs
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, launchBrowser, waitForFit } from './harness.mjs';

const RUNS = 3;
const POINTS = 1_000_000;

const rows = ['step,lr,loss'];
let s1 = 0;
for (let s = 1; s <= POINTS; s++) {
  const lr = s < 0.8 * POINTS ? 3e-4 : 3e-4 * (1 - (0.9 * (s - 0.8 * POINTS)) / (0.2 * POINTS));
  s1 += lr;
  rows.push(`${s},${lr.toExponential(5)},${(2.5 + 0.45 * s1 ** -0.5).toFixed(6)}`);
}
const dir = mkdtempSync(path.join(tmpdir(), 'lawcalc-persist-'));
const file = path.join(dir, 'million.csv');
writeFileSync(file, `${rows.join('\n')}\n`);

/** saves are the durations of the page's saves so far (performance measures), in ms. */
const saves = (page) => page.evaluate(() => performance.getEntriesByName('workspace-save').map((e) => e.duration));
const savedAt = (page) => page.evaluate(() => Number(document.querySelector('#workspace-footer').dataset.savedAt));
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServer();
const browser = await launchBrowser({ person: true });
const got = { first: [], record: [], read: [], restored: [], drawn: [], example: [] };
try {
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await waitForFit(page);
    got.example.push(await page.evaluate(() => performance.getEntriesByName('example-shown')[0].startTime));
    await page.click('#clear-curves');
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => document.querySelector('#curve-list [data-curve-name="million"]'), null, {
      timeout: 120000,
    });
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted/.test(document.querySelector('#status').textContent), null, {
      timeout: 120000,
    });
    await page.waitForFunction(
      () =>
        performance.getEntriesByName('workspace-save').length > 0
        && !document.querySelector('#workspace-footer').dataset.saving,
      null,
      { timeout: 120000 },
    );
    await page.waitForTimeout(1000); // any save the fit started
    const before = await savedAt(page);
    got.first.push((await saves(page))[0]);
    await page.fill('#lambda', '0.998');
    await page.dispatchEvent('#lambda', 'change');
    await page.waitForFunction((t) => Number(document.querySelector('#workspace-footer').dataset.savedAt) > t, before);
    got.record.push((await saves(page)).at(-1));

    await page.reload({ waitUntil: 'commit' });
    await page.waitForFunction(
      () =>
        performance.getEntriesByName('workspace-restored').length > 0 && document.querySelector('#chart-loss canvas'),
      null,
      { timeout: 120000, polling: 'raf' },
    );
    const drawnAt = await page.evaluate(() => performance.now());
    await waitForFit(page);
    const marks = await page.evaluate(() => ({
      read: performance.getEntriesByName('workspace-read')[0].startTime,
      restored: performance.getEntriesByName('workspace-restored')[0].startTime,
      points: document.querySelector('#curve-list [data-curve-name="million"] .row-sub').textContent,
    }));
    if (!/^1000000 points/.test(marks.points)) throw new Error(`restored: ${marks.points}`);
    got.read.push(marks.read);
    got.restored.push(marks.restored);
    got.drawn.push(drawnAt);
    await context.close();
  }
  const f = (xs) => `${med(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;
  console.log(
    `a ${POINTS.toLocaleString('en')}-point workspace (its curve, the LR file's schedule and the fit), median of ${RUNS}:`,
  );
  console.log(`  first save (its points written):       ${f(got.first)}`);
  console.log(`  save after a change of settings:      ${f(got.record)}`);
  console.log(`  reload: stored work read at           ${f(got.read)} from navigation`);
  console.log(`  reload: restored on the page at       ${f(got.restored)}, drawn at ${f(got.drawn)}`);
  console.log(`  for comparison, the example fitted and drawn at ${f(got.example)} on a first visit`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
