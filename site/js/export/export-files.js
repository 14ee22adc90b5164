// The files the page exports, built from the page state: the parameters and settings as JSON,
// predicted curves as CSV, observed points beside each law's fitted loss as CSV, and an
// analysis's table as CSV. Pure (Blobs are built, never downloaded, here); their formats are
// in docs/user-guide.md#exports.
import { DEFAULT_SETTINGS } from '../state/settings.js';
import { LAWS, LAW_NAMES } from '../engine/schema.js';
import { paramsOf, shownFits, finalLosses, lawsWithParams, averageOf } from '../state/selectors.js';
import { scheduleSteps, takesWarmupSetting } from '../schedules/schedule-kinds.js';
import { windowOf } from '../schedules/curve-facts.js';

/** csvField quotes a field when it holds a comma, a quote or a line break (null and undefined: empty). */
export function csvField(v) {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * predictionCSV writes the predicted curves in long form, one row per curve, law and step:
 * curve,law,step,lr,loss,s1_term,s2_term so that loss = L0 + s1_term - s2_term (the annealing
 * law: A·S1^-alpha and C·S2; the Multi-Power Law: A·(S1+S_W)^-alpha and its loss drop LD; law
 * "average" for auto's weighted average of laws, whose terms are the members' weighted sums, so
 * that its L0 is the members' weighted L0 as the parameters' JSON lists them), and
 * lower,upper on the rows of the band's law when band is given (an auto fit's or a
 * validation's {law, halfWidth}; a number: the annealing law's half-width): the line's own
 * lower and upper where it has them (lawcore's, wider beyond the fitted data), else
 * loss·(1 ∓ half-width). curves: [{name, law, average?, steps, lr, loss, s1Term, s2Term, lower?,
 * upper?}] (average: the line is an average of laws; law is still the law the band was set for).
 */
export function predictionCSV(curves, bandGiven = null) {
  const bandLaw = bandGiven && typeof bandGiven === 'object' ? bandGiven.law : 'annealing';
  const band = bandGiven && typeof bandGiven === 'object' ? bandGiven.halfWidth : bandGiven;
  const parts = [`curve,law,step,lr,loss,s1_term,s2_term${band ? ',lower,upper' : ''}\n`];
  for (const c of curves) {
    const law = c.law || 'annealing';
    const lead = `${csvField(c.name)},${c.average ? 'average' : law}`;
    const banded = band && law === bandLaw; // the validation calibrated this law's band
    // lawcore's own edges where the line has them (wider beyond the fitted data)
    const edges =
      banded && c.lower && c.upper && c.lower.length === c.steps.length && c.upper.length === c.steps.length;
    let chunk = '';
    for (let i = 0; i < c.steps.length; i++) {
      chunk +=
        `${lead},${c.steps[i]},${c.lr[i]},${c.loss[i]},${c.s1Term ? c.s1Term[i] : ''},${c.s2Term ? c.s2Term[i] : ''}`
        + (banded
          ? edges
            ? `,${c.lower[i]},${c.upper[i]}\n`
            : `,${c.loss[i] * (1 - band)},${c.loss[i] * (1 + band)}\n`
          : band
            ? ',,\n'
            : '\n');
      if (chunk.length > 1 << 16) {
        parts.push(chunk);
        chunk = '';
      }
    }
    parts.push(chunk);
  }
  return new Blob(parts, { type: 'text/csv' });
}

/**
 * csvStart is the first step a curve or schedule has in the predicted-curves CSV: a curve's
 * first observed step; a schedule's end of warmup (its own, else the settings' when it takes them), as the charts
 * start; never before step 1 (before the warmup ends the law's losses run to the thousands).
 */
export function csvStart(state, item, settings = state.settings) {
  if (item.steps && item.steps.length) return Math.max(1, item.steps[0]);
  const s = item.schedule || {};
  const own = s.kind === 'concat' ? s.segments?.[0]?.warmup : s.warmup;
  const warmup = takesWarmupSetting(s) ? settings.warmupSteps : own || 0;
  return Math.max(1, warmup < scheduleSteps(s) ? warmup : 1);
}

/** fromStep keeps a line's points at steps >= start (its columns sliced alike). */
export function fromStep(line, start) {
  let k = 0;
  while (k < line.steps.length && line.steps[k] < start) k++;
  const cut = (a) => (a ? a.slice(k) : a);
  return {
    ...line,
    steps: cut(line.steps),
    lr: cut(line.lr),
    loss: cut(line.loss),
    s1Term: cut(line.s1Term),
    s2Term: cut(line.s2Term),
    lower: cut(line.lower),
    upper: cut(line.upper),
  };
}

/** CSV_NUMBERS_BYTES is about what a row's step and five numbers (and their commas) take in the CSV. */
const CSV_NUMBERS_BYTES = 98;

/**
 * everyStepCSV says how large the predicted-curves CSV is at every step: {rows, bytes} (bytes
 * estimated from the names' lengths and about CSV_NUMBERS_BYTES for the numbers of a row).
 */
export function everyStepCSV(state) {
  const laws = lawsWithParams(state);
  let rows = 0;
  let bytes = 0;
  for (const law of laws) {
    const settings = paramsOf(state, law).settings;
    for (const item of [...state.curves.filter((c) => c.schedule), ...state.predictions]) {
      const n = Math.max(0, scheduleSteps(item.schedule) - csvStart(state, item, settings) + 1);
      rows += n;
      bytes += n * (csvField(item.name).length + law.length + CSV_NUMBERS_BYTES + (state.band ? 40 : 0));
    }
  }
  return { rows, bytes };
}

/** OBSERVED_COLUMNS names each law's column of fitted loss in the observed-points CSV. */
const OBSERVED_COLUMNS = { annealing: 'fitted', 'multi-power': 'fitted_multi_power' };

/**
 * observedCSV writes every curve's observed points with the fitted (or, for curves marked
 * validate, predicted) loss of each law's fit shown at the same steps:
 * curve,role,step,observed,in_window,fitted,fitted_multi_power (the columns of the laws
 * fitted). in_window is 1 for a point in its curve's fit window (fitted, or scored when held
 * out), 0 for one before it (predicted only: the warmup's, by default).
 */
export function observedCSV(state) {
  // an auto fit's average of laws is fitted_average, not its leading law's column
  const column = (law) => (averageOf(state, law) ? 'fitted_average' : OBSERVED_COLUMNS[law] || `fitted_${law}`);
  const laws = shownFits(state).map((fit) => [
    column(fit.law),
    new Map(fit.response.curves.map((r) => [r.name, r.predicted])),
  ]);
  const header = ['curve', 'role', 'step', 'observed', 'in_window', ...laws.map(([col]) => col)];
  const rows = [`${header.join(',')}\n`];
  for (const c of state.curves) {
    const name = csvField(c.name);
    const { from } = windowOf(c, state.settings.warmupSteps);
    const fitted = laws.map(([, m]) => m.get(c.name)).map((f) => (f && f.length === c.steps.length ? f : null));
    for (let i = 0; i < c.steps.length; i++) {
      const cells = [
        name,
        c.role,
        c.steps[i],
        c.loss[i],
        c.steps[i] >= from ? 1 : 0,
        ...fitted.map((f) => (f ? f[i] : '')),
      ];
      rows.push(`${cells.join(',')}\n`);
    }
  }
  return new Blob(rows, { type: 'text/csv' });
}

/** tableCSV writes an analysis's table ({columns, rows}) as CSV. */
export function tableCSV(table) {
  const lines = [table.columns, ...table.rows].map((r) => r.map(csvField).join(','));
  return new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' });
}

/** fitSummary is one law's fit as exported: its formula, its parameters and, from a fit, how it went. */
function fitSummary(law, params, response) {
  const fit = response
    ? {
        objective: response.objective,
        search: response.search,
        elapsedMs: response.elapsedMs,
        auto: response.auto,
        curves: response.curves.map((c) => ({ name: c.name, role: c.role, metrics: c.metrics })),
        fitMetrics: response.fitMetrics,
        validateMetrics: response.validateMetrics,
        // an auto fit that averages laws predicts with every member; params are the heaviest's
        ...(response.members && response.members.length ? { members: response.members } : {}),
      }
    : {};
  return { law: LAWS[law].formula, params, ...fit };
}

/**
 * fitDocument is the parameters' JSON export (null when no law has parameters): the tool's
 * version, where the parameters come from, every setting that produced them, the annealing
 * law's fit at the top and the Multi-Power Law's as multiPower, every law's under laws (by
 * name), each curve's schedule and fit window, the validation and the predictions with each law's final loss.
 */
export function fitDocument(state, version, exported = new Date()) {
  const laws = LAW_NAMES.filter((law) => paramsOf(state, law));
  if (!laws.length) return null;
  const manual = state.manual;
  const summary = (law) => {
    const p = paramsOf(state, law);
    return p ? fitSummary(law, p.params, manual ? null : state.fits[law].response) : undefined;
  };
  const settings = { ...DEFAULT_SETTINGS, ...paramsOf(state, laws[0]).settings };
  const finals = Object.fromEntries(LAW_NAMES.map((law) => [law, finalLosses(state, law)]));
  return {
    tool: 'annealing scaling-law calculator',
    version,
    exported: exported.toISOString(),
    source: manual ? (manual.from === 'link' ? 'share link' : 'entered by hand') : 'fit',
    settings: { ...settings, lambda: settings.fitLambda ? 'fit' : settings.lambda },
    ...(summary('annealing') || {}),
    multiPower: summary('multi-power'),
    // every law with parameters, by name (the annealing law's and the Multi-Power Law's also above)
    laws: Object.fromEntries(laws.map((law) => [law, summary(law)])),
    // each curve's fit window: the step it is fitted from (0: every point), set by the user or the default
    schedules: state.curves.map((c) => ({
      name: c.name,
      // the name the user gave it on the page (the full name above is the curve's own)
      ...(c.label ? { label: c.label } : {}),
      role: c.role,
      schedule: c.schedule || null,
      window: windowOf(c, settings.warmupSteps),
    })),
    validation: state.validation || undefined,
    // an auto fit's average of laws predicts in its leading law's place: its final losses are
    // the average's (finalLossAverage, finalLosses.average), not that law's
    predictions: state.predictions.map((p) => {
      const of = (law) => (averageOf(state, law) ? undefined : finals[law].get(p.name));
      const averaged = laws.find((law) => averageOf(state, law));
      return {
        name: p.name,
        schedule: p.schedule,
        finalLoss: of('annealing'),
        finalLossMultiPower: of('multi-power'),
        ...(averaged ? { finalLossAverage: finals[averaged].get(p.name) } : {}),
        finalLosses: Object.fromEntries(
          laws
            .map((law) => [averageOf(state, law) ? 'average' : law, finals[law].get(p.name)])
            .filter(([, x]) => x !== undefined),
        ),
      };
    }),
  };
}
