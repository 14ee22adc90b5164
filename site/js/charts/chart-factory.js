// The one uPlot setup of the page: a chart slot in a container draws chart specs (see
// chart-model.js), creating its uPlot when the series' shape changes and otherwise handing it
// the new data with setData. Charts of one group share the cursor and the x zoom (drag to zoom,
// double-click to reset). Lines that belong to a curve (line.group) have one legend entry per
// curve, in its colour, listing its lines by role with their values at the cursor; the legend
// folds away (folded on a phone), and a click on a line's role hides or shows it. A band's two
// edges are shaded between.
import uPlot from '../vendor/uPlot.esm.js';
import { alignLines } from '../common/series.js';
import { plotColors } from '../common/theme.js';
import * as fmt from '../common/format.js';

/** MIN_CHART_WIDTH is the narrowest a chart gets: a 320 px phone window less the panels' padding. */
export const MIN_CHART_WIDTH = 200;

/** groups maps a group's name to its charts' uPlot instances. */
const groups = new Map();

/**
 * stepLabel writes an x tick: 12.5K, or the value with four significant digits; nothing for a
 * tick uPlot leaves null (a log axis over less than a decade).
 */
const stepLabel = (t) =>
  t == null || !Number.isFinite(t)
    ? ''
    : Math.abs(t) >= 1000
      ? `${+(t / 1000).toFixed(1)}K`
      : String(+t.toPrecision(4));

/**
 * createChart returns a chart slot in container: {update(spec), chart() -> uPlot | null}.
 * options: group (charts sharing cursor and zoom), compact (a small preview: no legend, no
 * cursor, small type).
 */
export function createChart(container, { group = null, compact = false } = {}) {
  let u = null;
  let shape = '';
  /** legend is the grouped legend shown under the chart (a details element), or null. */
  let legend = null;
  const members = group ? groups.get(group) || groups.set(group, new Set()).get(group) : null;

  function destroy() {
    if (!u) return;
    if (members) members.delete(u);
    u.destroy();
    u = null;
    shape = '';
  }

  /**
   * seenWidth is the container's width as the ResizeObserver last reported it (0 before its
   * first report). A new chart takes it rather than reading clientWidth, which forces the
   * browser to lay out the page the views have just changed (the first view's draw spent
   * 20-36 ms so); if the width changed since, the observer resizes the chart a frame later.
   */
  let seenWidth = 0;
  new ResizeObserver(() => {
    seenWidth = container.clientWidth; // laid out already when the observer reports
    const w = Math.max(MIN_CHART_WIDTH, seenWidth);
    if (u && Math.abs(w - u.width) > 2) u.setSize({ width: w, height: u.height });
  }).observe(container);

  return {
    chart: () => u,
    /** update draws spec (null: nothing). */
    update(spec) {
      const lines = spec ? spec.lines : [];
      container.dataset.series = lines.map((l) => l.label).join('|');
      const data = alignLines(lines, spec ? spec.xMin : -Infinity);
      container.dataset.points = String(data[0].length);
      // What the x axis counts and how far it goes (the tests' hooks).
      container.dataset.xLabel = spec ? spec.xLabel || '' : '';
      container.dataset.xMax = data[0].length ? String(data[0][data[0].length - 1]) : '';
      if (!data[0].length || !lines.length) {
        destroy();
        legend = null;
        container.replaceChildren();
        if (spec && spec.empty)
          container.append(
            Object.assign(document.createElement('p'), { className: 'empty-chart', textContent: spec.empty }),
          );
        return;
      }
      const colors = plotColors();
      const next = JSON.stringify([
        colors,
        spec.height,
        spec.logX,
        spec.logY,
        spec.xLabel,
        spec.yLabel,
        spec.y2Label,
        lines.map((l) => [
          l.label,
          l.color,
          l.dash,
          l.width,
          !!l.points,
          l.size,
          l.scale,
          l.group,
          l.groupLabel,
          l.role,
          l.band,
        ]),
      ]);
      if (u && next === shape) {
        u.setData(data);
        return;
      }
      const wide = Math.max(MIN_CHART_WIDTH, seenWidth || container.clientWidth);
      destroy();
      container.replaceChildren();
      const grouped = !compact && lines.some((l) => l.group);
      u = new uPlot(options(spec, colors, wide, { group, compact, grouped }), data, container);
      shape = next;
      if (grouped) {
        const wasOpen = legend ? legend.open : null;
        legend = groupedLegend(u, lines, spec);
        if (wasOpen !== null) legend.open = wasOpen;
        container.append(legend);
      } else legend = null;
      if (members) {
        members.add(u);
        const mine = u;
        u.over.addEventListener('dblclick', () => resetX(members, mine));
      }
    },
  };
}

/** options are uPlot's options for spec, width wide (grouped: the page draws the legend, grouped by curve). */
function options(spec, colors, width, { group, compact, grouped }) {
  const color = (c) => (c && c.startsWith('@') ? colors[c.slice(1)] : c);
  const font = compact ? '10px system-ui, sans-serif' : '11px system-ui, sans-serif';
  const axis = (label, values, size) => ({
    ...(compact ? {} : { label, labelFont: '12px system-ui, sans-serif' }),
    stroke: colors.fg,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1 },
    font,
    // uPlot's own labels would load Intl (see fmt.tick)
    values: values || ticks(fmt.tick),
    ...(size ? { size } : {}),
  });
  const ticks = (format) => format && ((_u, ts) => ts.map(format));
  const series = spec.lines.map((l) => {
    const stroke = color(l.color);
    const format = l.format || ((v) => fmt.sig(v, 5));
    const value = (_u, v) => (v == null ? '–' : format(v));
    if (l.points) {
      const size = l.size || 5;
      return {
        label: l.label,
        group: l.group,
        role: l.role,
        stroke,
        width: 1,
        paths: () => null,
        kind: 'points',
        points: { show: true, size, width: size > 3 ? 1 : 0, stroke, fill: stroke },
        value,
      };
    }
    return {
      label: l.label,
      group: l.group,
      role: l.role,
      legend: l.legend,
      stroke,
      width: l.width || 1.75,
      dash: l.dash || undefined,
      points: { show: false },
      spanGaps: true,
      scale: l.scale || 'y',
      value,
    };
  });
  // A band: the lower edge filled up to the upper one, in the curve's colour, lightly.
  const bands = [];
  spec.lines.forEach((l, i) => {
    const upper =
      l.band === 'lower' ? spec.lines.findIndex((m, j) => j > i && m.band === 'upper' && m.group === l.group) : -1;
    if (upper >= 0) bands.push({ series: [upper + 1, i + 1], fill: translucent(color(l.color), 0.22) });
  });
  const y2 = spec.lines.some((l) => l.scale === 'y2');
  return {
    width,
    height: spec.height,
    scales: {
      // uPlot widens a log axis to whole decades, which squeezes a loss curve (2.5 to 4) into a
      // sliver: a log axis spans the data instead.
      x: {
        time: false,
        distr: spec.logX ? 3 : 1,
        log: 10,
        ...(spec.logX ? { range: (_u, min, max) => [min, max] } : {}),
      },
      y: {
        distr: spec.logY ? 3 : 1,
        log: 10,
        ...(spec.logY ? { range: (_u, min, max) => [min / 1.01, max * 1.01] } : {}),
      },
      ...(y2 ? { y2: { auto: true } } : {}),
    },
    axes: [
      spec.logX
        ? { ...axis(spec.xLabel), ...logTicks(spec.xTicks || stepLabel) }
        : axis(spec.xLabel, ticks(spec.xTicks || stepLabel)),
      spec.logY && !spec.yTicks
        ? { ...axis(spec.yLabel, null, 64), ...logTicks((t) => String(+t.toPrecision(3))) }
        : axis(spec.yLabel, ticks(spec.yTicks), compact ? 52 : 64),
      ...(y2 ? [{ ...axis(spec.y2Label, null, 64), scale: 'y2', side: 1, grid: { show: false } }] : []),
    ],
    series: [{ label: spec.xLabel, value: (_u, v) => (v == null ? '–' : (spec.xFormat || fmt.steps)(v)) }, ...series],
    cursor: compact
      ? { show: false }
      : { ...(group ? { sync: { key: group } } : {}), drag: { x: true, y: false }, points: { size: 6 } },
    legend: compact || grouped ? { show: false } : { live: true },
    bands,
    hooks: group
      ? {
          setSelect: [
            (u) => {
              if (u.select.width > 0) syncX(groups.get(group), u);
            },
          ],
        }
      : {},
  };
}

/** translucent is a colour (#rrggbb) at alpha; other colours as they are. */
function translucent(c, alpha) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c || '');
  return m ? `rgba(${parseInt(m[1], 16)}, ${parseInt(m[2], 16)}, ${parseInt(m[3], 16)}, ${alpha})` : c;
}

/** PHONE_WIDTH: at most this wide a window folds the legends away. */
const PHONE_WIDTH = 600;

/**
 * groupedLegend is the legend of a chart whose lines belong to curves: one entry per curve (its
 * colour and name), listing its lines by role (a sample of the line's style, the value at the
 * cursor); a role toggles its line, a curve's name all of its lines. Folded on a phone.
 */
function groupedLegend(u, lines, spec) {
  const el = (tag, cls, text) =>
    Object.assign(
      document.createElement(tag),
      cls ? { className: cls } : {},
      text !== undefined ? { textContent: text } : {},
    );
  const colorOf = (c) => (c && c.startsWith('@') ? 'var(--muted)' : c);
  const details = el('details', 'chart-legend');
  details.open = !(globalThis.matchMedia && matchMedia(`(max-width: ${PHONE_WIDTH}px)`).matches);
  const groups = new Map();
  lines.forEach((l, i) => {
    if (l.legend === false) return;
    const key = l.group || l.label;
    if (!groups.has(key)) groups.set(key, { name: key, label: l.groupLabel || key, color: l.color, items: [] });
    const g = groups.get(key);
    // A band's two edges are one entry.
    const edge = l.band && g.items.find((it) => it.l.band);
    if (edge) edge.indices.push(i + 1);
    else g.items.push({ l: l.band ? { ...l, role: 'band' } : l, index: i + 1, indices: [i + 1] });
  });
  const cursorText = el('span', 'legend-cursor');
  const summary = el('summary', 'legend-summary', `Legend: ${groups.size} ${groups.size === 1 ? 'curve' : 'curves'}`);
  summary.append(cursorText);
  details.append(summary);
  const list = el('ul', 'legend-groups');
  const values = [];
  for (const g of groups.values()) {
    const li = el('li', 'legend-group');
    li.dataset.group = g.name;
    const name = el('button', 'legend-name');
    name.type = 'button';
    name.title = `${g.name}: hide or show every line`;
    const swatch = el('span', 'swatch');
    swatch.style.background = colorOf(g.color);
    name.append(swatch, el('span', '', g.label));
    li.append(name);
    const buttons = [];
    for (const { l, index, indices } of g.items) {
      const b = el('button', 'legend-item');
      b.type = 'button';
      b.setAttribute('aria-pressed', 'true');
      b.title = `${l.label}: hide or show`;
      const style = l.points ? 'points' : l.band ? 'band' : l.dash ? (l.dash[0] <= 2 ? 'dotted' : 'dashed') : 'solid';
      const sample = el('span', `sample ${style}`);
      sample.style.color = colorOf(l.color);
      const value = el('span', 'legend-value', '');
      b.append(sample, el('span', 'legend-role', l.role || l.label), value);
      b.addEventListener('click', () => {
        const show = !u.series[index].show;
        for (const k of indices) u.setSeries(k, { show });
        b.setAttribute('aria-pressed', String(show));
      });
      if (!l.band) values.push({ index, value, format: l.format || ((v) => fmt.sig(v, 5)) });
      buttons.push({ b, indices });
      li.append(b);
    }
    name.addEventListener('click', () => {
      const show = !buttons.every(({ indices }) => u.series[indices[0]].show);
      for (const { b, indices } of buttons) {
        for (const k of indices) u.setSeries(k, { show });
        b.setAttribute('aria-pressed', String(show));
      }
    });
    list.append(li);
  }
  details.append(list);
  // The values at the cursor, as uPlot's own legend shows them.
  u.hooks.setCursor = [
    ...(u.hooks.setCursor || []),
    () => {
      const idx = u.cursor.idx;
      const x = idx == null ? null : u.data[0][idx];
      cursorText.textContent = x == null ? '' : ` · ${spec.xLabel} ${(spec.xFormat || fmt.steps)(x)}`;
      if (!details.open) return;
      for (const v of values) {
        const y = idx == null ? null : u.data[v.index][idx];
        v.value.textContent = y == null ? '' : v.format(y);
      }
    },
  ];
  return details;
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
    splits: (_u, _ai, min, max) => (max / min >= 10 ? decadeTicks(min, max) : roundTicks(min, max, 5)),
    values: (u, ts, ai) =>
      spansDecade(u, ai)
        ? ts.map((t) => ([1, 2, 5].includes(Math.round(t / 10 ** Math.floor(Math.log10(t) + 1e-9))) ? format(t) : ''))
        : ts.map(format),
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

/** syncX applies the x range a user dragged on one chart to the others of its group. */
function syncX(members, from) {
  const min = from.posToVal(from.select.left, 'x');
  const max = from.posToVal(from.select.left + from.select.width, 'x');
  for (const u of members) if (u !== from) u.setScale('x', { min, max });
}

/** resetX shows the whole x range of the group's other charts again (after a double-click on one). */
function resetX(members, from) {
  for (const u of members) {
    if (u === from) continue;
    const xs = u.data[0];
    if (xs.length) u.setScale('x', { min: xs[0], max: xs[xs.length - 1] });
  }
}
