// Reading loss curves from files, drops, pastes and whole run folders through lawcore's
// `import` (so errors name the file, line and column), and pairing files of learning rates with
// the loss curves they belong to (lawcore's `pairlr`). Every answer becomes curves by one path
// (curvesOfAnswer), as the page keeps them.
import { MAX_IMPORT_BYTES, MAX_SCHEDULE_STEPS } from '../engine/schema.js';
import { withoutWeights } from './folder-files.js';
import { loggedWarmup } from '../schedules/curve-facts.js';
import { grouped } from '../common/format.js';

/**
 * curveName turns "runs/cosine_24000.csv" into "cosine_24000", and a TensorBoard download's
 * "run-cosine-tag-eval_loss.csv" into "cosine eval_loss".
 */
export function curveName(fileName) {
  // a gzipped file loses its .gz and then its own extension (run.csv.gz is "run")
  const stem = fileName
    .replace(/^.*[\\/]/, '')
    .replace(/\.gz$/i, '')
    .replace(/\.(csv|tsv|txt|dat|json|jsonl|log|out)$/i, '');
  const tensorBoard = /^run[-_](.+)-tag-(.+)$/.exec(stem);
  return (tensorBoard ? `${tensorBoard[1]} ${tensorBoard[2]}` : stem) || 'curve';
}

/**
 * MAX_PAGE_POINTS bounds the points of all the curves on the page together: fitting and drawing
 * 8,000,000 took Chromium (every process) to 3.4 GB at its peak, 10,000,000 to 4.0 GB
 * (tests/browser/measure-memory.mjs), so past it a browser with 4 GB would lose the tab.
 */
export const MAX_PAGE_POINTS = 8_000_000;

/**
 * withinPointBudget splits curves about to be added to a page already holding `held` points:
 * those that keep the page within MAX_PAGE_POINTS (in order) and, for each of the others, the
 * message saying why it was not added.
 */
export function withinPointBudget(held, curves) {
  const kept = [];
  const refused = [];
  let total = held;
  for (const c of curves) {
    const n = c.steps.length;
    if (total + n <= MAX_PAGE_POINTS) {
      kept.push(c);
      total += n;
    } else {
      refused.push(
        `${c.name}: not added: its ${grouped(n)} points would bring the page to ${grouped(total + n)}, past the ${grouped(MAX_PAGE_POINTS)} it can fit and draw within 4 GB of memory. Remove curves, or thin this one first (keep every 10th row, say).`,
      );
    }
  }
  return { kept, refused };
}

/**
 * explicitSchedule joins the sampled (step, lr) points linearly. Its warmup is the one its LR
 * shows (loggedWarmup: where the logged climb reaches the peak): each run's own, for the warmup
 * convention, so that runs with different warmups are fitted alike in any order (one setting
 * for all fitted a 500-step run as if warmed up over another's 2,000 steps). An LR at its peak
 * from its first step logged leaves it to the warmup setting.
 */
export function explicitSchedule(steps, lr) {
  const warmup = loggedWarmup(steps, lr);
  return {
    kind: 'explicit',
    total: steps[steps.length - 1],
    steps: plainArray(steps),
    lr: plainArray(lr),
    ...(warmup > 0 ? { warmup } : {}),
  };
}

/** plainArray copies a typed array into an Array (a loop: Array.from took 50 ms a million values). */
function plainArray(t) {
  const out = new Array(t.length);
  for (let i = 0; i < t.length; i++) out[i] = t[i];
  return out;
}

/**
 * picked is the values of a (a column the bridge answered) at the increasing indices idx: a
 * itself when they are all of them (the column is the curve's own: nothing else holds it),
 * else a new Float64Array. Float64Array.from with a mapping function took 80 ms a million.
 */
function picked(a, idx) {
  if (idx.length === a.length && a instanceof Float64Array) return a;
  const out = new Float64Array(idx.length);
  for (let j = 0; j < idx.length; j++) out[j] = a[idx[j]];
  return out;
}

/**
 * askedImport runs an import (call(choice) -> the bridge's {result, columns}) until it has no
 * question left: when the answer holds several runs or loss columns, ask(ambiguity, label)
 * resolves to a choice ({column} or {runs}) or null (skip); without ask, the question is an
 * error. It returns {result, columns, choice}, or {skipped: true} when the user declined.
 */
async function askedImport(label, call, ask, choice, first = null) {
  let { result, columns } = first || (await call(choice));
  for (let asked = 0; result.ambiguity; asked++) {
    if (asked === 3 || !ask) throw new Error(result.ambiguity.message);
    const answer = await ask(result.ambiguity, label);
    if (!answer) return { skipped: true };
    choice = { ...choice, ...answer };
    ({ result, columns } = await call(choice));
  }
  return { result, columns, choice };
}

/**
 * curvesOfAnswer turns an import answer into curves as the page keeps them (steps >= 1 only; an
 * LR column becomes an explicit schedule through its points) and the curves holding learning
 * rates only ({name, file, run, steps, lr}), for pairLearningRates. label prefixes the notes
 * (the file's or the folder's name); nameOf(info, i) names the curve of the answer's i-th
 * entry; fileOf(info) is the file it came from.
 */
function curvesOfAnswer(result, columns, { label, nameOf, fileOf }) {
  const notes = (result.notes || []).map((n) => `${label}: ${n}`);
  const curves = [];
  const lrCurves = [];
  const droppedFrom = []; // curves that lost their point at step 0 (or points without a loss)
  result.curves.forEach((info, i) => {
    const col = columns[i] || {};
    const name = nameOf(info, i);
    const run = info.run || '';
    const file = fileOf(info);
    if (!info.hasLoss && info.hasLR && col.lr && col.steps && col.steps.length) {
      lrCurves.push({ name, file, run, steps: col.steps, lr: col.lr });
      return;
    }
    if (!info.hasLoss || !col.loss || !col.steps) {
      notes.push(`${label}: ${name} has no loss values; left out.`);
      return;
    }
    // The fit needs steps >= 1: the loss at step 0 (before any training) is dropped.
    const keep = [];
    for (let k = 0; k < col.steps.length; k++) if (col.steps[k] >= 1 && Number.isFinite(col.loss[k])) keep.push(k);
    const dropped = col.steps.length - keep.length;
    if (!keep.length) {
      notes.push(`${label}: ${name} has no loss at steps ≥ 1; left out.`);
      return;
    }
    if (dropped) droppedFrom.push(dropped === 1 ? name : `${name} (${dropped})`);
    // lawcore's schedules end by step MAX_SCHEDULE_STEPS - 1: a run past it could be listed
    // but never fitted nor predicted
    const last = col.steps[col.steps.length - 1]; // steps come sorted
    if (last > MAX_SCHEDULE_STEPS - 1) {
      notes.push(
        `${label}: ${name} runs to step ${grouped(last)}, past the ${grouped(MAX_SCHEDULE_STEPS - 1)} steps a schedule may have; left out.`,
      );
      return;
    }
    const curve = {
      name,
      steps: picked(col.steps, keep),
      loss: picked(col.loss, keep),
      source: info.run ? `${file}, run ${info.run}` : file,
      file,
      run,
      schedule: null,
      scheduleSource: 'builder',
    };
    if (info.hasLR && col.lr) {
      // the learning rates as logged when they have steps of their own (more often than an
      // eval loss, say), else as the loss's steps have them
      const [lrAt, lrOf] =
        col.lrSteps && col.lrLogged && col.lrSteps.length ? [col.lrSteps, col.lrLogged] : [col.steps, col.lr];
      const idx = [];
      for (let k = 0; k < lrAt.length; k++) if (Number.isFinite(lrOf[k]) && lrAt[k] >= 0) idx.push(k);
      if (idx.length) {
        curve.lr = picked(lrOf, idx);
        curve.lrSteps = picked(lrAt, idx);
        curve.schedule = explicitSchedule(curve.lrSteps, curve.lr);
        curve.schedule.total = Math.max(curve.schedule.total, curve.steps[curve.steps.length - 1]);
        curve.scheduleSource = 'file';
      }
    }
    curves.push(curve);
  });
  if (droppedFrom.length)
    notes.push(
      `${label}: the point at step 0 (or without a loss) dropped from ${droppedFrom.join(', ')}; the fit needs steps ≥ 1.`,
    );
  return { curves, lrCurves, notes };
}

/**
 * importText reads one file through the engine's import (CSV/TSV, W&B, TensorBoard,
 * trainer_state.json, Megatron/nanoGPT logs): content is its text (a paste) or its bytes (a
 * file, read by lawcore as they are). When the file holds several runs or loss columns,
 * ask(ambiguity, fileName) resolves to a choice ({column} or {runs}) or null (skip the file);
 * without ask, the question is an error. choice starts the request ({asLR: true} reads the
 * file's learning rates instead of its loss). first is lawcore's answer to the file already
 * read with that choice; upload says the file is one of several read together (importFiles),
 * whose column was settled for all of them and said once.
 * It returns {curves, lrCurves, notes} (see curvesOfAnswer); skipped is set when the user
 * declined the question.
 */
export async function importText(
  engine,
  fileName,
  content,
  ask = null,
  choice = {},
  { first = null, upload = false } = {},
) {
  const asked = await askedImport(fileName, (c) => engine.importFile(fileName, content, c), ask, choice, first);
  if (asked.skipped) return { curves: [], lrCurves: [], notes: [`${fileName}: skipped.`], skipped: true };
  const { result, columns } = asked;
  const single = result.curves.length === 1;
  // a run name that several curves share (the files of one folder in an archive) names none of
  // them: lawcore's name, which adds the file, does
  const runs = result.curves.map((info) => info.run).filter(Boolean);
  const shared = new Set(runs.filter((run, k) => runs.indexOf(run) !== k));
  const nameOf = (info, i) => {
    // A column the user chose goes into the name: one file may give a curve per column.
    const run = shared.has(info.run) ? '' : info.run;
    const base = run || (single ? curveName(fileName) : info.name || `${curveName(fileName)} ${i + 1}`);
    // (an upload's column is the same for all its files: it names none of them)
    return asked.choice.column && !upload && !base.endsWith(info.metric) ? `${base} ${info.metric}` : base;
  };
  const out = curvesOfAnswer(result, columns, { label: fileName, nameOf, fileOf: () => fileName });
  // why lawcore read this column among several, when nobody was asked
  if (!upload && !asked.choice.column && result.loss && result.loss.reason)
    out.notes.unshift(`${fileName}: ${result.loss.reason}`);
  return out;
}

/**
 * lossCandidates are a file's loss candidates as lawcore's import answered them, for
 * agreeColumns: {name, chosen (the column read; '' when it asked), candidates}.
 */
export function lossCandidates(name, result) {
  if (result.ambiguity && result.ambiguity.columns) return { name, chosen: '', candidates: result.ambiguity.columns };
  if (result.loss) return { name, chosen: result.loss.column, candidates: result.loss.candidates || [] };
  return { name, chosen: '', candidates: [] };
}

/**
 * uploadColumns settles the loss column of the files of one upload (read: [{file, first}], first
 * lawcore's answer to the file alone) together: lawcore's agree says which, and why; when two
 * real series compete in a file, ask confirms it once for the whole upload. It returns, for each
 * file, {column} (the column to read it with; null: as first read) or {skip: true} (the question
 * was declined), and adds to notes what the user should know.
 */
export async function uploadColumns(engine, read, ask, notes) {
  const files = read.map(({ file, first }) => lossCandidates(file.name, first.result));
  if (files.filter((f) => f.candidates.length).length < 2) return read.map(() => ({ column: null }));
  const agreed = await engine.agreeColumns(files);
  let column = agreed.column;
  if (agreed.ask) {
    const question = {
      message: agreed.message,
      columns: agreed.columns,
      default: agreed.column,
      reason: agreed.reason,
    };
    if (!ask) throw new Error(agreed.message);
    const answer = await ask(question, `${read.length} files`, { upload: true });
    if (!answer) return files.map((f) => (f.chosen || !f.candidates.length ? { column: null } : { skip: true }));
    column = answer.column;
  } else if (files.some((f) => f.candidates.length > 1)) {
    notes.push(agreed.reason);
  }
  if (column === agreed.column) notes.push(...agreed.notes);
  return files.map((f, i) => {
    if (!f.candidates.length) return { column: null };
    const own = f.candidates.some((o) => o.name === column) ? column : agreed.files[i] || f.chosen;
    return { column: own && own !== f.chosen ? own : null };
  });
}

/**
 * importFolder reads a whole run folder in one call of the engine's import (lawcore groups its
 * files into runs, pairs each run's loss with its learning rate, and lists the files it
 * skipped): folder is {name, files: [{path, file}]} as folder-files.js gathers it. The files'
 * total size is checked against lawcore's limit before any is read. A question (several loss
 * columns) is asked once for the whole folder. It returns {curves, lrCurves, notes} as
 * importText does; curves are named as lawcore names them ("<run> <metric>").
 */
export async function importFolder(engine, folder, ask = null) {
  const { name } = folder;
  const { read: files, unread } = withoutWeights(folder.files);
  if (!files.length)
    throw new Error(
      `${name}: ${unread.length ? 'holds only model weights and checkpoints, no log' : 'the folder is empty'}`,
    );
  const total = files.reduce((sum, f) => sum + f.file.size, 0);
  if (total > MAX_IMPORT_BYTES) {
    throw new Error(
      `${name}: its ${files.length} files hold ${Math.ceil(total / 2 ** 20)} MB, more than ${MAX_IMPORT_BYTES / 2 ** 20} MB in all: give its run directories one at a time`,
    );
  }
  const paths = files.map((f) => f.path);
  const bytes = await Promise.all(files.map(async (f) => new Uint8Array(await f.file.arrayBuffer())));
  const asked = await askedImport(name, (c) => engine.importFolder(paths, bytes, c), ask, {});
  if (asked.skipped) return { curves: [], lrCurves: [], notes: [`${name}: skipped.`], skipped: true };
  const { result, columns } = asked;
  const out = curvesOfAnswer(result, columns, {
    label: name,
    nameOf: (info, i) => info.name || info.run || `${name} ${i + 1}`,
    fileOf: (info) => (info.files && info.files.length ? info.files.join(', ') : name),
  });
  if (unread.length)
    out.notes.push(`${name}: ${unread.length} file(s) of model weights or checkpoints left unread: ${listed(unread)}.`);
  return out;
}

/** listed names the first few of paths, and how many more there are. */
function listed(paths, shown = 5) {
  return paths.length <= shown
    ? paths.join(', ')
    : `${paths.slice(0, shown).join(', ')} and ${paths.length - shown} more`;
}

/**
 * pairLearningRates finds the loss curves the learning rates of files holding only them belong
 * to (lawcore's pairlr: by run, else one file with one curve). It returns {pairs, notes}: for
 * each loss curve paired, its index in lossCurves and its new schedule fields ({schedule,
 * scheduleSource, lrFile, lr, lrSteps}: an explicit schedule through the LR file's own points;
 * and its steps and loss without the few points outside the learning rates' steps, when pairlr
 * leaves them out), and what was paired or could not be and why. It changes no curve.
 */
export async function pairLearningRates(engine, lossCurves, lrCurves) {
  if (!lrCurves.length) return { pairs: [], notes: [] };
  const all = [...lossCurves.map((c) => ({ ...c, isLoss: true })), ...lrCurves.map((c) => ({ ...c, isLoss: false }))];
  const result = await engine.pairLearningRates(all);
  const pairs = result.pairs.map(({ loss, lr, keep, reach }) => {
    const from = withReach(all[lr], reach);
    const c = all[loss];
    const kept = keep ? { steps: c.steps.slice(keep[0], keep[1]), loss: c.loss.slice(keep[0], keep[1]) } : {};
    return {
      index: loss,
      name: c.name,
      change: {
        ...kept,
        lr: from.lr,
        lrSteps: from.steps,
        schedule: explicitSchedule(from.steps, from.lr),
        scheduleSource: 'file',
        lrFile: from.file,
      },
    };
  });
  const notes = pairs.map((p) => `${p.name}: the schedule is the learning rates of ${p.change.lrFile}.`);
  return { pairs, notes: [...notes, ...result.notes] };
}

/**
 * withReach is an LR curve ({steps, lr, file}) with pairlr's reach added in order of step:
 * its learning rates continued to a loss one logging interval before or after them.
 */
function withReach(curve, reach) {
  if (!reach || !reach.length) return curve;
  const n = curve.steps.length;
  const before = reach.filter((p) => p.step < curve.steps[0]);
  const after = reach.filter((p) => p.step > curve.steps[n - 1]);
  const steps = new Float64Array(before.length + n + after.length);
  const lr = new Float64Array(steps.length);
  steps.set(curve.steps, before.length);
  lr.set(curve.lr, before.length);
  [...before, ...after].forEach((p, i) => {
    const at = i < before.length ? i : n + i;
    steps[at] = p.step;
    lr[at] = p.lr;
  });
  return { ...curve, steps, lr };
}

/**
 * fileBytes reads a File's bytes, refusing one larger than lawcore's limit (MAX_IMPORT_BYTES)
 * unread. The bytes go to the worker as they are (not as JSON text): a 500 MB file loads in
 * about 7 s and leaves the worker's memory at about 1.1 GB.
 */
export async function fileBytes(file) {
  if (file.size > MAX_IMPORT_BYTES) {
    throw new Error(
      `${file.name}: the file is ${Math.round(file.size / 2 ** 20)} MB, larger than ${MAX_IMPORT_BYTES / 2 ** 20} MB: thin the curve first (keep every 10th row, say)`,
    );
  }
  return new Uint8Array(await file.arrayBuffer());
}

/**
 * importFiles imports every File in turn (a question about one file at a time); it returns the
 * curves, the curves of files holding learning rates only (lrCurves), the notes, and the error
 * messages of the files that failed, so that one bad file never stops the rest.
 */
export async function importFiles(engine, files, ask) {
  const out = { curves: [], lrCurves: [], notes: [], errors: [] };
  // Each file as lawcore reads it alone; then the upload's loss column, settled for all of them
  // (one question at most); then each file with that column where lawcore read another.
  const read = [];
  for (const file of files) {
    try {
      const bytes = await fileBytes(file);
      read.push({ file, bytes, first: await engine.importFile(file.name, bytes, {}) });
    } catch (err) {
      out.errors.push(err.message);
    }
  }
  const upload = read.length > 1;
  const plan = upload ? await uploadColumns(engine, read, ask, out.notes) : read.map(() => ({ column: null }));
  for (const [i, { file, bytes, first }] of read.entries()) {
    if (plan[i].skip) {
      out.notes.push(`${file.name}: skipped.`);
      continue;
    }
    try {
      const { column } = plan[i];
      const got = await importText(engine, file.name, bytes, ask, column ? { column } : {}, {
        first: column ? null : first,
        upload,
      });
      out.curves.push(...got.curves);
      out.lrCurves.push(...got.lrCurves);
      out.notes.push(...got.notes);
    } catch (err) {
      out.errors.push(err.message);
    }
  }
  return out;
}
