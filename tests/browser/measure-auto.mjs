// Measures auto on the MultiPowerLaw 25M example in the page, as a user gets it from
// `make serve`: the nine curves uploaded, three marked fit and six validate (the release's
// split), 2160 warmup steps, and Fit with auto (the default for one's own curves): every
// candidate law fitted on every held-out fold, then the chosen (or the average's members) on
// every curve. Prints the time from the click to the fitted, drawn view for 3 rounds (the
// first also loads lawcore.wasm, which auto runs in), the status line and the progress seen.
// Not a test: run it by hand,
//   node tests/browser/measure-auto.mjs      (after make build)
import path from 'node:path';
import { startServer, launchBrowser, openPage, waitForFit, EXAMPLES } from './harness.mjs';

const ROUNDS = 3;
const FIT = ['cosine_24000', 'constant_24000', 'wsdcon_9'];
const VALIDATE = ['constant_72000', 'cosine_72000', 'wsd_20000_24000', 'wsdld_20000_24000', 'wsdcon_3', 'wsdcon_18'];
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServer();
const browser = await launchBrowser({ person: true });
try {
  const { page } = await openPage(browser, server.url);
  await waitForFit(page);
  await page.click('#clear-curves');
  await page.setInputFiles(
    '#file-input',
    [...FIT, ...VALIDATE].map((n) => path.join(EXAMPLES, 'mpl/csv_25', `${n}.csv`)),
  );
  await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 9);
  await page.fill('#warmup-steps', '2160');
  for (const name of FIT) await page.selectOption(`#curve-list [data-curve-name="${name}"] select`, 'fit');
  for (const name of VALIDATE) await page.selectOption(`#curve-list [data-curve-name="${name}"] select`, 'validate');
  if (!(await page.isChecked('#auto'))) throw new Error("auto is not the default for one's own curves");
  const times = [];
  for (let round = 0; round < ROUNDS; round++) {
    await page.evaluate(() => {
      document.querySelector('#status').textContent = '';
      // the progress the page shows while auto runs
      window.__progress = [];
      new MutationObserver(() => window.__progress.push(document.querySelector('#status').textContent)).observe(
        document.querySelector('#status'),
        { childList: true, characterData: true, subtree: true },
      );
    });
    const t = Date.now();
    await page.click('#fit-button');
    await page.waitForFunction(() => /^Fitted/.test(document.querySelector('#status').textContent), null, {
      timeout: 120000,
    });
    await waitForFit(page, 120000);
    times.push(Date.now() - t);
    const progress = await page.evaluate(() => window.__progress.filter((s) => /%/.test(s)));
    console.log(
      `round ${round + 1}: ${times[round]} ms; ${progress.length} progress updates (first "${progress[0] || ''}")`,
    );
  }
  console.log(
    `auto on the 25M example (3 fit curves, 6 validate), click to fitted and drawn (ms): ${times.join(', ')}; median ${med(times)}`,
  );
  console.log(`  status: ${await page.textContent('#status')}`);
} finally {
  await browser.close();
  await server.stop();
}
