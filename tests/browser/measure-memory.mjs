// Measures the memory of fitting and drawing large files in the page: for each case a fresh
// browser loads the page, replaces the example with the file(s), fits, draws (and keeps the work
// in IndexedDB, as a user's page does), and prints
//   - the worker's WebAssembly memory (lawcore's Go heap: it only grows, so it is its peak),
//   - the page's JavaScript heap (CDP Runtime.getHeapUsage; the most seen while it ran, and after
//     a garbage collection at the end),
//   - the tab's renderer process (the page and its worker): its peak resident memory (VmHWM)
//     and at the end (VmRSS), and the peak of all Chromium's processes together (sampled).
// Not a test: run it by hand (after make build; it needs Linux's /proc, and about 5 minutes),
//   node tests/browser/measure-memory.mjs [cases...]     cases: 1M 2M 5M 5M-in-3 (default: these),
//                                                        8M-in-4 10M-in-5 (only when named)
import { mkdtempSync, rmSync, createWriteStream, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { startServer, launchBrowser, waitForFit } from './harness.mjs';

const MB = 2 ** 20;

/** writeRun writes an n-step WSD run (one row per step, with its learning rate) to file. */
async function writeRun(file, n) {
  const out = createWriteStream(file);
  const peak = 3e-4;
  const write = (s) => (out.write(s) ? null : once(out, 'drain'));
  await write('step,lr,loss\n');
  let s1 = 0;
  let chunk = '';
  for (let s = 1; s <= n; s++) {
    const lr = s < 0.8 * n ? peak : peak * (1 - (0.9 * (s - 0.8 * n)) / (0.2 * n));
    s1 += lr;
    chunk += `${s},${lr.toExponential(5)},${(2.5 + 0.45 * s1 ** -0.5 + 0.002 * Math.sin(s * 7.77)).toFixed(6)}\n`;
    if (chunk.length > 1 << 20) {
      const wait = write(chunk);
      chunk = '';
      if (wait) await wait;
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

/** status reads a process's resident memory now and at its peak, in bytes, from /proc. */
function status(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number((new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text) || [0, 0])[1]) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

const mb = (b) => `${Math.round(b / MB)} MB`;

/** measure runs one case: files are imported together, then fitted and drawn. */
async function measure(server, label, files, { expectRefusal = false } = {}) {
  const browser = await launchBrowser({ person: true });
  const cdpBrowser = await browser.newBrowserCDPSession();
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const processes = async () => (await cdpBrowser.send('SystemInfo.getProcessInfo')).processInfo;
  let heapPeak = 0;
  let allPeak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      try {
        heapPeak = Math.max(heapPeak, (await cdp.send('Runtime.getHeapUsage')).usedSize);
        allPeak = Math.max(
          allPeak,
          (await processes()).reduce((n, p) => n + status(p.id).rss, 0),
        );
      } catch {
        /* the page is busy or gone */
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const started = Date.now();
  try {
    await page.goto(server.url);
    await waitForFit(page);
    await page.click('#clear-curves');
    await page.setInputFiles('#file-input', files);
    if (expectRefusal) {
      await page.waitForSelector('#message:not([hidden])', { timeout: 600000 });
      console.log(
        `${label}: refused after ${((Date.now() - started) / 1000).toFixed(1)} s: ${await page.textContent('#message-text')}`,
      );
    } else {
      await page.waitForFunction(
        (n) => document.querySelectorAll('#curve-list [data-curve-name]').length === n,
        files.length,
        { timeout: 600000 },
      );
      const loaded = Date.now();
      await page.click('#fit-button');
      await page.waitForFunction(
        () =>
          /^Fitted/.test(document.querySelector('#status').textContent) || !document.querySelector('#message').hidden,
        null,
        { timeout: 900000 },
      );
      const fitted = Date.now();
      if (!(await page.isHidden('#message')))
        console.log(`${label}: message: ${await page.textContent('#message-text')}`);
      await page.waitForFunction(() => document.querySelector('#chart-loss canvas'), null, { timeout: 60000 });
      // the work is saved (a settings change afterwards would save the record alone)
      await page.waitForFunction(() => Number(document.querySelector('#workspace-footer').dataset.savedAt) > 0, null, {
        timeout: 300000,
      });
      console.log(
        `${label}: loaded in ${((loaded - started) / 1000).toFixed(1)} s, fitted and drawn in ${((fitted - loaded) / 1000).toFixed(1)} s (${await page.textContent('#status')}), saved after ${((Date.now() - fitted) / 1000).toFixed(1)} s`,
      );
    }
    const worker = Number(await page.evaluate(() => document.querySelector('#engine-memory').dataset.bytes));
    await cdp.send('HeapProfiler.collectGarbage');
    const heapEnd = (await cdp.send('Runtime.getHeapUsage')).usedSize;
    const renderers = (await processes())
      .filter((p) => p.type === 'renderer')
      .map((p) => ({ pid: p.id, ...status(p.id) }));
    const tab = renderers.sort((a, b) => b.hwm - a.hwm)[0];
    console.log(
      `${label}: worker (WebAssembly) ${mb(worker)}; page JS heap peak ${mb(heapPeak)}, after GC ${mb(heapEnd)}; tab process peak ${mb(tab.hwm)}, now ${mb(tab.rss)}; all Chromium processes peak ${mb(allPeak)}`,
    );
  } catch (err) {
    console.log(
      `${label}: FAILED after ${((Date.now() - started) / 1000).toFixed(1)} s: ${err.message.split('\n')[0]}`,
    );
  } finally {
    sampling = false;
    await sampler;
    await browser.close();
  }
}

const wanted = process.argv.slice(2);
const want = (c) => !wanted.length || wanted.includes(c);
const dir = mkdtempSync(path.join(tmpdir(), 'lawcalc-memory-'));
const server = await startServer();
try {
  const file = async (name, n) => {
    const f = path.join(dir, name);
    await writeRun(f, n);
    return f;
  };
  if (want('1M')) await measure(server, '1,000,000 rows, one file', [await file('one-million.csv', 1_000_000)]);
  if (want('2M'))
    await measure(server, '2,000,000 rows, one file (importer.MaxRows)', [await file('two-million.csv', 2_000_000)]);
  if (want('5M'))
    await measure(server, '5,000,000 rows, one file', [await file('five-million.csv', 5_000_000)], {
      expectRefusal: true,
    });
  if (want('5M-in-3')) {
    const files = [
      await file('part-a.csv', 2_000_000),
      await file('part-b.csv', 2_000_000),
      await file('part-c.csv', 1_000_000),
    ];
    await measure(server, '5,000,000 rows in three files (2M + 2M + 1M)', files);
  }
  for (const [c, n] of [
    ['8M-in-4', 4],
    ['10M-in-5', 5],
  ]) {
    if (!wanted.includes(c)) continue; // by name only: each takes minutes
    const files = [];
    for (let i = 0; i < n; i++) files.push(await file(`part-${c}-${i}.csv`, 2_000_000));
    await measure(server, `${(2 * n).toLocaleString('en')},000,000 rows in ${n} files of 2M`, files);
  }
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
