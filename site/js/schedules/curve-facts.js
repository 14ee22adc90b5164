// What a curve's own data says about its schedule: its last step, and from its learning-rate
// column (a file's LR column, or a learning-rate file given for it) the peak LR and where the
// warmup ends. The schedule builder starts from these facts and a preset never overrides them;
// a schedule that disagrees with them (it ends before the last step, or its LR differs from the
// column) is flagged, in the builder, in the curve's row and before a fit. Pure: no DOM.
import { scheduleSteps, takesWarmupSetting } from './schedule-kinds.js';
import * as fmt from '../common/format.js';

/** PEAK_TOLERANCE: an LR within this fraction of the largest counts as at the peak (logs round). */
const PEAK_TOLERANCE = 1e-3;

/** LR_TOLERANCE: a schedule agrees with an LR column when every logged LR is within this fraction of the peak. */
export const LR_TOLERANCE = 0.01;

/**
 * lrColumn is the curve's learning rates as logged, {steps, lr}, or null when it has none:
 * the column the file had (kept as lrSteps and lr), else the points of a schedule that came
 * from a file (a link's curves keep only that).
 */
export function lrColumn(curve) {
  if (!curve) return null;
  if (curve.lr && curve.lrSteps && curve.lr.length && curve.lr.length === curve.lrSteps.length)
    return { steps: curve.lrSteps, lr: curve.lr };
  const s = curve.schedule;
  if (
    curve.scheduleSource === 'file'
    && s
    && s.kind === 'explicit'
    && s.steps
    && s.lr
    && s.lr.length === s.steps.length
    && s.lr.length
  )
    return { steps: s.steps, lr: s.lr };
  return null;
}

/** warmupOf remembers detectWarmup's answer for an LR column (and the steps it came with). */
const warmupOf = new WeakMap();

/**
 * detectWarmup is the step at which the logged LR first reaches its peak: the end of the warmup
 * (0 when the log starts at the peak from step 0 or 1). A log that starts later at the peak (the
 * MultiPowerLaw release logs from step 2160) gives its first step: the warmup ended by then.
 */
export function detectWarmup(steps, lr) {
  // The page asks it of one column several times (its schedule, its facts, the page's
  // warmup): a million-point log took 56 ms of its import. Arrays are never edited in place.
  const known = warmupOf.get(lr);
  if (known && known.steps === steps) return known.warmup;
  let peak = 0;
  for (let i = 0; i < lr.length; i++) if (lr[i] > peak) peak = lr[i];
  let warmup = 0;
  for (let i = 0; peak > 0 && i < lr.length; i++) {
    if (lr[i] >= peak * (1 - PEAK_TOLERANCE)) {
      warmup = steps[i] <= 1 ? 0 : Math.round(steps[i]);
      break;
    }
  }
  warmupOf.set(lr, { steps, warmup });
  return warmup;
}

/**
 * loggedWarmup is the warmup an LR column shows of its own run: where it first reaches its
 * peak, when it logged the climb to it; 0 when it did not (at the peak from its first step
 * logged, it shows only that the warmup was over by then, and the warmup setting stands).
 */
export function loggedWarmup(steps, lr) {
  const warmup = detectWarmup(steps, lr);
  return steps.length && warmup > steps[0] ? warmup : 0;
}

/** NAMED_LENGTH finds a run's length in its name: iter50000, steps_50000, total-50000. */
const NAMED_LENGTH = /(?:^|[^a-z])(?:iter|iters|iterations|steps?|total)[_=-]?(\d{3,})(?!\d)/gi;

/**
 * nominalLength is the length a run was planned to, where its log stops short of it (a run of
 * 50,000 steps evaluated every 200 logs its last loss at 49,800): the step count its name gives
 * (iter50000) when its last logged step (of its loss or its LR column) falls short of it by at
 * most one logging interval, else the roundest number that does, else its last logged step.
 */
export function nominalLength(curve) {
  const n = curve.steps.length;
  const col = lrColumn(curve);
  const lastOf = (xs) => (xs && xs.length ? xs[xs.length - 1] : 0);
  const last = Math.max(lastOf(curve.steps), lastOf(col && col.steps));
  const interval = n > 1 ? curve.steps[n - 1] - curve.steps[n - 2] : 0;
  if (!(last > 0) || !(interval > 0)) return last;
  const within = (x) => x >= last && x - last <= interval;
  for (const m of String(curve.name || '').matchAll(NAMED_LENGTH)) if (within(Number(m[1]))) return Number(m[1]);
  for (let unit = 10 ** Math.floor(Math.log10(last)); unit >= 10; unit /= 10) {
    const round = Math.ceil(last / unit) * unit;
    if (within(round)) return round;
  }
  return last;
}

/** SHAPES are the decay shapes a logged decay is told apart by: the fraction of the way down at u of it. */
const SHAPES = {
  linear: (u) => u,
  cosine: (u) => (1 - Math.cos(Math.PI * u)) / 2,
  '1-sqrt': (u) => Math.sqrt(u),
  '1-square': (u) => u * u,
};

/**
 * loggedDecay is the decay an LR column shows after its peak: {shape (linear, cosine, 1-sqrt or
 * 1-square: the one its points lie nearest), floor (its last LR as a fraction of the peak)}, or
 * null when it does not fall (a constant run) or falls over too few points to tell.
 */
export function loggedDecay(steps, lr) {
  let peak = 0;
  for (const v of lr) if (v > peak) peak = v;
  let start = -1;
  for (let i = 0; i < lr.length; i++) if (lr[i] >= peak * (1 - PEAK_TOLERANCE)) start = i;
  const end = lr.length - 1;
  const final = lr[end];
  if (!(peak > 0) || end - start < 4 || final > peak * 0.95) return null;
  let best = null;
  for (const [shape, down] of Object.entries(SHAPES)) {
    let err = 0;
    for (let i = start; i <= end; i++) {
      const u = (steps[i] - steps[start]) / (steps[end] - steps[start]);
      const y = (peak - lr[i]) / (peak - final);
      err += (y - down(u)) ** 2;
    }
    if (!best || err < best.err) best = { shape, err };
  }
  return { shape: best.shape, floor: fmt.plainValue(final / peak) };
}

/**
 * scheduleDecay is the decay of a curve's schedule: its description's (a WSD's decay shape, a
 * cosine, a linear decay; floor: its final LR as a fraction of the peak), else the one its LR
 * column shows (loggedDecay); null for a schedule that does not decay.
 */
export function scheduleDecay(curve) {
  const s = curve.schedule;
  const floor = s && s.peak > 0 && Number.isFinite(s.final) ? s.final / s.peak : 0;
  if (s && s.kind === 'wsd') return { shape: s.decay || 'linear', floor };
  if (s && (s.kind === 'cosine' || s.kind === 'linear')) return { shape: s.kind, floor };
  const col = lrColumn(curve);
  return col ? loggedDecay(col.steps, col.lr) : null;
}

/**
 * curveFacts is what the curve's data says of its schedule: {lastStep, peak, warmup, from},
 * peak and warmup null when it has no LR column; from says where each comes from in words. The
 * peak is written as a person would type it (a single-precision log's 0.001999999979446888 is
 * 0.002).
 */
export function curveFacts(curve) {
  const lastStep = curve.steps.length ? curve.steps[curve.steps.length - 1] : 0;
  const col = lrColumn(curve);
  if (!col) return { lastStep, peak: null, warmup: null, from: `its last step ${fmt.steps(lastStep)}` };
  let peak = 0;
  for (const v of col.lr) if (v > peak) peak = v;
  peak = fmt.plainValue(peak);
  const warmup = detectWarmup(col.steps, col.lr);
  return {
    lastStep,
    peak: peak > 0 ? peak : null,
    warmup,
    from: `its last step ${fmt.steps(lastStep)}, the peak ${fmt.lr(peak)} of its LR column and the warmup to step ${fmt.steps(warmup)} it shows`,
  };
}

/**
 * scheduleDefaults are the total, peak and warmup a new schedule starts from when no curve's
 * data gives them: the loaded curves' (the longest run's nominal length, the first LR column's
 * peak and warmup), else the schedules to predict's, else fallback ({total, peak, warmup}).
 */
export function scheduleDefaults(state, fallback) {
  const out = { ...fallback };
  const facts = state.curves.map(curveFacts);
  const withLR = facts.find((f) => f.peak);
  if (facts.length) out.total = Math.max(...state.curves.map(nominalLength));
  if (withLR) Object.assign(out, { peak: withLR.peak, warmup: withLR.warmup });
  else {
    const described = [...state.curves, ...state.predictions]
      .map((c) => c.schedule)
      .find((s) => s && Number.isFinite(s.peak));
    if (described)
      Object.assign(out, {
        peak: described.peak,
        ...(Number.isFinite(described.warmup) ? { warmup: described.warmup } : {}),
      });
  }
  return out;
}

/**
 * scheduleProblems lists where a curve's schedule disagrees with the curve's data, each as
 * {kind, text}: 'ends' (it ends before the last observed step: lawcore cannot fit it), or,
 * given expanded (the schedule's LR at every step 0..total as lawcore expands it: {steps,
 * lr}), 'lr' (it differs from the curve's LR column by more than LR_TOLERANCE of the peak).
 * [] when it agrees, or when the curve has no schedule.
 */
export function scheduleProblems(curve, expanded = null) {
  const s = curve.schedule;
  if (!s) return [];
  const out = [];
  const facts = curveFacts(curve);
  const end = scheduleSteps(s);
  if (end && end < facts.lastStep)
    out.push({
      kind: 'ends',
      text: `its schedule ends at step ${fmt.steps(end)}, before its last observed step ${fmt.steps(facts.lastStep)}`,
    });
  const col = lrColumn(curve);
  if (
    col
    && expanded
    && expanded.lr
    && expanded.lr.length
    && !(curve.scheduleSource === 'file' && s.kind === 'explicit')
  ) {
    const worst = worstLRDifference(col, expanded);
    if (worst && worst.diff > LR_TOLERANCE * facts.peak) {
      out.push({
        kind: 'lr',
        text: `its schedule's LR differs from its LR column: ${fmt.lr(worst.schedule)} instead of ${fmt.lr(worst.logged)} at step ${fmt.steps(worst.step)}`,
      });
    }
  }
  return out;
}

/**
 * worstLRDifference compares the logged LR with the expanded schedule at each logged step
 * (the schedule's lr indexed by step; a logged step past its end compares with its last LR):
 * {step, logged, schedule, diff} where they differ most, or null.
 */
export function worstLRDifference(col, expanded) {
  const first = expanded.steps ? expanded.steps[0] : 0;
  const n = expanded.lr.length;
  let worst = null;
  for (let i = 0; i < col.steps.length; i++) {
    const k = Math.min(n - 1, Math.max(0, Math.round(col.steps[i] - first)));
    const diff = Math.abs(expanded.lr[k] - col.lr[i]);
    if (!worst || diff > worst.diff) worst = { step: col.steps[i], logged: col.lr[i], schedule: expanded.lr[k], diff };
  }
  return worst;
}

/**
 * LATE_LOG: a log that starts at its peak after this share of its run's last step shows nothing
 * of the warmup (a run resumed from a checkpoint, a cooldown branched from a stable run), where
 * one that starts early (the MultiPowerLaw release logs from step 2160 of 24,000) shows that the
 * warmup was over by its first step. Warmups are a few percent of a run, rarely a quarter.
 */
const LATE_LOG = 0.25;

/**
 * warmupFromLR is the warmup the curves' learning rates show: {warmup, note} (the note says
 * where it comes from, in a sentence), or null when none shows one. In order of what they show,
 * whatever the order of the curves: the first curve whose log climbs to its peak (the end of
 * its warmup); else 0, from a curve at its peak from its first step; else the earliest first
 * step of the logs that start at their peak early in their run (the warmup was over by then).
 * A log that starts at its peak late in its run (past LATE_LOG of it) shows none. The page's
 * warmup setting and the CLI's default warmup both come from it.
 */
export function warmupFromLR(curves) {
  const shown = [];
  for (const c of curves) {
    const f = curveFacts(c);
    if (!f.peak) continue;
    const first = lrColumn(c).steps[0];
    shown.push({
      c,
      warmup: f.warmup,
      climbs: f.warmup > first,
      late: f.warmup === first && first > LATE_LOG * f.lastStep,
    });
  }
  const climbing = shown.find((x) => x.climbs);
  if (climbing)
    return {
      warmup: climbing.warmup,
      note: `Warmup steps set to ${fmt.steps(climbing.warmup)}: the learning rates of ${climbing.c.name} reach their peak there.`,
    };
  const atStart = shown.find((x) => x.warmup === 0);
  if (atStart)
    return {
      warmup: 0,
      note: `Warmup steps set to 0: the learning rates of ${atStart.c.name} are at their peak from the start.`,
    };
  const early = shown.filter((x) => !x.late).sort((a, b) => a.warmup - b.warmup)[0];
  if (early)
    return {
      warmup: early.warmup,
      note: `Warmup steps set to ${fmt.steps(early.warmup)}: the learning rates of ${early.c.name} are at their peak from the first step logged, so the warmup ended there or before; if you know where, set it.`,
    };
  return null;
}

/**
 * flaggedProblems are the problems flagged on a curve: those found when its schedule was saved
 * (compared with its LR column by lawcore's expansion), else those seen without expanding it.
 */
export function flaggedProblems(curve) {
  return curve.scheduleProblems || scheduleProblems(curve);
}

/**
 * defaultWindow is the step a curve is fitted from unless the user says otherwise: the end of
 * its warmup (from its LR column, else its schedule's warmup, else warmupSetting where the
 * schedule takes the fit's warmup setting) when it has observed points before it, else 0 (the
 * whole curve). The warmup's points follow no scaling law and can drag a fit to a bound.
 */
export function defaultWindow(curve, warmupSetting = 0) {
  if (!curve.steps || !curve.steps.length) return 0;
  const col = lrColumn(curve);
  const s = curve.schedule;
  const warmup = col
    ? detectWarmup(col.steps, col.lr)
    : !s
      ? 0
      : Number.isFinite(s.warmup)
        ? s.warmup
        : takesWarmupSetting(s)
          ? warmupSetting
          : 0;
  return warmup > 0 && curve.steps[0] < warmup && curve.steps[curve.steps.length - 1] > warmup ? warmup : 0;
}

/**
 * windowOf is the step window a curve is fitted from: {from, set} (set: the user chose it;
 * else the default, defaultWindow, with the fit's warmup setting). from 0 is the whole curve.
 * byDefault is that default when the caller has it already (it scans the LR column).
 */
export function windowOf(curve, warmupSetting = 0, byDefault = null) {
  return Number.isFinite(curve.from)
    ? { from: curve.from, set: true }
    : { from: byDefault ?? defaultWindow(curve, warmupSetting), set: false };
}

/** pointsInWindow counts the observed points a curve's window (windowOf's, unless given) keeps. */
export function pointsInWindow(curve, warmupSetting = 0, { from } = windowOf(curve, warmupSetting)) {
  let n = 0;
  for (const s of curve.steps) if (s >= from) n++;
  return n;
}

/**
 * parseWindow reads the step a curve's window starts at, as typed: '' is the default (null); else a
 * step from 0 (fmt.parseCount: 2,000 or 2k) that leaves at least one observed point. It throws an
 * Error naming the curve and the field.
 */
export function parseWindow(text, curve) {
  const raw = String(text ?? '').trim();
  if (raw === '') return null;
  // 20,000 and 20k as researchers write steps; 2,7 is no step (it was read as 27)
  const x = fmt.parseCount(raw);
  const where = `${curve.name}: fit from step`;
  if (!Number.isFinite(x) || x < 0)
    throw new Error(`${where}: "${raw}" is not a step (a number from 0, such as 2000, 2,000 or 2k).`);
  const last = curve.steps[curve.steps.length - 1];
  if (x > last)
    throw new Error(
      `${where}: ${fmt.steps(x)} is after the curve’s last point (step ${fmt.steps(last)}): no point would be left to fit.`,
    );
  return x;
}
