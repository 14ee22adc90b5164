// The results panel: each law's equation with its numbers (from lawcore's formula) and where
// they come from, whether they are stale, what "auto" picked, the metrics table (fit and
// validate curves apart, with means, one group per law; relative errors in percent) and the
// leave-one-schedule-out table.
import { $, h } from './dom.js';
import * as fmt from '../common/format.js';
import { watch } from '../state/store.js';
import { LAWS } from '../engine/schema.js';
import { lawsOf } from '../state/settings.js';
import { equationLines, paramsIn } from '../results/equation.js';
import { paramsOf, shownFits, lawTitle, lawsWithParams, labelsOf } from '../state/selectors.js';

/**
 * warmupsText says the warmups the curves are counted with: a schedule's own (an LR column's
 * is the one it shows), else the setting's: "warmup 500 steps", or "warmups of 500 and 2,000
 * steps (each run's own)".
 */
function warmupsText(curves, setting) {
  const own = (sc) => (sc && sc.kind === 'concat' ? own((sc.segments || [])[0]) : sc && sc.warmup > 0 ? sc.warmup : 0);
  const used = [...new Set(curves.map((c) => own(c.schedule) || setting))].sort((a, b) => a - b);
  if (used.length <= 1) return `warmup ${fmt.steps(used.length ? used[0] : setting)} steps`;
  return `warmups of ${used.slice(0, -1).map(fmt.steps).join(', ')} and ${fmt.steps(used[used.length - 1])} steps (each run’s own)`;
}

/**
 * showResults draws the results panel from the store; on.fitFrom(names, from) sets the window
 * of the curves named to start at step from and fits again (a warning's one-click fix).
 */
export function showResults(store, on = { fitFrom: () => {} }) {
  renderMetricsHead();
  watch(store, ['fits', 'manual', 'stale', 'curves', 'validation', 'band', 'settings', 'example'], (state) => {
    renderEquations(state);
    const fits = shownFits(state);
    $('#stale-note').hidden = !(fits.length && state.stale);
    renderWarnings(state, fits, on);
    renderAuto(fits.map((f) => f.response.auto).find(Boolean), labelsOf(state));
    const colors = new Map(state.curves.map((c) => [c.name, c.color]));
    const labels = labelsOf(state);
    renderMetrics(
      fits.map((f) => ({ law: f.law, label: lawTitle(f.law), response: f.response })),
      colors,
      labels,
    );
    renderValidation(state.validation, state.band, colors, labels);
  });
}

/**
 * shownLaws are the laws whose equations show: those with parameters, then those the settings
 * will fit that have none yet (their formulas with dashes, so that a law just chosen shows).
 */
function shownLaws(state) {
  const withParams = lawsWithParams(state);
  const chosen =
    state.settings.auto && withParams.length
      ? []
      : lawsOf(state.settings).filter((law) => LAWS[law] && !withParams.includes(law));
  return [...withParams, ...chosen];
}

/** originText says where a law's parameters come from: a fit (on which curves, how), a link, or by hand. */
function originText(state, law) {
  if (state.manual)
    return state.manual.from === 'link' ? 'Parameters from a shared link.' : 'Parameters entered by hand.';
  const fit = state.fits[law];
  if (!fit) return '';
  const r = fit.response;
  const labels = labelsOf(state);
  const fitNames = r.curves.filter((c) => c.role === 'fit').map((c) => labels.get(c.name) ?? c.name);
  return (
    `Fitted on ${fitNames.join(', ')} · objective ${fmt.sig(r.objective, 3)}`
    // a search of the law's own (the release's procedure) has no starts
    + (r.search
      ? ` · ${r.search.starts ? `${r.search.starts} start${r.search.starts === 1 ? '' : 's'}, ` : ''}${r.search.evaluations} evaluations`
      : '')
    + (Number.isFinite(r.elapsedMs) ? ` · took ${fmt.ms(r.elapsedMs)}` : '')
  );
}

/** paramText writes a parameter's value: three decimals where that reads well, else four significant digits. */
function paramText(name, x) {
  if (!Number.isFinite(x)) return '–';
  if (name === 'lambda') return String(Number(x.toPrecision(6)));
  return Math.abs(x) >= 0.01 && Math.abs(x) < 1000 ? fmt.fixed(x, 3) : fmt.sig(x, 4);
}

/**
 * renderEquations shows each law's equation with its numbers (dashes before any fit), where
 * they come from, and the settings they were fitted with. The first law's parameters carry
 * the ids param-<name> (the tests' hook, and the page's first answer).
 */
function renderEquations(state) {
  const laws = shownLaws(state);
  const blocks = laws.map((law, k) => {
    const { params: names, symbols, formula, meanings } = LAWS[law];
    const current = paramsOf(state, law);
    const p = current ? current.params : {};
    const param = (name) => {
      const x = p[name];
      return h('span', {
        class: 'param',
        id: k === 0 ? `param-${name}` : null,
        'data-testid': k === 0 ? `param-${name}` : null,
        dataset: { param: name, ...(Number.isFinite(x) ? { value: String(x) } : {}) },
        title: `${symbols[name]}: ${meanings[name] || name}${Number.isFinite(x) ? ` = ${x}` : ''}`,
        text: paramText(name, x),
      });
    };
    const draw = (parts) =>
      parts.flatMap((part) => {
        if (part.param) return param(part.param);
        if (part.sup) return h('sup', {}, draw(part.sup));
        return part.sub !== undefined ? [part.text, h('sub', { text: part.sub })] : part.text;
      });
    const lines = equationLines(formula, symbols);
    const inFormula = paramsIn(lines);
    const rest = names.filter((name) => !inFormula.includes(name));
    const fit = state.manual ? null : state.fits[law];
    const intervals = fit && fit.response.intervals ? fit.response.intervals : null;
    return h(
      'div',
      { class: 'equation-block', dataset: { law } },
      h('p', {
        class: 'equation-law',
        text: lawTitle(law) + (laws.length > 1 && k > 0 ? ' (dotted in the charts)' : ''),
      }),
      lines.map((line, i) =>
        h(
          'p',
          { class: i ? 'equation sub-equation' : 'equation' },
          draw(line),
          i === 0 && rest.length
            ? rest.map((name) => h('span', { class: 'lambda' }, `${symbols[name]} = `, param(name)))
            : null,
        ),
      ),
      intervals ? intervalLine(names, symbols, p, intervals) : null,
      h('p', { class: 'muted fit-origin', text: originText(state, law) }),
    );
  });
  $('#equation').replaceChildren(...blocks);
  const current = laws.map((law) => paramsOf(state, law)).find(Boolean);
  const s = current ? current.settings : null;
  const hasLambda = laws.some((law) => LAWS[law].params.includes('lambda'));
  const used = s
    ? [
        hasLambda ? `λ ${s.fitLambda ? 'fitted' : 'fixed'}` : '',
        `${warmupsText(state.curves, s.warmupSteps)} counted at the ${s.warmupConvention === 'peak' ? 'peak LR (the paper’s convention)' : 'LR as run'}`,
        `Huber δ ${s.huberDelta}`,
        s.priors === 'none' ? 'no priors' : 'weakly informative priors',
      ]
        .filter(Boolean)
        .join(' · ')
    : state.curves.length
      ? `${state.curves.length} curve${state.curves.length === 1 ? '' : 's'} loaded: press Fit${state.settings.auto ? ' (auto picks the law and its settings)' : ''}.`
      : 'Load curves and fit, or enter parameters by hand.';
  const fitted = current && !state.manual ? state.fits[laws.find((law) => paramsOf(state, law))] : null;
  // Where the setting comes from: auto's choice, or the example's paper (auto off, and said).
  const how = !fitted
    ? ''
    : fitted.response.members
      ? `Picked by auto: the average of ${fitted.response.members.length} laws, weighted by how well each predicts held-out data (the curves drawn are the average's; the parameters above are its heaviest member's, the ${LAWS[fitted.law].label}): `
      : fitted.response.auto
        ? `Picked by auto: the ${LAWS[fitted.law].label}, `
        : state.example && !state.settings.auto
          ? `The paper’s setting, which ${state.example.title} keeps (auto is off; your own curves are fitted with auto): `
          : 'As set: ';
  $('#fit-settings').textContent = how + used;
}

/**
 * intervalLine lists each fitted parameter's 90% interval beside its value (the jackknife
 * over blocks of points lawcore computes): "L0 = 2.628 (90%: 2.611 to 2.645)".
 */
function intervalLine(names, symbols, params, intervals) {
  const items = names
    .filter((name) => intervals[name])
    .map((name) => {
      const { low, high } = intervals[name];
      return h(
        'span',
        {
          class: 'interval',
          dataset: { param: name, low: String(low), high: String(high), value: String(params[name]) },
        },
        `${symbols[name]} = ${paramText(name, params[name])} (${paramText(name, low)} to ${paramText(name, high)})`,
      );
    });
  if (!items.length) return null;
  const joined = items.flatMap((x, i) => (i ? [' · ', x] : [x]));
  return h(
    'p',
    {
      class: 'muted intervals',
      title:
        'each fitted parameter’s 90% interval: the law refitted ten times, each time without one block of consecutive points of every curve (a jackknife)',
    },
    '90% intervals: ',
    ...joined,
  );
}

/**
 * renderWarnings says in words what to know before trusting the fit shown (lawcore's warnings:
 * a parameter on a bound, a curve fitted poorly, held-out error far above in-sample error),
 * each with its likely cause and, where a window would fix it, a button that sets it and fits
 * again.
 */
function renderWarnings(state, fits, on) {
  const box = $('#fit-warnings');
  const labels = labelsOf(state);
  const warnings = fits.flatMap((f) => (f.response.warnings || []).map((w) => ({ ...w, law: f.law })));
  box.hidden = !warnings.length;
  const fitNames = new Set(state.curves.filter((c) => c.role === 'fit').map((c) => c.name));
  box.replaceChildren(
    ...warnings.map((w) => {
      // a sentence's first word up, but not a parameter's symbol (β stays β, not Β); curves by
      // the names the page shows (the message as lawcore wrote it on hover)
      const message = shownNames(w.message, labels);
      const text = /^[a-z]/.test(message) ? message.charAt(0).toUpperCase() + message.slice(1) : message;
      // A window fixes it: the curve named, else every fit curve with points before the step.
      const names =
        w.from > 0
          ? w.curve && fitNames.has(w.curve)
            ? [w.curve]
            : state.curves
                .filter((c) => fitNames.has(c.name) && c.steps[0] < w.from && c.steps[c.steps.length - 1] > w.from)
                .map((c) => c.name)
          : [];
      return h(
        'p',
        {
          class: 'fit-warning',
          role: 'note',
          title: message === w.message ? null : w.message,
          dataset: { kind: w.kind, param: w.param || '', curve: w.curve || '', from: w.from ? String(w.from) : '' },
        },
        h('span', {
          text: `⚠ ${fits.length > 1 ? `${lawTitle(w.law)}: ` : ''}${text}${/[.?!]$/.test(text) ? '' : '.'}`,
        }),
        names.length && !state.stale
          ? [
              ' ',
              h('button', {
                type: 'button',
                class: 'small fit-from',
                title: `Fit ${names.join(', ')} from step ${fmt.steps(w.from)} (its window), leaving the steps before out of the fit`,
                text: `Fit from step ${fmt.steps(w.from)}`,
                on: { click: () => on.fitFrom(names, w.from) },
              }),
            ]
          : null,
      );
    }),
  );
}

/**
 * shownNames is lawcore's text with each curve named as the page shows it: its quoted full name
 * ("ann124-0.2_..._seed1337") as its label ("ann124-0.2 0.2 25K").
 */
function shownNames(text, labels) {
  let out = text;
  for (const [name, label] of labels)
    if (label !== name) out = out.split(JSON.stringify(name)).join(JSON.stringify(label));
  return out;
}

/**
 * renderAuto says what an auto fit picked and why, with every candidate's held-out error beside
 * its in-sample error: a law that fits well and predicts badly shows it there.
 */
function renderAuto(auto, labels) {
  const note = $('#auto-note');
  note.hidden = !auto;
  if (!auto) return note.replaceChildren();
  const pct = (x) => (Number.isFinite(x) ? `${fmt.sig(100 * x, 3)}%` : '–');
  const members = auto.candidates.filter((c) => c.weight > 0);
  const picked =
    members.length > 1
      ? `Auto predicts with the average of ${members.length} laws.`
      : `Auto picked the ${auto.chosen.label}.`;
  const rows = auto.candidates.map((c) =>
    h(
      'tr',
      { class: c.weight > 0 ? 'chosen' : '', dataset: { candidate: c.label, weight: String(c.weight || 0) } },
      h('th', { scope: 'row', text: c.label }),
      h('td', { class: 'num', text: c.weight > 0 ? `${Math.round(100 * c.weight)}%` : '' }),
      h('td', {
        class: 'num',
        dataset: { metric: 'heldOut', value: c.error ? '' : String(c.heldOut) },
        text: c.error ? '–' : `${pct(c.heldOut)} ± ${pct(c.stdErr)}`,
      }),
      h('td', {
        class: 'num',
        dataset: { metric: 'inSample', value: c.error ? '' : String(c.inSample) },
        text: c.error ? '–' : pct(c.inSample),
      }),
      h('td', { class: 'num', text: String(c.free) }),
      h('td', { text: c.error || '' }),
    ),
  );
  note.replaceChildren(
    h('p', {
      class: 'hint',
      text: shownNames(`${picked} ${auto.reason.charAt(0).toUpperCase()}${auto.reason.slice(1)}`, labels),
    }),
    h(
      'details',
      {},
      h('summary', {
        text: `Every candidate: held-out error (${auto.design}, ${auto.folds.length} folds) beside in-sample error`,
      }),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'metrics auto-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col', text: 'candidate' }),
              h('th', {
                scope: 'col',
                class: 'num',
                title: 'its share of the prediction: 100% for the one law picked, or its weight in the average',
                text: 'weight',
              }),
              h('th', {
                scope: 'col',
                class: 'num',
                title: 'mean relative error of the held-out points, over the folds, ± its standard error',
                text: 'held-out PredE',
              }),
              h('th', {
                scope: 'col',
                class: 'num',
                title: 'mean relative error of the same fits on the points they were fitted to',
                text: 'in-sample PredE',
              }),
              h('th', { scope: 'col', class: 'num', title: 'parameters fitted', text: 'fitted' }),
              h('th', { scope: 'col', text: '' }),
            ),
          ),
          h('tbody', {}, rows),
        ),
      ),
      h('p', { class: 'hint', text: `Held out: ${auto.folds.map((f) => shownNames(f, labels)).join('; ')}.` }),
    ),
  );
}

const METRICS = [
  [
    'R2',
    'R²',
    'coefficient of determination: 1 − (squared errors) / (spread of the observed loss); 1 is a perfect fit',
    5,
  ],
  ['MAE', 'MAE', 'mean absolute error of the loss, in loss units', 4],
  ['RMSE', 'RMSE', 'root mean square error of the loss, in loss units', 4],
  ['PredE', 'PredE', 'mean relative error |observed − law| / observed, in percent', 3],
  ['WorstE', 'WorstE', 'largest relative error |observed − law| / observed, in percent', 3],
];

/** PERCENT_METRICS are relative errors: shown as percentages (their data-value stays the fraction). */
const PERCENT_METRICS = new Set(['PredE', 'WorstE', 'FinalErr']);

/**
 * metricText writes a metric: a relative error as a percentage (FinalErr signed), the others with
 * digits significant digits.
 */
function metricText(key, value, digits) {
  if (!PERCENT_METRICS.has(key)) return fmt.sig(value, digits);
  const text = fmt.pct(value, digits);
  return key === 'FinalErr' && value > 0 ? `+${text}` : text;
}

/**
 * renderMetrics fills #metrics-table from fit responses: fits is [{law, label, response}], one per
 * law fitted (a row group per law and role when there are two).
 */
function renderMetrics(fits, colors, labels) {
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
      body.append(
        h(
          'tr',
          { class: 'group' },
          h('th', {
            colspan: METRICS.length + 3,
            scope: 'rowgroup',
            text: fits.length > 1 ? `${label} · ${title}` : title,
          }),
        ),
      );
      for (const c of rows) {
        body.append(
          h(
            'tr',
            { dataset: { curveName: c.name, role, law } },
            nameHeader(c.name, colors, labels),
            h('td', { class: 'num', text: String(c.metrics?.points ?? (c.predicted ? c.predicted.length : '')) }),
            METRICS.map(([key, , , digits]) => metricCell(key, c.metrics && c.metrics[key], digits)),
            h('td', { class: 'num' }),
          ),
        );
      }
      if (mean) {
        // Held-out error beside the in-sample fit: auto's held-out folds for the fitted curves,
        // and the curves marked validate, which the fit never saw.
        const heldOut = role === 'fit' ? response.auto?.averaged || chosenScore(response.auto)?.heldOut : mean.PredE;
        body.append(
          h(
            'tr',
            { class: 'mean', dataset: { summary: role, law } },
            h('th', { scope: 'row', text: `mean of ${rows.length}` }),
            h('td'),
            METRICS.map(([key, , , digits]) => metricCell(key, mean[key], digits)),
            h('td', {
              class: 'num',
              dataset: { metric: 'heldOutPredE', value: Number.isFinite(heldOut) ? String(heldOut) : '' },
              title: heldOutTitle(role, response.auto),
              text: Number.isFinite(heldOut) ? fmt.pct(heldOut, 3) : '–',
            }),
          ),
        );
      }
    }
  }
}

/** heldOutTitle says what the held-out PredE beside the mean of the fitted (role 'fit') or the held-out curves is. */
function heldOutTitle(role, auto) {
  if (role !== 'fit') return 'these curves are held out: their PredE is held-out error';
  if (auto) return 'PredE of the steps auto held out of its fits (its folds), against the in-sample PredE beside';
  return 'fit with auto to see the error on held-out steps';
}

const lawLabel = (m) => (LAWS[m] ? LAWS[m].label : m);

/** renderValidation fills #validate-table from a validation (engine.validate): held-out errors per curve and law. */
function renderValidation(result, band, colors, labels) {
  $('#validate-result').hidden = !result;
  if (!result) return;
  const laws = result.summaries.map((s) => s.law);
  const keys = [
    ['PredE', 'PredE', 3],
    ['WorstE', 'WorstE', 3],
    ['FinalErr', 'FinalErr', 3],
    ['R2', 'R²', 5],
  ];
  const titles = {
    PredE: METRICS[3][2],
    WorstE: METRICS[4][2],
    FinalErr:
      'the signed relative error (law − observed) / observed at the last observed step, in percent; its mean is of absolute values',
    R2: METRICS[0][2],
  };
  $('#validate-table thead').replaceChildren(
    h(
      'tr',
      {},
      h('th', { scope: 'col', text: 'held-out curve' }),
      laws.flatMap((law) =>
        keys.map(([key, label]) =>
          h('th', {
            scope: 'col',
            class: 'num',
            title: titles[key],
            text: laws.length > 1 ? `${label} (${lawLabel(law)})` : label,
          }),
        ),
      ),
    ),
  );
  const curves = [...new Set(result.rows.map((r) => r.curve))];
  // data-model names the law (the tests' hook).
  const cell = (row, key, digits) =>
    h('td', {
      class: 'num',
      dataset: {
        model: row.law,
        metric: key,
        value: Number.isFinite(row.metrics?.[key]) ? String(row.metrics[key]) : '',
      },
      text: metricText(key, row.metrics?.[key], digits),
    });
  const body = curves.map((name) =>
    h(
      'tr',
      { dataset: { curveName: name } },
      nameHeader(name, colors, labels),
      laws.flatMap((law) => {
        const row = result.rows.find((r) => r.curve === name && r.law === law) || { law };
        return keys.map(([key, , digits]) => cell(row, key, digits));
      }),
    ),
  );
  body.push(
    h(
      'tr',
      { class: 'mean', dataset: { summary: 'validate' } },
      h('th', { scope: 'row', text: `mean of ${curves.length}` }),
      laws.flatMap((law) => {
        const sum = result.summaries.find((x) => x.law === law);
        // lawcore's mean of FinalErr averages the signed errors, where over- and under-predictions
        // cancel: the mean shown is of their absolute values, from the rows.
        const finals = result.rows
          .filter((r) => r.law === law && Number.isFinite(r.metrics?.FinalErr))
          .map((r) => Math.abs(r.metrics.FinalErr));
        const meanAbsFinal = finals.length ? finals.reduce((a, b) => a + b, 0) / finals.length : NaN;
        return keys.map(([key, , digits]) =>
          key === 'FinalErr'
            ? h('td', {
                class: 'num',
                title: 'mean of |FinalErr|',
                dataset: { model: law, metric: key, value: Number.isFinite(meanAbsFinal) ? String(meanAbsFinal) : '' },
                text: fmt.pct(meanAbsFinal, digits),
              })
            : cell({ law, metrics: sum.mean }, key, digits),
        );
      }),
    ),
  );
  $('#validate-table tbody').replaceChildren(...body);
  $('#validate-note').textContent =
    result.summaries
      .map(
        (x) =>
          `${lawTitle(x.law)}: ${Math.round(x.bandLevel * 100)}% of held-out points within ±${fmt.sig(x.bandHalfWidth * 100, 3)}% of the prediction`,
      )
      .join(' · ')
    + `. Each curve marked fit is left out in turn, the ${laws.length > 1 ? 'laws' : lawLabel(laws[0])} fitted on the others and the left-out curve predicted.`
    + (band ? ` The band is drawn around the ${lawLabel(band.law)}’s curves.` : '');
}

/** nameHeader is a table row's header: the curve's swatch and the name shown, its full name on hover. */
function nameHeader(name, colors, labels) {
  return h(
    'th',
    { scope: 'row', class: 'name-cell', title: name },
    h('span', { class: 'swatch', style: { background: colors.get(name) || 'transparent' } }),
    labels.get(name) ?? name,
  );
}

function metricCell(key, value, digits) {
  return h('td', {
    class: 'num',
    dataset: { metric: key, value: Number.isFinite(value) ? String(value) : '' },
    text: metricText(key, value, digits),
  });
}

/** renderMetricsHead builds the table head once. */
function renderMetricsHead() {
  $('#metrics-table thead').replaceChildren(
    h(
      'tr',
      {},
      h('th', { scope: 'col', text: 'curve' }),
      h('th', { scope: 'col', class: 'num', text: 'points' }),
      METRICS.map(([, label, title]) => h('th', { scope: 'col', class: 'num', title, text: label })),
      h('th', {
        scope: 'col',
        class: 'num',
        title:
          'mean relative error on data the fit did not see (auto’s held-out steps; curves marked validate), in percent: a law that fits well and predicts badly shows it here',
        text: 'held-out PredE',
      }),
    ),
  );
}

/** chosenScore is the score of the candidate an auto answer picked (its held-out and in-sample errors), or null. */
function chosenScore(auto) {
  return auto ? auto.candidates.find((c) => c.label === auto.chosen.label) || null : null;
}
