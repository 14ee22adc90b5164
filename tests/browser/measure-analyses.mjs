// Measures how fast every view of the Analyses panel opens after a fit, as a user gets it from
// `make serve`, for three fits: (a) the example loaded at start (the Fig. 2 curves, the
// annealing law), (b) auto on the MultiPowerLaw 25M example (the release's split, as
// measure-auto.mjs), (c) the Multi-Power Law fitted to the Fig. 2 curves. Each view runs with
// the paper's default options (its analysis's defaults, from the fit's runs where the page
// takes them). For each view it prints the time from choosing it to its first drawn answer
// (its chart, answer or table on screen) and, when that answer is a coarse one refined in the
// background (#analysis-result's data-refining), to the finished answer; and the renderer's CPU
// meanwhile. Every round is a new page (the panel keeps each answer until the parameters
// change); medians of ROUNDS rounds. The panel's first opening (which loads lawcore.wasm) is
// printed apart. The model-size views run on the release's 25M + 100M example.
// Not a test: run it by hand,
//   node tests/browser/measure-analyses.mjs            (after make build)
//   ROUNDS=1 FITS=a,c VIEWS=lambda,optimize node tests/browser/measure-analyses.mjs
//   SITE_DIR=/tmp/before/site node tests/browser/measure-analyses.mjs   (another build)
import path from 'node:path';
import {
  startServer,
  launchBrowser,
  openPage,
  waitForFit,
  EXAMPLES,
  machineSpeed,
  saySpeed,
  rendererCPU,
  rendererCPUSince,
  sayCPU,
} from './harness.mjs';

const ROUNDS = Number(process.env.ROUNDS || 3);
const ONLY_FITS = (process.env.FITS || 'a,b,c').split(',');
const ONLY_VIEWS = process.env.VIEWS ? process.env.VIEWS.split(',') : null;
const TIMEOUT = 300000;
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const MPL_FIT = ['cosine_24000', 'constant_24000', 'wsdcon_9'];
const MPL_VALIDATE = [
  'constant_72000',
  'cosine_72000',
  'wsd_20000_24000',
  'wsdld_20000_24000',
  'wsdcon_3',
  'wsdcon_18',
];

const fitted = (page) =>
  page.waitForFunction(() => /^Fitted/.test(document.querySelector('#status').textContent), null, {
    timeout: TIMEOUT,
  });

/** FITS: each of the three fits, made in a page just opened (the example fitted at start). */
const FITS = {
  a: { label: '(a) the example at start: Fig. 2 curves, annealing law', async make() {} },
  b: {
    label: '(b) auto on the MultiPowerLaw 25M example (3 fit, 6 validate, warmup 2160)',
    async make(page) {
      await page.click('#clear-curves');
      await page.setInputFiles(
        '#file-input',
        [...MPL_FIT, ...MPL_VALIDATE].map((n) => path.join(EXAMPLES, 'mpl/csv_25', `${n}.csv`)),
      );
      await page.waitForFunction(() => document.querySelectorAll('#curve-list [data-curve-name]').length === 9);
      await page.fill('#warmup-steps', '2160');
      for (const name of MPL_FIT) await page.selectOption(`#curve-list [data-curve-name="${name}"] select`, 'fit');
      for (const name of MPL_VALIDATE)
        await page.selectOption(`#curve-list [data-curve-name="${name}"] select`, 'validate');
      if (!(await page.isChecked('#auto'))) await page.check('#auto');
      await page.evaluate(() => {
        document.querySelector('#status').textContent = '';
      });
      await page.click('#fit-button');
      await fitted(page);
    },
  },
  c: {
    label: '(c) the Multi-Power Law on the Fig. 2 curves',
    async make(page) {
      if (await page.isChecked('#auto')) await page.uncheck('#auto');
      await page.selectOption('#law', 'multi-power');
      await page.evaluate(() => {
        document.querySelector('#status').textContent = '';
      });
      await page.click('#fit-button');
      await fitted(page);
    },
  },
};

/**
 * openView (in the page) chooses a view (or presses a button: {click}) and resolves with the ms
 * to its first drawn answer and to its finished one, read each frame: drawn when the result
 * shown is the view's with a chart, table or answer (or an error is shown), finished when no
 * run is under way and the answer is not marked as refining.
 */
const openView = ({ id, click, timeout }) =>
  new Promise((resolve) => {
    const result = document.querySelector('#analysis-result');
    const shown = () =>
      result.dataset.view === id
      && (!document.querySelector('#analysis-table').hidden
        || !document.querySelector('#analysis-answer').hidden
        || document.querySelector('#chart-analysis canvas'));
    const errorBefore = document.querySelector('#analysis-error').hidden
      ? null
      : document.querySelector('#analysis-error').textContent;
    const failed = () =>
      !document.querySelector('#analysis-error').hidden
      && document.querySelector('#analysis-error').textContent !== errorBefore;
    const busy = () => !document.querySelector('#analysis-progress').hidden || result.dataset.refining === 'true';
    const t0 = performance.now();
    let first = null;
    let frames = 0;
    const check = () => {
      const now = performance.now() - t0;
      frames++;
      // a button's run (the model-size example) replaces the error shown before it
      if (first === null && frames > 1 && (click ? shown() && !failed() : shown() || failed())) first = now;
      if (first !== null && !busy()) {
        resolve({ first, done: now, error: failed() ? document.querySelector('#analysis-error').textContent : '' });
        return;
      }
      if (now > timeout) {
        resolve({ first, done: null, error: 'timed out' });
        return;
      }
      requestAnimationFrame(check);
    };
    if (click) document.querySelector(click).click();
    else {
      const select = document.querySelector('#analysis-view');
      select.value = id;
      select.dispatchEvent(new Event('change'));
    }
    requestAnimationFrame(check);
  });

const speedBefore = machineSpeed();
console.log(saySpeed('before', speedBefore));
// SITE_DIR: another build's site (a copy of build/site from before a change, say)
const server = await startServer(process.env.SITE_DIR || undefined);
const browser = await launchBrowser({ person: true });
try {
  for (const key of ONLY_FITS) {
    const fit = FITS[key];
    /** times: view -> {first: [], done: [], cpu: [], error} */
    const times = new Map();
    const opening = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { context, page } = await openPage(browser, server.url);
      try {
        await waitForFit(page);
        await fit.make(page);
        await waitForFit(page, TIMEOUT);
        // the panel's first opening: lawcore.wasm and the defaults, then the view it opens on
        let cpu = rendererCPU();
        const t = Date.now();
        await page.click('#analyses-panel > summary');
        await page.waitForFunction(
          () =>
            document.querySelector('#analysis-result').dataset.view
            && document.querySelector('#analysis-progress').hidden
            && document.querySelector('#analysis-result').dataset.refining !== 'true',
          null,
          { timeout: TIMEOUT },
        );
        opening.push({ ms: Date.now() - t, cpu: rendererCPUSince(cpu) });
        const views = await page.$$eval('#analysis-view option', (os) => os.map((o) => o.value));
        // the model-size views: the release's example (its button) first, then the drop
        const order = views
          .filter((v) => (ONLY_VIEWS ? ONLY_VIEWS.includes(v) : true))
          .flatMap((v) => (v === 'sizefit' ? ['sizefit', 'sizefit-example'] : [v]));
        // a view opened first (the panel's own) is cached: open another before it
        for (const id of order) {
          if (id === 'sizefit') {
            await page.selectOption('#analysis-view', 'sizefit');
            continue;
          }
          cpu = rendererCPU();
          const r = await page.evaluate(openView, {
            id: id === 'sizefit-example' ? 'sizefit' : id,
            click: id === 'sizefit-example' ? '#sizefit-example' : null,
            timeout: TIMEOUT,
          });
          const used = rendererCPUSince(cpu);
          if (!times.has(id)) times.set(id, { first: [], done: [], cpu: [], error: '' });
          const m = times.get(id);
          m.first.push(r.first);
          m.done.push(r.done);
          m.cpu.push(used);
          if (r.error) m.error = r.error;
          const status = await page.textContent('#analysis-status');
          console.log(
            `  ${key} round ${round + 1} ${id}: first ${r.first?.toFixed(0)} ms, done ${r.done?.toFixed(0)} ms${r.error ? ` (error: ${r.error.slice(0, 80)})` : ''} · ${status}`,
          );
        }
      } finally {
        await context.close();
      }
    }
    console.log(`\n${fit.label}, medians of ${ROUNDS}:`);
    console.log(
      `  panel's first opening (lawcore.wasm, defaults, its view): ${med(opening.map((o) => o.ms))} ms; CPU ${sayCPU(opening.map((o) => o.cpu))}`,
    );
    console.log('  | view | first drawn (ms) | finished (ms) | CPU (ms) |');
    for (const [id, m] of times) {
      const first = med(m.first);
      const done = med(m.done.map((d) => d ?? Infinity));
      console.log(
        `  | ${id} | ${first?.toFixed(0)} | ${Math.abs(done - first) < 20 ? '=' : done.toFixed(0)} | ${sayCPU(m.cpu)} |${m.error ? ` error: ${m.error.slice(0, 100)}` : ''}`,
      );
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(saySpeed('after', machineSpeed()));
