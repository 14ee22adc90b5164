// The model-size view of the annealing drop (the paper's Fig. 4a): from the model-size law fitted
// to curves of several sizes (the user's, or the MultiPowerLaw release's 25M and 100M runs as an
// example), lawcore's `size-drop` answer drawn as the drop against N, one line per run length,
// the fitted sizes and the unseen N marked, with the answer in one sentence. Pure: no DOM, no
// engine.
import { PALETTE } from '../common/theme.js';
import * as fmt from '../common/format.js';
import { schedulePeak } from '../state/selectors.js';
import { sizeName, sizeExtrapolation } from './analysis-views.js';

/** MAX_TOTALS bounds the run lengths the view draws a line for. */
const MAX_TOTALS = 3;
/** SAME_RUN: run lengths within this ratio of each other are drawn as one, the longest. */
const SAME_RUN = 1.02;

/** runLength is the last step of a curve's schedule (of its data when the schedule does not say). */
function runLength(c) {
  const s = c.schedule || {};
  if (Number.isFinite(s.total) && s.total > 0) return s.total;
  if (s.steps && s.steps.length) return s.steps[s.steps.length - 1];
  if (s.lr && s.lr.length) return s.lr.length - 1;
  return c.steps[c.steps.length - 1];
}

/**
 * sizeDropOptions are the `size-drop` analysis's options for a model-size fit (response) of
 * curves: its parameters, the curves' highest peak LR, the warmup the fit counted, the sizes it
 * fitted, the unseen size target, and up to MAX_TOTALS of the curves' run lengths (the longest;
 * lengths within 2% of each other taken as one).
 */
export function sizeDropOptions({ response, curves, warmup, warmupConvention, target }) {
  const fitted = response.curves.filter((c) => c.role === 'fit').map((c) => c.size);
  const sizes = [...new Set(fitted)].sort((a, b) => a - b);
  // runs of one schedule logged at several sizes may end a few steps apart: one line for them
  const totals = [];
  for (const t of [...new Set(curves.map((c) => Math.round(runLength(c))))].sort((a, b) => a - b)) {
    if (!(t > warmup + 1)) continue;
    if (totals.length && t <= SAME_RUN * totals[totals.length - 1]) totals[totals.length - 1] = t;
    else totals.push(t);
  }
  totals.splice(0, Math.max(0, totals.length - MAX_TOTALS));
  const peak = Math.max(...curves.map((c) => schedulePeak(c.schedule)).filter(Number.isFinite));
  return {
    law: 'size',
    params: response.params,
    peak,
    warmup,
    warmupConvention,
    sizes,
    target,
    ...(totals.length ? { totals } : {}),
  };
}

/** drop writes a loss drop with three significant digits: 0.0412. */
const drop = (x) => fmt.sig(x, 3);

/**
 * sizeDropView is the view's answer, chart, table, note and source from lawcore's `size-drop`
 * answer (r) for the options it ran with; example says the curves are the MultiPowerLaw
 * release's (the view says so).
 */
export function sizeDropView(r, options, { example }) {
  const sizes = options.sizes;
  const target = options.target;
  const totals = r.byTotal.map((s) => s.name);
  const lines = r.byTotal.map((s, i) => ({ label: s.name, x: s.x, y: s.y, color: PALETTE[i % PALETTE.length] }));
  const fittedPts = r.points.filter((p) => !p.unseen);
  const unseenPts = r.points.filter((p) => p.unseen);
  if (fittedPts.length)
    lines.push({
      label: 'fitted sizes',
      x: fittedPts.map((p) => p.size),
      y: fittedPts.map((p) => p.drop),
      points: true,
      color: '@fg',
    });
  if (unseenPts.length)
    lines.push({
      label: `predicted at N = ${sizeName(target)}`,
      x: unseenPts.map((p) => p.size),
      y: unseenPts.map((p) => p.drop),
      points: true,
      color: '#d00',
    });
  // the sentence states the longest run: the drop at each fitted size and at the unseen one
  const longest = Math.max(...r.points.map((p) => p.total));
  const at = r.points.filter((p) => p.total === longest);
  const fittedText = at
    .filter((p) => !p.unseen)
    .map((p) => `${drop(p.drop)} at ${sizeName(p.size)}`)
    .join(', ');
  const unseen = at.find((p) => p.unseen);
  const whose = example ? 'the MultiPowerLaw release’s 25M and 100M runs, an example' : 'your curves';
  const answer =
    `${unseen ? sizeExtrapolation(target, sizes) : ''}Fitted to ${sizes.map(sizeName).join(', ')} (${whose}), the model-size law’s annealing drop`
    + ` (a constant run’s final loss minus that of a WSD run annealing ${fmt.pct(options.ratio ?? 0.1, 2)} of it) over ${fmt.steps(longest)} steps is ${fittedText}`
    + `${unseen ? `, and ${drop(unseen.drop)} predicted at N = ${sizeName(unseen.size)}` : ''}: it grows with N as C·S2·N^γ, γ = ${fmt.fixed(r.gamma, 3)}.`;
  return {
    answer,
    chart: {
      xLabel: 'model size N (non-embedding parameters)',
      yLabel: 'annealing drop (constant − WSD final loss)',
      logX: true,
      xTicks: sizeName,
      lines,
      note: `The paper’s Fig. 4a measure: the final loss of a constant run minus that of a WSD run of the same length with a ${fmt.pct(options.ratio ?? 0.1, 2)} cosine annealing, one line per run length (${totals.join(', ')}). Black: the sizes fitted; red: the unseen N.`,
    },
    table: r.table,
    note: '',
    source: `${example ? 'MultiPowerLaw 25M + 100M (an example)' : 'your curves'} · ${sizes.map(sizeName).join(', ')}`,
  };
}
