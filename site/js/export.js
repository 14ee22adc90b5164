// Taking results away: the fit as JSON, predicted curves as CSV, charts as PNG. Files are made
// in the page and downloaded through an <a download> with a blob: URL.
import { plotColors } from './theme.js';

/** download saves blob under fileName. */
export function download(blob, fileName) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** downloadJSON saves value as pretty-printed JSON. */
export function downloadJSON(value, fileName) {
  download(new Blob([JSON.stringify(value, null, 2) + '\n'], { type: 'application/json' }), fileName);
}

/** csvField quotes a field when it holds a comma, a quote or a line break. */
function csvField(s) {
  s = String(s);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * predictionCSV writes the predicted curves in long form, one row per curve, law and step:
 * curve,law,step,lr,loss,s1_term,s2_term so that loss = L0 + s1_term - s2_term (the annealing
 * law: A·S1^-alpha and C·S2; the Multi-Power Law: A·(S1+S_W)^-alpha and its loss drop LD), and
 * lower,upper (loss·(1 ∓ band)) on the annealing law's rows when band, the validation's
 * relative half-width, is given. curves: [{name, law, steps, lr, loss, s1Term, s2Term}].
 */
export function predictionCSV(curves, band = null) {
  const parts = [`curve,law,step,lr,loss,s1_term,s2_term${band ? ',lower,upper' : ''}\n`];
  for (const c of curves) {
    const lead = `${csvField(c.name)},${c.law || 'annealing'}`;
    const banded = band && c.law !== 'multi-power';
    let chunk = '';
    for (let i = 0; i < c.steps.length; i++) {
      chunk += `${lead},${c.steps[i]},${c.lr[i]},${c.loss[i]},${c.s1Term ? c.s1Term[i] : ''},${c.s2Term ? c.s2Term[i] : ''}`
        + (banded ? `,${c.loss[i] * (1 - band)},${c.loss[i] * (1 + band)}\n` : band ? ',,\n' : '\n');
      if (chunk.length > 1 << 16) {
        parts.push(chunk);
        chunk = '';
      }
    }
    parts.push(chunk);
  }
  return new Blob(parts, { type: 'text/csv' });
}

/** chartPNG draws a uPlot chart with a title and its legend on the page background, as PNG. */
export function chartPNG(u, title) {
  const colors = plotColors();
  const src = u.ctx.canvas;
  const ratio = src.width / u.width;
  const pad = 12 * ratio;
  const font = (px, weight = '') => `${weight} ${px * ratio}px system-ui, sans-serif`;
  const items = u.series.slice(1).filter((s) => s.show !== false).map((s) => ({ label: s.label, color: strokeOf(u, s) }));
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
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the chart could not be encoded as PNG'))), 'image/png'));
}

function strokeOf(u, s) {
  return typeof s.stroke === 'function' ? s.stroke(u, u.series.indexOf(s)) : s.stroke || '#888';
}
