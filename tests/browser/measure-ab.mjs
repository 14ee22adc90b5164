// Compares the first view of two or more builds of the site, as measure-load.mjs measures it
// (navigation to the fitted Fig. 2 parameters and the loss chart with the 60K predictions, cold:
// a new browser context each load, no service worker), their loads alternated so that the
// machine's load falls on each alike, and the CPU the renderer used meanwhile (rendererCPU: on
// this machine's two cores it varies less than the time does, and less of it is what makes a
// cold load faster), and the machine's speed before and after (harness.mjs, machineSpeed). Not a
// test: run it by hand with the builds' site folders,
//   node tests/browser/measure-ab.mjs build/site /tmp/other-build/site      (ROUNDS=12 by default)
import {
  startServer,
  launchBrowser,
  firstViewShown,
  rendererCPU,
  rendererCPUSince,
  sayCPU,
  machineSpeed,
  saySpeed,
} from './harness.mjs';

const dirs = process.argv.slice(2);
if (dirs.length < 2) {
  console.error('usage: node tests/browser/measure-ab.mjs SITE_DIR SITE_DIR [...]');
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS || 12);
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/**
 * pairedDifference is the mean of b[r] - a[r] over the rounds and its standard error: the loads
 * of one round ran back to back, so the machine's drift from round to round cancels out.
 */
const pairedDifference = (a, b) => {
  const d = a.map((x, r) => b[r] - x);
  const mean = d.reduce((s, x) => s + x, 0) / d.length;
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, d.length - 1));
  return { mean, se: sd / Math.sqrt(d.length) };
};
const sayDifference = ({ mean, se }) => `${mean >= 0 ? '+' : '−'}${Math.abs(mean).toFixed(0)} ms ± ${se.toFixed(0)}`;

const speedBefore = machineSpeed();
const servers = [];
const browser = await launchBrowser({ person: true });
const times = dirs.map(() => []);
const cpu = dirs.map(() => []); // rendererCPU used by each load
try {
  for (const dir of dirs) servers.push(await startServer(dir));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < dirs.length; i++) {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      const before = rendererCPU();
      await page.goto(servers[i].url, { waitUntil: 'commit' });
      const handle = await page.waitForFunction(firstViewShown, null, { timeout: 60000, polling: 'raf' });
      cpu[i].push(rendererCPUSince(before));
      times[i].push(await handle.jsonValue());
      await context.close();
    }
  }
} finally {
  await browser.close();
  for (const server of servers) await server.stop();
}
console.log(saySpeed('before', speedBefore));
console.log(saySpeed('after', machineSpeed()));
console.log(`first view, cold, ${ROUNDS} loads of each build, alternated (ms from navigation):`);
for (const [i, dir] of dirs.entries()) {
  console.log(`  ${dir}: median ${med(times[i]).toFixed(0)}  [${times[i].map((t) => t.toFixed(0)).join(', ')}]`);
}
// A difference within about twice its standard error is what this machine's noise alone gives.
const totalCPU = (i) => cpu[i].map((c) => Object.values(c).reduce((s, x) => s + x, 0));
for (let i = 1; i < dirs.length; i++) {
  const cpuDiff = Object.keys(cpu[0][0]).length
    ? `; CPU ${sayDifference(pairedDifference(totalCPU(0), totalCPU(i)))}`
    : '';
  console.log(
    `  ${dirs[i]} against ${dirs[0]}, paired by round (mean difference ± standard error): time ${sayDifference(pairedDifference(times[0], times[i]))}${cpuDiff}`,
  );
}
if (Object.keys(cpu[0][0]).length) {
  console.log('CPU the renderer used meanwhile, ms (medians; pool: compilers and collector):');
  for (const [i, dir] of dirs.entries()) console.log(`  ${dir}: ${sayCPU(cpu[i])}`);
}
