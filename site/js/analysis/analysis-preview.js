// A view's first answer: for the analyses that can take seconds (a Multi-Power or averaged fit,
// the fit's band of jackknife refits, the paper's claims, the schedule optimiser), the panel
// first asks lawcore for a coarser answer that it draws at once, marked as refining, then for
// the answer itself, which replaces it. The first answer is the same analysis with less to
// compute: without the fit's ± (the band's refits evaluate every choice again under each
// refit), on every other or eighth point of a grid the user's options give, on the families,
// claims or runs that draw first. The answer that stays is always the one of the options as given:
// the first is only shown while it computes. Pure: no DOM, no engine.

/**
 * PAPER_FIRST are the paper's claims checked first (lawcore's `paper` analysis): the ones that
 * take a few milliseconds each (the fit, the decomposition's, the annealing function at two
 * ratios, the compute table, constant against cosine, the claims not checked). The sweeps'
 * claims (the cosine cycle, the WSD ratio, re-warmup, Chinchilla's tuples, λ) follow.
 */
export const PAPER_FIRST = [
  'fit',
  'prediction',
  'model-size',
  'sharp-drop',
  'constant-vs-cosine',
  'wsd-vs-cosine',
  'multistep-vs-cosine',
  'anneal-function',
  'compute',
];

/**
 * QUICK_FAMILIES are the optimiser's families from the quickest to search: under the annealing
 * law (its closed-form gradient), and under another law or an average (the multi-step's few
 * levels first; the cosine's cycle and floor take the Multi-Power Law longest).
 */
const QUICK_FAMILIES = {
  annealing: ['step-drop', 'cosine', 'free', 'wsd', 'multistep'],
  other: ['multistep', 'wsd', 'cosine'],
};

/** every keeps every k-th value of a list, and its last (the grid's ends stay). */
export function every(list, k) {
  if (!Array.isArray(list) || list.length <= 3 || k <= 1) return list;
  const out = list.filter((_, i) => i % k === 0);
  if (out[out.length - 1] !== list[list.length - 1]) out.push(list[list.length - 1]);
  return out;
}

/**
 * slowSetup says whether a setup makes the sweeps slow: a law other than the annealing law (the
 * Multi-Power Law's loss at a step costs far more), or an average of several laws.
 */
const slowSetup = (setup) => !!(setup && ((setup.law && setup.law !== 'annealing') || setup.members));

/**
 * previewOf is the first answer's request of an analysis ({options, setup, what}: what says in
 * a few words what it leaves out), or null when the analysis computes its answer quickly
 * enough to be drawn at once. options and setup are the answer's own (not changed); view is the
 * view shown (its id), for an analysis whose views draw different parts of its answer.
 */
export function previewOf(analysis, options, setup, view = null) {
  const spread = !!(setup && (setup.band || setup.replicates));
  const slow = slowSetup(setup);
  const noSpread = spread ? { ...setup, band: undefined, replicates: undefined } : setup;
  const leaves = [];
  if (spread) leaves.push('the ± of the fit’s refits');
  let o = options;
  switch (analysis) {
    case 'paper': {
      const asked = Array.isArray(options.claims) && options.claims.length ? options.claims : null;
      const first = PAPER_FIRST.filter((id) => !asked || asked.includes(id));
      if (!first.length || (asked && first.length === asked.length)) return null;
      return { options: { ...options, claims: first }, setup, what: 'the claims the sweeps check' };
    }
    case 'optimize': {
      // one family, the quickest to search under the law, draws first; without the ±
      const families = Array.isArray(options.families) ? options.families : [];
      if (families.length > 1) {
        const quickest = (slow ? QUICK_FAMILIES.other : QUICK_FAMILIES.annealing).find((f) => families.includes(f));
        o = { ...options, families: [quickest || families[0]] };
        leaves.push('the other families');
      }
      break;
    }
    case 'wsd-ratio':
    case 'anneal-function':
      if (slow && Array.isArray(options.ratios) && options.ratios.length > 8) {
        o = { ...options, ratios: every(options.ratios, analysis === 'wsd-ratio' ? 8 : 2) };
        leaves.push('the ratios between');
      }
      // each total is a sweep of its own, the longest the costliest: every other one first
      if (slow && analysis === 'wsd-ratio' && Array.isArray(options.totals) && options.totals.length > 3) {
        o = { ...o, totals: every(options.totals, 2) };
        leaves.push('every other total');
      }
      break;
    case 'constant-vs-cosine':
      if (slow && options.count > 10) {
        o = { ...options, count: Math.ceil(options.count / 2) };
        leaves.push('half of the totals');
      }
      break;
    case 'rewarmup':
      // ten runs of 100,000 steps: the first answer draws the view's own comparison, on fewer runs
      if (slow && Array.isArray(options.peaks) && Array.isArray(options.lengths) && options.peaks.length) {
        if (view === 'rewarmup-length') {
          o = { ...options, peaks: options.peaks.slice(0, 1), lengths: every(options.lengths, 4) };
          leaves.push('the other peaks, the lengths between');
        } else {
          o = { ...options, peaks: every(options.peaks, 2), lengths: [] };
          leaves.push('the lengths, every other peak');
        }
      }
      break;
    case 'cosine-cycle':
      if (slow && Array.isArray(options.cycles) && options.cycles.length > 5) {
        o = { ...options, cycles: every(options.cycles, 2) };
        leaves.push('every other cycle length');
      }
      break;
    default:
      return null;
  }
  if (o === options && !spread) return null;
  return { options: o, setup: noSpread, what: leaves.join(', ') };
}
