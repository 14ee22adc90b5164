// Shared set-up of the browser tests: serve build/site with scripts/serve on a free port, drive
// Debian's Chromium with playwright-core, and helpers that act as a user would. Nothing is built
// here: run `make build` first (make test does).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import { EXAMPLE_DB_NAME } from '../../site/js/persistence/workspace-db.js';

/** ROOT is the repository. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** SITE is the built site the tests serve. */
export const SITE = path.join(ROOT, 'build/site');
/** EXAMPLES holds the example data, read from the sources (the build copies them). */
export const EXAMPLES = path.join(ROOT, 'site/examples');

/** CHROMIUM is Debian's chromium (never a downloaded one), or $CHROMIUM. */
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * startServer serves dir (build/site by default) on 127.0.0.1 and a free port. It runs
 * $SERVE_BIN when set (a prebuilt scripts/serve), else `go run ./scripts/serve`, and reads the
 * URL from its first line.
 */
export async function startServer(dir = SITE) {
  // The wasm modules, wasm_exec.js and uPlot have content-hashed names under assets/.
  for (const f of ['index.html', 'worker.js', 'sw-manifest.js', 'assets']) {
    if (!existsSync(path.join(dir, f)))
      throw new Error(`${path.relative(ROOT, dir)}/${f} is missing: run make build first`);
  }
  const args = ['-addr', '127.0.0.1:0', '-dir', dir];
  const child = process.env.SERVE_BIN
    ? spawn(process.env.SERVE_BIN, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn('go', ['run', './scripts/serve', ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
        detached: true,
      });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('scripts/serve printed no URL in 120 s')), 120000);
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      const m = /^serving .* on (http:\/\/\S+)/.exec(line);
      if (m) resolve(m[1].replace(/\/?$/, '/'));
      else reject(new Error(`scripts/serve: unexpected first line ${JSON.stringify(line)}`));
    });
    child.once('exit', (code) => reject(new Error(`scripts/serve exited with ${code} before serving`)));
  });
  child.stdout.resume();
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      // `go run` starts the server as a child: signal the whole process group we created.
      try {
        if (process.env.SERVE_BIN) child.kill('SIGTERM');
        else process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      // The timer is cleared once the server is gone: left pending, it kept node alive 5 s more.
      let timer;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5000)))]);
      clearTimeout(timer);
    },
  };
}

/**
 * NO_OMNIBOX_POPUP turns off the browser's own omnibox popup, a page of Chromium's (chrome://
 * omnibox-popup.top-chrome) that headless Chromium 156 otherwise loads in a renderer of its own for
 * every window, that is every context: about 0.6 s of CPU each, a third of opening the
 * calculator in a new context.
 */
const NO_OMNIBOX_POPUP = '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup';

/**
 * AS_PERSON makes navigator.webdriver false, as in a person's browser: the page then warms its
 * worker up after the first view for the next visit (site/js/engine/worker-start.js), which
 * under automation it skips.
 */
export const AS_PERSON = '--disable-blink-features=AutomationControlled';

/**
 * launchBrowser starts headless Chromium (Debian's, never a downloaded one), with the flags of
 * $CHROMIUM_EXTRA_ARGS too (for measurements: --js-flags=--liftoff-only, say). It runs through
 * chromium.sh, which merges NO_OMNIBOX_POPUP's --disable-features with Playwright's own. With
 * person set the page behaves as in a person's browser (AS_PERSON): the speed scripts measure
 * what a visitor gets; the tests run as the automation they are.
 */
export function launchBrowser({ person = false } = {}) {
  const extra = (process.env.CHROMIUM_EXTRA_ARGS || '').split(' ').filter(Boolean);
  return chromium.launch({
    executablePath: path.join(ROOT, 'tests/browser/chromium.sh'),
    env: { ...process.env, CHROMIUM_BINARY: CHROMIUM },
    args: [...CHROMIUM_ARGS, NO_OMNIBOX_POPUP, ...(person ? [AS_PERSON] : []), ...extra],
  });
}

/**
 * rendererCPU is the CPU time (ms) Chromium's renderer processes have used so far, by thread:
 * main (the page's), worker (its Web Workers), pool (V8's and Blink's background threads: wasm
 * and JavaScript compilers, the garbage collector) and other; read from /proc (Linux), {} elsewhere.
 * On a machine whose cores are all busy during a load, less of it is what makes a load faster.
 * Its `threads` (not enumerable) hold each thread's own, for rendererCPUSince.
 */
export function rendererCPU() {
  const out = { main: 0, worker: 0, pool: 0, other: 0 };
  if (!existsSync('/proc/self/task')) return {};
  const threads = new Map(); // pid/tid -> {kind, ms}
  const ticks = 1000 / 100; // ms per clock tick (USER_HZ, 100 on Linux)
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!/--type=renderer/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const kind =
          tid === pid ? 'main' : /DedicatedWorker/.test(name) ? 'worker' : /ThreadPool/.test(name) ? 'pool' : 'other';
        const ms = (Number(fields[11]) + Number(fields[12])) * ticks; // utime + stime
        out[kind] += ms;
        threads.set(`${pid}/${tid}`, { kind, ms });
      }
    } catch {
      // a process that ended meanwhile
    }
  }
  return Object.defineProperty(out, 'threads', { value: threads });
}

/**
 * rendererCPUSince is the CPU (ms, by thread as rendererCPU gives it) the renderers have used
 * since before, an earlier rendererCPU: counted thread by thread, so that a renderer that ended
 * meanwhile (a closed context's) takes nothing off. {} where /proc is not.
 */
export function rendererCPUSince(before) {
  const now = rendererCPU();
  if (!now.threads) return {};
  const out = { main: 0, worker: 0, pool: 0, other: 0 };
  for (const [id, { kind, ms }] of now.threads) out[kind] += ms - (before.threads?.get(id)?.ms || 0);
  return out;
}

/**
 * sayCPU writes the medians of CPU readings (rendererCPUSince's, one per view) in all and by
 * thread, in ms; '' where /proc is not.
 */
export function sayCPU(readings) {
  if (!readings.length || !Object.keys(readings[0]).length) return '';
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const kinds = ['main', 'worker', 'pool', 'other'];
  const total = med(readings.map((c) => kinds.reduce((s, k) => s + c[k], 0)));
  return `${total.toFixed(0)} in all, ${kinds.map((k) => `${k} ${med(readings.map((c) => c[k])).toFixed(0)}`).join(', ')}`;
}

/**
 * machineSpeed is how fast this machine is now: lawcore's Fig. 2 fit natively
 * (`BenchmarkFitFig2`, median ms of 3 runs of 200), or null without Go. The figures of
 * docs/performance.md say at what speed they were measured: on a shared machine it moves
 * 1.5-3x within a day, and every time the speed scripts print moves with it, so they print
 * this before and after.
 */
export function machineSpeed() {
  const run = spawnSync(
    'go',
    ['test', '-run', '^$', '-bench', '^BenchmarkFitFig2$', '-benchtime', '200x', '-count', '3', './lawcore'],
    { cwd: ROOT, encoding: 'utf8', timeout: 180000 },
  );
  const ns = [...(run.stdout || '').matchAll(/^BenchmarkFitFig2\S*\s+\d+\s+([\d.]+) ns\/op/gm)].map((m) =>
    Number(m[1]),
  );
  if (run.status !== 0 || ns.length === 0) return null;
  return ns.sort((a, b) => a - b)[Math.floor(ns.length / 2)] / 1e6;
}

/** saySpeed writes machineSpeed's figure for the speed scripts' output. */
export const saySpeed = (when, ms) =>
  `this machine ${when}: lawcore's Fig. 2 fit natively (BenchmarkFitFig2) ${ms === null ? 'not measured (no Go)' : `${ms.toFixed(2)} ms`}`;

/**
 * openPage opens the calculator in a new context and collects page errors and console errors
 * (the returned errors array) so that tests can assert the page stayed clean. The service
 * worker is blocked unless options say otherwise: requests it answered would escape
 * page.route, which some tests use to break things on purpose.
 */
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext({
    acceptDownloads: true,
    viewport: { width: 1400, height: 1000 },
    serviceWorkers: 'block',
    ...options,
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  await page.goto(url);
  return { context, page, errors };
}

/**
 * firstViewShown (run in the page, by waitForFunction) is the time since navigation once the
 * first view is on screen, else false: the fitted Fig. 2 parameters, and the loss chart with the
 * predicted 60K schedules (today one change of the store draws both; the chart is checked so
 * that a page drawing it later is not measured as faster). The speed scripts measure to it.
 */
export const firstViewShown = () =>
  document.querySelector('#param-L0')?.textContent === '2.628'
  && /constant 60K/.test(document.querySelector('#chart-loss')?.dataset.series || '')
  && performance.now();

/** KEPT_EXAMPLE_DB is the database in which the page keeps the example as fitted (workspace-db.js). */
export const KEPT_EXAMPLE_DB = EXAMPLE_DB_NAME;

/**
 * forgetKeptExample (run in the page, by evaluate or as an init script, with KEPT_EXAMPLE_DB as
 * its argument) deletes the example the page keeps as fitted for its build
 * (controllers/workspace.js, saveFittedExample): the next visit fits it again. The page's own
 * connection closes when asked (WorkspaceDB), so the deletion goes ahead, before any later open
 * of the database.
 */
export const forgetKeptExample = (name) =>
  new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });

/** exampleSaved waits until the page has kept the example as fitted, for the next visit (its mark). */
export const exampleSaved = (page) =>
  page.waitForFunction(() => performance.getEntriesByName('example-kept').length > 0, null, { timeout: 30000 });

/** waitForFit waits until the equation shows numbers, no fit is running and every chart is drawn. */
export async function waitForFit(page, timeout = 60000) {
  await page.waitForFunction(
    () => {
      const t = document.querySelector('#param-L0')?.textContent || '';
      return /^\d/.test(t) && !document.body.classList.contains('fitting');
    },
    null,
    { timeout },
  );
  await chartsDrawn(page);
}

/**
 * chartsDrawn waits until the result charts drawn after the loss chart (views/charts.js: in a
 * task queued from the next frame) are drawn: a frame, then a task queued after theirs.
 */
export async function chartsDrawn(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

/**
 * holdFullModule holds back lawcore.wasm (the full module: imports, analyses and their defaults
 * need it) until the release it returns is called, so that what a test does meanwhile falls
 * before it whatever the machine's speed.
 */
export async function holdFullModule(context) {
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  await context.route(/\/lawcore\.[0-9a-f]+\.wasm/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * setAnalysisJSON opens the Analyses panel on view and sets its options in the JSON view (the
 * advanced one, folded): json typed over lawcore's defaults, once they are shown (shown: a
 * pattern of their text; they come with lawcore.wasm, loaded at the panel's first opening),
 * then left with Tab. Text typed before they arrive is kept too (analysis-forms.test.mjs);
 * typed over them, it replaces a known text.
 */
export async function setAnalysisJSON(page, view, json, shown) {
  await page.click('#analyses-panel > summary');
  await page.selectOption('#analysis-view', view);
  await page.click('#analysis-options-box > summary');
  await page.waitForFunction(
    (src) => new RegExp(src).test(document.querySelector('#analysis-options').value),
    shown.source,
    { timeout: 60000 },
  );
  await page.fill('#analysis-options', json);
  await page.press('#analysis-options', 'Tab');
}

/**
 * keepExample keeps the example shown as the user's own view (its note's button), so that the
 * curves a test adds next go beside the example's instead of replacing it.
 */
export async function keepExample(page) {
  await page.click('#example-keep');
  await page.locator('#example-note').waitFor({ state: 'hidden' });
}

/**
 * saveSchedule opens the schedule dialog with opener (a selector or a locator: "#add-prediction",
 * a curve's Schedule button), fills it and saves it, then waits for the dialog to close. The
 * preset is chosen first (it sets the form), then the name, the kind and the form's fields,
 * named without their "sf-" prefix ({total: '20000'} fills #sf-total).
 */
export async function saveSchedule(page, opener, { preset, name, kind, fields = {}, timeout = 30000 } = {}) {
  await (typeof opener === 'string' ? page.locator(opener) : opener).click();
  const dialog = page.locator('#schedule-dialog');
  await dialog.waitFor({ state: 'visible' });
  if (preset) {
    await page.waitForFunction(() => document.querySelectorAll('#schedule-preset option').length > 10);
    await page.selectOption('#schedule-preset', preset);
  }
  if (name !== undefined) await page.fill('#schedule-name', name);
  if (kind) await page.selectOption('#schedule-kind', kind);
  for (const [field, value] of Object.entries(fields)) await page.fill(`#sf-${field}`, value);
  await page.click('#schedule-save');
  await dialog.waitFor({ state: 'hidden', timeout });
}

/** params reads the four fitted parameters as shown on the page. */
export async function params(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      ['L0', 'A', 'C', 'alpha'].map((k) => [k, document.querySelector(`#param-${k}`).textContent.trim()]),
    ),
  );
}

/** fullParams reads the first law's parameters to full precision (their data-value). */
export async function fullParams(page) {
  return page.$$eval('#param-L0, #param-A, #param-C, #param-alpha', (els) =>
    Object.fromEntries(els.map((e) => [e.dataset.param, Number(e.dataset.value)])),
  );
}

/** curveNames are the names of the curves with data, in the list's order. */
export function curveNames(page) {
  return page.$$eval('#curve-list [data-curve-name]', (rows) => rows.map((r) => r.dataset.curveName));
}

/** messageText returns the alert area's text ('' when hidden). */
export async function messageText(page) {
  return page.evaluate(() => {
    const m = document.querySelector('#message');
    return m.hidden ? '' : m.textContent.trim();
  });
}

/** shared is the server and browser the files in this process share, with the count of their users. */
const shared = { users: 0, started: null };

/**
 * useServerAndBrowser registers before/after hooks and returns {url, browser} (filled by the
 * before hook). Every file of a process shares one server of build/site and one Chromium, each
 * test in a context of its own (openPage): the first before hook starts them, the last after
 * hook stops them. A file run alone (`node --test tests/browser/x.test.mjs`) has them to itself;
 * tests/browser/suite.mjs runs every file in one process, holding them from the first file to
 * the last.
 */
export function useServerAndBrowser(before, after) {
  const env = {};
  before(async () => {
    shared.users++;
    shared.started ??= (async () => {
      const server = await startServer();
      try {
        return { server, browser: await launchBrowser() };
      } catch (err) {
        await server.stop();
        throw err;
      }
    })();
    const { server, browser } = await shared.started;
    Object.assign(env, { server, url: server.url, browser });
  });
  after(async () => {
    if (--shared.users > 0 || !shared.started) return;
    const started = shared.started;
    shared.started = null;
    const { server, browser } = await started.catch(() => ({}));
    if (browser) await browser.close();
    if (server) await server.stop();
  });
  return env;
}

/** encodeIn builds a share-link payload (deflate-raw, base64url) of text in the page, as the page does. */
export function encodeIn(page, text) {
  return page.evaluate(async (t) => {
    const stream = new Blob([t]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }, text);
}

/** millionSteps writes a 1,000,000-step WSD run from the annealing law, one row per step. */
export function millionSteps(file) {
  const total = 1_000_000;
  const peak = 3e-4;
  const rows = ['step,lr,loss'];
  let s1 = peak;
  let s2 = 0;
  let m = 0;
  let prev = peak;
  for (let s = 1; s <= total; s++) {
    const lr = s < 800_000 ? peak : peak * (1 - (0.9 * (s - 800_000)) / 200_000);
    m = 0.999 * m + (prev - lr);
    s1 += lr;
    s2 += m;
    prev = lr;
    const loss = 2.5 + 0.45 * s1 ** -0.5 - 0.5 * s2 + 0.002 * Math.sin(s * 7.77);
    rows.push(`${s},${lr.toExponential(6)},${loss.toFixed(6)}`);
  }
  writeFileSync(file, `${rows.join('\n')}\n`);
}
