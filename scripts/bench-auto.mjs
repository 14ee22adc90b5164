#!/usr/bin/env node
// bench-auto.mjs: how long auto takes, with its band, in wasm through the command line, on the
// two inputs of issue #44's timing targets: the cooldown study's two fit curves (at most 2 s)
// and the MultiPowerLaw release's 25M split (at most 3 s).
//
//   node scripts/bench-auto.mjs [--runs N] [--no-build]
//
// It builds build/wasm/lawcore.wasm and wasm_exec.js as `make build` does (--no-build: use
// those there, or LAWCORE_WASM's), then runs `scripts/lawcore.mjs fit` N times (default 5) on
// each input and prints the mean ± standard error of two times: the fit's own (the answer's
// elapsedMs: auto's folds, its final fit, its band and the lines, in wasm) and the whole
// command's (node's start, compiling the wasm and reading the input too). Each input is sent two
// ways:
//
//   - "request": the JSON fit request that lawcore's TestAutoScenarios builds for the scenario
//     (the exact schedules; the held-out curves as validate curves), so that the answer is the
//     native one of scripts/auto-table.sh (its choice and band are printed to check);
//   - "files": the data files as a user gives them: the study's raw logs as
//     scripts/cooldown-study.mjs reads them (--column val_loss, the logged learning rates), the
//     release's CSVs as the page's example loads them (the lr column, warmup 2160).
//
// The machine's load average is printed before and after: on a shared machine the times
// rise with it. The whole command's CPU time (every thread of node's process: the wasm, and
// node compiling it and collecting garbage) is printed too: a busy machine moves it less.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'scripts', 'lawcore.mjs');
const study = join(root, 'lawcore', 'internal', 'testcurves', 'testdata', 'lrsched-124m-lr1e-4');
const release25 = join(root, 'site', 'examples', 'mpl', 'csv_25');

const args = process.argv.slice(2);
let runs = 5;
let build = true;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--no-build') build = false;
  else {
    console.error('usage: node scripts/bench-auto.mjs [--runs N] [--no-build]');
    process.exit(2);
  }
}
if (!(Number.isInteger(runs) && runs >= 1)) {
  console.error('--runs takes a whole number of at least 1');
  process.exit(2);
}

/** sh runs a command in the repository, failing loudly. */
function sh(cmd, cmdArgs, env = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')}: ${r.stderr || r.error}`);
  return r.stdout.trim();
}

if (build) {
  // the Makefile's build of the full module (`make build`, which also builds the page)
  mkdirSync(join(root, 'build', 'wasm'), { recursive: true });
  sh('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', 'build/wasm/lawcore.wasm', './wasm'], {
    GOOS: 'js',
    GOARCH: 'wasm',
  });
  copyFileSync(
    join(sh('go', ['env', 'GOROOT']), 'lib', 'wasm', 'wasm_exec.js'),
    join(root, 'build', 'wasm', 'wasm_exec.js'),
  );
}

// --- the cooldown study (testcurves.Cooldown and the scenario of TestAutoScenarios) ---

const COOLDOWN_FIT = ['stable-50k', 'wsd-linear-0.2-25k'];
const COOLDOWNS = ['25k', '50k'].flatMap((t) =>
  ['0.1', '0.2', '0.4', '0.6', '0.8', '0.9'].map((f) => `wsd-linear-${f}-${t}`),
);
const COOLDOWN_HELD = COOLDOWNS.filter((n) => !COOLDOWN_FIT.includes(n));

/** studyRun is a run of the study as lawcore's testcurves.Cooldown reads it: {steps, loss, schedule}. */
function studyRun(name) {
  const run = JSON.parse(readFileSync(join(study, `${name}.json`), 'utf8'));
  const last = new Map();
  run.val.iter.forEach((s, k) => {
    last.set(s, run.val.val_loss[k]);
  });
  const steps = [...last.keys()].filter((s) => s >= 1).sort((a, b) => a - b);
  const { iterations: total, wsd_fract_decay: f } = run.config;
  const schedule = { kind: 'constant', total, peak: 1e-4, warmup: 300, warmupFrom: 1e-6 };
  if (f > 0) Object.assign(schedule, { kind: 'wsd', decay: 'linear', decaySteps: Math.round(f * total) });
  return { steps, loss: steps.map((s) => last.get(s)), schedule };
}

function cooldownRequest() {
  const names = ['stable-50k', ...COOLDOWNS].sort();
  const curves = names.map((name) => ({
    name,
    role: COOLDOWN_FIT.includes(name) ? 'fit' : 'validate',
    ...studyRun(name),
  }));
  return { curves, warmupSteps: 300, auto: true };
}

function cooldownFiles() {
  const file = (n) => join(study, `${n}.json`);
  return ['--column', 'val_loss', '--fit', ...COOLDOWN_FIT.map(file), '--validate', ...COOLDOWN_HELD.map(file)];
}

// --- the release's 25M split (testcurves.MPLRequest, MPLSchedule) ---

const RELEASE_FIT = ['cosine_24000', 'constant_24000', 'wsdcon_9'];
const RELEASE_HELD = [
  'constant_72000',
  'cosine_72000',
  'wsd_20000_24000',
  'wsdld_20000_24000',
  'wsdcon_3',
  'wsdcon_18',
];

/** releaseSchedule is a release curve's schedule as testcurves.MPLSchedule states it. */
function releaseSchedule(name) {
  const w = 2160;
  const peak = 3e-4;
  const final = 3e-5;
  const wsdcon = (level) => ({
    kind: 'concat',
    segments: [
      { kind: 'constant', total: 7999, peak, warmup: w },
      { kind: 'constant', total: 8001, peak: level },
    ],
  });
  return {
    constant_24000: { kind: 'constant', total: 24000, peak, warmup: w },
    constant_72000: { kind: 'constant', total: 72000, peak, warmup: w },
    cosine_24000: { kind: 'cosine', total: 24000, peak, final, warmup: w },
    cosine_72000: { kind: 'cosine', total: 72000, peak, final, warmup: w },
    wsd_20000_24000: { kind: 'wsd', total: 24000, peak, final, warmup: w, decay: 'exponential', decaySteps: 4000 },
    wsdld_20000_24000: { kind: 'wsd', total: 24000, peak, final, warmup: w, decay: 'linear', decaySteps: 4000 },
    wsdcon_3: wsdcon(3e-5),
    wsdcon_9: wsdcon(9e-5),
    wsdcon_18: wsdcon(1.8e-4),
  }[name];
}

/** releaseCSV reads a release CSV (step,lr,loss). */
function releaseCSV(name) {
  const rows = readFileSync(join(release25, `${name}.csv`), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').map(Number));
  return { steps: rows.map((r) => r[0]), loss: rows.map((r) => r[2]) };
}

function releaseRequest() {
  const curves = [...RELEASE_FIT.map((n) => [n, 'fit']), ...RELEASE_HELD.map((n) => [n, 'validate'])].map(
    ([name, role]) => ({ name, role, ...releaseCSV(name), schedule: releaseSchedule(name) }),
  );
  return { curves, lambda: 0.999, huberDelta: 1e-3, auto: true };
}

function releaseFiles() {
  const file = (n) => join(release25, `${n}.csv`);
  return ['--warmup', '2160', '--fit', ...RELEASE_FIT.map(file), '--validate', ...RELEASE_HELD.map(file)];
}

// --- timing ---

/** meanSE is the mean of xs and its standard error. */
function meanSE(xs) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  if (xs.length < 2) return { mean, se: NaN };
  const ss = xs.reduce((a, x) => a + (x - mean) ** 2, 0);
  return { mean, se: Math.sqrt(ss / (xs.length - 1) / xs.length) };
}

/** choiceOf says what an auto answer predicts with, and its band. */
function choiceOf(a) {
  const who =
    a.members?.length > 1
      ? a.members.map((m) => `${Math.round(100 * m.weight)}% ${m.label}`).join(' + ')
      : a.auto.chosen.label;
  return `${who}; band ±${(100 * a.band.base).toFixed(3)}% within the data, ${a.band.folds} folds`;
}

const tmp = mkdtempSync(join(tmpdir(), 'bench-auto-'));
// a module node loads before the command, which writes the command's CPU time (user and system,
// every thread of the process) on stderr as it exits: less moved by a busy machine than its wall time
const cpuHook = join(tmp, 'cpu-time.mjs');
writeFileSync(
  cpuHook,
  `import { writeSync } from 'node:fs';
process.on('exit', () => { const u = process.cpuUsage(); writeSync(2, '\\nbench-auto cpu ' + (u.user + u.system) / 1e6 + '\\n'); });
`,
);
const cases = [
  {
    name: 'cooldown study (2 fit curves, 11 validate)',
    target: 2,
    inputs: { request: cooldownRequest(), files: cooldownFiles() },
  },
  {
    name: 'MultiPowerLaw release split 25M (3 fit, 6 validate)',
    target: 3,
    inputs: { request: releaseRequest(), files: releaseFiles() },
  },
];
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(`auto with its band, in wasm through scripts/lawcore.mjs fit: ${runs} run(s) each, mean ± standard error`);
console.log(`load average before: ${load()} (${cpus().length} cores)`);
try {
  for (const c of cases) {
    console.log(`\n${c.name}: target at most ${c.target} s`);
    for (const [how, input] of Object.entries(c.inputs)) {
      let cmd = ['fit', '--json', '--no-columns'];
      if (how === 'request') {
        const path = join(tmp, `${how}.json`);
        writeFileSync(path, JSON.stringify(input));
        cmd.push(path);
      } else {
        cmd = [...cmd, '--auto', ...input];
      }
      const fit = [];
      const whole = [];
      const cpu = [];
      let answer;
      for (let i = 0; i < runs; i++) {
        const began = performance.now();
        const r = spawnSync(process.execPath, ['--import', cpuHook, cli, ...cmd], {
          cwd: root,
          encoding: 'utf8',
          maxBuffer: 256 << 20,
        });
        whole.push((performance.now() - began) / 1000);
        if (r.status !== 0) throw new Error(`${c.name}, ${how}: ${r.stderr}`);
        cpu.push(Number(/bench-auto cpu ([\d.e-]+)/.exec(r.stderr)[1]));
        answer = JSON.parse(r.stdout);
        fit.push(answer.elapsedMs / 1000);
      }
      const f = meanSE(fit);
      const w = meanSE(whole);
      const pm = ({ mean, se }) => `${mean.toFixed(2)}${Number.isNaN(se) ? '' : ` ± ${se.toFixed(2)}`} s`;
      console.log(
        `  ${how.padEnd(8)} fit ${pm(f)}, whole command ${pm(w)} (its CPU time ${pm(meanSE(cpu))})  [fits: ${fit.map((x) => x.toFixed(2)).join(' ')}]`,
      );
      console.log(`           ${choiceOf(answer)}`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`\nload average after: ${load()}`);
