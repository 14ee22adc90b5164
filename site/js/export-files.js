// The files the page exports, built from the page state: the parameters and settings as JSON,
// predicted curves as CSV, observed points beside each law's fitted loss as CSV, and an
// analysis's table as CSV. Pure (Blobs are built, never downloaded, here); their formats are
// the README's.
import { DEFAULT_SETTINGS } from './settings.js';
import { LAWS, LAW_NAMES } from './schema.js';
import { paramsOf, shownFits, finalLosses } from './selectors.js';

/** csvField quotes a field when it holds a comma, a quote or a line break (null and undefined: empty). */
export function csvField(v) {
  const s = v === null || v === undefined ? '' : String(v);
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
    const law = c.law || 'annealing';
    const lead = `${csvField(c.name)},${law}`;
    const banded = band && law === 'annealing'; // the validation calibrates the annealing law's band
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

/** OBSERVED_COLUMNS names each law's column of fitted loss in the observed-points CSV. */
const OBSERVED_COLUMNS = { annealing: 'fitted', 'multi-power': 'fitted_multi_power' };

/**
 * observedCSV writes every curve's observed points with the fitted (or, for curves marked
 * validate, predicted) loss of each law's fit shown at the same steps:
 * curve,role,step,observed,fitted,fitted_multi_power (the columns of the laws fitted).
 */
export function observedCSV(state) {
  const laws = shownFits(state).map((fit) => [OBSERVED_COLUMNS[fit.law] || `fitted_${fit.law}`, new Map(fit.response.curves.map((r) => [r.name, r.predicted]))]);
  const rows = [['curve', 'role', 'step', 'observed', ...laws.map(([col]) => col)].join(',') + '\n'];
  for (const c of state.curves) {
    const name = csvField(c.name);
    const fitted = laws.map(([, m]) => m.get(c.name)).map((f) => (f && f.length === c.steps.length ? f : null));
    for (let i = 0; i < c.steps.length; i++) {
      rows.push([name, c.role, c.steps[i], c.loss[i], ...fitted.map((f) => (f ? f[i] : ''))].join(',') + '\n');
    }
  }
  return new Blob(rows, { type: 'text/csv' });
}

/** tableCSV writes an analysis's table ({columns, rows}) as CSV. */
export function tableCSV(table) {
  const lines = [table.columns, ...table.rows].map((r) => r.map(csvField).join(','));
  return new Blob([lines.join('\n') + '\n'], { type: 'text/csv' });
}

/** fitSummary is one law's fit as exported: its formula, its parameters and, from a fit, how it went. */
function fitSummary(law, params, response) {
  const fit = response ? {
    objective: response.objective, search: response.search, elapsedMs: response.elapsedMs, auto: response.auto,
    curves: response.curves.map((c) => ({ name: c.name, role: c.role, metrics: c.metrics })),
    fitMetrics: response.fitMetrics, validateMetrics: response.validateMetrics,
  } : {};
  return { law: LAWS[law].formula, params, ...fit };
}

/**
 * fitDocument is the parameters' JSON export (null when no law has parameters): the tool's
 * version, where the parameters come from, every setting that produced them, the annealing
 * law's fit at the top and the Multi-Power Law's as multiPower, each curve's schedule, the
 * validation and the predictions with each law's final loss.
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
    schedules: state.curves.map((c) => ({ name: c.name, role: c.role, schedule: c.schedule || null })),
    validation: state.validation || undefined,
    predictions: state.predictions.map((p) => ({
      name: p.name, schedule: p.schedule, finalLoss: finals.annealing.get(p.name), finalLossMultiPower: finals['multi-power'].get(p.name),
    })),
  };
}
