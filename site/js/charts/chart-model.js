// The result charts' view model: from the page state to what each chart draws (learning rate,
// loss, residuals, the two terms), as chart specs the uPlot factory (chart-factory.js) draws.
// Pure: no DOM, so that node tests it.
//
// A chart spec: {xLabel, yLabel, height, logX, logY, xMin, empty, yTicks?, lines}; a line:
// {label, group, groupLabel?, role, color, dash, width?, points?, size?, band?, legend?, x, y, format}.
// group names the curve or schedule a line belongs to, groupLabel the name the page shows for it
// (common/names.js; the full name shows on hover) (the legend has one entry per group, in its colour,
// with each line's role: observed, fitted, band...); band ('lower' | 'upper') marks the edges
// of a prediction band, filled between; legend: false keeps a line (the zero line) out of the
// legend. Colours starting with "@" name the theme's colours
// (@fg, @muted).
import { LAWS, LAW_NAMES } from '../engine/schema.js';
import { paramsOf, lineOf, fitCovers, shownFits, averageOf, labelsOf } from '../state/selectors.js';
import { lrColumn } from '../schedules/curve-facts.js';
import * as fmt from '../common/format.js';

/** DEFAULT_LAW is the page's own law: its lines carry no law in their labels. */
const DEFAULT_LAW = 'annealing';
const DOTTED = [2, 3];
const DASHED = [6, 4];

const sig = (n) => (v) => fmt.sig(v, n);

/** SHORT_LAW names a law in a legend entry, where its full label does not fit. */
const SHORT_LAW = { 'multi-power': 'MPL', 'lr-weighted': 'LR-weighted', 's2-power': 'S2^ζ' };

/** pointSize draws dense observations smaller, so that the lines stay visible. */
const pointSize = (n) => (n > 1000 ? 3 : 5);

/**
 * lawLines lists every line the laws draw, law by law (the annealing law first), each curve
 * with data then each schedule to predict: {law, item, curve (is it a curve with data), line,
 * name, label, color, dash, showLR, showTerms, band}. A law's line of an item another law drew
 * already is dotted, and only the first gives the item's learning rate; the terms are those of
 * the first law that draws anything.
 */
export function lawLines(state) {
  const out = [];
  const drawnBefore = new Set();
  let primary = null;
  for (const law of LAW_NAMES) {
    if (!paramsOf(state, law)) continue;
    // an auto fit's average of laws is drawn in its leading law's place, under its own name
    const average = averageOf(state, law);
    const tag = average ? 'average of laws' : law === DEFAULT_LAW ? '' : LAWS[law].label;
    const shortTag = average ? average.short : law === DEFAULT_LAW ? '' : SHORT_LAW[law] || LAWS[law].label;
    const mine = [];
    for (const [item, curve] of [...state.curves.map((c) => [c, true]), ...state.predictions.map((p) => [p, false])]) {
      const line = lineOf(state, law, item);
      if (!line || !line.steps) continue;
      const role = curve ? (item.role === 'fit' ? 'fitted' : 'predicted') : '';
      const suffix = [tag, role].filter(Boolean).join(', ');
      const again = drawnBefore.has(item.name);
      mine.push({
        law,
        item,
        curve,
        line,
        name: tag ? `${item.name} (${tag})` : item.name,
        label: suffix ? `${item.name} (${suffix})` : item.name,
        role: [shortTag, role || 'predicted'].filter(Boolean).join(', '),
        color: item.color,
        dash: again ? DOTTED : curve && item.role === 'validate' ? DASHED : null,
        showLR: !again && !!line.lr,
        band: state.band && !state.manual && (state.band.law || DEFAULT_LAW) === law ? state.band.halfWidth : null,
      });
    }
    if (mine.length && !primary) primary = law;
    for (const l of mine) {
      l.showTerms = law === primary && !!l.line.s1Term;
      drawnBefore.add(l.item.name);
      out.push(l);
    }
  }
  return out;
}

/**
 * residualsOf is observed minus fitted loss at each observed step of curve, from the first law
 * fitted (null when no fit in use covers the curve).
 */
function residualsOf(state, curve) {
  const [fit] = shownFits(state);
  if (!fit || !fitCovers(fit, curve)) return null;
  const f = fit.response.curves.find((r) => r.name === curve.name);
  if (!f || !f.predicted || f.predicted.length !== curve.loss.length) return null;
  return Array.from(curve.loss, (y, i) => y - f.predicted[i]);
}

/**
 * xStart is the first step of the loss and terms charts: like the paper's figures, after the
 * warmup (the law's first steps dwarf the rest), unless the warmup runs past every line; never
 * before the first observation.
 */
function xStart(state, lines) {
  const firstObserved = Math.min(...state.curves.map((c) => c.steps[0]));
  const withParams = LAW_NAMES.map((law) => paramsOf(state, law)).find(Boolean);
  const settings = withParams ? withParams.settings : state.settings;
  const ends = [...lines.map((l) => l.line.steps), ...state.curves.map((c) => c.steps)]
    .map((s) => s && s[s.length - 1])
    .filter(Number.isFinite);
  const afterWarmup = settings.warmupSteps < Math.max(0, ...ends) ? settings.warmupSteps : 0;
  return Math.max(Number.isFinite(firstObserved) ? firstObserved : 1, afterWarmup);
}

/**
 * smoothLoss is a centred moving average of y over width points (odd; fewer at the ends), for
 * display only: noisy per-step losses read as a curve. Fits always use the points as logged.
 */
export function smoothLoss(y, width) {
  const half = Math.max(0, Math.floor(width / 2));
  const n = y.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + y[i];
  return Float64Array.from({ length: n }, (_, i) => {
    const lo = Math.max(0, i - half);
    const hi = Math.min(n, i + half + 1);
    return (prefix[hi] - prefix[lo]) / (hi - lo);
  });
}

/** SMOOTH_SHARE: the smoothing window is this share of a curve's points (at least 5). */
const SMOOTH_SHARE = 0.02;

/** bigLabel writes a count of tokens or FLOPs in a tick: 950, 12.5K, 3.1M, 31.5B, 2.34e19. */
export function bigLabel(t) {
  const a = Math.abs(t);
  if (a < 1e3) return String(+t.toPrecision(3));
  for (const [size, suffix] of [
    [1e3, 'K'],
    [1e6, 'M'],
    [1e9, 'B'],
  ])
    if (a < size * 1e3) return `${+(t / size).toPrecision(3)}${suffix}`;
  return t
    .toExponential(2)
    .replace(/\.?0+e/, 'e')
    .replace('e+', 'e');
}

/**
 * xAxis is how the result charts' x axis counts: {unit, factor (x per step), label, ticks,
 * format, note}. Tokens need the tokens per step, FLOPs (≈ 6·N·tokens) the model size N too;
 * without them the axis counts steps and note says what is missing.
 */
export function xAxis(chart = {}) {
  const tokens = Number.isFinite(chart.tokensPerStep) && chart.tokensPerStep > 0 ? chart.tokensPerStep : null;
  const size = Number.isFinite(chart.modelSize) && chart.modelSize > 0 ? chart.modelSize : null;
  const big = bigLabel;
  if (chart.xUnit === 'tokens' && tokens)
    return { unit: 'tokens', factor: tokens, label: 'tokens', ticks: big, format: (v) => fmt.sig(v, 4), note: '' };
  if (chart.xUnit === 'flops' && tokens && size)
    return {
      unit: 'flops',
      factor: 6 * size * tokens,
      label: 'FLOPs (≈ 6·N·tokens)',
      ticks: big,
      format: (v) => fmt.sig(v, 4),
      note: '',
    };
  const missing =
    chart.xUnit === 'tokens' || chart.xUnit === 'flops'
      ? `Enter the tokens per step${chart.xUnit === 'flops' ? ' and the model size N' : ''} to count the x axis in ${chart.xUnit === 'flops' ? 'FLOPs' : 'tokens'}: it counts steps meanwhile.`
      : '';
  return { unit: 'steps', factor: 1, label: 'step', ticks: null, format: null, note: missing };
}

/** inUnits scales a chart spec's x (its lines' and its start) by the axis's factor. */
function inUnits(spec, axis) {
  if (axis.factor === 1) return spec;
  return {
    ...spec,
    xLabel: axis.label,
    xTicks: axis.ticks,
    xFormat: axis.format,
    xMin: Number.isFinite(spec.xMin) ? spec.xMin * axis.factor : spec.xMin,
    lines: spec.lines.map((l) => ({ ...l, x: l.x ? Float64Array.from(l.x, (v) => v * axis.factor) : l.x })),
  };
}

/**
 * resultCharts is what the four result charts draw: {lr, loss, residuals, terms}, each a chart
 * spec, with x in the axis's units.
 */
export function resultCharts(state) {
  const axis = xAxis(state.chart);
  const specs = resultChartsInSteps(state);
  const labels = labelsOf(state);
  const labelled = (spec) => ({
    ...spec,
    lines: spec.lines.map((l) => (l.group ? { ...l, groupLabel: labels.get(l.group) ?? l.group } : l)),
  });
  return Object.fromEntries(Object.entries(specs).map(([id, spec]) => [id, inUnits(labelled(spec), axis)]));
}

function resultChartsInSteps(state) {
  const { logX, logY } = state.chart;
  const lines = lawLines(state);
  const start = xStart(state, lines);
  const minX = logX ? Math.max(1, start) : start;
  const fromOne = logX ? 1 : -Infinity;
  const base = { xLabel: 'step', logX, logY: false, empty: 'Nothing to draw yet.' };

  const lr = {
    ...base,
    yLabel: 'learning rate',
    height: 220,
    xMin: fromOne,
    yTicks: fmt.lr,
    lines: lines
      .filter((l) => l.showLR)
      .map((l) => ({
        label: l.name,
        group: l.item.name,
        role: 'LR',
        color: l.color,
        dash: l.dash,
        x: l.line.steps,
        y: l.line.lr,
        format: fmt.lr,
      })),
  };
  // A curve's LR column draws before any law draws the curve: the data as logged.
  const drawnLR = new Set(lr.lines.map((l) => l.group));
  for (const c of state.curves) {
    const col = lrColumn(c);
    if (col && !drawnLR.has(c.name))
      lr.lines.push({
        label: `${c.name} (LR column)`,
        group: c.name,
        role: 'LR column',
        color: c.color,
        x: col.steps,
        y: col.lr,
        format: fmt.lr,
      });
  }

  const loss = { ...base, yLabel: 'loss', height: 360, xMin: minX, logY, lines: [] };
  for (const c of state.curves) {
    loss.lines.push({
      label: `${c.name} (observed)`,
      group: c.name,
      role: 'observed',
      color: c.color,
      points: true,
      size: pointSize(c.steps.length),
      x: c.steps,
      y: c.loss,
      format: sig(5),
    });
    // Noisy per-step losses, smoothed for the eye when asked (the points stay, and are what is fitted).
    if (state.chart.smooth && c.loss.length >= 20) {
      const width = 2 * Math.max(2, Math.round((SMOOTH_SHARE * c.loss.length) / 2)) + 1;
      loss.lines.push({
        label: `${c.name} (smoothed)`,
        group: c.name,
        role: `smoothed (${width} points)`,
        color: c.color,
        width: 1.25,
        dash: [2, 2],
        x: c.steps,
        y: smoothLoss(c.loss, width),
        format: sig(5),
      });
    }
  }
  for (const l of lines) {
    loss.lines.push({
      label: l.label,
      group: l.item.name,
      role: l.role,
      color: l.color,
      dash: l.dash,
      x: l.line.steps,
      y: l.line.loss,
      format: sig(5),
    });
    if (l.band) {
      // The prediction band: lawcore's lower and upper where the line has them (wider the
      // farther a step lies beyond the fitted data), else pred·(1 ± half-width); two thin
      // edges, shaded between.
      for (const [side, k] of [
        ['lower', -1],
        ['upper', 1],
      ]) {
        const edge = l.line[side] && l.line[side].length === l.line.loss.length ? l.line[side] : null;
        const y = edge ? Array.from(edge) : Array.from(l.line.loss, (v) => v * (1 + k * l.band));
        loss.lines.push({
          label: `${l.name} band ${side}`,
          group: l.item.name,
          role: `band ${side}`,
          band: side,
          color: l.color,
          width: 0.75,
          x: l.line.steps,
          y,
          format: sig(5),
        });
      }
    }
  }

  const observed = state.curves.map((c) => ({ c, residual: residualsOf(state, c) })).filter((o) => o.residual);
  const residualSteps = observed.flatMap(({ c }) => [c.steps[0], c.steps[c.steps.length - 1]]);
  const residuals = {
    ...base,
    yLabel: 'observed − law',
    height: 220,
    xMin: fromOne,
    empty: 'Residuals appear after a fit.',
    lines: [
      {
        label: 'zero',
        legend: false,
        color: '@muted',
        width: 1,
        dash: [4, 4],
        x: residualSteps.length ? [Math.min(...residualSteps), Math.max(...residualSteps)] : [],
        y: residualSteps.length ? [0, 0] : [],
      },
      ...observed.map(({ c, residual }) => ({
        label: c.name,
        group: c.name,
        role: 'observed − law',
        color: c.color,
        points: true,
        size: pointSize(c.steps.length),
        x: c.steps,
        y: residual,
        format: sig(3),
      })),
    ],
  };

  const terms = { ...base, yLabel: 'term of the loss', height: 260, xMin: minX, lines: [] };
  for (const l of lines.filter((x) => x.showTerms)) {
    const [s1, s2] = LAWS[l.law].terms;
    terms.lines.push({
      label: `${l.name}: ${s1}`,
      group: l.item.name,
      role: s1,
      color: l.color,
      x: l.line.steps,
      y: l.line.s1Term,
      format: sig(4),
    });
    terms.lines.push({
      label: `${l.name}: ${s2}`,
      group: l.item.name,
      role: s2,
      color: l.color,
      dash: DASHED,
      x: l.line.steps,
      y: l.line.s2Term,
      format: sig(4),
    });
  }
  return { lr, loss, residuals, terms };
}
