// A chart as PNG: the chart's own pixels under its title and above its legend (one entry per
// curve, as on the page), on the page's background.
import { plotColors } from '../common/theme.js';

/** chartPNG draws a uPlot chart with a title and its legend on the page background, as PNG. */
export function chartPNG(u, title) {
  const colors = plotColors();
  const src = u.ctx.canvas;
  const ratio = src.width / u.width;
  const pad = 12 * ratio;
  const font = (px, weight = '') => `${weight} ${px * ratio}px system-ui, sans-serif`;
  const items = legendItems(u);
  // Lay the legend out in rows.
  const probe = document.createElement('canvas').getContext('2d');
  probe.font = font(12);
  const rows = [[]];
  let x = 0;
  for (const it of items) {
    const w = 22 * ratio + probe.measureText(it.label).width + 16 * ratio;
    if (x + w > src.width - 2 * pad && rows[rows.length - 1].length) {
      rows.push([]);
      x = 0;
    }
    rows[rows.length - 1].push({ ...it, w });
    x += w;
  }
  const titleH = 28 * ratio;
  const legendH = rows.length * 18 * ratio + 8 * ratio;
  const canvas = document.createElement('canvas');
  canvas.width = src.width + 2 * pad;
  canvas.height = titleH + src.height + legendH + pad;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = colors.bg || '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = colors.fg;
  ctx.font = font(14, '600');
  ctx.textBaseline = 'middle';
  ctx.fillText(title, pad, titleH / 2 + 2 * ratio);
  ctx.drawImage(src, pad, titleH);
  ctx.font = font(12);
  let y = titleH + src.height + 12 * ratio;
  for (const row of rows) {
    x = pad;
    for (const it of row) {
      ctx.fillStyle = it.color;
      ctx.fillRect(x, y - 2 * ratio, 16 * ratio, 4 * ratio);
      ctx.fillStyle = colors.fg;
      ctx.fillText(it.label, x + 22 * ratio, y);
      x += it.w;
    }
    y += 18 * ratio;
  }
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the chart could not be encoded as PNG'))), 'image/png'),
  );
}

function strokeOf(u, s) {
  return typeof s.stroke === 'function' ? s.stroke(u, u.series.indexOf(s)) : s.stroke || '#888';
}

/**
 * legendItems are a chart's legend entries, {label, color}: one per curve for lines that belong
 * to one (series.group, as on the page: "cosine: observed, fitted, band"), else one per line.
 */
export function legendItems(u) {
  const out = new Map();
  for (const s of u.series.slice(1)) {
    if (s.show === false || s.legend === false) continue;
    const key = s.group || s.label;
    if (!out.has(key)) out.set(key, { label: key, color: strokeOf(u, s), roles: [] });
    if (s.group && s.role && !out.get(key).roles.includes(s.role.replace(/ (lower|upper)$/, '')))
      out.get(key).roles.push(s.role.replace(/ (lower|upper)$/, ''));
  }
  return [...out.values()].map((it) => ({
    label: it.roles.length ? `${it.label}: ${it.roles.join(', ')}` : it.label,
    color: it.color,
  }));
}
