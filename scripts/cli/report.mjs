// Readable reports of lawcore's answers: the curves an import found, a fit, an auto fit's
// candidates, a validation, the laws, an analysis.

import { cell, isNum, loss, num, percent, plural, r2, seconds, table, wrap } from './text.mjs';

/** stepRange writes a curve's first and last steps: "1000–20000". */
function stepRange(first, last) {
  return isNum(first) ? `${num(first)}–${num(last)}` : '—';
}

/** section joins the non-empty parts of a report with blank lines. */
function section(...parts) {
  return `${parts.filter((p) => p && p.length).join('\n\n')}\n`;
}

/** notesBlock lists notes under a heading ("" without notes). */
export function notesBlock(notes, heading = 'notes') {
  if (!notes || notes.length === 0) return '';
  return `${heading}:\n${notes.map((n) => `  - ${n}`).join('\n')}`;
}

/**
 * importReport lists the curves of an import answer: name, format, points, steps, loss column,
 * learning rates, files; then its notes. An answer with an ambiguity asks its question instead,
 * listing the choices and how to make them.
 */
export function importReport(result, columns, inputs) {
  const what = inputs.length === 1 ? inputs[0] : `${plural(inputs.length, 'input')} (${inputs.join(', ')})`;
  if (result.ambiguity)
    return section(`${what}: ${result.format}`, ambiguityText(result.ambiguity), notesBlock(result.notes));
  const rows = result.curves.map((c, i) => {
    const steps = columns[i] && columns[i].steps;
    return [
      c.name,
      result.format,
      String(c.points),
      steps && steps.length ? stepRange(steps[0], steps[steps.length - 1]) : '—',
      c.hasLoss ? c.metric || c.source.loss || '' : '(none)',
      c.hasLR ? `yes (${c.source.lr})` : 'no',
      (c.files && c.files.length ? c.files : [c.file]).join(', '),
    ];
  });
  const head = `${what}: ${result.format}, ${plural(result.curves.length, 'curve')}`;
  const tab = table(['curve', 'format', 'points', 'steps', 'loss column', 'LR', 'files'], rows, { right: [2] });
  return section(head, tab, notesBlock(result.notes));
}

/** ambiguityText asks an import's question: the columns or runs to choose from, and the options that choose. */
export function ambiguityText(amb) {
  const parts = [amb.message];
  if (amb.columns && amb.columns.length) {
    const rows = amb.columns.map((o) => [
      o.name,
      o.summary ? 'summary' : o.kind || '',
      String(o.points),
      stepRange(o.firstStep, o.lastStep),
    ]);
    parts.push(table(['column', 'kind', 'points', 'steps'], rows, { right: [2] }));
    // lawcore's default (never a summary; a validation loss where there is one) and why
    if (amb.reason) parts.push(amb.reason);
    parts.push(
      `Choose the loss column with --column NAME (for example --column ${quoteArg(amb.default || amb.columns[0].name)}).`,
    );
  }
  if (amb.runs && amb.runs.length) {
    const rows = amb.runs.map((o) => [o.name, String(o.points), stepRange(o.firstStep, o.lastStep)]);
    parts.push(table(['run', 'points', 'steps'], rows, { right: [1] }));
    parts.push(
      `Choose runs with --runs a,b (for example --runs ${quoteArg(
        amb.runs
          .map((r) => r.name)
          .slice(0, 2)
          .join(','),
      )}).`,
    );
  }
  return parts.join('\n\n');
}

/** quoteArg quotes a command-line argument for a shell when it needs it. */
function quoteArg(s) {
  return /^[\w.,/:=@+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** lawHeader writes a law's name, title and formula. */
function lawHeader(spec, name) {
  if (!spec) return `law: ${name}`;
  return `law: ${spec.name} (${spec.title})\n  ${spec.formula}`;
}

/** settingsLine writes a fit's settings in words. */
function settingsLine(settings, law) {
  const parts = [];
  const lambda = settings.lambda;
  if (law && law.params.some((p) => p.name === 'lambda')) parts.push(`λ ${lambda === 'fit' ? 'fitted' : num(lambda)}`);
  const conv = settings.warmupConvention === 'actual' ? 'as run' : 'at the peak';
  parts.push(`warmup counted ${conv} (warmupSteps ${settings.warmupSteps})`);
  parts.push(`Huber δ ${num(settings.huberDelta)}`);
  if (settings.priors) parts.push(settings.priors === 'none' ? 'no priors' : 'weakly informative priors');
  return `settings: ${parts.join(', ')}`;
}

/** paramsTable lists a fit's parameters with their symbols, values and meanings; held ones are marked. */
function paramsTable(params, held, law, intervals) {
  const specs = law ? law.params : Object.keys(params).map((name) => ({ name, symbol: name, meaning: '' }));
  const interval = (name) =>
    intervals && intervals[name] ? `${num(intervals[name].low)} to ${num(intervals[name].high)}` : '';
  const rows = specs
    .filter((p) => p.name in params)
    .map((p) => [p.symbol, p.name, num(params[p.name]), held.includes(p.name) ? 'held' : interval(p.name), p.meaning]);
  return table(['symbol', 'parameter', 'value', intervals ? '90% interval' : '', 'meaning'], rows, { right: [2] });
}

/** metricsRow writes the metrics of a curve (or a mean over curves) as researchers read them. */
function metricsRow(name, role, m, size) {
  const row = [name, role, String(m.points ?? '')];
  if (size !== undefined) row.push(size ? num(size) : '');
  return [...row, r2(m.R2), percent(m.PredE), percent(m.WorstE), percent(m.FinalErr, { signed: true })];
}

/** curvesTable lists every curve's metrics, fit curves then validate curves, with the means. */
function curvesTable(res) {
  const sized = res.curves.some((c) => c.size);
  const rows = res.curves.map((c) => metricsRow(c.name, c.role, c.metrics, sized ? c.size : undefined));
  if (res.fitMetrics && res.curves.filter((c) => c.role === 'fit').length > 1)
    rows.push(metricsRow('(all fit curves)', '', res.fitMetrics, sized ? 0 : undefined));
  if (res.validateMetrics && res.curves.filter((c) => c.role === 'validate').length > 1) {
    rows.push(metricsRow('(all validate curves)', '', res.validateMetrics, sized ? 0 : undefined));
  }
  const head = ['curve', 'role', 'points', ...(sized ? ['size'] : []), 'R²', 'PredE', 'WorstE', 'final error'];
  return table(head, rows, { right: head.map((_, i) => i).filter((i) => i >= 2) });
}

/** predictionsTable lists the predicted final loss of each schedule, with its band when there is one. */
export function predictionsTable(predictions, band) {
  const rows = predictions.map((p) => {
    let final = loss(p.finalLoss);
    if (isNum(p.bandHalf)) final += ` ± ${p.bandHalf.toFixed(4)}`;
    return [p.name, num(p.total), final];
  });
  const title = band ? `predicted final loss (with the ${Math.round(100 * band.level)}% band)` : 'predicted final loss';
  // what the band holds: the parameters' spread, plausible laws, and the law's discrepancy,
  // learnt from held-out folds or the paper's prior (bandSource)
  const floor = band
    ? `\n  the band: the parameters' spread${band.alternatives && band.alternatives.length ? ', the laws the held-out data leave plausible' : ''} and the law's own error on unseen schedules (± ${percent(band.base)} within the fitted data, ${bandSource(band)})`
    : '';
  // lawcore's word on a schedule whose loss falls to 0 or below
  const warned = predictions.filter((p) => p.warning).map((p) => `${p.name}: ${p.warning}`);
  return (
    `${title}:\n`
    + table(['schedule', 'total steps', 'final loss'], rows, { right: [1], indent: '  ' })
    + floor
    + (warned.length ? `\n${notesBlock(warned, 'warnings')}` : '')
  );
}

/**
 * autoReport says what an auto fit chose (one law, or the average of several, each marked *
 * with its weight) and why, and lists every candidate's scores.
 */
function autoReport(auto) {
  const members = auto.candidates.filter((c) => c.weight > 0);
  const chosen =
    members.length > 1
      ? `the average of ${members.length} laws (held-out ${percent(auto.averaged)})`
      : auto.chosen.label;
  const rows = auto.candidates.map((c) => {
    const row = [
      c.weight > 0 ? '*' : '',
      c.label,
      c.weight > 0 ? `${Math.round(100 * c.weight)}%` : '',
      isNum(c.heldOut) && !c.error ? percent(c.heldOut) : '—',
    ];
    row.push(
      isNum(c.stdErr) && !c.error ? percent(c.stdErr) : '—',
      !c.error && isNum(c.inSample) ? percent(c.inSample) : '—',
    );
    return row;
  });
  const head = ['', 'candidate', 'weight', 'held-out', 'std err', 'in-sample'];
  const failed = auto.candidates.filter((c) => c.error).map((c) => `${c.label}: ${c.error}`);
  return section(
    `auto: chose ${chosen}\n${wrap(auto.reason, { indent: '  ' })}\n  held-out data: ${auto.design}, ${plural(auto.folds.length, 'fold')}`,
    table(head, rows, { right: [2, 3, 4, 5] }),
    notesBlock(failed, 'not scored'),
  ).trimEnd();
}

/**
 * fitReport is the readable report of a fit answer: the law, its settings and search, its
 * parameters, each curve's metrics, the auto choice (when there is one) and the predictions.
 */
export function fitReport(res, { law, predictions = [], notes = [] } = {}) {
  const s = res.search || {};
  const search = `search: ${s.strategy}, ${plural(s.starts, 'start')}, ${plural(s.evaluations, 'evaluation')}; objective ${num(res.objective)}; ${seconds(res.elapsedMs)}`;
  return section(
    [lawHeader(law, res.law), settingsLine(res.settings, law), search, res.note ? `note: ${res.note}` : '']
      .filter(Boolean)
      .join('\n'),
    notesBlock(
      (res.warnings || []).map((w) => w.message),
      'warnings',
    ),
    paramsTable(res.params, res.held || [], law, res.intervals),
    curvesTable(res),
    res.auto ? autoReport(res.auto) : '',
    predictions.length ? predictionsTable(predictions, res.band) : '',
    notesBlock(notes),
  );
}

/** validateReport lists each curve's held-out metrics under each law, and each law's mean and band. */
export function validateReport(res) {
  const rows = res.rows.map((r) => [
    r.curve,
    r.law,
    r2(r.metrics.R2),
    percent(r.metrics.PredE),
    percent(r.metrics.WorstE),
    percent(r.metrics.FinalErr, { signed: true }),
  ]);
  const sums = res.summaries.map((s) => [
    s.law,
    percent(s.mean.PredE),
    percent(s.mean.WorstE),
    `± ${percent(s.bandHalfWidth)}`,
    `${Math.round(100 * s.bandLevel)}%`,
  ]);
  return section(
    'each curve left out in turn and predicted from the others:',
    table(['curve', 'law', 'R²', 'PredE', 'WorstE', 'final error'], rows, { right: [2, 3, 4, 5] }),
    table(['law', 'mean PredE', 'mean WorstE', 'band', 'level'], sums, { right: [1, 2, 3, 4] }),
    seconds(res.elapsedMs),
  );
}

/** lawsReport lists the laws: name, title, formula, reference, convention, and the parameters. */
export function lawsReport(laws) {
  const blocks = laws.map((l) => {
    const rows = l.params.map((p) => [p.symbol, p.name, num(p.default), p.held ? 'held' : '', p.domain, p.meaning]);
    const conv = l.convention === 'actual' ? 'as run' : 'at the peak';
    return [
      `${l.name}: ${l.title}`,
      `  ${l.formula}`,
      `  warmup counted ${conv} by default; ${l.reference}`,
      table(['symbol', 'parameter', 'default', '', 'domain', 'meaning'], l.params.length ? rows : [], {
        right: [2],
        indent: '  ',
      }),
    ].join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

/** analysisReport writes an analysis answer's setup, table and note (the curves are in --json). */
export function analysisReport(name, res) {
  let setup = '';
  if (res.setup) {
    const { law, params, peak, warmup, warmupConvention } = res.setup;
    const values = Object.entries(params || {}).map(([k, v]) => `${k} ${num(v)}`);
    const counted = warmupConvention === 'actual' ? 'as run' : 'at the peak';
    setup = `setup: ${law} law, ${values.join(', ')}; peak ${num(peak)}, warmup ${warmup} counted ${counted}`;
  }
  const tab = res.table ? analysisTable(res.table) : '';
  const lowest = res.table ? lowestLossCell(res.table) : Infinity;
  const warning =
    lowest < 0
      ? `warning: a predicted loss is below zero (${num(lowest)}): these parameters at this peak LR are far outside what the law was fitted on, so the answer means little`
      : '';
  // the paper's claims: each with lawcore's verdict, before the table of their numbers
  const claims = Array.isArray(res.claims)
    ? [
        `claims: ${res.reproduced} of the ${res.checked} checked reproduced under the paper's Fig. 2 parameters`,
        ...res.claims.map((c) => `§${c.section} ${c.id} (${c.source}): ${c.verdict}`),
      ].join('\n')
    : '';
  return section(
    `analysis: ${name}`,
    setup,
    claims,
    tab,
    res.note ? `note: ${res.note}` : '',
    warning,
    '(--json gives every curve and series of the answer)',
  );
}

/** lossColumns says which of an analysis table's columns hold losses (their names say loss). */
const lossColumns = (columns) => columns.map((c) => /loss/i.test(c));

/** lowestLossCell is the lowest number in a table's loss columns (Infinity when there is none). */
function lowestLossCell({ columns, rows }) {
  const isLoss = lossColumns(columns);
  return Math.min(...rows.flatMap((r) => r.filter((v, j) => isLoss[j] && isNum(v))));
}

/** analysisTable lays out an analysis answer's table: losses to 4 decimals, other numbers to 4 digits. */
function analysisTable({ columns, rows }) {
  const isLoss = lossColumns(columns);
  const text = rows.map((r) => r.map((v, i) => (isLoss[i] && typeof v === 'number' ? loss(v) : cell(v))));
  return table(columns, text, { right: numericColumns(rows) });
}

/** numericColumns lists the columns whose values are all numbers (or missing). */
function numericColumns(rows) {
  if (!rows.length) return [];
  return rows[0].map((_, i) => i).filter((i) => rows.every((r) => r[i] === null || typeof r[i] === 'number'));
}

/** bandSource says where a band's discrepancy comes from: held-out folds, or the paper's figure. */
function bandSource(band) {
  if (band.folds > 0 && band.design === 'forecast')
    return "the paper's ~0.2% on unseen schedules, which forecasts of the one fit curve's own tail can adjust a little: they cannot show how far other schedules miss";
  if (band.folds > 0) return `learnt from ${band.folds} held-out folds`;
  return "the paper's ~0.2% on unseen schedules, no held-out data having measured it";
}
