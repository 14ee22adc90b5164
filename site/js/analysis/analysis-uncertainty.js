// Decisions with their uncertainty. Given the fit's replicates (the jackknife's refitted
// parameter sets), lawcore's analyses that compare choices answer each choice's final loss with
// its 90% half-width (±) and which choices cannot be told apart from the best (by the half-width
// of their difference), and a verdict sentence. This module turns those typed fields into the
// panel's table (each choice's final loss beside its ±, the choices within the band marked) and
// the words the answer adds. Pure: no DOM, no engine.
import * as fmt from '../common/format.js';

/** UNCERTAIN_ANALYSES are the analyses that take the fit's replicates. */
export const UNCERTAIN_ANALYSES = new Set(['wsd-ratio', 'anneal-function', 'constant-vs-cosine', 'optimize']);

/** hasSpread says whether an answer came with the fit's uncertainty (it then has a verdict). */
export const hasSpread = (r) => !!(r && typeof r.verdict === 'string' && r.verdict);

/** plusMinus writes a half-width with two significant digits: 0.0043, 0.012. */
export const plusMinus = (x) => (Number.isFinite(x) ? fmt.sig(x, 2) : '–');

/** percent writes a ratio as a whole percentage when it is one, else with one decimal: 20%, 12.5%. */
const percent = (x) => {
  const p = Math.round(x * 1000) / 10;
  return `${Number.isInteger(p) ? p : p.toFixed(1)}%`;
};

/** spanText writes a span of ratios within the band: "14%–40%", or "19% only". */
export const spanText = (span) =>
  percent(span.from) === percent(span.to) ? `${percent(span.from)} only` : `${percent(span.from)}–${percent(span.to)}`;

/** BAND is the column that says whether a choice can be told apart from the best. */
const BAND = 'within the band of the best';

/**
 * uncertainTable is the table an analysis's answer r shows: with the fit's uncertainty, each
 * choice's final loss with its ± beside it and the rows that cannot be told apart marked
 * (tied: one flag per row); without it, lawcore's own table.
 */
export function uncertainTable(analysis, r) {
  if (!hasSpread(r) || !r.table) return r.table;
  switch (analysis) {
    case 'wsd-ratio':
      return {
        columns: [
          'total steps',
          'best ratio',
          'decay steps',
          'final loss',
          '± (90%)',
          'ratios within the band',
          'S1',
          'S2',
        ],
        rows: r.optima.map((o) => [
          o.total,
          o.ratio,
          o.decaySteps,
          o.final.loss,
          o.plusMinus,
          o.tied ? spanText(o.tied) : '–',
          o.final.S1,
          o.final.S2,
        ]),
        tied: r.optima.map(() => false),
      };
    case 'anneal-function': {
      // lawcore's table ends with the margin, its ± and whether the two shapes are told apart
      const tied = r.winners.map((w) => w.apart === false);
      return { ...r.table, tied };
    }
    case 'constant-vs-cosine': {
      const c = r.crossover;
      const tied = r.constant.x.map((t) => !!c && t >= c.low && t <= c.high);
      return {
        columns: [...r.table.columns, 'told apart'],
        rows: r.table.rows.map((row, i) => [...row, tied[i] ? 'no, within the band' : 'yes']),
        tied,
      };
    }
    case 'optimize': {
      const top = r.ranking[0];
      const tied = r.best.map((b) => b.family !== top && b.tiedWithBest === true);
      return {
        columns: ['family', 'best', 'final loss', '± (90%)', BAND, 'S1', 'S2', 'evaluations'],
        rows: r.best.map((b, i) => [
          b.family,
          b.description,
          b.final.loss,
          b.plusMinus,
          b.family === top ? 'the best' : tied[i] ? 'yes' : 'no',
          b.final.S1,
          b.final.S2,
          b.evaluations,
        ]),
        tied,
      };
    }
    default:
      return r.table;
  }
}

/**
 * tiedPoints are, for each line of a WSD sweep (series, one per total), its grid points whose
 * ratio lies within the optimum's band (optima[i].tied): [{x, y}] per line, empty without.
 * x comes from the series drawn (ratio or S1), the span from byRatio (same indices).
 */
export function tiedPoints(r, series) {
  return series.map((s, i) => {
    const span = r.optima[i] && r.optima[i].tied;
    const ratios = r.byRatio[i] && r.byRatio[i].x;
    if (!span || !ratios) return null;
    const x = [];
    const y = [];
    for (let k = 0; k < ratios.length; k++) {
      if (ratios[k] >= span.from - 1e-12 && ratios[k] <= span.to + 1e-12) {
        x.push(s.x[k]);
        y.push(s.y[k]);
      }
    }
    return { x, y };
  });
}
