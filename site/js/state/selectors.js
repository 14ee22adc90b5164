// Reading the page state: which parameters each law predicts with, which curves a fit covers,
// which predicted lines are current, and the analyses' setup. Pure functions of the state, so
// that views, controllers and the chart model derive the same answers.
import { LAW_NAMES, LAWS } from '../engine/schema.js';
import { curveLabels } from '../common/names.js';
import { nominalLength, scheduleDecay } from '../schedules/curve-facts.js';

/** labelled holds the latest labelsOf answer, for the curves and schedules it was made from. */
let labelled = { curves: null, predictions: null, labels: new Map() };

/**
 * labelsOf maps each curve's and schedule's name to the name the page shows (common/names.js:
 * the user's label, else what distinguishes it from the other curves); the full name shows on
 * hover.
 */
export function labelsOf(state) {
  if (labelled.curves !== state.curves || labelled.predictions !== state.predictions)
    labelled = {
      curves: state.curves,
      predictions: state.predictions,
      labels: curveLabels(state.curves, state.predictions),
    };
  return labelled.labels;
}

/** labelOf is the name the page shows for an item's name (its own when it has none). */
export function labelOf(state, name) {
  return labelsOf(state).get(name) ?? name;
}

/**
 * paramsOf is the law's parameters predictions use: {params, settings, source, members?}, from the
 * parameters entered by hand (or from a link) when there are any, else from the law's latest
 * fit; null when the law has none. source is the record they come from: lines predicted with
 * other parameters are not current.
 */
export function paramsOf(state, law) {
  if (state.manual) {
    const params = state.manual.params[law];
    return params ? { params, settings: state.manual.settings, source: state.manual } : null;
  }
  const fit = state.fits[law];
  if (!fit) return null;
  // an auto fit that averages laws predicts with every member (fit.params are the heaviest's)
  const members = fit.response && fit.response.members;
  return { params: fit.params, settings: fit.settings, source: fit, ...(members && members.length ? { members } : {}) };
}

/**
 * averageOf says what predicts in the law's place when it is an auto fit's weighted average of
 * laws, led by the law (its heaviest member): {short, long}, the names the page gives it
 * ('average', 'the average of 4 laws auto picked, led by the Multi-Power Law'); null when the
 * law predicts alone. Its lines and final losses are the average's, not the law's.
 */
export function averageOf(state, law) {
  const n = state.manual ? 0 : averagedLaws(state.fits[law]);
  return n ? { short: 'average', long: `the average of ${n} laws auto picked, led by the ${LAWS[law].label}` } : null;
}

/** averagedLaws is how many laws a fit averages (auto's average, its response's members), or 0 for one law alone. */
export function averagedLaws(fit) {
  const members = fit && fit.response && fit.response.members;
  return members && members.length > 1 ? members.length : 0;
}

/** lawsWithParams lists the laws that have parameters, in LAW_NAMES order. */
export function lawsWithParams(state) {
  return LAW_NAMES.filter((law) => paramsOf(state, law));
}

/** shownFits are the fits whose results the page shows (none while parameters entered by hand are used). */
export function shownFits(state) {
  return state.manual ? [] : LAW_NAMES.filter((law) => state.fits[law]).map((law) => state.fits[law]);
}

/**
 * fitCovers says whether a fit's lines still hold for curve: it was fitted with the same data
 * and schedule (its role may have changed since).
 */
export function fitCovers(fit, curve) {
  const f = fit && fit.curves.get(curve.name);
  return !!f && f.steps === curve.steps && f.loss === curve.loss && f.schedule === curve.schedule;
}

/** fitLine is the fitted (or, held out, predicted) line of curve from the law's fit in use, or null. */
export function fitLine(state, law, curve) {
  const fit = state.manual ? null : state.fits[law];
  return fit && fitCovers(fit, curve) ? fit.lines.get(curve.name) || null : null;
}

/** bandOfFits is the band an auto fit calibrated (fits: law -> fit record), as state.band holds it, or null. */
export function bandOfFits(fits) {
  const fit = Object.values(fits || {}).find(
    (f) => f.response && f.response.band && Number.isFinite(f.response.band.base),
  );
  if (!fit) return null;
  const b = fit.response.band;
  return { law: fit.law, halfWidth: b.base, level: b.level, spec: b, from: fit.response.auto ? 'auto' : 'fit' };
}

/**
 * validationBand is the band of a `validate` answer as state.band holds it: its first law's
 * (the annealing law's when validated), or null.
 */
export function validationBand(validation) {
  const first = [...validation.summaries].sort((a, b) => (b.law === 'annealing') - (a.law === 'annealing'))[0];
  return first && Number.isFinite(first.bandHalfWidth)
    ? {
        law: first.law,
        halfWidth: first.bandHalfWidth,
        level: first.bandLevel,
        spec: first.band || null,
        from: 'validation',
      }
    : null;
}

/**
 * restoredBand is the band in use in a view put back: its validation's when it kept one, else
 * its auto fit's (none with parameters entered by hand).
 */
export function restoredBand({ validation, manual, fits }) {
  if (validation) return validationBand(validation);
  return manual ? null : bandOfFits(fits);
}

/**
 * lineBand is the band (lawcore's, which predict takes) the law's predicted lines carry: the
 * band in use when it is this law's and the parameters are fitted ones, else null.
 */
export function lineBand(state, law) {
  const b = state.band;
  return b && b.spec && b.law === law && !state.manual ? b.spec : null;
}

/** predictedLine is the law's current predicted line of item (a curve or a schedule), or null. */
export function predictedLine(state, law, item) {
  const p = paramsOf(state, law);
  const lines = state.lines[law];
  if (!p || !lines || lines.source !== p.source || (lines.band || null) !== lineBand(state, law)) return null;
  const line = lines.byName.get(item.name);
  return line && line.schedule === item.schedule ? line : null;
}

/** lineOf is the line the law draws for item: its fit's, else its prediction's; null when there is none yet. */
export function lineOf(state, law, item) {
  return fitLine(state, law, item) || predictedLine(state, law, item);
}

/** missingLines lists the curves with schedules and the schedules to predict the law has no line for yet. */
export function missingLines(state, law) {
  if (!paramsOf(state, law)) return [];
  return [...state.curves.filter((c) => c.schedule), ...state.predictions].filter((item) => !lineOf(state, law, item));
}

/** finalLosses maps each schedule to predict to the law's predicted final loss (when it has one). */
export function finalLosses(state, law) {
  const out = new Map();
  for (const p of state.predictions) {
    const line = predictedLine(state, law, p);
    if (line && Number.isFinite(line.finalLoss)) out.set(p.name, line.finalLoss);
  }
  return out;
}

/** lawTitle is a law's label as a title: "Annealing law". */
export function lawTitle(law) {
  const label = LAWS[law] ? LAWS[law].label : law;
  return label[0].toUpperCase() + label.slice(1);
}

/**
 * schedulePeak is a schedule's highest LR: its peak, or above it a multi-step level over 1, a
 * final LR or warmup start above the peak; else its largest LR, else its segments' highest; NaN
 * for none. The extrapolation notices compare it with the fitted curves' (a multi-step with
 * levels 1 and 5 runs at five times its peak).
 */
export function schedulePeak(schedule) {
  if (!schedule) return NaN;
  if (schedule.peak) {
    const above = [
      schedule.final,
      schedule.warmupFrom,
      ...(Array.isArray(schedule.levels) ? schedule.levels.map((l) => l * schedule.peak) : []),
    ];
    return Math.max(schedule.peak, ...above.filter(Number.isFinite));
  }
  if (schedule.segments && schedule.segments.length) {
    // a concat (re-warmup) schedule has no peak of its own: its highest is its segments'
    const peaks = schedule.segments.map(schedulePeak).filter(Number.isFinite);
    return peaks.length ? Math.max(...peaks) : NaN;
  }
  if (schedule.lr && schedule.lr.length) {
    // a loop, not Math.max(...lr): an LR file's million points overflow the call stack
    let top = -Infinity;
    for (const x of schedule.lr) if (x > top) top = x;
    return top;
  }
  return NaN;
}

/**
 * fittedPeak is the highest peak LR of the curves fitted, the learning rates the parameters in
 * use were fitted at; 0 for parameters entered by hand, or curves without a known peak.
 */
export function fittedPeak(state) {
  if (state.manual) return 0;
  const peaks = state.curves
    .filter((c) => c.role !== 'validate')
    .map((c) => schedulePeak(c.schedule))
    .filter(Number.isFinite);
  return peaks.length ? Math.max(...peaks) : 0;
}

/** analysisPeak is the peak LR of the curves' schedules (the first that has one). */
function analysisPeak(state) {
  for (const c of [...state.curves, ...state.predictions]) {
    const peak = schedulePeak(c.schedule);
    if (Number.isFinite(peak)) return peak;
  }
  return 2e-4;
}

/** guessPeak is the peak LR a new schedule starts from: the first schedule's that has one. */
export function guessPeak(state) {
  const withPeak = [...state.curves, ...state.predictions].find((c) => c.schedule && c.schedule.peak);
  return withPeak ? withPeak.schedule.peak : 3e-4;
}

/** MAX_REPLICATES is the most parameter sets lawcore's analyses take (the jackknife gives ten). */
const MAX_REPLICATES = 50;

/**
 * fitReplicates are a fit's jackknife parameter sets (its answer's replicates) restricted to the
 * law's parameters, or undefined: parameters entered by hand, a fit without them (too few points
 * per curve, or too many), or a stored answer whose sets are not parameter sets.
 */
function fitReplicates(cur, law) {
  const reps = !cur.source || !cur.source.response ? null : cur.source.response.replicates;
  if (!Array.isArray(reps) || reps.length < 2 || reps.length > MAX_REPLICATES) return undefined;
  const out = reps.map((r) =>
    r && typeof r === 'object' ? Object.fromEntries(LAWS[law].params.map((k) => [k, r[k]])) : null,
  );
  return out.every((r) => r && Object.values(r).every(Number.isFinite)) ? out : undefined;
}

/**
 * analysisParams is the law the analyses start from and its parameters (paramsOf), or {law:
 * undefined, cur: null}: the annealing law's parameters when there are any, else the first
 * law's (an auto fit may have picked another): the analyses run on any law.
 */
function analysisParams(state) {
  const law = lawsWithParams(state).sort((a, b) => (b === 'annealing') - (a === 'annealing'))[0];
  return { law, cur: law ? paramsOf(state, law) : null };
}

/** runsSeen holds the latest analysisRuns answer, for the curves it was made from. */
let runsSeen = { curves: null, runs: null };

/**
 * analysisRuns is what the user's runs say the analyses should start from: {total (the longest
 * fit curve's nominal length), decay (the decay shape of the first fit curve that decays), floor
 * (its final LR as a fraction of the peak)}, each null when the runs do not say (no curves of
 * the user's: a bundled example's keep its paper's setting; no curve decays). The user's curves
 * marked fit count, else all of them.
 */
export function analysisRuns(state) {
  if (runsSeen.curves === state.curves) return runsSeen.runs;
  const mine = state.curves.filter((c) => !c.fromExample);
  const fit = mine.filter((c) => c.role === 'fit');
  const runs = fit.length ? fit : mine;
  const decay = runs.map(scheduleDecay).find(Boolean) || null;
  const out = {
    total: runs.length ? Math.max(...runs.map(nominalLength)) : null,
    decay: decay ? decay.shape : null,
    floor: decay ? decay.floor : null,
  };
  runsSeen = { curves: state.curves, runs: out };
  return out;
}

/**
 * analysisFitCurves are the curves the parameters the analyses start from were fitted to (those
 * of role fit with a schedule, as fitted) and that fit's settings, {curves, settings}: the λ
 * analysis refits the law to them for each λ, as the paper does. null for parameters entered by
 * hand (or from a link) and before any fit.
 */
export function analysisFitCurves(state) {
  const { cur } = analysisParams(state);
  if (!cur || state.manual || !cur.source || !(cur.source.curves instanceof Map)) return null;
  const curves = [...cur.source.curves.values()].filter((c) => c.role === 'fit' && c.schedule);
  return curves.length ? { curves, settings: cur.settings } : null;
}

/**
 * analysisInputs are what the analyses' answers are computed from in state, as a list to compare
 * with another state's: the record of the parameters they start from (by identity: a new fit
 * is new parameters), the peak LR they run at, the fitted peak an answer is measured against,
 * the warmup setting, and the runs' total and decay the analyses start from (analysisRuns).
 */
export function analysisInputs(state) {
  const { cur } = analysisParams(state);
  const s = cur ? cur.settings : state.settings;
  const runs = analysisRuns(state);
  return [
    cur ? cur.source : null,
    analysisPeak(state),
    fittedPeak(state),
    s.warmupSteps,
    s.warmupConvention,
    runs.total,
    runs.decay,
    runs.floor,
  ];
}

/**
 * setupSource says where the parameters the analyses start from come from (cur: law's paramsOf,
 * or null): by hand or fitted, of which law; an average of laws is analysed as the average the
 * answers table predicts with.
 */
function setupSource(state, law, cur) {
  if (!cur) return 'the paper’s Fig. 2 parameters (no fit yet)';
  if (cur.members && !state.manual) return `the fitted average of ${cur.members.length} laws (as the answers table)`;
  const whose = state.manual ? 'the parameters entered by hand' : 'the fitted parameters';
  const ofLaw = law === 'annealing' ? '' : ` of the ${LAWS[law].label}`;
  return `${whose}${ofLaw}`;
}

/**
 * analysisSetup: the annealing law's parameters and the settings the analyses start from, and
 * where they come from; with a fit's replicates (replicates: parameter sets) when it gave them.
 */
export function analysisSetup(state) {
  const { law, cur } = analysisParams(state);
  const s = cur ? cur.settings : state.settings;
  return {
    law: cur ? law : undefined,
    params: cur ? Object.fromEntries(LAWS[law].params.map((k) => [k, cur.params[k]])) : undefined,
    peak: analysisPeak(state),
    warmup: s.warmupSteps,
    warmupConvention: s.warmupConvention,
    source: setupSource(state, law, cur),
    replicates: cur && !state.manual ? fitReplicates(cur, law) : undefined,
    // one answer per question: the average the predictions use, and their band
    members: cur && !state.manual && cur.members ? cur.members : undefined,
    band: cur && lineBand(state, law) ? lineBand(state, law) : undefined,
  };
}
