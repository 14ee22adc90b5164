// SVG export of a uPlot chart, built from the chart's data and scales (not from its canvas): a
// title, the plotting frame, the axes with their ticks and labels, one polyline per line series
// (one path of small squares per point series) and a legend (one entry per curve). Text is escaped; the file is plain.
import { plotColors } from '../common/theme.js';
import { legendItems } from './chart-png.js';

// XML 1.0 cannot hold control characters (a name from a file may): they are left out.
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds, to drop them
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const esc = (s) =>
  String(s)
    .replace(NOT_XML, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const num = (x) => String(Math.round(x * 100) / 100);

/** chartSVG returns the chart u as an SVG Blob with title above it. */
export function chartSVG(u, title) {
  const colors = plotColors();
  const W = u.width;
  const H = u.height;
  // A second y axis on the right (a series on its own scale, such as C·S2 beside the loss).
  const right = u.axes.findIndex((a, k) => k > 1 && a.side === 1 && a.scale && u.scales[a.scale] && a.show !== false);
  const m = { left: 72, right: right > 0 ? 72 : 16, top: 36, bottom: 44 };
  const pw = Math.max(50, W - m.left - m.right);
  const ph = Math.max(50, H - m.top - m.bottom);
  const items = u.series
    .slice(1)
    .map((s, k) => ({ s, i: k + 1 }))
    .filter(({ s }) => s.show !== false);
  const legend = legendItems(u);
  const legendRows = Math.ceil(legend.length / 3);
  const totalH = m.top + ph + m.bottom + legendRows * 18 + 8;
  const xs = u.scales.x;
  const ys = u.scales.y;
  const xLog = xs.distr === 3;
  const yLog = ys.distr === 3;
  const tf = (v, log) => (log ? Math.log10(v) : v);
  const X = (v) => m.left + ((tf(v, xLog) - tf(xs.min, xLog)) / (tf(xs.max, xLog) - tf(xs.min, xLog))) * pw;
  const Y = (v, sc = ys) => {
    const log = sc.distr === 3;
    return m.top + ph - ((tf(v, log) - tf(sc.min, log)) / (tf(sc.max, log) - tf(sc.min, log))) * ph;
  };
  const ok = (v, log) => v != null && Number.isFinite(v) && (!log || v > 0);
  const inX = (v) => v >= xs.min && v <= xs.max;

  const out = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${num(totalH)}" viewBox="0 0 ${W} ${num(totalH)}" font-family="system-ui, sans-serif" font-size="11">`,
  );
  out.push(`<title>${esc(title)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="${esc(colors.bg || '#fff')}"/>`);
  out.push(`<text x="${m.left}" y="20" font-size="14" font-weight="600" fill="${esc(colors.fg)}">${esc(title)}</text>`);

  // Axes: ticks from uPlot's own splits and labels when it has them, else evenly spaced.
  const axisTicks = (ai, scale, log) => {
    const a = u.axes[ai] || {};
    const splits = Array.isArray(a._splits) ? a._splits : null;
    const values = Array.isArray(a._values) ? a._values : null;
    if (splits) return splits.map((v, k) => ({ v, label: values ? values[k] : String(+v.toPrecision(4)) }));
    const out2 = [];
    for (let k = 0; k <= 5; k++) {
      const t = tf(scale.min, log) + (k / 5) * (tf(scale.max, log) - tf(scale.min, log));
      const v = log ? 10 ** t : t;
      out2.push({ v, label: String(+v.toPrecision(4)) });
    }
    return out2;
  };
  out.push(`<g stroke="${esc(colors.grid)}" stroke-width="1" fill="none">`);
  out.push(`<rect x="${m.left}" y="${m.top}" width="${num(pw)}" height="${num(ph)}"/>`);
  const xt = axisTicks(0, xs, xLog).filter((t) => ok(t.v, xLog) && inX(t.v));
  const yt = axisTicks(1, ys, yLog).filter((t) => ok(t.v, yLog) && t.v >= ys.min && t.v <= ys.max);
  const rs = right > 0 ? u.scales[u.axes[right].scale] : null;
  const rt = rs
    ? axisTicks(right, rs, rs.distr === 3).filter((t) => ok(t.v, rs.distr === 3) && t.v >= rs.min && t.v <= rs.max)
    : [];
  for (const t of xt) out.push(`<line x1="${num(X(t.v))}" x2="${num(X(t.v))}" y1="${m.top}" y2="${num(m.top + ph)}"/>`);
  for (const t of yt)
    out.push(`<line x1="${m.left}" x2="${num(m.left + pw)}" y1="${num(Y(t.v))}" y2="${num(Y(t.v))}"/>`);
  out.push('</g>');
  out.push(`<g fill="${esc(colors.fg)}">`);
  for (const t of xt)
    if (t.label != null && t.label !== '')
      out.push(`<text x="${num(X(t.v))}" y="${num(m.top + ph + 14)}" text-anchor="middle">${esc(t.label)}</text>`);
  for (const t of yt)
    if (t.label != null && t.label !== '')
      out.push(`<text x="${m.left - 6}" y="${num(Y(t.v) + 4)}" text-anchor="end">${esc(t.label)}</text>`);
  for (const t of rt)
    if (t.label != null && t.label !== '')
      out.push(`<text x="${num(m.left + pw + 6)}" y="${num(Y(t.v, rs) + 4)}">${esc(t.label)}</text>`);
  if (rs)
    out.push(
      `<text transform="translate(${num(W - 14)} ${num(m.top + ph / 2)}) rotate(90)" text-anchor="middle" font-size="12">${esc(u.axes[right].label || '')}</text>`,
    );
  const xLabel = (u.axes[0] && u.axes[0].label) || 'step';
  const yLabel = (u.axes[1] && u.axes[1].label) || '';
  out.push(
    `<text x="${num(m.left + pw / 2)}" y="${num(m.top + ph + 32)}" text-anchor="middle" font-size="12">${esc(xLabel)}</text>`,
  );
  out.push(
    `<text transform="translate(14 ${num(m.top + ph / 2)}) rotate(-90)" text-anchor="middle" font-size="12">${esc(yLabel)}</text>`,
  );
  out.push('</g>');

  // Series, clipped to the plotting frame.
  out.push(
    `<defs><clipPath id="plot"><rect x="${m.left}" y="${m.top}" width="${num(pw)}" height="${num(ph)}"/></clipPath></defs>`,
  );
  out.push('<g clip-path="url(#plot)" fill="none">');
  const xData = u.data[0];
  for (const { s, i } of items) {
    const color = esc(strokeOf(u, s));
    const yData = u.data[i] || [];
    const sc = u.scales[s.scale || 'y'] || ys; // a series on a second y axis has its own scale
    const ySeriesLog = sc.distr === 3;
    const isPoints = s.kind === 'points'; // chart-factory.js marks its point series
    const label = esc(s.label || `series ${i}`);
    if (isPoints) {
      let d = '';
      for (let k = 0; k < xData.length; k++) {
        const x = xData[k];
        const y = yData[k];
        if (!ok(x, xLog) || !ok(y, ySeriesLog) || !inX(x)) continue;
        d += `M${num(X(x) - 2)} ${num(Y(y, sc) - 2)}h4v4h-4z`;
      }
      out.push(`<path data-series="${label}" d="${d || 'M0 0'}" fill="${color}" stroke="none"/>`);
      continue;
    }
    const dash = Array.isArray(s.dash) && s.dash.length ? ` stroke-dasharray="${s.dash.join(' ')}"` : '';
    const runs = [];
    const cur = [];
    for (let k = 0; k < xData.length; k++) {
      const x = xData[k];
      const y = yData[k];
      if (!ok(x, xLog) || !ok(y, ySeriesLog)) continue; // the lines are interpolated: gaps are only at the ends
      cur.push(`${num(X(x))},${num(Y(y, sc))}`);
    }
    if (cur.length) runs.push(cur);
    if (!runs.length) runs.push([]);
    out.push(`<g data-series="${label}" stroke="${color}" stroke-width="${s.width || 1.5}"${dash}>`);
    for (const r of runs) out.push(`<polyline points="${r.join(' ')}"/>`);
    out.push('</g>');
  }
  out.push('</g>');

  // Legend, three entries a row: one per curve, as on the page.
  out.push(`<g fill="${esc(colors.fg)}">`);
  const colW = (W - m.left) / 3;
  legend.forEach((it, k) => {
    const x = m.left + (k % 3) * colW;
    const y = m.top + ph + m.bottom + Math.floor(k / 3) * 18 + 6;
    out.push(`<rect x="${num(x)}" y="${num(y - 2)}" width="16" height="4" fill="${esc(it.color)}"/>`);
    out.push(`<text x="${num(x + 22)}" y="${num(y + 4)}">${esc(it.label || '')}</text>`);
  });
  out.push('</g>');
  out.push('</svg>');
  return new Blob([`${out.join('\n')}\n`], { type: 'image/svg+xml' });
}

function strokeOf(u, s) {
  const c = typeof s.stroke === 'function' ? s.stroke(u, u.series.indexOf(s)) : s.stroke;
  return typeof c === 'string' ? c : '#888';
}
