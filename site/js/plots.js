// The result charts (uPlot): learning rate, loss with observations and fitted/predicted lines,
// residuals, and the two terms of the law. Charts share the cursor and the x zoom (drag to zoom,
// double-click to reset).
import uPlot from '../vendor/uPlot.esm.js';
import { unionSteps, interpolateOnto, exactOnto } from './series.js';
import { plotColors } from './theme.js';
import * as fmt from './format.js';

/** MIN_CHART_WIDTH is the narrowest a chart gets: a 320 px phone window less the panels' padding. */
export const MIN_CHART_WIDTH = 200;

/** charts maps a chart id (lr, loss, residuals, terms) to its uPlot instance. */
export const charts = new Map();

/**
 * drawCharts (re)draws every chart from a view:
 *   lines:    [{name, label, color, dash, steps, lr, loss, s1Term, s2Term}]  one per predicted curve
 *   observed: [{name, color, steps, loss, residual}]                         one per curve with data
 *   xStart:   first step of the loss and terms charts (the early steps of the law are huge)
 *   logX, logY: axis distributions of the loss chart
 */
export function drawCharts(containers, view) {
  const colors = plotColors();
  const lineSteps = view.lines.map((l) => l.steps);
  const obsSteps = view.observed.map((o) => o.steps);
  const minX = view.logX ? Math.max(1, view.xStart) : view.xStart;

  // Learning rate.
  {
    const withLR = view.lines.filter((l) => l.lr);
    const xs = unionSteps(withLR.map((l) => l.steps), view.logX ? 1 : -Infinity);
    const series = withLR.map((l) => lineSeries(l.name, l.color, l.dash, (v) => fmt.lr(v)));
    const data = [xs, ...withLR.map((l) => interpolateOnto(xs, l.steps, l.lr))];
    draw(containers.lr, 'lr', colors, data, series, {
      yLabel: 'learning rate', logX: view.logX, height: 220, yValues: (u, ticks) => ticks.map(fmt.lr),
    });
  }

  // Loss: observed points and the fitted / predicted lines.
  {
    const xs = unionSteps([...lineSteps, ...obsSteps], minX);
    const series = [];
    const data = [xs];
    for (const o of view.observed) {
      series.push(pointSeries(`${o.name} (observed)`, o.color, undefined, pointSize(o.steps.length)));
      data.push(exactOnto(xs, o.steps, o.loss));
    }
    for (const l of view.lines) {
      series.push(lineSeries(l.label, l.color, l.dash, (v) => fmt.sig(v, 5)));
      const y = interpolateOnto(xs, l.steps, l.loss);
      data.push(y);
      if (l.band) {
        // The prediction band pred·(1 ± half-width), as two thin lines.
        for (const [name, k] of [['lower', -1], ['upper', 1]]) {
          series.push({ ...lineSeries(`${l.name} band ${name}`, l.color, [1, 3], (v) => fmt.sig(v, 5)), width: 1 });
          data.push(y.map((v) => (v == null ? null : v * (1 + k * l.band))));
        }
      }
    }
    draw(containers.loss, 'loss', colors, data, series, {
      yLabel: 'loss', logX: view.logX, logY: view.logY, height: 360,
    });
  }

  // Residuals: observed minus fitted, at the observed steps.
  {
    const withResiduals = view.observed.filter((o) => o.residual);
    const xs = unionSteps(withResiduals.map((o) => o.steps), view.logX ? 1 : -Infinity);
    const series = [{ label: 'zero', stroke: colors.muted, width: 1, dash: [4, 4], points: { show: false } }];
    const data = [xs, xs.map(() => 0)];
    for (const o of withResiduals) {
      series.push(pointSeries(o.name, o.color, (v) => fmt.sig(v, 3), pointSize(o.steps.length)));
      data.push(exactOnto(xs, o.steps, o.residual));
    }
    draw(containers.residuals, 'residuals', colors, data, series, {
      yLabel: 'observed − law', logX: view.logX, height: 220, empty: 'Residuals appear after a fit.',
    });
  }

  // The two terms: A·S1^-alpha (solid) and C·S2 (dashed).
  {
    const xs = unionSteps(lineSteps, minX);
    const series = [];
    const data = [xs];
    for (const l of view.lines) {
      if (!l.s1Term) continue;
      series.push(lineSeries(`${l.name}: A·S1^−α`, l.color, null, (v) => fmt.sig(v, 4)));
      data.push(interpolateOnto(xs, l.steps, l.s1Term));
      series.push(lineSeries(`${l.name}: C·S2`, l.color, [6, 4], (v) => fmt.sig(v, 4)));
      data.push(interpolateOnto(xs, l.steps, l.s2Term));
    }
    draw(containers.terms, 'terms', colors, data, series, {
      yLabel: 'term of the loss', logX: view.logX, height: 260,
    });
  }
}

function lineSeries(label, color, dash, value) {
  return { label, stroke: color, width: 1.75, dash: dash || undefined, points: { show: false }, value: (u, v) => (v == null ? '–' : value(v)) };
}

/** pointSize draws dense observations smaller, so that the lines stay visible. */
function pointSize(n) {
  return n > 5000 ? 2 : n > 1000 ? 3 : 5;
}

function pointSeries(label, color, value = (v) => fmt.sig(v, 5), size = 5) {
  return {
    label, stroke: color, fill: undefined, width: 1, paths: () => null, kind: 'points',
    points: { show: true, size, width: size > 3 ? 1 : 0, stroke: color, fill: color },
    value: (u, v) => (v == null ? '–' : value(v)),
  };
}

/** draw replaces the chart id inside container with a new uPlot of data and series. */
function draw(container, id, colors, data, series, opts) {
  const old = charts.get(id);
  if (old) old.destroy();
  container.replaceChildren();
  container.dataset.series = series.map((s) => s.label).join('|');
  container.dataset.points = String(data[0].length);
  if (data[0].length === 0 || series.length === 0) {
    charts.delete(id);
    container.append(Object.assign(document.createElement('p'), { className: 'empty-chart', textContent: opts.empty || 'Nothing to draw yet.' }));
    return;
  }
  const axis = (label, values, size) => {
    const a = {
      label, stroke: colors.fg,
      grid: { stroke: colors.grid, width: 1 }, ticks: { stroke: colors.grid, width: 1 },
      labelFont: '12px system-ui, sans-serif', font: '11px system-ui, sans-serif',
    };
    if (values) a.values = values;
    if (size) a.size = size;
    return a;
  };
  const stepLabel = (t) => (t >= 1000 ? `${+(t / 1000).toFixed(1)}K` : String(+t.toFixed(2)));
  const options = {
    width: Math.max(MIN_CHART_WIDTH, container.clientWidth),
    height: opts.height,
    scales: {
      // uPlot widens a log axis to whole decades, which squeezes a loss curve (2.5 to 4) into a
      // sliver: a log axis spans the data instead.
      x: { time: false, distr: opts.logX ? 3 : 1, log: 10, ...(opts.logX ? { range: (u, min, max) => [min, max] } : {}) },
      y: { distr: opts.logY ? 3 : 1, log: 10, ...(opts.logY ? { range: (u, min, max) => [min / 1.01, max * 1.01] } : {}) },
    },
    axes: [
      opts.logX ? { ...axis('step'), ...logTicks(stepLabel) } : axis('step', (u, ticks) => ticks.map(stepLabel)),
      opts.logY && !opts.yValues ? { ...axis(opts.yLabel, null, 64), ...logTicks((t) => String(+t.toPrecision(3))) } : axis(opts.yLabel, opts.yValues, 64),
    ],
    series: [{ label: 'step', value: (u, v) => (v == null ? '–' : fmt.steps(v)) }, ...series],
    cursor: { sync: { key: 'annealing-law' }, drag: { x: true, y: false }, points: { size: 6 } },
    legend: { live: true },
    hooks: { setSelect: [(u) => { if (u.select.width > 0) syncX(u); }] },
  };
  const u = new uPlot(options, data, container);
  u.over.addEventListener('dblclick', () => resetX(u));
  charts.set(id, u);
  watchSize(container, id, u);
}

/**
 * logTicks places the ticks of a log axis: over a decade or more at 1..9 x 10^k, labelled at
 * 1, 2 and 5; over less (a loss from 2.5 to 4) at about five round values, all labelled, where
 * decade ticks would leave one label or none.
 */
export function logTicks(format) {
  const spansDecade = (u, ai) => {
    const sc = u.scales[u.axes[ai].scale];
    return sc.max / sc.min >= 10;
  };
  return {
    splits: (u, ai, min, max) => (max / min >= 10 ? decadeTicks(min, max) : roundTicks(min, max, 5)),
    values: (u, ticks, ai) => (spansDecade(u, ai)
      ? ticks.map((t) => ([1, 2, 5].includes(Math.round(t / 10 ** Math.floor(Math.log10(t) + 1e-9))) ? format(t) : ''))
      : ticks.map(format)),
  };
}

/** decadeTicks are the values m x 10^k (m = 1..9) between min and max. */
function decadeTicks(min, max) {
  const out = [];
  for (let k = Math.floor(Math.log10(min)); 10 ** k <= max; k++) {
    for (let m = 1; m <= 9; m++) {
      const v = +(m * 10 ** k).toPrecision(12);
      if (v >= min && v <= max) out.push(v);
    }
  }
  return out;
}

/** roundTicks are about n evenly spaced round values (steps of 1, 2, 2.5 or 5 x 10^k) between min and max. */
export function roundTicks(min, max, n) {
  const raw = (max - min) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(+v.toPrecision(12));
  return out;
}

/** syncX applies the x range a user dragged on one chart to the others. */
function syncX(from) {
  const min = from.posToVal(from.select.left, 'x');
  const max = from.posToVal(from.select.left + from.select.width, 'x');
  for (const u of charts.values()) if (u !== from) u.setScale('x', { min, max });
}

/** resetX shows every chart's whole x range again (after a double-click on one). */
function resetX(from) {
  for (const u of charts.values()) {
    if (u === from) continue;
    const xs = u.data[0];
    if (xs.length) u.setScale('x', { min: xs[0], max: xs[xs.length - 1] });
  }
}

const observers = new WeakMap();

/** watchSize keeps a chart as wide as its container. */
function watchSize(container, id, u) {
  let ro = observers.get(container);
  if (ro) ro.disconnect();
  ro = new ResizeObserver(() => {
    const w = Math.max(MIN_CHART_WIDTH, container.clientWidth);
    if (charts.get(id) === u && Math.abs(w - u.width) > 2) u.setSize({ width: w, height: u.height });
  });
  ro.observe(container);
  observers.set(container, ro);
}
