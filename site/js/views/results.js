// The results panel: the fitted law in numbers and where they come from, whether they are
// stale, what "auto" picked, the metrics table (fit and validate curves apart, with means, one
// group per law) and the leave-one-schedule-out table.
import { $, h } from '../dom.js';
import * as fmt from '../format.js';
import { watch } from '../store.js';
import { LAWS } from '../schema.js';
import { paramsOf, shownFits, lawTitle, lawsWithParams } from '../selectors.js';

/** showResults draws the results panel from the store. */
export function showResults(store) {
  renderMetricsHead();
  watch(store, ['fits', 'manual', 'stale', 'curves', 'validation'], (state) => {
    const annealing = paramsOf(state, 'annealing');
    const other = lawsWithParams(state).find((law) => law !== 'annealing');
    renderParams(annealing || (other ? { params: {}, settings: paramsOf(state, other).settings } : null), originText(state));
    const fits = shownFits(state);
    $('#stale-note').hidden = !(fits.length && state.stale);
    renderAuto(fits.map((f) => f.response.auto).find(Boolean));
    const colors = new Map(state.curves.map((c) => [c.name, c.color]));
    renderMetrics(fits.map((f) => ({ law: f.law, label: lawTitle(f.law), response: f.response })), colors);
    renderValidation(state.validation, colors);
  });
}

/** originText says where the parameters shown come from: a fit (on which curves, how), a link, or by hand. */
function originText(state) {
  let origin = '';
  const fit = state.fits.annealing;
  if (state.manual) origin = state.manual.from === 'link' ? 'Parameters from a shared link.' : 'Parameters entered by hand.';
  else if (fit) {
    const r = fit.response;
    const fitNames = r.curves.filter((c) => c.role === 'fit').map((c) => c.name);
    origin = `Fitted on ${fitNames.join(', ')} · objective ${fmt.sig(r.objective, 3)}`
      + (r.search ? ` · ${r.search.starts} starts, ${r.search.evaluations} evaluations` : '')
      + ` · ${fmt.ms(r.elapsedMs)}`;
  }
  // the other laws' parameters in one line each (the equation shows the annealing law's)
  for (const law of lawsWithParams(state).filter((l) => l !== 'annealing')) {
    const { params } = paramsOf(state, law);
    const { label, params: names, symbols } = LAWS[law];
    const fitted = !state.manual && state.fits[law];
    origin += `${origin ? ' · ' : ''}${label[0].toUpperCase()}${label.slice(1)}${paramsOf(state, 'annealing') ? ' (dotted)' : ''}: `
      + names.map((k) => `${symbols[k]} ${fmt.sig(params[k], 4)}`).join(', ')
      + (fitted ? ` · objective ${fmt.sig(fitted.response.objective, 3)}` : '');
  }
  return origin;
}

/**
 * renderAuto says what an auto fit picked and why, with every candidate's held-out error beside
 * its in-sample error: a law that fits well and predicts badly shows it there.
 */
function renderAuto(auto) {
  const note = $('#auto-note');
  note.hidden = !auto;
  if (!auto) return note.replaceChildren();
  const pct = (x) => (Number.isFinite(x) ? `${fmt.sig(100 * x, 3)}%` : '–');
  const rows = auto.candidates.map((c) => h('tr', { class: c.label === auto.chosen.label ? 'chosen' : '', dataset: { candidate: c.label } },
    h('th', { scope: 'row', text: c.label }),
    h('td', { class: 'num', dataset: { metric: 'heldOut', value: c.error ? '' : String(c.heldOut) }, text: c.error ? '–' : `${pct(c.heldOut)} ± ${pct(c.stdErr)}` }),
    h('td', { class: 'num', dataset: { metric: 'inSample', value: c.error ? '' : String(c.inSample) }, text: c.error ? '–' : pct(c.inSample) }),
    h('td', { class: 'num', text: String(c.free) }),
    h('td', { text: c.error || '' })));
  note.replaceChildren(
    h('p', { class: 'hint', text: `Auto picked the ${auto.chosen.label}. ${auto.reason}` }),
    h('details', {},
      h('summary', { text: `Every candidate: held-out error (${auto.design}, ${auto.folds.length} folds) beside in-sample error` }),
      h('div', { class: 'table-wrap' }, h('table', { class: 'metrics auto-table' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', text: 'candidate' }),
          h('th', { scope: 'col', class: 'num', title: 'mean relative error of the held-out points, over the folds, ± its standard error', text: 'held-out PredE' }),
          h('th', { scope: 'col', class: 'num', title: 'mean relative error of the same fits on the points they were fitted to', text: 'in-sample PredE' }),
          h('th', { scope: 'col', class: 'num', title: 'parameters fitted', text: 'fitted' }),
          h('th', { scope: 'col', text: '' }))),
        h('tbody', {}, rows))),
      h('p', { class: 'hint', text: `Held out: ${auto.folds.join('; ')}.` })));
}

const METRICS = [
  ['R2', 'R²', 'coefficient of determination', 5],
  ['MAE', 'MAE', 'mean absolute error', 4],
  ['RMSE', 'RMSE', 'root mean square error', 4],
  ['PredE', 'PredE', 'mean relative error |observed − law| / observed', 3],
  ['WorstE', 'WorstE', 'largest relative error', 3],
];

/** renderParams shows the equation with its numbers, or dashes before any fit. */
function renderParams(current, origin) {
  const p = current ? current.params : {};
  const s = current ? current.settings : null;
  $('#param-L0').textContent = fmt.fixed(p.L0, 3);
  $('#param-A').textContent = fmt.fixed(p.A, 3);
  $('#param-alpha').textContent = fmt.fixed(p.alpha, 3);
  $('#param-C').textContent = fmt.fixed(p.C, 3);
  $('#param-lambda').textContent = p.lambda === undefined ? '–' : String(Number(p.lambda.toPrecision(6)));
  for (const key of LAWS.annealing.params) {
    const el = $(`#param-${key}`);
    if (Number.isFinite(p[key])) el.dataset.value = String(p[key]);
    else delete el.dataset.value;
    el.title = Number.isFinite(p[key]) ? String(p[key]) : '';
  }
  $('#fit-origin').textContent = origin || '';
  $('#fit-settings').textContent = s
    ? `λ ${s.fitLambda ? 'fitted' : 'fixed'} · warmup ${fmt.steps(s.warmupSteps)} steps counted at the ${s.warmupConvention === 'peak' ? 'peak LR (the paper’s convention)' : 'LR as run'} · Huber δ ${s.huberDelta}`
    : 'Load curves and fit, or enter parameters by hand.';
}

/**
 * renderMetrics fills #metrics-table from fit responses: fits is [{law, label, response}], one per
 * law fitted (a row group per law and role when there are two).
 */
function renderMetrics(fits, colors) {
  const body = $('#metrics-table tbody');
  body.replaceChildren();
  const any = fits.length > 0;
  $('#metrics-empty').hidden = any;
  $('#metrics-table').hidden = !any;
  for (const { law, label, response } of fits) {
    const groups = [
      ['fit', 'Fitted curves', response.fitMetrics],
      ['validate', 'Held-out curves (predicted)', response.validateMetrics],
    ];
    for (const [role, title, mean] of groups) {
      const rows = response.curves.filter((c) => c.role === role);
      if (!rows.length) continue;
      body.append(h('tr', { class: 'group' }, h('th', { colspan: METRICS.length + 2, scope: 'rowgroup', text: fits.length > 1 ? `${label} · ${title}` : title })));
      for (const c of rows) {
        body.append(h('tr', { dataset: { curveName: c.name, role, law } },
          h('th', { scope: 'row' }, h('span', { class: 'swatch', style: { background: colors.get(c.name) || 'transparent' } }), c.name),
          h('td', { class: 'num', text: String(c.metrics?.points ?? (c.predicted ? c.predicted.length : '')) }),
          METRICS.map(([key, , , digits]) => metricCell(key, c.metrics && c.metrics[key], digits))));
      }
      if (mean) {
        body.append(h('tr', { class: 'mean', dataset: { summary: role, law } },
          h('th', { scope: 'row', text: `mean of ${rows.length}` }),
          h('td'),
          METRICS.map(([key, , , digits]) => metricCell(key, mean[key], digits))));
      }
    }
  }
}

const lawLabel = (m) => (LAWS[m] ? LAWS[m].label : m);

/** renderValidation fills #validate-table from a validation (engine.validate): held-out errors per curve and law. */
function renderValidation(result, colors) {
  $('#validate-result').hidden = !result;
  if (!result) return;
  const laws = result.summaries.map((s) => s.law);
  const keys = [['PredE', 'PredE', 3], ['WorstE', 'WorstE', 3], ['FinalErr', 'FinalErr', 3], ['R2', 'R²', 5]];
  $('#validate-table thead').replaceChildren(h('tr', {},
    h('th', { scope: 'col', text: 'held-out curve' }),
    laws.flatMap((law) => keys.map(([, label]) => h('th', { scope: 'col', class: 'num', text: laws.length > 1 ? `${label} (${lawLabel(law)})` : label })))));
  const curves = [...new Set(result.rows.map((r) => r.curve))];
  // data-model names the law (the tests' hook).
  const cell = (row, key, digits) => h('td', { class: 'num', dataset: { model: row.law, metric: key, value: Number.isFinite(row.metrics?.[key]) ? String(row.metrics[key]) : '' }, text: fmt.sig(row.metrics?.[key], digits) });
  const body = curves.map((name) => h('tr', { dataset: { curveName: name } },
    h('th', { scope: 'row' }, h('span', { class: 'swatch', style: { background: colors.get(name) || 'transparent' } }), name),
    laws.flatMap((law) => {
      const row = result.rows.find((r) => r.curve === name && r.law === law) || { law };
      return keys.map(([key, , digits]) => cell(row, key, digits));
    })));
  body.push(h('tr', { class: 'mean', dataset: { summary: 'validate' } },
    h('th', { scope: 'row', text: `mean of ${curves.length}` }),
    laws.flatMap((law) => {
      const sum = result.summaries.find((x) => x.law === law);
      return keys.map(([key, , digits]) => cell({ law, metrics: sum.mean }, key, digits));
    })));
  $('#validate-table tbody').replaceChildren(...body);
  $('#validate-note').textContent = result.summaries.map((x) => `${lawLabel(x.law)}: ${Math.round(x.bandLevel * 100)}% of held-out points within ±${fmt.sig(x.bandHalfWidth * 100, 3)}% of the prediction`).join(' · ')
    + '. Each curve marked fit is left out in turn, the law fitted on the others and the left-out curve predicted. The band is drawn around the annealing law’s curves.';
}

function metricCell(key, value, digits) {
  return h('td', { class: 'num', dataset: { metric: key, value: Number.isFinite(value) ? String(value) : '' }, text: fmt.sig(value, digits) });
}

/** renderMetricsHead builds the table head once. */
function renderMetricsHead() {
  $('#metrics-table thead').replaceChildren(h('tr', {},
    h('th', { scope: 'col', text: 'curve' }),
    h('th', { scope: 'col', class: 'num', text: 'points' }),
    METRICS.map(([, label, title]) => h('th', { scope: 'col', class: 'num', title, text: label }))));
}
