// Measures the first fit of a fresh worker against warm ones, visit after visit, as a reader
// returning on another day gets it: each visit is a new browser process on one profile (so the
// HTTP cache, and the wasm code cache V8 keeps in it, carry over; the service worker is blocked
// unless SW=allow). It prints lawcore's own time for the first fit of each visit (the status's
// "in … ms"), then five refits of the same request once the page has been left alone for STAY
// ms. SETS profiles, VISITS visits each. Not a test: run it by hand,
//   node tests/browser/measure-first-fit.mjs        (after make build)
//   SETS=5 VISITS=3 STAY=4000 SW=allow node tests/browser/measure-first-fit.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer, CHROMIUM, CHROMIUM_ARGS, forgetKeptExample, KEPT_EXAMPLE_DB } from './harness.mjs';

const SETS = Number(process.env.SETS || 3);
const VISITS = Number(process.env.VISITS || 3);
const STAY = Number(process.env.STAY || 4000);
const SW = process.env.SW === 'allow' ? 'allow' : 'block';
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fitted = () => document.querySelector('#param-L0')?.textContent === '2.628';

// Records the page's first fit (its request and columns, copied before they are transferred)
// and lawcore's elapsedMs for it.
function recordFirstFit() {
  const PageWorker = globalThis.Worker;
  globalThis.__firstFit = {};
  globalThis.Worker = class extends PageWorker {
    constructor(...args) {
      super(...args);
      const fits = new Set();
      this.addEventListener('message', (e) => {
        const d = e.data;
        if (fits.has(d.id) && 'result' in d && __firstFit.elapsedMs === undefined) {
          __firstFit.elapsedMs = JSON.parse(d.result).elapsedMs;
        }
      });
      const post = this.postMessage.bind(this);
      this.postMessage = (msg, ...rest) => {
        if (msg && msg.method === 'fit' && !__firstFit.request) {
          fits.add(msg.id);
          __firstFit.request = msg.request;
          __firstFit.columns = (msg.columns || []).map((c) =>
            Object.fromEntries(Object.entries(c || {}).map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v) : v])),
          );
        }
        return post(msg, ...rest);
      };
    }
  };
}

const server = await startServer();
const firsts = Array.from({ length: VISITS }, () => []);
const refits = [];
try {
  for (let set = 0; set < SETS; set++) {
    const profile = mkdtempSync(join(tmpdir(), 'first-fit-'));
    try {
      for (let v = 0; v < VISITS; v++) {
        const context = await chromium.launchPersistentContext(profile, {
          executablePath: CHROMIUM,
          args: CHROMIUM_ARGS,
          serviceWorkers: SW,
        });
        try {
          await context.addInitScript(recordFirstFit);
          // each visit fits the example (none shown as kept)
          await context.addInitScript(forgetKeptExample, KEPT_EXAMPLE_DB);
          const page = context.pages()[0] || (await context.newPage());
          await page.goto(server.url, { waitUntil: 'commit' });
          await page.waitForFunction(fitted, null, { timeout: 60000 });
          await page.waitForFunction(() => __firstFit.elapsedMs !== undefined);
          firsts[v].push(await page.evaluate(() => __firstFit.elapsedMs));
          await page.waitForTimeout(STAY);
          if (v === VISITS - 1) {
            refits.push(
              ...(await page.evaluate(async () => {
                const out = [];
                for (let k = 0; k < 5; k++) {
                  const cols = __firstFit.columns.map((c) =>
                    Object.fromEntries(
                      Object.entries(c).map(([key, v]) => [key, Array.isArray(v) ? Float64Array.from(v) : v]),
                    ),
                  );
                  const r = await globalThis.lawcoreClient.call('fit', JSON.parse(__firstFit.request), cols);
                  out.push((typeof r.result === 'string' ? JSON.parse(r.result) : r.result).elapsedMs);
                }
                return out;
              })),
            );
          }
        } finally {
          await context.close();
        }
      }
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  }
  const fmt = (xs) => `median ${med(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`;
  console.log(
    `first fit of a fresh worker, ${SETS} profiles, service worker ${SW === 'allow' ? 'allowed' : 'blocked'}:`,
  );
  for (const [v, xs] of firsts.entries()) {
    console.log(
      `  visit ${v + 1}${v === 0 ? ' (first ever)' : ''}: ${fmt(xs)}  [${xs.map((x) => x.toFixed(1)).join(', ')}]`,
    );
  }
  console.log(`warm refits of the same request, the last visit after ${STAY} ms: ${fmt(refits)}`);
} finally {
  await server.stop();
}
