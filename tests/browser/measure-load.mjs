// Measures the first view, as a visitor gets it from `make serve` (scripts/serve, precompressed
// brotli): from navigation to the fitted Fig. 2 parameters and loss chart on screen, median of 5
// cold loads (a new browser context each time: empty HTTP cache, no service worker), with the bytes the server
// sent for it (headers and bodies as sent, compressed), request by request, and the time the
// first call the core lacks takes (lawcore.wasm loaded); then repeat visits with the service
// worker warm: 5 as a returning reader gets them, the example shown as this build fitted it on
// the first visit (controllers/workspace.js, saveFittedExample), and 10 with that copy deleted
// before each reload, so that the example is fitted again: 5 reloaded as soon as the first view
// is on screen, and 5 after STAY ms on the page each (5000 by default), as a reader who used the
// page comes back: the worker's warm-up has then run, and V8's code cache (kept with the service
// worker's copy of the core from the second visit on) starts the next worker warm. Beside each
// view's time, the CPU Chromium's renderers used for it, by thread (harness.mjs, rendererCPUSince):
// on this machine's two cores, shared with other work, a load waits for a core as long as it
// computes, and a regression shows in the CPU through the noise of the time. Before and after,
// the machine's speed (harness.mjs, machineSpeed), which its times move with. Not a test: run it
// by hand,
//   node tests/browser/measure-load.mjs [SITE_DIR]      (after make build; SITE_DIR: another build)
import {
  startServer,
  launchBrowser,
  firstViewShown,
  forgetKeptExample,
  KEPT_EXAMPLE_DB,
  exampleSaved,
  machineSpeed,
  saySpeed,
  rendererCPU,
  rendererCPUSince,
  sayCPU,
} from './harness.mjs';

const RUNS = 5;
const STAY = Number(process.env.STAY || 5000);
// LATENCY=40 adds 40 ms to every request (Chromium's network emulation), as a distant host would.
const LATENCY = Number(process.env.LATENCY || 0);
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
/** cpuLine is the renderers' CPU of each view, in all, and their medians by thread. */
const cpuLine = (cpu) =>
  cpu.length && Object.keys(cpu[0]).length
    ? `  renderer CPU per view (ms): ${cpu.map((c) => (c.main + c.worker + c.pool + c.other).toFixed(0)).join(', ')}; median ${sayCPU(cpu)}`
    : '  renderer CPU: not measured (no /proc)';

console.log(saySpeed('before', machineSpeed()));
const server = await startServer(process.argv[2]); // a build other than build/site, when given
const browser = await launchBrowser({ person: true });
try {
  const times = [];
  const cpu = [];
  const breakdown = [];
  const sent = [];
  const fullLoads = [];
  let requests = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    if (LATENCY) {
      // A host across a network: the page's requests wait LATENCY ms each.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: LATENCY,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    }
    const finished = [];
    // Every request of the page and of its worker, as it finished.
    context.on('requestfinished', (r) => finished.push(r));
    const before = rendererCPU();
    await page.goto(server.url, { waitUntil: 'commit' });
    // performance.now() counts from the navigation's start.
    const handle = await page.waitForFunction(firstViewShown, null, { timeout: 60000, polling: 'raf' });
    cpu.push(rendererCPUSince(before));
    times.push(await handle.jsonValue());
    const upTo = [...finished];
    const sizes = await Promise.all(
      upTo.map(async (r) => {
        const headers = (await r.response())?.headers() || {};
        const s = await r.sizes();
        // Chromium reports the body of the worker's own script as 0 bytes: its Content-Length
        // (the server always sends one) says what was sent.
        const body = s.responseBodySize || Number(headers['content-length'] || 0);
        return {
          url: r.url().replace(server.url, '/'),
          ...s,
          responseBodySize: body,
          encoding: headers['content-encoding'] || '',
        };
      }),
    );
    sent.push(sizes.reduce((sum, s) => sum + s.responseBodySize + s.responseHeadersSize, 0));
    requests = sizes;
    await page.waitForFunction(() => performance.getEntriesByName('example-shown').length > 0);
    breakdown.push(
      await page.evaluate(() => ({
        ready: performance.getEntriesByName('lawcore-ready')[0].startTime,
        shown: performance.getEntriesByName('example-shown')[0].startTime,
        module: performance.getEntriesByType('resource').find((r) => r.name.endsWith('/js/main.js'))?.responseEnd,
      })),
    );
    // The first call the core lacks: the worker loads lawcore.wasm (download, compile, start).
    fullLoads.push(
      await page.evaluate(async () => {
        const t = performance.now();
        await globalThis.lawcoreClient.call('analyze', { analysis: 'defaults' });
        return performance.now() - t;
      }),
    );
    await context.close();
  }
  console.log(`first view, cold (no HTTP cache, no service worker), ${RUNS} loads`);
  console.log(`  navigation to fitted Fig. 2 (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`);
  console.log(
    `  median: main.js loaded ${med(breakdown.map((b) => b.module)).toFixed(0)} ms, lawcore ready in its worker ${med(breakdown.map((b) => b.ready)).toFixed(0)} ms, example fitted, predicted and drawn ${med(breakdown.map((b) => b.shown)).toFixed(0)} ms`,
  );
  console.log(`  median from navigation to the fitted Fig. 2 parameters: ${med(times).toFixed(0)} ms`);
  console.log(cpuLine(cpu));
  const headers = requests.reduce((sum, r) => sum + r.responseHeadersSize, 0);
  console.log(
    `  sent by the server up to then: ${requests.length} requests, ${med(sent)} bytes (${(med(sent) / 2 ** 20).toFixed(3)} MiB), median; of the last load ${headers} bytes of headers`,
  );
  for (const r of [...requests].sort((a, b) => b.responseBodySize - a.responseBodySize).slice(0, 6)) {
    console.log(`    ${kB(r.responseBodySize + r.responseHeadersSize).padStart(9)}  ${r.encoding.padEnd(4)} ${r.url}`);
  }

  console.log(
    `  then the first analysis (lawcore.wasm loaded on first use, downloaded, compiled and started), ms: ${fullLoads.map((t) => t.toFixed(0)).join(', ')}; median ${med(fullLoads).toFixed(0)}`,
  );

  // Repeat visits: one visit installs the service worker (after the first view), then reloads.
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForFunction(firstViewShown, null, { timeout: 60000 });
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    }
  });
  // the example as fitted, kept when the page is idle after the first view
  await exampleSaved(page);
  /**
   * reloads reloads the page RUNS times, stay ms after each first view, the kept example deleted
   * first if refit: [{shown, fit, cpu}] (fit: lawcore's own time for the first fit, NaN for none;
   * cpu: the renderers', from the reload to the first view).
   */
  const reloads = async (stay, refit) => {
    const out = [];
    for (let i = 0; i < RUNS; i++) {
      await page.waitForTimeout(stay);
      if (refit) await page.evaluate(forgetKeptExample, KEPT_EXAMPLE_DB);
      const before = rendererCPU();
      await page.reload({ waitUntil: 'commit' });
      const handle = await page.waitForFunction(firstViewShown, null, { timeout: 60000, polling: 'raf' });
      const used = rendererCPUSince(before);
      const shown = await handle.jsonValue();
      const fit = await page.evaluate(() =>
        Number(/in ([\d.]+) ms/.exec(document.querySelector('#status').textContent)?.[1]),
      );
      out.push({ shown, fit, cpu: used });
    }
    return out;
  };
  for (const [label, stay, refit] of [
    ['the example as this build fitted it on an earlier visit, reloaded at once', 0, false],
    ['the example fitted again, reloaded at once', 0, true],
    [`the example fitted again, reloaded after ${STAY} ms on the page`, STAY, true],
  ]) {
    const repeat = await reloads(stay, refit);
    console.log(`repeat visit, service worker warm, ${RUNS} reloads, ${label}`);
    console.log(`  navigation to fitted Fig. 2 (ms): ${repeat.map((r) => r.shown.toFixed(0)).join(', ')}`);
    console.log(
      `  median: ${med(repeat.map((r) => r.shown)).toFixed(0)} ms${refit ? `; the first fit (lawcore's own time, ms): ${repeat.map((r) => r.fit).join(', ')}` : ''}`,
    );
    console.log(cpuLine(repeat.map((r) => r.cpu)));
  }
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}
console.log(saySpeed('after', machineSpeed()));
