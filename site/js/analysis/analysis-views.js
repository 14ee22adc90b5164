// The Analyses panel's views, as data: for each view the analysis it runs (lawcore's `analyze`,
// or the model-size law's `sizefit`) and the chart spec (see chart-model.js) and note drawn
// from its answer; model sizes guessed from names. A line of a sweep carries its optimum
// (best: {x, y}), which chartSpec marks, and from which it draws the loss relative to each
// line's best. Pure: no DOM, no engine.
import { PALETTE } from '../common/theme.js';
import * as fmt from '../common/format.js';
import { argmin } from './analysis-answers.js';
import { tiedPoints } from './analysis-uncertainty.js';
import { paperAnswer } from './paper-claims.js';

const curveLines = (curves, field = 'loss', dash = null) =>
  curves.map((c, i) => ({ label: c.name, x: c.steps, y: c[field], color: PALETTE[i % PALETTE.length], dash }));
const seriesLines = (series, start = 0) =>
  series.map((s, i) => ({ label: s.name, x: s.x, y: s.y, color: PALETTE[(i + start) % PALETTE.length] }));
const marks = (label, pts, color = '@fg') => ({
  label,
  x: pts.map((p) => p[0]),
  y: pts.map((p) => p[1]),
  points: true,
  color,
});
/** gridBest is a series' lowest point, its optimum on the grid swept. */
const gridBest = (s) => {
  const i = argmin(s.y);
  return i < 0 ? null : { x: s.x[i], y: s.y[i] };
};
/** sweepLines draws series each with its optimum: best(series, i) -> {x, y}, by default its lowest point. */
const sweepLines = (series, best = gridBest) => seriesLines(series).map((l, i) => ({ ...l, best: best(series[i], i) }));
/**
 * withTied gives each line of a WSD sweep the points within its optimum's band (tied: {x, y}), when
 * the answer has them.
 */
const withTied = (r, lines, series) => {
  const tied = tiedPoints(r, series);
  return lines.map((l, i) => (tied[i] ? { ...l, tied: tied[i] } : l));
};
/**
 * ratioSweep draws a sweep's final loss against the annealing ratio, one line per series, each
 * with its optimum as searched and, with the fit's uncertainty, the ratios within its band.
 */
const ratioSweep = (r, xLabel, note) => ({
  xLabel,
  yLabel: 'final loss',
  note,
  relative: true,
  lines: withTied(
    r,
    sweepLines(r.byRatio, (_s, i) => ({ x: r.optima[i].ratio, y: r.optima[i].final.loss })),
    r.byRatio,
  ),
});

/**
 * lambdaHolds says where the λ views' parameters come from: refitted for each λ to the fit's
 * curves (as the paper does), given per λ in the options, or held when there are no curves to
 * refit (parameters entered by hand).
 */
const lambdaHolds = (r) => {
  if (r && r.refits && r.refits.length) {
    const n = r.refits[0].curves;
    return `L0, A, α and C refitted for each λ to the ${n} fit curve${n === 1 ? '' : 's'}, as the paper does`;
  }
  return r && !r.held
    ? 'L0, A, α and C as given for each λ'
    : 'L0, A, α and C held at the current parameters (no fit curves to refit them to); λ varies';
};

/** rewarmupView is one of the re-warmup answer's two charts: its runs by peak or by length. */
function rewarmupView(id, what, curves, how) {
  return {
    id,
    analysis: 'rewarmup',
    label: `Continual pre-training: re-warmup ${what}`,
    chart: (r) => ({
      xLabel: 'step',
      yLabel: 'loss',
      lines: curveLines(r[curves]).map((l) => ({ ...l, from: r.switchStep * 0.8 })),
      note: `A second run starts at step ${fmt.steps(r.switchStep)}: re-warmup ${how}, then cosine to 0.`,
    }),
  };
}

/**
 * VIEWS: id, label, the analysis it runs, and chart(result) -> {xLabel, yLabel, logX, lines,
 * note, relative (the y axis can show each line relative to its best)}, or null for a view
 * drawn otherwise (the Paper view's list of claims: claims); holds says which parameters it
 * holds fixed or varies, where that is not simply "all of the current parameters" (ownParams:
 * it uses none of them; a function of the answer when the answer decides); answer(result), when
 * given, states the answer in place of analysis-answers.js's sentence; refits: the analysis
 * takes the fit's curves to refit (the λ views). Several views share one analysis (and its
 * cached answer).
 */
export const VIEWS = [
  {
    id: 'paper',
    analysis: 'paper',
    label: 'The paper, claim by claim (under its Fig. 2 parameters)',
    noSetup: true,
    claims: true,
    holds: 'the paper’s Fig. 2 parameters, not yours',
    answer: paperAnswer,
    chart: () => null,
  },
  {
    id: 'decomposition',
    analysis: 'decomposition',
    label: 'Decomposition: the S1 and S2 terms (cosine, WSD, multi-step)',
    chart: (r) => ({
      xLabel: 'step',
      yLabel: 'term of the loss',
      lines: r.curves.flatMap((c, i) => [
        { label: `${c.name}: A·S1^−α`, x: c.steps, y: c.s1Term, color: PALETTE[i], from: 1000 },
        { label: `${c.name}: C·S2`, x: c.steps, y: c.s2Term, color: PALETTE[i], dash: [6, 4], scale: 'y2' },
      ]),
      y2Label: 'C·S2 (dashed)',
      note: 'Solid, left axis: A·S1^−α (falls with the forward area). Dashed, right axis: C·S2 (the drop annealing brings). The table gives each schedule’s final terms and how much each term lowers the loss during its annealing stage.',
    }),
  },
  {
    id: 'cosine-cycle',
    analysis: 'cosine-cycle',
    label: 'Cosine cycle length and floor (grid)',
    chart: (r) => ({
      xLabel: 'cosine cycle T / total steps',
      yLabel: 'final loss',
      relative: true,
      lines: sweepLines(r.byFloor),
      note: `Final loss after ${fmt.steps(r.curves?.[0]?.final?.total)} steps for each cycle length and floor. Lowest: cycle ${r.best.cycle} × total, floor ${r.best.floor} × peak (${fmt.fixed(r.bestLoss, 4)}).`,
    }),
  },
  {
    id: 'constant-vs-cosine',
    analysis: 'constant-vs-cosine',
    label: 'Constant vs cosine: final loss vs total steps',
    chart: (r) => ({
      xLabel: 'total steps',
      yLabel: 'final loss',
      logX: true,
      lines: [
        ...seriesLines([r.constant, r.cosine]),
        ...(r.crossover
          ? [
              marks(
                `crossover at ${fmt.steps(r.crossover.total)} steps`,
                [[r.crossover.total, r.crossover.cosineLoss]],
                '#d00',
              ),
            ]
          : []),
      ],
      note: r.crossover
        ? `Crossover: from ${fmt.steps(r.crossover.total)} total steps on, cosine ends at least as low as constant (loss ${fmt.fixed(r.crossover.cosineLoss, 4)}).`
        : `No crossover in the range. ${r.note || ''}`,
      crossover: r.crossover,
    }),
  },
  {
    id: 'wsd-ratio',
    analysis: 'wsd-ratio',
    label: 'WSD annealing ratio: final loss vs ratio',
    chart: (r) =>
      ratioSweep(
        r,
        'annealing ratio (decay steps / total)',
        'One line per total; each mark is its line’s optimal ratio (grid, then golden-section search on whole decay steps).',
      ),
  },
  {
    id: 'wsd-s1',
    analysis: 'wsd-ratio',
    label: 'WSD annealing ratio: final loss vs S1',
    chart: (r) => ({
      xLabel: 'forward area S1 at the end',
      yLabel: 'final loss',
      relative: true,
      lines: withTied(
        r,
        sweepLines(r.byS1, (_s, i) => ({ x: r.optima[i].final.S1, y: r.optima[i].final.loss })),
        r.byS1,
      ),
      note: 'The same sweep against S1: a longer decay trades forward area for annealing area.',
    }),
  },
  {
    id: 'anneal-function',
    analysis: 'anneal-function',
    label: 'Annealing function: winner per ratio',
    chart: (r) => ({
      xLabel: 'annealing ratio',
      yLabel: 'final loss',
      relative: true,
      lines: sweepLines(r.byShape),
      note: `Lowest final loss per ratio: ${r.winners.map((w) => `${+w.ratio.toFixed(3)} ${w.shape}`).join(', ')}.`,
    }),
  },
  rewarmupView('rewarmup-peak', 'peak', 'byPeakCurves', 'to each peak'),
  rewarmupView('rewarmup-length', 'length', 'byLengthCurves', 'over each length'),
  {
    id: 'lambda',
    analysis: 'lambda',
    label: 'λ comparison: WSD ratio sweep per λ',
    holds: lambdaHolds,
    refits: true,
    chart: (r) =>
      ratioSweep(
        r,
        'annealing ratio',
        `A smaller λ forgets the annealing momentum faster: a shorter best decay and a shorter delay (table). ${r.note || ''}`.trim(),
      ),
  },
  {
    id: 'lambda-delay',
    analysis: 'lambda',
    label: 'λ: delay of the loss after the LR turns',
    holds: lambdaHolds,
    refits: true,
    chart: (r) => ({
      xLabel: 'step',
      yLabel: 'loss',
      lines: curveLines(r.delayCurves).map((l) => ({ ...l, from: 15000, to: 32000 })),
      note: `The LR falls, then rises again: the loss keeps falling for a while (the delay, in the table). ${r.note || ''}`.trim(),
    }),
  },
  {
    id: 'optimize',
    analysis: 'optimize',
    label: 'Schedule optimiser',
    chart: (r) => ({
      xLabel: 'step',
      yLabel: 'learning rate',
      lines: r.best.map((b, i) => ({
        label: `${b.family}: ${fmt.fixed(b.final.loss, 4)}`,
        x: b.curve.steps,
        y: b.curve.lr,
        color: PALETTE[i],
      })),
      yTicks: fmt.lr,
      note: 'Best schedule of each family. Note: over free-form schedules the law’s optimum is a sudden drop to 0 at the end (“step-drop”), which is where the law is least tested: treat it as the law’s extrapolation, not a recommendation.',
    }),
  },
  {
    id: 'chinchilla',
    analysis: 'chinchilla',
    label: 'Chinchilla reduction (final losses fit a power law)',
    holds: 'random parameter tuples, not the current parameters',
    ownParams: true,
    chart: (r) => ({
      xLabel: 'total steps',
      yLabel: 'final loss',
      lines: r.summaries.flatMap((s, i) => [
        {
          ...marks(
            `${s.schedule}: law`,
            Array.from(s.example.x, (x, k) => [x, s.example.y[k]]),
            PALETTE[i],
          ),
        },
        { label: `${s.schedule}: Chinchilla fit`, x: s.exampleFit.x, y: s.exampleFit.y, color: PALETTE[i] },
      ]),
      note: 'Final losses of random parameter tuples, each fitted by L0 + A·S^−α: the table gives the R² (one example drawn). This view does not use your parameters: it tests the law over many.',
    }),
  },
  {
    id: 'compute',
    analysis: 'compute',
    label: 'Compute to fit (steps of training needed)',
    noSetup: true,
    holds: 'no parameters: a count of training steps',
    chart: (r) => ({
      xLabel: 'method, numbered as in the table',
      yLabel: '% of Chinchilla with cosine',
      bars: true,
      lines: [
        {
          label: '% of Chinchilla with cosine',
          x: r.rows.map((_, i) => i + 1),
          y: r.rows.map((x) => x.percent),
          color: PALETTE[0],
          points: true,
        },
      ],
      note: `Training steps each law needs to fit (Sec. 6.2): Chinchilla needs one run per total, this law one run. ${r.rows.map((x, i) => `${i + 1}: ${x.law}, ${x.schedule}`).join(' · ')}.`,
    }),
  },
  { id: 'sizefit', label: 'Model-size law (curves tagged with N; predict an unseen N)', sizefit: true },
  {
    id: 'size-drop',
    analysis: 'size-drop',
    label: 'Model size: the annealing drop against N (curves tagged with N; an unseen N)',
    sizefit: true,
    sizeDrop: true,
  },
];

/** viewById is the view with id, else the first. */
export function viewById(id) {
  return VIEWS.find((v) => v.id === id) || VIEWS[0];
}

/** BEST_SIZE is the size of the mark at each line's optimum: larger than the sweeps' grid points. */
const BEST_SIZE = 9;
/** BAND_SIZE is the size of the marks of a line's choices within its optimum's band. */
const BAND_SIZE = 6;

/**
 * chartSpec completes a view's chart for the chart factory: each line's optimum (best) marked
 * in its colour, the analysis chart's size and formats, and point sizes by how many points there
 * are; a line's choices within its optimum's band (tied: {x, y}) marked smaller in its colour,
 * "<line>: within the band". With relative (and a chart that allows it), every line with an optimum is drawn less its
 * best value (the lower of its optimum and its lowest point), so that flat lines read and every
 * optimum sits at 0.
 */
export function chartSpec(chart, { relative = false } = {}) {
  const rel = relative && !!chart.relative;
  const lines = [];
  const bests = [];
  const bands = [];
  for (const l of chart.lines) {
    if (!l.best) {
      lines.push(l);
      continue;
    }
    let base = 0;
    if (rel) {
      base = l.best.y;
      for (const v of l.y) if (Number.isFinite(v) && v < base) base = v;
    }
    lines.push(base ? { ...l, y: Array.from(l.y, (v) => v - base) } : l);
    bests.push({
      label: `${l.label}: best`,
      x: [l.best.x],
      y: [l.best.y - base],
      points: true,
      color: l.color,
      size: BEST_SIZE,
    });
    if (l.tied)
      bands.push({
        label: `${l.label}: within the band`,
        x: l.tied.x,
        y: l.tied.y.map((v) => v - base),
        points: true,
        color: l.color,
        size: BAND_SIZE,
      });
  }
  const format = chart.yTicks ? fmt.lr : (v) => fmt.sig(v, 5);
  return {
    ...chart,
    yLabel: rel ? `${chart.yLabel} − the line’s best` : chart.yLabel,
    height: 340,
    xMin: chart.logX ? Number.MIN_VALUE : -Infinity,
    xFormat: (v) => fmt.sig(v, 6),
    empty: '',
    lines: [...lines, ...bests, ...bands].map((l) => ({
      ...l,
      format,
      ...(l.points ? { size: l.size || (l.x.length > 300 ? 2 : l.x.length > 50 ? 4 : 7) } : {}),
    })),
  };
}

// ---- the model-size law ---------------------------------------------------------------------

/** sizeOf guesses N from a name like "25M cosine" or "1.3B": null when there is none. */
export function sizeOf(name) {
  const m = /(\d+(?:\.\d+)?)\s*([MB])\b/i.exec(name || '');
  return m ? Number(m[1]) * (m[2].toUpperCase() === 'B' ? 1e9 : 1e6) : null;
}

/**
 * parseModelSize reads a model size N as typed: a number of parameters, such as 400e6,
 * 400,000,000, 400M or 1.3B (fmt.parseCount). It throws an Error naming the field (label)
 * when the text is not a positive one.
 */
export function parseModelSize(text, label) {
  const raw = String(text ?? '').trim();
  const x = fmt.parseCount(raw);
  if (!(x > 0))
    throw new Error(
      `${label}: "${raw.slice(0, 40)}" is not a model size (a number of parameters, such as 400e6, 400M or 1.3B).`,
    );
  return x;
}

/** sizeOfCurve is a curve's model size: as tagged (null: none), else guessed from its name or source. */
export function sizeOfCurve(c) {
  return c.size !== undefined ? c.size : (sizeOf(c.name) ?? sizeOf(c.source));
}

/** sizeName writes a model size: 25M, 1.3B. */
export function sizeName(n) {
  return n >= 1e9 ? `${+(n / 1e9).toPrecision(3)}B` : `${+(n / 1e6).toPrecision(3)}M`;
}

/**
 * SIZE_EXAMPLE_RUNS are the MultiPowerLaw release's runs the model-size example fits (and holds
 * out), at 25M and 100M.
 */
export const SIZE_EXAMPLE_RUNS = [
  ['cosine_24000', 'fit'],
  ['constant_24000', 'fit'],
  ['wsdcon_9', 'fit'],
  ['wsd_20000_24000', 'validate'],
  ['cosine_72000', 'validate'],
];

/**
 * sizefitView is the model-size view's answer, chart, table and note: the curves observed and
 * fitted (a colour per size) and, red dotted, predicted at the unseen size targetN.
 */
export function sizefitView({ response, lines, curves, predicted, targetN, warmup, example }) {
  const p = response.params;
  const colorOfSize = new Map([...new Set(curves.map((c) => c.size))].map((n, i) => [n, PALETTE[i % PALETTE.length]]));
  const chart = { xLabel: 'step', yLabel: 'loss', lines: [] };
  for (const c of curves) {
    const color = colorOfSize.get(c.size);
    const fitted = lines.get(c.name);
    chart.lines.push({ label: `${c.name} (observed)`, x: c.steps, y: c.loss, color, points: true, from: warmup });
    chart.lines.push({
      label: `${c.name} (${c.role === 'fit' ? 'fitted' : 'predicted'})`,
      x: fitted.steps,
      y: fitted.loss,
      color,
      dash: c.role === 'fit' ? null : [6, 4],
      from: warmup,
    });
  }
  for (const [name, line] of predicted)
    chart.lines.push({ label: name, x: line.steps, y: line.loss, color: '#d00', dash: [2, 3], from: warmup });
  const rows = response.curves.map((c) => [
    c.name,
    c.size,
    c.role,
    c.metrics.R2,
    c.metrics.PredE,
    c.metrics.FinalErr,
    c.predicted ? c.predicted[c.predicted.length - 1] : null,
  ]);
  for (const [name, line] of predicted)
    rows.push([name, targetN, 'predicted (unseen N)', null, null, null, line.finalLoss]);
  const fittedSizes = [...new Set(response.curves.filter((c) => c.role === 'fit').map((c) => c.size))].sort(
    (a, b) => a - b,
  );
  const sizes = fittedSizes.map(sizeName);
  const finals = [...predicted].map(
    ([name, line]) => `${fmt.fixed(line.finalLoss, 3)} (${name.replace(/^N=\S+\s+/, '')})`,
  );
  const held = response.validateMetrics
    ? `; the curves it held out at the fitted sizes it predicts with a mean error of ${fmt.pct(response.validateMetrics.PredE)}`
    : '';
  return {
    answer: `${sizeExtrapolation(targetN, fittedSizes)}Fitted to ${sizes.join(', ')}, the model-size law predicts at N = ${sizeName(targetN)} final losses of ${finals.join(', ')}${held}.`,
    chart,
    table: { columns: ['curve', 'N', 'role', 'R2', 'PredE', 'FinalErr', 'final loss (law)'], rows },
    note:
      `L(s, N) = ${fmt.fixed(p.L0, 3)} + ${fmt.fixed(p.A, 3)}·S1^−${fmt.fixed(p.alpha, 3)} + ${fmt.sig(p.B, 4)}·N^−${fmt.fixed(p.beta, 3)} − ${fmt.sig(p.C, 4)}·S2·N^${fmt.fixed(p.gamma, 3)} (λ ${p.lambda}).`
      + `${response.note ? ` Note: ${response.note}.` : ''} Red dotted: predicted at N = ${sizeName(targetN)}.`,
    source: `${example ? 'MultiPowerLaw 25M + 100M' : 'your curves'} · ${[
      ...new Set(response.curves.map((c) => c.size)),
    ]
      .sort((a, b) => a - b)
      .map(sizeName)
      .join(', ')}`,
  };
}

/**
 * FAR_SIZE: a model size more than this times past the fitted sizes (above the largest or
 * below the smallest) is said to be an extrapolation, as FAR_PEAK does for a peak LR.
 */
export const FAR_SIZE = 1.5;

/**
 * sizeExtrapolation says, as the start of the model-size answer, when the unseen size n lies
 * past FAR_SIZE times the fitted sizes: the curves held out at the fitted sizes cannot check
 * how the law's N terms carry that far ('' when n is among them).
 */
export function sizeExtrapolation(n, fitted) {
  if (!fitted.length) return '';
  const lo = fitted[0];
  const hi = fitted[fitted.length - 1];
  const past =
    n > FAR_SIZE * hi
      ? `${fmt.sig(n / hi, 2)}× the largest size fitted (${sizeName(hi)})`
      : n < lo / FAR_SIZE
        ? `${fmt.sig(lo / n, 2)}× below the smallest size fitted (${sizeName(lo)})`
        : '';
  return past
    ? `Extrapolated: N = ${sizeName(n)} is ${past}, where the curves held out at the fitted sizes cannot check the law's N terms. `
    : '';
}

/**
 * unseenSchedules are the schedules to predict at the unseen size n: one per run (the name
 * without its size), each of size n, with the schedule of that run's curve of the size nearest
 * n (in log size; of two as near, the larger): runs of one name logged at several sizes may
 * differ (the release's 25M wsdcon_9 log ends 1,800 steps before its 100M one), and at a size
 * fitted the prediction is then that curve's own.
 */
export function unseenSchedules(curves, n) {
  const nearest = new Map();
  const far = (c) => Math.abs(Math.log(c.size / n));
  for (const c of curves) {
    const base = c.name.replace(/^\S+\s+/, '');
    const had = nearest.get(base);
    if (!had || far(c) < far(had) || (far(c) === far(had) && c.size > had.size)) nearest.set(base, c);
  }
  return [...nearest].map(([base, c]) => ({ name: `N=${sizeName(n)} ${base}`, schedule: c.schedule, size: n }));
}
