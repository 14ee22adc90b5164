#!/usr/bin/env node
// cooldown-study.mjs: a cooldown-length study through the command line, from its raw logs, as
// a user runs it (its README: ../shared/data/lrsched-124m-lr1e-4).
//
//   node scripts/cooldown-study.mjs DIR [--fit NAME]... [fit options...]
//
// DIR holds the study's JSON logs (stable-*.json, wsd-linear-F-Tk.json; the validation loss
// `val.val_loss` is fitted, the learning rates `train.train_lr` are the schedules). The runs
// --fit names are fitted (default: the stable run and the 20% linear cooldown of the shortest
// length), every other linear cooldown predicted. The other options go to `fit` (--auto,
// --lambda 0.999, --convention actual, ...; none: the annealing law with lambda 0.999). It
// prints the study's scores: mean PredE of the predicted cooldowns, the mean |error| of their
// last losses, and for each length the cooldown fraction with the lowest predicted last loss
// against the real best (the regret; differences under 0.001 are evaluation noise there).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('lawcore.mjs', import.meta.url));
const [dir, ...rest] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/cooldown-study.mjs DIR [--fit NAME]... [fit options...]');
  process.exit(2);
}
const fitNames = [];
const options = [];
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--fit') fitNames.push(rest[++i]);
  else options.push(rest[i]);
}

const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const cooldowns = files.filter((f) => /^wsd-linear-[\d.]+-\d+k\.json$/.test(f)).map((f) => f.slice(0, -5));
const lengthOf = (name) => Number(/-(\d+)k$/.exec(name)[1]);
if (!fitNames.length) {
  const shortest = Math.min(...cooldowns.map(lengthOf));
  fitNames.push(files.find((f) => f.startsWith('stable-')).slice(0, -5), `wsd-linear-0.2-${shortest}k`);
}
const predicted = cooldowns.filter((n) => !fitNames.includes(n));

const args = [cli, 'fit', '--column', 'val_loss', '--json', ...options];
for (const n of fitNames) args.push('--fit', join(dir, `${n}.json`));
for (const n of predicted) args.push('--validate', join(dir, `${n}.json`));
if (!options.includes('--auto') && !options.includes('--lambda')) args.push('--lambda', '0.999');
const out = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 256 << 20 });
if (out.status !== 0) {
  console.error(out.stderr);
  process.exit(1);
}
const answer = JSON.parse(out.stdout);

/** lastLoss is a run's last logged validation loss (the last value of a step logged twice). */
function lastLoss(name) {
  const { val } = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
  const last = new Map();
  val.iter.forEach((s, k) => {
    last.set(s, val.val_loss[k]);
  });
  return last.get(Math.max(...last.keys()));
}
const real = new Map(cooldowns.map((n) => [n, lastLoss(n)]));
const forecast = new Map();
for (const c of answer.curves) {
  const name = cooldowns.find((n) => c.name === n || c.name.startsWith(`${n} `));
  if (name) forecast.set(name, c.predicted.at(-1));
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const lambda =
  answer.params.lambda === undefined
    ? ''
    : `, λ ${answer.settings.lambda === 'fit' ? `fitted (${answer.params.lambda.toFixed(4)})` : answer.params.lambda}`;
const members = answer.members ? ` (and ${answer.members.length - 1} more)` : '';
console.log(
  answer.auto
    ? `auto: ${answer.auto.chosen.label}${members}`
    : `${answer.law}${lambda}, warmup ${answer.settings.warmupConvention}`,
);
console.log(`  fitted: ${fitNames.join(', ')}; predicted: ${predicted.length} cooldowns`);
console.log(
  `  mean PredE ${answer.validateMetrics.PredE.toFixed(5)}, mean |error| of the last losses ${mean(predicted.map((n) => Math.abs(forecast.get(n) - real.get(n)))).toFixed(4)}`,
);
for (const T of [...new Set(cooldowns.map(lengthOf))].sort((a, b) => a - b)) {
  const runs = cooldowns.filter((n) => lengthOf(n) === T);
  const chosen = runs.reduce((a, b) => (forecast.get(b) < forecast.get(a) ? b : a));
  const best = runs.reduce((a, b) => (real.get(b) < real.get(a) ? b : a));
  console.log(
    `  ${T}K: picks ${chosen} (real last loss ${real.get(chosen).toFixed(4)}), the best is ${best} (${real.get(best).toFixed(4)}): regret ${(real.get(chosen) - real.get(best)).toFixed(4)}`,
  );
}
