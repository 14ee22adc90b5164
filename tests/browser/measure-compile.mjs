// Prints what V8 compiles of the core (lawcore-core.wasm) during a cold first view: how many
// functions its baseline compiler (Liftoff) compiled on their first call, and which ones it
// then compiled again with its optimising compiler (TurboFan), with their sizes and times, the
// largest first. TurboFan runs on background threads that the page's own work needs on a
// machine of two cores, and a function's compile time grows faster than its size: a function
// of 17 kB of wasm takes it 50-150 ms. V8 optimises a function once it has run a while, and Go
// compiles each of a function's loops into one loop around all of its code, so a loop over
// steps inlined into a large function has all of it compiled (see lawcore's package doc).
//
// Chromium is started with --js-flags=--trace-wasm-compilation-times and driven over its
// DevTools protocol. The site's wasm has no function names; NAMES names a build that has them:
//   make build core-names && NAMES=build/wasm/lawcore-core.names.wasm node tests/browser/measure-compile.mjs
// RUNS loads (2 by default); TOP functions listed (25). Not a test: run it by hand.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, CHROMIUM, CHROMIUM_ARGS, firstViewShown } from './harness.mjs';

const require = createRequire(import.meta.url);
const { ws: WebSocket } = require('playwright-core/lib/utilsBundle');
const RUNS = Number(process.env.RUNS || 2);
const TOP = Number(process.env.TOP || 25);
const PORT = 9347;

/** functionNames reads a wasm module's function names (its "name" section), by function index. */
function functionNames(file) {
  const names = new Map();
  if (!file) return names;
  const b = readFileSync(file);
  let i = 8;
  const leb = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = b[i++];
      v += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return v;
    }
  };
  while (i < b.length) {
    const id = b[i++];
    const size = leb();
    const end = i + size;
    if (id === 0) {
      const n = leb();
      const section = b.toString('utf8', i, i + n);
      i += n;
      while (section === 'name' && i < end) {
        const sub = b[i++];
        const subEnd = leb() + i;
        if (sub === 1) {
          for (let count = leb(); count > 0; count--) {
            const index = leb();
            const len = leb();
            names.set(index, b.toString('utf8', i, i + len));
            i += len;
          }
        }
        i = subEnd;
      }
    }
    i = end;
  }
  return names;
}

/** coldLoad loads the page once in a fresh Chromium and returns its compile trace. */
async function coldLoad(url) {
  const profile = mkdtempSync(join(tmpdir(), 'measure-compile-'));
  const chromium = spawn(
    CHROMIUM,
    [
      ...CHROMIUM_ARGS,
      `--remote-debugging-port=${PORT}`,
      `--user-data-dir=${profile}`,
      '--js-flags=--trace-wasm-compilation-times',
      'about:blank',
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let trace = '';
  chromium.stdout.on('data', (d) => {
    trace += d;
  });
  try {
    let version;
    for (let i = 0; !version; i++) {
      try {
        version = await (await fetch(`http://127.0.0.1:${PORT}/json/version`)).json();
      } catch (err) {
        if (i > 100) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const socket = new WebSocket(version.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });
    let next = 1;
    const pending = new Map();
    socket.on('message', (data) => {
      const m = JSON.parse(data);
      if (pending.has(m.id)) pending.get(m.id)(m.result);
      pending.delete(m.id);
    });
    const send = (method, params = {}, sessionId) =>
      new Promise((resolve) => {
        pending.set(next, resolve);
        socket.send(JSON.stringify({ id: next++, method, params, sessionId }));
      });
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    trace = '';
    await send('Page.navigate', { url }, sessionId);
    const shown = `(${firstViewShown})()`;
    for (
      let i = 0;
      !(await send('Runtime.evaluate', { expression: shown, returnByValue: true }, sessionId)).result?.value;
      i++
    ) {
      if (i > 3000) throw new Error('the first view did not show within a minute');
      await new Promise((r) => setTimeout(r, 20));
    }
    const exited = new Promise((resolve) => chromium.once('exit', resolve));
    send('Browser.close');
    await exited; // all of its processes gone, its profile can be removed
    socket.close();
    return trace;
  } finally {
    chromium.kill();
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

const names = functionNames(process.env.NAMES);
const server = await startServer();
try {
  for (let run = 1; run <= RUNS; run++) {
    const tiers = { Liftoff: { count: 0, bytes: 0, us: 0 }, TurboFan: { count: 0, bytes: 0, us: 0 } };
    const optimised = [];
    for (const m of (await coldLoad(server.url)).matchAll(/#(\d+) using (\w+), took (\d+) (ms|μs).*?bodysize (\d+)/g)) {
      const t = tiers[m[2]];
      if (!t) continue;
      const us = Number(m[3]) * (m[4] === 'ms' ? 1000 : 1);
      t.count++;
      t.bytes += Number(m[5]);
      t.us += us;
      if (m[2] === 'TurboFan') optimised.push({ index: Number(m[1]), bytes: Number(m[5]), us });
    }
    const line = (t) =>
      `${t.count} functions, ${(t.bytes / 1000).toFixed(0)} kB of wasm, ${(t.us / 1000).toFixed(0)} ms`;
    console.log(`load ${run}: Liftoff ${line(tiers.Liftoff)}; TurboFan ${line(tiers.TurboFan)}`);
    if (run === RUNS) {
      console.log(`the ${Math.min(TOP, optimised.length)} largest compiled by TurboFan (kB, ms, function):`);
      for (const f of optimised.sort((a, b) => b.bytes - a.bytes).slice(0, TOP)) {
        console.log(
          `  ${(f.bytes / 1000).toFixed(1).padStart(5)}  ${(f.us / 1000).toFixed(1).padStart(6)}  ${names.get(f.index) || `function #${f.index}`}`,
        );
      }
    }
  }
} finally {
  await server.stop();
}
