// Each analysis's answer in one sentence, stated at the top of its view: built from the typed
// fields of lawcore's answer (optima, crossover, winners, best, stages...) and the options it ran
// with, never from its table's text. Losses are written with three decimals and differences of
// loss with two significant digits, so that a cost of +0.0043 does not read as +0.004 or 0.
// With the fit's uncertainty (the answer's ± and verdict), each loss stated carries its ±, the
// choices within the band of the best are said, and lawcore's verdict follows the sentence.
// Pure: no DOM, no engine.
import * as fmt from '../common/format.js';
import { hasSpread, plusMinus, spanText } from './analysis-uncertainty.js';

/** loss writes a loss: 2.678. */
const loss = (x) => fmt.fixed(x, 3);
/** delta writes a difference of loss with its sign and two significant digits: +0.0043. */
const delta = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${fmt.sig(Math.abs(x), 2)}` : '–');
/** pct writes a ratio as a percentage with one decimal: 18.9%. */
const pct = (x) => `${fmt.fixed(x * 100, 1)}%`;

/**
 * kSteps writes a count of steps short when it is round: 50K, 1.5M, 12.5K; else in full with
 * separators: 2,596.
 */
export function kSteps(n) {
  if (n >= 1e6 && n % 1e5 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 100 === 0) return `${n / 1e3}K`;
  return fmt.steps(n);
}

/** middle is the middle entry of a list (the lower of the two middles): the one a sentence states. */
const middle = (list) => list[Math.floor((list.length - 1) / 2)];

/**
 * valueAt is a series' y at x: its own point when x is on its grid, else linear between the
 * two around it; null outside the series.
 */
export function valueAt(series, x) {
  const xs = series.x;
  for (let i = 0; i < xs.length; i++) {
    if (Math.abs(xs[i] - x) <= 1e-9) return series.y[i];
    if (i > 0 && xs[i - 1] < x && x < xs[i])
      return series.y[i - 1] + ((series.y[i] - series.y[i - 1]) * (x - xs[i - 1])) / (xs[i] - xs[i - 1]);
  }
  return null;
}

/** argmin is the index of the lowest finite value of ys (-1 when none). */
export function argmin(ys) {
  let best = -1;
  for (let i = 0; i < ys.length; i++) if (Number.isFinite(ys[i]) && (best < 0 || ys[i] < ys[best])) best = i;
  return best;
}

/** COMMON_COOLDOWN is the cooldown researchers often use without a sweep: the sentence says what it costs. */
const COMMON_COOLDOWN = 0.1;

/**
 * wsdSentence states a WSD ratio sweep at its middle total: the best cooldown, its final loss,
 * what a 10% cooldown costs, and how the best moves over the totals.
 */
function wsdSentence(r, options) {
  const k = r.optima.indexOf(middle(r.optima));
  const o = r.optima[k];
  const at10 = valueAt(r.byRatio[k], COMMON_COOLDOWN);
  const shape = options.decay || 'cosine';
  const span = o.tied && spanText(o.tied);
  const band =
    !hasSpread(r) || !o.tied
      ? ''
      : / only$/.test(span)
        ? ` ± ${plusMinus(o.plusMinus)}; every other cooldown swept is told apart`
        : ` ± ${plusMinus(o.plusMinus)}; cooldowns of ${span} are within the band`;
  // the search goes on past the grid's end when its best is there: the optimum may lie outside the ratios swept
  const xs = r.byRatio[k].x;
  const [low, high] = [Math.min(...xs), Math.max(...xs)];
  const outside =
    !xs.length || (o.ratio >= low - 1e-9 && o.ratio <= high + 1e-9)
      ? ''
      : `, ${o.ratio < low ? 'below' : 'above'} the ratios swept (${pct(low)} to ${pct(high)}): the search went on past them`;
  let s = `At ${kSteps(o.total)} steps the best WSD cooldown (${shape} decay) is ${pct(o.ratio)} of the run (${fmt.steps(o.decaySteps)} steps, final loss ${loss(o.final.loss)}${band})${outside}`;
  if (at10 !== null && Math.abs(o.ratio - COMMON_COOLDOWN) >= 0.005)
    s += `; a 10% cooldown costs ${delta(at10 - o.final.loss)}`;
  if (r.optima.length > 1) {
    const first = r.optima[0];
    const last = r.optima[r.optima.length - 1];
    s += `; from ${kSteps(first.total)} to ${kSteps(last.total)} steps the best goes from ${pct(first.ratio)} to ${pct(last.ratio)}`;
  }
  return `${s}.`;
}

/** runsOf groups consecutive winners of the same shape: [{shape, from, to}]. */
function runsOf(winners) {
  const out = [];
  for (const w of winners) {
    const last = out[out.length - 1];
    if (last && last.shape === w.shape) last.to = w.ratio;
    else out.push({ shape: w.shape, from: w.ratio, to: w.ratio });
  }
  return out;
}

const ratioText = (x) => String(Number(x.toPrecision(6)));

/** TIE is a difference of final loss too small to state. */
const TIE = 1e-6;

/** r2 writes an R² near 1 with a digit past its last 9: 0.9999985, 0.99979. */
const r2 = (x) => fmt.fixed(x, Math.min(9, Math.max(3, Math.ceil(-Math.log10(Math.max(1 - x, 1e-9))) + 1)));

/** SENTENCES maps a view (or, for views sharing one, an analysis) to its sentence(answer, options). */
const SENTENCES = {
  'wsd-ratio': wsdSentence,

  'constant-vs-cosine': (r, options) => {
    const floor = options.floor ? `to ${options.floor}× peak` : 'to 0';
    const range = `${kSteps(r.constant.x[0])} to ${kSteps(r.constant.x[r.constant.x.length - 1])} total steps`;
    if (r.crossover) {
      return `Cosine (${floor}) ends lower than a constant LR from ${fmt.steps(r.crossover.total)} total steps on (both at ${loss(r.crossover.cosineLoss)}); shorter runs end lower at a constant LR.`;
    }
    // no crossover: one of the two ends lower at every total, or (a cosine to the peak) they are one schedule
    if (r.cosine.y.every((y, i) => Math.abs(y - r.constant.y[i]) <= 1e-12 * Math.abs(y))) {
      return `Over ${range} cosine (${floor}) is a constant LR: both end at the same loss at every total.`;
    }
    return r.cosine.y[0] < r.constant.y[0]
      ? `Over ${range} cosine (${floor}) ends lower than a constant LR at every total.`
      : `Over ${range} cosine (${floor}) never overtakes: a constant LR ends lower at every total.`;
  },

  'anneal-function': (r, options) => {
    const best = r.winners[argmin(r.winners.map((w) => w.loss))];
    const runs = runsOf(r.winners).map(
      (w) =>
        `${w.shape} ${w.from === w.to ? `at ${ratioText(w.from)}` : `from ${ratioText(w.from)} to ${ratioText(w.to)}`}`,
    );
    const total = r.curves?.[0]?.final.total ?? options.total;
    // one shape has no next shape to be below
    if (new Set(r.winners.map((w) => w.shape)).size === 1 && r.winners.every((w) => !w.margin)) {
      return `At ${kSteps(total)} steps, with the one shape ${best.shape}, the lowest final loss is at a cooldown ratio of ${ratioText(best.ratio)} (${loss(best.loss)}).`;
    }
    const spread = hasSpread(r) && best.apart !== undefined ? ` ± ${plusMinus(best.marginPlusMinus)}` : '';
    const band = best.apart === false ? ', within the band' : '';
    const margin = `${fmt.sig(best.margin, 2)}${spread} below the next shape${band}`;
    return `At ${kSteps(total)} steps the shape with the lowest final loss is ${runs.join(', ')} (cooldown ratios); the lowest of all is ${best.shape} at ${ratioText(best.ratio)} (${loss(best.loss)}, ${margin}).`;
  },

  'cosine-cycle': (r, options) => {
    const cycle = r.cycles.indexOf(1);
    const floor = r.floors.indexOf(r.best.floor);
    const cost = cycle >= 0 && r.best.cycle !== 1 ? r.finalLoss[floor][cycle] - r.bestLoss : null;
    const total = r.curves?.[0]?.final.total ?? options.total;
    return (
      `Over ${kSteps(total)} steps the best cosine has a cycle of ${r.best.cycle}× the run and a floor of ${r.best.floor}× peak (final loss ${loss(r.bestLoss)})`
      + `${cost !== null ? `; a cycle of exactly the run costs ${delta(cost)}` : ''}.`
    );
  },

  'rewarmup-peak': (r) => {
    const best = r.byPeak[argmin(r.byPeak.map((x) => x.final.loss))];
    const calm = r.byPeak[argmin(r.byPeak.map((x) => x.bumpLoss))];
    return (
      `After the switch at step ${fmt.steps(r.switchStep)}, re-warming to ${ratioText(best.peak / r.setup.peak)}× the peak ends lowest (${loss(best.final.loss)}, after a bump to ${loss(best.bumpLoss)}); `
      + `${ratioText(calm.peak / r.setup.peak)}× bumps least (to ${loss(calm.bumpLoss)}) and ends at ${loss(calm.final.loss)}.`
    );
  },

  'rewarmup-length': (r) => {
    const finals = r.byLength.map((x) => x.final.loss);
    const best = r.byLength[argmin(finals)];
    const calm = r.byLength[argmin(r.byLength.map((x) => x.bumpLoss))];
    return (
      `Re-warming over ${fmt.steps(best.rewarmupSteps)} steps ends lowest (${loss(best.final.loss)}); the final losses span only ${fmt.sig(Math.max(...finals) - Math.min(...finals), 2)}, `
      + `and ${fmt.steps(calm.rewarmupSteps)} steps bumps least (to ${loss(calm.bumpLoss)}).`
    );
  },

  lambda: (r) => {
    const totals = [...new Set(r.optima.map((o) => o.total))];
    const total = middle(totals);
    const lambdas = [...new Set(r.optimumLambdas)];
    const best = lambdas.map((l) => {
      const o = r.optima.find((x, i) => x.total === total && r.optimumLambdas[i] === l);
      return `${pct(o.ratio)} with λ = ${l} (${loss(o.final.loss)})`;
    });
    const delays = lambdas.map((l) => {
      const ds = r.delays.filter((d) => d.lambda === l && Number.isFinite(d.delay)).map((d) => d.delay);
      if (!ds.length) return `never with λ = ${l}`;
      const lo = Math.min(...ds);
      const hi = Math.max(...ds);
      return `${lo === hi ? fmt.steps(lo) : `${fmt.steps(lo)}–${fmt.steps(hi)}`} steps with λ = ${l}`;
    });
    return `At ${kSteps(total)} steps the best WSD cooldown is ${best.join(' and ')}; after the LR turns, the loss turns ${delays.join(', ')}.`;
  },

  optimize: (r) => {
    const byFamily = new Map(r.best.map((b) => [b.family, b]));
    const [first, ...rest] = r.ranking.map((f) => byFamily.get(f));
    const spread = hasSpread(r);
    const others = rest.map(
      (b) =>
        `${b.family} (${b.final.loss - first.final.loss < TIE ? 'a tie' : delta(b.final.loss - first.final.loss)}${spread && b.tiedWithBest ? ', within the band' : ''})`,
    );
    return (
      `Over ${kSteps(first.final.total)} steps the lowest final loss is the ${first.family} family's, ${loss(first.final.loss)}${spread ? ` ± ${plusMinus(first.plusMinus)}` : ''} (${first.description})`
      + `${others.length ? `; the other families' best: ${others.join(', ')}` : ''}${r.note ? ` (${r.note})` : ''}.`
    );
  },

  decomposition: (r) => {
    const parts = r.stages.map(
      (s, i) =>
        `${s.name}${i ? '' : ' lowers the loss'} by ${loss(s.lossDrop)} (S1 term ${loss(s.s1Drop)}, S2 term ${loss(s.s2Drop)})`,
    );
    return `From the last step at the peak LR to the end, ${parts.join(', ')}.`;
  },

  chinchilla: (r) => {
    const parts = r.summaries.map((s) => `${s.schedule}: mean R² ${r2(s.meanR2)}, lowest ${r2(s.minR2)}`);
    const left = r.skipped
      ? ` (${fmt.steps(r.skipped)} more left out: at this peak LR they predict a loss of 0 or below by a run’s end, their ranges being the paper’s, for its peak LR)`
      : '';
    // the paper's claim holds where the fits are close (its own table: mean R² 0.97-0.98);
    // where a schedule's mean R² is below CHINCHILLA_HOLDS the sentence says it does not
    const poor = r.summaries.filter((x) => !(x.meanR2 >= CHINCHILLA_HOLDS)).map((x) => x.schedule);
    const claim = !poor.length
      ? 'follow a Chinchilla power law in the steps'
      : poor.length === r.summaries.length
        ? `do not follow a Chinchilla power law in the steps well (mean R² below ${CHINCHILLA_HOLDS})`
        : `follow a Chinchilla power law in the steps, but not well for ${poor.join(' and ')} (mean R² below ${CHINCHILLA_HOLDS})`;
    return `Over ${fmt.steps(r.summaries[0].R2.length)} random parameter sets${left}, the final losses the law predicts ${claim} (${parts.join('; ')}).`;
  },

  compute: (r) => {
    const law = r.rows.find((x) => x.otherSchedules);
    const chinchilla = r.rows.filter((x) => !x.otherSchedules);
    const base = chinchilla.find((x) => x.percent === 100) || chinchilla[0];
    const others = chinchilla.filter((x) => x !== base).map((x) => `${x.schedule} ${fmt.fixed(x.percent, 1)}%`);
    return (
      `Fitting this law takes ${law.schedule}, ${fmt.fixed(law.percent, 2)}% of the ${fmt.steps(base.steps)} steps Chinchilla needs with ${base.schedule}`
      + `${others.length ? ` (with ${others.join(', ')})` : ''}.`
    );
  },
};

/**
 * CHINCHILLA_HOLDS is the mean R² from which the reduction to Chinchilla is said to hold (the
 * paper's table reports 0.97-0.98).
 */
const CHINCHILLA_HOLDS = 0.95;

/** ALIASES are views that state their analysis's sentence. */
const ALIASES = { 'wsd-s1': 'wsd-ratio', 'lambda-delay': 'lambda' };

/** LOSS_KEYS are the fields of lawcore's answers that hold predicted losses (a series' y is one too). */
const LOSS_KEYS = new Set(['loss', 'finalLoss', 'bestLoss', 'constantLoss', 'cosineLoss', 'startLoss', 'bumpLoss']);

/**
 * lowestLoss is the lowest predicted loss anywhere in an analysis's answer (Infinity when it has
 * none): its final losses, its curves and its series, but not the setup it echoes.
 */
export function lowestLoss(answer) {
  let lowest = Infinity;
  const visit = (v, isLoss) => {
    if (typeof v === 'number') {
      if (isLoss && v < lowest) lowest = v;
    } else if (Array.isArray(v) || ArrayBuffer.isView(v)) {
      for (const x of v) visit(x, isLoss);
    } else if (v && typeof v === 'object') {
      const series = 'x' in v && 'y' in v;
      for (const [k, x] of Object.entries(v)) {
        if (k !== 'setup') visit(x, LOSS_KEYS.has(k) || (series && k === 'y'));
      }
    }
  };
  visit(answer, false);
  return lowest;
}

/**
 * FAR_PEAK: an analysis run at a peak LR more than this times the highest peak of the curves
 * fitted is an extrapolation (the law's parameters are fitted at the curves' learning rates),
 * as a schedule predicted there is (the Predict panel's notice uses the same ratio).
 */
export const FAR_PEAK = 1.5;

/**
 * extrapolationWarning says, as the start of an answer, when it is far outside what the fit saw
 * ('' otherwise): a predicted loss below zero, or a peak LR set for the analysis (options.peak)
 * past FAR_PEAK times the highest fitted one (fittedPeak, when the parameters come from a fit).
 * A loss below L0 is no such sign: the law predicts one for long WSD runs at the paper's own
 * peak (2.605 at 200K steps with the Fig. 2 parameters), where C·S2 outgrows A·S1^(−α).
 */
export function extrapolationWarning(answer, options = {}, { fittedPeak } = {}) {
  const lowest = lowestLoss(answer);
  if (lowest < 0) {
    return `Warning: some predicted losses are below zero (as low as ${fmt.sig(lowest, 3)}): these parameters at this peak LR are far outside what the law was fitted on, so this answer means little. `;
  }
  if (Number.isFinite(options.peak) && fittedPeak > 0 && options.peak > FAR_PEAK * fittedPeak) {
    return `Warning: its peak LR (${fmt.lr(options.peak)}) is ${fmt.sig(options.peak / fittedPeak, 2)}× the highest of the curves fitted (${fmt.lr(fittedPeak)}); the law was fitted at their learning rates, so this answer is an extrapolation the fit cannot vouch for. `;
  }
  return '';
}

/**
 * answerSentence is the view's answer in one sentence, from lawcore's answer and the options it
 * ran with, followed by lawcore's verdict when the answer has the fit's uncertainty; '' for a
 * view without one. An answer far outside what the fit saw says so first
 * (extrapolationWarning, from context: {fittedPeak}).
 */
export function answerSentence(viewId, answer, options = {}, context = {}) {
  const say = SENTENCES[viewId] || SENTENCES[ALIASES[viewId]];
  if (!say) return '';
  const sentence = say(answer, options);
  const warning = extrapolationWarning(answer, options, context);
  return `${warning}${hasSpread(answer) ? `${sentence} ${answer.verdict}` : sentence}`;
}
