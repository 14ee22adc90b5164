// Log files given on the command line: read (folders walked), imported through lawcore's
// `import`, and made into the curves of a fit request.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { UsageError, number, splitFileValue } from './args.mjs';
import { isScheduleSpec, maxOf, parseScheduleSpec, schedulePeak } from './schedule-spec.mjs';
// the page's own reading of a curve's learning rates, so that the CLI and the page fit a file alike
import { defaultWindow, loggedWarmup, warmupFromLR } from '../../site/js/schedules/curve-facts.js';

/** walk lists the files under dir, in name order, leaving out hidden files and folders. */
function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    const path = resolve(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else out.push(path);
  }
  return out;
}

/**
 * collectFiles lists the files of args (files, or folders walked), as absolute paths; anchor is
 * the folder their paths are read from: a file's own folder, a folder's parent.
 */
function collectFiles(args) {
  const files = [];
  for (const arg of args) {
    let st;
    try {
      st = statSync(arg);
    } catch (err) {
      throw new Error(`cannot read ${arg}: ${err.code === 'ENOENT' ? 'no such file or folder' : err.message}`);
    }
    const abs = resolve(arg);
    if (st.isDirectory()) {
      const inside = walk(abs);
      if (inside.length === 0) throw new Error(`${arg}: the folder has no files`);
      for (const path of inside) files.push({ abs: path, anchor: dirname(abs) });
    } else files.push({ abs, anchor: dirname(abs) });
  }
  // a file named twice (or a folder and a file in it) is read once
  const seen = new Set();
  return files.filter((f) => !seen.has(f.abs) && seen.add(f.abs));
}

/** commonFolder is the deepest folder that holds every one of the absolute folders given. */
function commonFolder(folders) {
  let parts = folders[0].split(sep);
  for (const f of folders.slice(1)) {
    const other = f.split(sep);
    let i = 0;
    while (i < parts.length && i < other.length && parts[i] === other[i]) i++;
    parts = parts.slice(0, i);
  }
  return parts.join(sep) || sep;
}

/** readBytes reads a file's bytes, naming it in the error. */
function readBytes(path) {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (err) {
    throw new Error(`cannot read ${path}: ${err.message}`);
  }
}

/**
 * importLogs imports the files of args through lawcore's `import`: one file as {name} with its
 * bytes, several files or a folder as {paths} (relative to the folder they share, so that runs
 * are named after their own folders). choice ({column}, {runs}) settles an ambiguity. Returns
 * {result, columns, request, sources}: sources[i] are the absolute paths curve i was read from.
 */
export async function importLogs(core, args, choice = {}) {
  const files = collectFiles(args);
  const choose = Object.keys(choice).length ? { choice } : {};
  let request;
  let byPath = null;
  if (files.length === 1 && args.length === 1 && statSync(args[0]).isFile()) {
    request = { name: basename(files[0].abs), ...choose };
  } else {
    const base = commonFolder(files.map((f) => f.anchor));
    byPath = new Map(files.map((f) => [relative(base, f.abs).split(sep).join('/'), f.abs]));
    request = { paths: [...byPath.keys()], ...choose };
  }
  const { result, columns } = await core.call(
    'import',
    request,
    files.map((f) => readBytes(f.abs)),
  );
  const sources = (result.curves || []).map((c) =>
    byPath ? (c.files || [c.file]).map((p) => byPath.get(p)).filter(Boolean) : [files[0].abs],
  );
  return { result, columns, request, sources };
}

/** AmbiguityError is an import that asks which loss column or which runs to read. */
export class AmbiguityError extends Error {
  constructor(args, result) {
    super(result.ambiguity.message);
    this.args = args;
    this.result = result;
  }
}

/** fileMatcher returns a test of whether a curve read from sources comes from the file (or folder) named. */
function fileMatcher(file) {
  const abs = resolve(file);
  return (sources) => sources.some((s) => s === abs || s.startsWith(abs + sep));
}

/**
 * perFile reads options that are "VALUE" for every curve or "FILE=VALUE" for a file's curves
 * (isGlobal says which form an option is), as {all, byFile: [{file, match, value}]}.
 */
export function perFile(values = [], isGlobal) {
  const out = { all: undefined, byFile: [] };
  for (const v of values) {
    const split = isGlobal(v) ? null : splitFileValue(v);
    if (!split) out.all = v;
    else out.byFile.push({ file: split.file, match: fileMatcher(split.file), value: split.value, used: false });
  }
  return out;
}

/** valueFor is the value of a perFile option for a curve read from sources (per file first). */
function valueFor(option, sources) {
  const hit = option.byFile.find((f) => f.match(sources));
  if (hit) hit.used = true;
  return hit
    ? { value: hit.value, perFile: true }
    : option.all === undefined
      ? null
      : { value: option.all, perFile: false };
}

/** lrSchedule is the explicit schedule through a curve's logged learning rates (null without any). */
function lrSchedule(steps, lr, lastLossStep) {
  if (!lr) return null;
  const idx = [];
  for (let k = 0; k < steps.length; k++) if (Number.isFinite(lr[k]) && steps[k] >= 0) idx.push(k);
  if (idx.length === 0) return null;
  const s = Float64Array.from(idx, (k) => steps[k]);
  const values = Float64Array.from(idx, (k) => lr[k]);
  // the run's own warmup, as the page's explicitSchedule takes it
  const warmup = loggedWarmup(s, values);
  return {
    schedule: { kind: 'explicit', total: Math.max(s[s.length - 1], lastLossStep), ...(warmup > 0 ? { warmup } : {}) },
    columns: { scheduleSteps: s, scheduleLR: values },
  };
}

/**
 * fitCurves makes the curves of a fit request from imported groups [{role, args, imported}]:
 * every curve with a loss, its points at steps >= 1; its schedule from `--schedule FILE=spec`,
 * else its own learning rates (an explicit schedule through them), else `--schedule spec`;
 * its size from `--size`; its fit window from `--from` (0: every point), else, as the page
 * does, from the end of the warmup its learning rates (or its schedule) show when it has points
 * before it. Returns {curves, columns, notes, peak, lrWarmup}: peak is the largest peak LR the
 * curves' schedules know (for the specs that leave it out); lrWarmup is the warmup the curves'
 * learning rates show ({warmup, note}, from the first with any), null without any.
 */
export function fitCurves(groups, { schedules = [], sizes = [], froms = [], warmup } = {}) {
  const scheduleOpt = perFile(schedules, isScheduleSpec);
  const sizeOpt = perFile(sizes, (v) => !v.includes('='));
  const fromOpt = perFile(froms, (v) => !v.includes('='));
  const drafts = [];
  const notes = [];
  for (const { role, imported } of groups) {
    const { result, columns, sources, request } = imported;
    // what the import said (files skipped, values dropped), named by the file given alone
    for (const n of result.notes || []) notes.push(request && request.name ? `${request.name}: ${n}` : n);
    result.curves.forEach((info, i) => {
      const col = columns[i] || {};
      if (!info.hasLoss || !col.loss || !col.steps) {
        notes.push(`${info.name}: no loss values (learning rates only); left out.`);
        return;
      }
      const keep = [];
      for (let k = 0; k < col.steps.length; k++) if (col.steps[k] >= 1 && Number.isFinite(col.loss[k])) keep.push(k);
      if (keep.length === 0) {
        notes.push(`${info.name}: no loss at steps >= 1; left out.`);
        return;
      }
      if (keep.length < col.steps.length)
        notes.push(`${info.name}: the point at step 0 (or without a loss) left out: the fit needs steps >= 1.`);
      const steps = Float64Array.from(keep, (k) => col.steps[k]);
      const lossValues = Float64Array.from(keep, (k) => col.loss[k]);
      // the learning rates as logged when they have steps of their own (lawcore's lrSteps),
      // else as the loss's steps have them
      const logged = col.lrSteps && col.lrLogged && col.lrSteps.length;
      const fromLR = info.hasLR
        ? lrSchedule(logged ? col.lrSteps : col.steps, logged ? col.lrLogged : col.lr, steps[steps.length - 1])
        : null;
      drafts.push({ info, role, sources: sources[i], steps, loss: lossValues, fromLR });
    });
  }
  const known = drafts.map((d) => d.fromLR && maxOf(d.fromLR.columns.scheduleLR)).filter((p) => p > 0);
  const peak = known.length ? Math.max(...known) : undefined;
  const lrWarmup = warmupFromLR(
    drafts
      .filter((d) => d.fromLR)
      .map((d) => ({
        name: d.info.name,
        steps: d.steps,
        lrSteps: d.fromLR.columns.scheduleSteps,
        lr: d.fromLR.columns.scheduleLR,
      })),
  );
  // the warmup the specs that leave it out get, as the request's warmupSteps will give it them
  // (so that their fit window starts after it)
  const specWarmup = warmup ?? lrWarmup?.warmup;
  const curves = [];
  const columns = [];
  const windowed = []; // the curves fitted from the end of their warmup, by default
  const names = new Map();
  for (const d of drafts) names.set(d.info.name, (names.get(d.info.name) || 0) + 1);
  for (const d of drafts) {
    const name =
      names.get(d.info.name) > 1 ? `${d.info.name} (${d.sources.map((s) => basename(s)).join(', ')})` : d.info.name;
    const spec = valueFor(scheduleOpt, d.sources);
    const curve = { name, role: d.role };
    const col = { steps: d.steps, loss: d.loss };
    if (spec && (spec.perFile || !d.fromLR)) {
      curve.schedule = parseScheduleSpec(spec.value, { peak, warmup: specWarmup }).schedule;
    } else if (d.fromLR) {
      curve.schedule = d.fromLR.schedule;
      Object.assign(col, d.fromLR.columns);
    } else {
      throw new UsageError(
        `${name} (${d.sources.join(', ')}) has no learning rates: give its schedule with --schedule "<spec>" (every curve) or --schedule FILE="<spec>"`,
      );
    }
    const size = valueFor(sizeOpt, d.sources);
    if (size) curve.size = number(size.value, `--size ${size.value}`);
    const from = fitWindow(valueFor(fromOpt, d.sources), curve, col, d.steps);
    if (from.step > 0) curve.from = from.step;
    if (from.defaulted) windowed.push(`${name} from step ${from.step}`);
    curves.push(curve);
    columns.push(col);
  }
  for (const opt of [scheduleOpt, sizeOpt, fromOpt]) {
    for (const f of opt.byFile)
      if (!f.used) throw new UsageError(`${f.file}: no curve was read from this file (of ${f.file}=${f.value})`);
  }
  if (windowed.length) {
    notes.push(
      `Fitted from the end of the warmup (its points follow no scaling law; --from 0 fits every point): ${windowed.join(', ')}.`,
    );
  }
  const peaks = curves.map((c) => schedulePeak(c.schedule)).filter((p) => p > 0);
  return { curves, columns, notes, peak: peaks.length ? Math.max(...peaks, ...known) : peak, lrWarmup };
}

/**
 * fitWindow is the step a curve is fitted from, {step, defaulted}: the --from value given for
 * it, else the page's default (defaultWindow: the end of the warmup its learning rates or its
 * schedule show, when it has points before it).
 */
function fitWindow(given, curve, col, steps) {
  if (given) {
    const step = number(given.value, `--from ${given.value}`);
    if (!(step >= 0) || step > steps[steps.length - 1]) {
      throw new UsageError(
        `--from ${given.value}: ${curve.name}'s points run from step ${steps[0]} to ${steps[steps.length - 1]}; give a step in that range (0: every point)`,
      );
    }
    return { step, defaulted: false };
  }
  const page = {
    steps,
    schedule: curve.schedule,
    ...(col.scheduleSteps ? { lrSteps: col.scheduleSteps, lr: col.scheduleLR } : {}),
  };
  const step = defaultWindow(page);
  return { step, defaulted: step > 0 };
}
