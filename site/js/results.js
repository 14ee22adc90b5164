// The fitted law in numbers and the metrics table (fit and validate curves apart, with means).
import { $, h } from './dom.js';
import * as fmt from './format.js';

const METRICS = [
  ['R2', 'R²', 'coefficient of determination', 5],
  ['MAE', 'MAE', 'mean absolute error', 4],
  ['RMSE', 'RMSE', 'root mean square error', 4],
  ['PredE', 'PredE', 'mean relative error |observed − law| / observed', 3],
  ['WorstE', 'WorstE', 'largest relative error', 3],
];

/** renderParams shows the equation with its numbers, or dashes before any fit. */
export function renderParams(current, origin) {
  const p = current ? current.params : {};
  const s = current ? current.settings : null;
  $('#param-L0').textContent = fmt.fixed(p.L0, 3);
  $('#param-A').textContent = fmt.fixed(p.A, 3);
  $('#param-alpha').textContent = fmt.fixed(p.alpha, 3);
  $('#param-C').textContent = fmt.fixed(p.C, 3);
  $('#param-lambda').textContent = p.lambda === undefined ? '–' : String(Number(p.lambda.toPrecision(6)));
  for (const key of ['L0', 'A', 'alpha', 'C', 'lambda']) {
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
export function renderMetrics(fits, colors) {
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

const LAW_LABELS = { annealing: 'annealing law', 'multi-power': 'Multi-Power Law' };

/** renderValidation fills #validate-table from a `validate` answer: held-out errors per curve and law. */
export function renderValidation(result, colors) {
  $('#validate-result').hidden = !result;
  if (!result) return;
  const models = result.summaries.map((s) => s.model);
  const keys = [['PredE', 'PredE', 3], ['WorstE', 'WorstE', 3], ['FinalErr', 'FinalErr', 3], ['R2', 'R²', 5]];
  $('#validate-table thead').replaceChildren(h('tr', {},
    h('th', { scope: 'col', text: 'held-out curve' }),
    models.flatMap((m) => keys.map(([, label]) => h('th', { scope: 'col', class: 'num', text: models.length > 1 ? `${label} (${LAW_LABELS[m] || m})` : label })))));
  const curves = [...new Set(result.rows.map((r) => r.curve))];
  const cell = (m, key, digits) => h('td', { class: 'num', dataset: { model: m.model || m, metric: key, value: Number.isFinite(m.metrics?.[key]) ? String(m.metrics[key]) : '' }, text: fmt.sig(m.metrics?.[key], digits) });
  const body = curves.map((name) => h('tr', { dataset: { curveName: name } },
    h('th', { scope: 'row' }, h('span', { class: 'swatch', style: { background: colors.get(name) || 'transparent' } }), name),
    models.flatMap((model) => {
      const row = result.rows.find((r) => r.curve === name && r.model === model) || { model };
      return keys.map(([key, , digits]) => cell(row, key, digits));
    })));
  body.push(h('tr', { class: 'mean', dataset: { summary: 'validate' } },
    h('th', { scope: 'row', text: `mean of ${curves.length}` }),
    models.flatMap((model) => {
      const sum = result.summaries.find((x) => x.model === model);
      return keys.map(([key, , digits]) => cell({ model, metrics: sum.mean }, key, digits));
    })));
  $('#validate-table tbody').replaceChildren(...body);
  $('#validate-note').textContent = result.summaries.map((x) => `${LAW_LABELS[x.model] || x.model}: ${Math.round(x.bandLevel * 100)}% of held-out points within ±${fmt.sig(x.bandHalfWidth * 100, 3)}% of the prediction`).join(' · ')
    + '. Each curve marked fit is left out in turn, the law fitted on the others and the left-out curve predicted. The band is drawn around the annealing law’s curves.';
}

function metricCell(key, value, digits) {
  return h('td', { class: 'num', dataset: { metric: key, value: Number.isFinite(value) ? String(value) : '' }, text: fmt.sig(value, digits) });
}

/** metricsHeader builds the table head once. */
export function renderMetricsHead() {
  $('#metrics-table thead').replaceChildren(h('tr', {},
    h('th', { scope: 'col', text: 'curve' }),
    h('th', { scope: 'col', class: 'num', text: 'points' }),
    METRICS.map(([, label, title]) => h('th', { scope: 'col', class: 'num', title, text: label }))));
}
