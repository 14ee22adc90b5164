// Aligning curves for uPlot, which draws every series of a chart against one shared x array.
// Each curve has its own steps; the chart's x is the union of them, and each series is either
// interpolated onto it (lines) or placed at its own steps only (observed points). Long curves
// are thinned first, by the one thinning routine of the page (drawnIndices).

/** MAX_DRAWN_POINTS is the most points of one curve a chart draws. */
export const MAX_DRAWN_POINTS = 4000;

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
 * drawnIndices returns the indices of values a chart draws of a long observed curve: at most
 * max of them in increasing order, the first and last included (null when all n fit). The
 * points between are cut into runs of consecutive points and each run keeps its lowest and
 * highest value, so a loss spike between two evenly spaced points still shows. Drawing a
 * million points one by one freezes the page for seconds; the fit and exports use every point.
 */
export function drawnIndices(values, max) {
  const n = values.length;
  if (n <= max) return null;
  const buckets = Math.max(1, Math.floor((max - 2) / 2));
  const out = [0];
  for (let b = 0; b < buckets; b++) {
    const from = 1 + Math.floor((b * (n - 2)) / buckets);
    const to = 1 + Math.floor(((b + 1) * (n - 2)) / buckets);
    if (from >= to) continue;
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      if (values[i] < values[lo]) lo = i;
      if (values[i] > values[hi]) hi = i;
    }
    out.push(Math.min(lo, hi));
    if (lo !== hi) out.push(Math.max(lo, hi));
  }
  out.push(n - 1);
  return out;
}

/** thinned keeps the points of (x, y) drawnIndices picks: all of them when there are at most max. */
export function thinned(x, y, max = MAX_DRAWN_POINTS) {
  const keep = drawnIndices(y, max);
  return keep ? { x: keep.map((i) => x[i]), y: keep.map((i) => y[i]) } : { x, y };
}

/**
 * alignLines turns a chart's lines ({x, y, points?, from?, to?}) into uPlot's data: the union
 * of their x at or above xMin, then each line's y on it. A line keeps only its x within
 * [from, to] and is thinned to MAX_DRAWN_POINTS.
 */
export function alignLines(lines, xMin = -Infinity) {
  const drawn = lines.map((l) => {
    let x = l.x;
    let y = l.y;
    if (l.from !== undefined || l.to !== undefined) {
      const keep = [];
      for (let i = 0; i < x.length; i++) if (x[i] >= (l.from ?? -Infinity) && x[i] <= (l.to ?? Infinity)) keep.push(i);
      x = keep.map((i) => x[i]);
      y = keep.map((i) => y[i]);
    }
    return { ...thinned(x, y), points: l.points };
  });
  const xs = unionSteps(
    drawn.map((d) => d.x),
    xMin,
  );
  return [xs, ...drawn.map((d) => (d.points ? exactOnto(xs, d.x, d.y) : interpolateOnto(xs, d.x, d.y)))];
}
