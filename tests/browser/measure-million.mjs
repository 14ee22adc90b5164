// Measures a million-point file in the page, as a user gets it from `make serve`: a 1,000,000-row
// CSV (step, lr, loss: a WSD run of the annealing law) chosen in the file input, the time until
// it is a curve on the page; then Fit with the annealing law (auto off), the time until the
// status says it is fitted and the charts are drawn; median of 3 rounds; then one auto fit (the
// default for one's own curves), which fits each candidate on held-out folds. Not a test: run it
// by hand,
//   node tests/browser/measure-million.mjs      (after make build)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, launchBrowser, openPage, waitForFit, millionSteps } from './harness.mjs';

const ROUNDS = 3;
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(path.join(tmpdir(), 'lawcalc-million-'));
const file = path.join(dir, 'million.csv');
millionSteps(file);

/** fitted waits for a finished fit, its status and its charts. */
async function fitted(page) {
  await page.waitForFunction(
    () => /^Fitted (.* to )?1 curve/.test(document.querySelector('#status').textContent),
    null,
    { timeout: 600000 },
  );
  await waitForFit(page, 600000);
}

const server = await startServer();
const browser = await launchBrowser({ person: true });
try {
  const { page } = await openPage(browser, server.url);
  await waitForFit(page);
  const loads = [];
  const fits = [];
  for (let round = 0; round < ROUNDS; round++) {
    await page.click('#clear-curves');
    let t = Date.now();
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 1, null, {
      timeout: 600000,
    });
    loads.push(Date.now() - t);
    if (await page.isChecked('#auto')) await page.uncheck('#auto');
    t = Date.now();
    await page.click('#fit-button');
    await fitted(page);
    fits.push(Date.now() - t);
  }
  console.log(`a 1,000,000-row file, ${ROUNDS} rounds (ms)`);
  console.log(`  chosen to loaded as a curve: ${loads.join(', ')}; median ${med(loads)}`);
  console.log(`  Fit (annealing law) to fitted and drawn: ${fits.join(', ')}; median ${med(fits)}`);
  console.log(`  status: ${await page.textContent('#status')}`);
  await page.check('#auto');
  const t = Date.now();
  await page.click('#fit-button');
  await fitted(page);
  console.log(`  Fit with auto to fitted and drawn: ${Date.now() - t} (${await page.textContent('#status')})`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
