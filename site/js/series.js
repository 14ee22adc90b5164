// Aligning curves for uPlot, which draws every series of a chart against one shared x array.
// Each curve has its own steps; the chart's x is the union of them, and each series is either
// interpolated onto it (lines) or placed at its own steps only (observed points).

/** unionSteps returns the sorted distinct values of several step arrays, keeping x >= min. */
export function unionSteps(arrays, min = -Infinity) {
  let n = 0;
  for (const a of arrays) n += a.length;
  const all = new Float64Array(n);
  let k = 0;
  for (const a of arrays) for (const x of a) if (x >= min) all[k++] = x;
  const sorted = all.subarray(0, k).sort();
  const out = [];
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) out.push(sorted[i]);
  return out;
}

/**
 * interpolateOnto samples the line (x, y) at every xs by linear interpolation; outside the
 * line's range, and where y is not finite, the result is null (a gap for uPlot).
 */
export function interpolateOnto(xs, x, y) {
  const out = new Array(xs.length).fill(null);
  if (!x.length) return out;
  let j = 0;
  for (let i = 0; i < xs.length; i++) {
    const t = xs[i];
    if (t < x[0] || t > x[x.length - 1]) continue;
    while (j < x.length - 2 && x[j + 1] < t) j++;
    let v;
    if (t === x[j]) v = y[j];
    else if (j + 1 < x.length && t === x[j + 1]) v = y[j + 1];
    else v = y[j] + ((y[j + 1] - y[j]) * (t - x[j])) / (x[j + 1] - x[j]);
    out[i] = Number.isFinite(v) ? v : null;
  }
  return out;
}

/** exactOnto places the points (x, y) at their own steps among xs; null everywhere else. */
export function exactOnto(xs, x, y) {
  const out = new Array(xs.length).fill(null);
  let i = 0;
  for (let j = 0; j < x.length; j++) {
    while (i < xs.length && xs[i] < x[j]) i++;
    if (i < xs.length && xs[i] === x[j] && Number.isFinite(y[j])) out[i] = y[j];
  }
  return out;
}

/**
 * everyNth returns at most max evenly spaced indices of 0..n-1, the first and last included:
 * the points a chart draws of a long observed curve (drawing a million points one by one
 * freezes the page for seconds; the fit still uses every point).
 */
export function everyNth(n, max) {
  if (n <= max) return null;
  const out = new Array(max);
  for (let k = 0; k < max; k++) out[k] = Math.round((k * (n - 1)) / (max - 1));
  return out;
}
