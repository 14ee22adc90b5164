// The answers a researcher comparing schedules asks for, one row per schedule to predict and
// law: its final loss (with the band after a validation), how far that is from a baseline
// schedule, its loss at a chosen step, and the step at which it first reaches a chosen loss.
// Read from the predicted lines (thinned to about 2000 steps for the charts: the steps are
// interpolated, to within the line's spacing, which is given). Pure: no DOM.
import { lawsWithParams, predictedLine } from '../state/selectors.js';
import { parseDecimal, parseCount } from '../common/format.js';

/** lossAt is a line's loss at step, joined linearly between its points (null outside it). */
export function lossAt(line, step) {
  const { steps, loss } = line;
  if (!steps.length || step < steps[0] || step > steps[steps.length - 1]) return null;
  let lo = 0;
  let hi = steps.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (steps[mid] <= step) lo = mid;
    else hi = mid;
  }
  if (steps[lo] === step || hi === lo) return loss[lo];
  return loss[lo] + ((loss[hi] - loss[lo]) * (step - steps[lo])) / (steps[hi] - steps[lo]);
}

/**
 * stepToReach is the first step at which a line's loss is at most target (joined linearly), or null
 * when it never is.
 */
export function stepToReach(line, target) {
  const { steps, loss } = line;
  for (let k = 0; k < loss.length; k++) {
    if (!(loss[k] <= target)) continue;
    if (k === 0) return steps[0];
    return steps[k - 1] + ((target - loss[k - 1]) * (steps[k] - steps[k - 1])) / (loss[k] - loss[k - 1]);
  }
  return null;
}

/** spacing is the largest gap between a line's steps after the first (how finely it is known). */
function spacing(steps) {
  let gap = 0;
  for (let k = 2; k < steps.length; k++) gap = Math.max(gap, steps[k] - steps[k - 1]);
  return gap;
}

/**
 * parseAnswerStep reads the step typed for "loss at": '' is the default (null); else a whole
 * step from 0, with thousands separators (20,000 or 20 000) or a k or M suffix (30k, 1.5M). It
 * throws an Error naming the field when the text is not one.
 */
export function parseAnswerStep(text) {
  const raw = String(text ?? '').trim();
  if (raw === '') return null;
  const x = parseCount(raw);
  if (!(x >= 0))
    throw new Error(
      `Loss at step: "${raw.slice(0, 40)}" is not a step (a number from 0, such as 20000, 20,000 or 20k).`,
    );
  // steps are whole: 1.5 was read as given, and the table's heading showed it rounded
  if (!Number.isInteger(x))
    throw new Error(`Loss at step: "${raw.slice(0, 40)}" is not a step: give a whole number of steps, not ${x}.`);
  return x;
}

/**
 * parseAnswerLoss reads the loss typed for "steps to reach": '' is the default (null); else a
 * positive number with a decimal point. It throws an Error naming the field when the text is
 * not one (2,7 is refused rather than guessed: a comma may be a decimal or a thousands mark).
 */
export function parseAnswerLoss(text) {
  const raw = String(text ?? '').trim();
  if (raw === '') return null;
  const x = parseDecimal(raw);
  if (!(x > 0))
    throw new Error(
      `Steps to reach loss: "${raw.slice(0, 40)}" is not a loss (a positive number with a decimal point, such as 2.7).`,
    );
  return x;
}

/** orDefault is what parse reads from text, or null when it refuses it (the view says why, on change). */
function orDefault(parse, text) {
  try {
    return parse(text);
  } catch {
    return null;
  }
}

/**
 * finalBand is the band's half-width at a line's last step, in loss units: lawcore's edges
 * where the line has them, else the band's half-width; null without a band for the law.
 */
function finalBand(state, law, line) {
  const b = state.band;
  if (!b || state.manual || b.law !== law) return null;
  const n = line.loss ? line.loss.length : 0;
  if (line.lower && line.upper && n && line.upper.length === n) return (line.upper[n - 1] - line.lower[n - 1]) / 2;
  return Math.abs(line.finalLoss) * b.halfWidth;
}

/**
 * answerTable is what the answers table shows: {laws: [{law, rows}], baseline, atStep,
 * reachLoss, defaults}. options ({baseline, atStep, reachLoss}, as typed; empty: the defaults)
 * choose the baseline schedule (default the first), the step (default the shortest schedule's
 * last step) and the loss to reach (default the baseline's final loss, under the first law). A
 * row: {name, color, final, band (± in loss units, or null), lower and upper (the band's
 * edges at the last step, when lawcore drew them), diff (final − baseline's final),
 * atStep (loss there), reach (the step, or null), spacing}.
 */
export function answerTable(state, options = {}) {
  const names = state.predictions.map((p) => p.name);
  const laws = lawsWithParams(state);
  const baseline = names.includes(options.baseline) ? options.baseline : names[0] || '';
  const totals = state.predictions.map((p) => p.schedule && p.schedule.total).filter(Number.isFinite);
  const defaults = { atStep: totals.length ? Math.min(...totals) : null, reachLoss: null };
  const base = state.predictions.find((p) => p.name === baseline);
  const baseLine = base && laws.length ? predictedLine(state, laws[0], base) : null;
  // exact, not as shown (4 decimals): rounded up, the baseline itself reached it before its end
  if (baseLine && Number.isFinite(baseLine.finalLoss)) defaults.reachLoss = baseLine.finalLoss;
  const atStep = orDefault(parseAnswerStep, options.atStep) ?? defaults.atStep;
  const reachLoss = orDefault(parseAnswerLoss, options.reachLoss) ?? defaults.reachLoss;
  return {
    baseline,
    atStep,
    reachLoss,
    defaults,
    laws: laws.map((law) => {
      const baseFinal = base ? predictedLine(state, law, base)?.finalLoss : undefined;
      return {
        law,
        rows: state.predictions.map((p) => {
          const line = predictedLine(state, law, p);
          const final = line && Number.isFinite(line.finalLoss) ? line.finalLoss : null;
          return {
            name: p.name,
            color: p.color,
            final,
            band: final !== null ? finalBand(state, law, line) : null,
            lower: final !== null && line.lower ? line.lower[line.lower.length - 1] : null,
            upper: final !== null && line.upper ? line.upper[line.upper.length - 1] : null,
            diff: final !== null && Number.isFinite(baseFinal) ? final - baseFinal : null,
            atStep: line && atStep !== null ? lossAt(line, atStep) : null,
            reach: line && reachLoss !== null ? stepToReach(line, reachLoss) : null,
            spacing: line ? spacing(line.steps) : null,
          };
        }),
      };
    }),
  };
}
