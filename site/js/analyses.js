// The "Analyses" panel: the paper's analyses (lawcore's `analyze` method) and the model-size law
// (`sizefit`), computed from the current parameters (fitted or entered by hand). One view
// selector, one uPlot chart, one table with a CSV export of it.
import uPlot from '../vendor/uPlot.esm.js';
import { $, h } from './dom.js';
import { PALETTE, plotColors } from './theme.js';
import { download } from './export.js';
import { unionSteps, interpolateOnto, exactOnto } from './series.js';
import { explicitSchedule } from './parse-files.js';
import * as fmt from './format.js';
import { MIN_CHART_WIDTH, logTicks } from './plots.js';
import { scheduleForRequest, scheduleColumns } from './schedule-columns.js';

/** SETUP_KEYS are the options every analysis takes from the page, not from the options box. */
const SETUP_KEYS = ['params', 'peak', 'warmup', 'warmupConvention', 'points'];

const curveLines = (curves, field = 'loss', dash = null) => curves.map((c, i) => ({ label: c.name, x: c.steps, y: c[field], color: PALETTE[i % PALETTE.length], dash }));
const seriesLines = (series, start = 0) => series.map((s, i) => ({ label: s.name, x: s.x, y: s.y, color: PALETTE[(i + start) % PALETTE.length] }));
const marks = (label, pts, color = 'currentColor') => ({ label, x: pts.map((p) => p[0]), y: pts.map((p) => p[1]), points: true, color });

/**
 * VIEWS: id, label, the analysis it runs, and chart(result) -> {xLabel, yLabel, logX, lines, note}.
 * Several views share one analysis (and its cached answer).
 */
const VIEWS = [
  {
    id: 'decomposition', analysis: 'decomposition', label: 'Decomposition: the S1 and S2 terms (cosine, WSD, multi-step)',
    chart: (r) => ({
      xLabel: 'step', yLabel: 'term of the loss',
      lines: r.curves.flatMap((c, i) => [
        { label: `${c.name}: A·S1^−α`, x: c.steps, y: c.s1Term, color: PALETTE[i], from: 1000 },
        { label: `${c.name}: C·S2`, x: c.steps, y: c.s2Term, color: PALETTE[i], dash: [6, 4], scale: 'y2' },
      ]),
      y2Label: 'C·S2 (dashed)',
      note: 'Solid, left axis: A·S1^−α (falls with the forward area). Dashed, right axis: C·S2 (the drop annealing brings). The table gives each schedule’s final terms and how much each term lowers the loss during its annealing stage.',
    }),
  },
  {
    id: 'cosine-cycle', analysis: 'cosine-cycle', label: 'Cosine cycle length and floor (grid)',
    chart: (r) => ({
      xLabel: 'cosine cycle T / total steps', yLabel: 'final loss',
      lines: [...seriesLines(r.byFloor), marks(`best: T = ${r.best.cycle} × total, floor ${r.best.floor} × peak`, [[r.best.cycle, r.bestLoss]], '#d00')],
      note: `Final loss after ${fmt.steps(r.curves?.[0]?.final?.total)} steps for each cycle length and floor. Lowest: cycle ${r.best.cycle} × total, floor ${r.best.floor} × peak (${fmt.fixed(r.bestLoss, 4)}).`,
    }),
  },
  {
    id: 'constant-vs-cosine', analysis: 'constant-vs-cosine', label: 'Constant vs cosine: final loss vs total steps',
    chart: (r) => ({
      xLabel: 'total steps', yLabel: 'final loss', logX: true,
      lines: [...seriesLines([r.constant, r.cosine]),
        ...(r.crossover ? [marks(`crossover at ${fmt.steps(r.crossover.total)} steps`, [[r.crossover.total, r.crossover.cosineLoss]], '#d00')] : [])],
      note: r.crossover
        ? `Crossover: from ${fmt.steps(r.crossover.total)} total steps on, cosine ends at least as low as constant (loss ${fmt.fixed(r.crossover.cosineLoss, 4)}).`
        : `No crossover in the range. ${r.note || ''}`,
      crossover: r.crossover,
    }),
  },
  {
    id: 'wsd-ratio', analysis: 'wsd-ratio', label: 'WSD annealing ratio: final loss vs ratio',
    chart: (r) => ({
      xLabel: 'annealing ratio (decay steps / total)', yLabel: 'final loss',
      lines: [...seriesLines(r.byRatio), marks('optimum per total', r.optima.map((o) => [o.ratio, o.final.loss]), '#d00')],
      note: 'One line per total; the marks are the optimal ratios (grid, then golden-section search on whole decay steps).',
    }),
  },
  {
    id: 'wsd-s1', analysis: 'wsd-ratio', label: 'WSD annealing ratio: final loss vs S1',
    chart: (r) => ({
      xLabel: 'forward area S1 at the end', yLabel: 'final loss',
      lines: [...seriesLines(r.byS1), marks('optimum per total', r.optima.map((o) => [o.final.S1, o.final.loss]), '#d00')],
      note: 'The same sweep against S1: a longer decay trades forward area for annealing area.',
    }),
  },
  {
    id: 'anneal-function', analysis: 'anneal-function', label: 'Annealing function: winner per ratio',
    chart: (r) => ({
      xLabel: 'annealing ratio', yLabel: 'final loss', lines: seriesLines(r.byShape),
      note: `Lowest final loss per ratio: ${r.winners.map((w) => `${+w.ratio.toFixed(3)} ${w.shape}`).join(', ')}.`,
    }),
  },
  {
    id: 'rewarmup-peak', analysis: 'rewarmup', label: 'Continual pre-training: re-warmup peak',
    chart: (r) => ({ xLabel: 'step', yLabel: 'loss', lines: curveLines(r.byPeakCurves).map((l) => ({ ...l, from: r.switchStep * 0.8 })), note: `A second run starts at step ${fmt.steps(r.switchStep)}: re-warmup to each peak, then cosine to 0.` }),
  },
  {
    id: 'rewarmup-length', analysis: 'rewarmup', label: 'Continual pre-training: re-warmup length',
    chart: (r) => ({ xLabel: 'step', yLabel: 'loss', lines: curveLines(r.byLengthCurves).map((l) => ({ ...l, from: r.switchStep * 0.8 })), note: `A second run starts at step ${fmt.steps(r.switchStep)}: re-warmup over each length, then cosine to 0.` }),
  },
  {
    id: 'lambda', analysis: 'lambda', label: 'λ comparison: WSD ratio sweep per λ',
    chart: (r) => ({
      xLabel: 'annealing ratio', yLabel: 'final loss',
      lines: [...seriesLines(r.byRatio), marks('optimum per λ', r.optima.map((o) => [o.ratio, o.final.loss]), '#d00')],
      note: 'A smaller λ forgets the annealing momentum faster: a shorter best decay and a shorter delay (table).',
    }),
  },
  {
    id: 'lambda-delay', analysis: 'lambda', label: 'λ: delay of the loss after the LR turns',
    chart: (r) => ({
      xLabel: 'step', yLabel: 'loss', lines: curveLines(r.delayCurves).map((l) => ({ ...l, from: 15000, to: 32000 })),
      note: 'The LR falls, then rises again: the loss keeps falling for a while (the delay, in the table).',
    }),
  },
  {
    id: 'optimize', analysis: 'optimize', label: 'Schedule optimiser',
    chart: (r) => ({
      xLabel: 'step', yLabel: 'learning rate', lines: r.best.map((b, i) => ({ label: `${b.family}: ${fmt.fixed(b.final.loss, 4)}`, x: b.curve.steps, y: b.curve.lr, color: PALETTE[i] })),
      yValues: (u, ticks) => ticks.map(fmt.lr),
      note: 'Best schedule of each family. Note: over free-form schedules the law’s optimum is a sudden drop to 0 at the end (“step-drop”), which is where the law is least tested: treat it as the law’s extrapolation, not a recommendation.',
    }),
  },
  {
    id: 'chinchilla', analysis: 'chinchilla', label: 'Chinchilla reduction (final losses fit a power law)',
    chart: (r) => ({
      xLabel: 'total steps', yLabel: 'final loss',
      lines: r.summaries.flatMap((s, i) => [
        { ...marks(`${s.schedule}: law`, Array.from(s.example.x, (x, k) => [x, s.example.y[k]]), PALETTE[i]) },
        { label: `${s.schedule}: Chinchilla fit`, x: s.exampleFit.x, y: s.exampleFit.y, color: PALETTE[i] },
      ]),
      note: 'Final losses of random parameter tuples, each fitted by L0 + A·S^−α: the table gives the R² (one example drawn).',
    }),
  },
  {
    id: 'compute', analysis: 'compute', label: 'Compute to fit (steps of training needed)', noSetup: true,
    chart: (r) => ({
      xLabel: 'row', yLabel: '% of Chinchilla with cosine', bars: true,
      lines: [{ label: '% of Chinchilla with cosine', x: r.rows.map((_, i) => i + 1), y: r.rows.map((x) => x.percent), color: PALETTE[0], points: true }],
      note: 'Training steps each law needs to fit (Sec. 6.2): Chinchilla needs one run per total, this law one run.',
    }),
  },
  { id: 'sizefit', label: 'Model-size law (curves tagged with N; predict an unseen N)', sizefit: true },
];

let ctx;
let defaults = null;
const optionsByAnalysis = new Map();
const cache = new Map();
let chart = null;

/** analysisChart is the analysis view's uPlot instance (null when nothing is drawn), for the SVG export. */
export function analysisChart() {
  return chart;
}
let resizer = null;
let lastTable = null;
let seq = 0;

/**
 * initAnalyses wires the panel. c: {client, setup() -> {params, peak, warmup, warmupConvention,
 * source} | null, curves() -> state curves, showMessage(text)}.
 */
export function initAnalyses(c) {
  ctx = c;
  const select = $('#analysis-view');
  select.replaceChildren(...VIEWS.map((v) => h('option', { value: v.id, text: v.label })));
  select.addEventListener('change', () => { showOptions(); run(); });
  $('#analysis-run').addEventListener('click', () => run());
  $('#analysis-reset').addEventListener('click', () => {
    const v = view();
    if (v.analysis) optionsByAnalysis.delete(v.analysis);
    showOptions();
    run();
  });
  $('#analysis-options').addEventListener('change', () => {
    const v = view();
    if (v.analysis) optionsByAnalysis.set(v.analysis, $('#analysis-options').value);
  });
  $('#analysis-csv').addEventListener('click', exportTable);
  $('#sizefit-example').addEventListener('click', () => run({ example: true }));
  const details = $('#analyses-panel');
  details.addEventListener('toggle', () => { if (details.open && !lastTable) run(); });
  ctx.client.ready.then(async () => {
    const { result } = await ctx.client.call('analyze', { analysis: 'defaults' });
    defaults = result.defaults;
    showOptions();
  }).catch(() => {});
}

/** refreshAnalyses recomputes the shown view (after a fit or new parameters), if the panel is open. */
export function refreshAnalyses() {
  cache.clear();
  if ($('#analyses-panel').open && lastTable) run();
}

function view() {
  return VIEWS.find((v) => v.id === $('#analysis-view').value) || VIEWS[0];
}

function showOptions() {
  const v = view();
  $('#sizefit-options').hidden = !v.sizefit;
  $('#analysis-options-box').hidden = !!v.sizefit;
  if (v.sizefit) return renderSizeInputs();
  const saved = optionsByAnalysis.get(v.analysis);
  if (saved !== undefined) $('#analysis-options').value = saved;
  else if (defaults && defaults[v.analysis]) {
    const opts = { ...defaults[v.analysis] };
    for (const k of SETUP_KEYS) delete opts[k];
    $('#analysis-options').value = compactJSON(opts);
  } else $('#analysis-options').value = '{}';
}

/** compactJSON prints an object one option a line, with arrays on one line and rounded numbers. */
function compactJSON(obj) {
  const round = (v) => (typeof v === 'number' ? Number(v.toPrecision(10)) : v);
  const lines = Object.entries(obj).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v, (key, x) => round(x))}`);
  return `{\n${lines.join(',\n')}\n}`;
}

async function run({ example = false } = {}) {
  const v = view();
  const my = ++seq;
  setStatus(`Computing “${v.label}”…`);
  try {
    let out;
    if (v.sizefit) out = await runSizefit(example);
    else {
      let opts;
      try {
        opts = JSON.parse($('#analysis-options').value || '{}');
      } catch (err) {
        throw new Error(`options are not valid JSON: ${err.message}`);
      }
      const req = { analysis: v.analysis, ...opts };
      const setup = ctx.setup();
      if (!v.noSetup) {
        req.params = setup.params;
        req.peak = setup.peak;
        req.warmup = setup.warmup;
        req.warmupConvention = setup.warmupConvention;
        req.points = 400;
      }
      const key = JSON.stringify(req);
      let result = cache.get(key);
      if (!result) {
        const started = performance.now();
        ({ result } = await ctx.client.call('analyze', req));
        result.elapsed = performance.now() - started;
        cache.set(key, result);
      }
      if (my !== seq) return;
      const c = v.chart(result);
      out = { ...c, table: result.table, source: v.noSetup ? '' : setup.source, elapsed: result.elapsed };
    }
    if (my !== seq) return;
    drawChart(out);
    renderTable(out.table, v.id);
    $('#analysis-note').textContent = out.note || '';
    const crossover = out.crossover;
    const panel = $('#analysis-result');
    panel.dataset.view = v.id;
    panel.dataset.crossover = crossover ? String(crossover.total) : '';
    setStatus(`${out.source ? `${out.source} · ` : ''}${fmt.ms(out.elapsed)}`);
  } catch (err) {
    if (my !== seq) return;
    lastTable = null;
    renderTable(null, v.id);
    drawChart(null);
    $('#analysis-note').textContent = '';
    setStatus('');
    $('#analysis-result').dataset.view = v.id;
    $('#analysis-error').textContent = `${v.label}: ${err.message}`;
    $('#analysis-error').hidden = false;
    return;
  }
  $('#analysis-error').hidden = true;
}

function setStatus(text) {
  $('#analysis-status').textContent = text;
}

// ---- the model-size law ---------------------------------------------------------------------

/** sizeOf guesses N from a name like "25M cosine" or "1.3B": null when there is none. */
function sizeOf(name) {
  const m = /(\d+(?:\.\d+)?)\s*([MB])\b/i.exec(name || '');
  return m ? Number(m[1]) * (m[2].toUpperCase() === 'B' ? 1e9 : 1e6) : null;
}

function renderSizeInputs() {
  const curves = ctx.curves();
  $('#sizefit-curves').replaceChildren(...curves.map((c) => {
    if (c.size === undefined) c.size = sizeOf(c.name) ?? sizeOf(c.source);
    const input = h('input', { type: 'text', inputmode: 'decimal', value: c.size ? String(c.size) : '', placeholder: 'e.g. 25e6', 'aria-label': `Model size N of ${c.name}`, dataset: { curveName: c.name } });
    input.addEventListener('change', () => {
      const x = Number(input.value);
      c.size = input.value.trim() && Number.isFinite(x) && x > 0 ? x : null;
    });
    return h('label', { class: 'field' }, h('span', { class: 'field-label', text: c.name }), input);
  }));
  $('#sizefit-none').hidden = curves.length > 0;
}

const MPL_SIZEFIT = [['cosine_24000', 'fit'], ['constant_24000', 'fit'], ['wsdcon_9', 'fit'], ['wsd_20000_24000', 'validate'], ['cosine_72000', 'validate']];

/** exampleCurves loads the MultiPowerLaw 25M and 100M runs (the curves of the page stay). */
async function exampleCurves() {
  const out = [];
  for (const size of [25, 100]) {
    for (const [name, role] of MPL_SIZEFIT) {
      const file = `examples/mpl/csv_${size}/${name}.csv`;
      const response = await fetch(file);
      if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
      const { columns } = await ctx.client.call('parse', { name: `${name}.csv`, text: await response.text() });
      const col = columns[0];
      out.push({ name: `${size}M ${name}`, role, size: size * 1e6, steps: col.steps, loss: col.loss, schedule: explicitSchedule(col.steps, col.lr) });
    }
  }
  return out;
}

async function runSizefit(example) {
  const setup = ctx.setup();
  let curves;
  let warmup = setup.warmup;
  let convention = setup.warmupConvention;
  if (example) {
    curves = await exampleCurves();
    warmup = 2160;
    convention = 'actual';
    sizeExample = curves;
  } else if (sizeExample && !ctx.curves().some((c) => c.size)) {
    curves = sizeExample;
    warmup = 2160;
    convention = 'actual';
  } else {
    curves = ctx.curves().filter((c) => c.size && c.schedule);
    if (new Set(curves.map((c) => c.size)).size < 2) {
      throw new Error('tag curves of at least two model sizes with N (fields above), or press “MultiPowerLaw 25M + 100M example”.');
    }
  }
  const lambda = Number.isFinite(setup.params?.lambda) ? setup.params.lambda : 0.999;
  const req = {
    curves: curves.map((c) => ({ name: c.name, role: c.role, size: c.size, schedule: scheduleForRequest(c.schedule) })),
    lambda, warmupSteps: warmup, warmupConvention: convention, huberDelta: 0.001, points: 400,
  };
  const started = performance.now();
  const { result, columns } = await ctx.client.call('sizefit', req, curves.map((c) => ({ steps: c.steps, loss: c.loss, ...scheduleColumns(c.schedule) })));
  const p = result.params;
  const targetN = Number($('#sizefit-target').value);
  if (!(targetN > 0)) throw new Error(`unseen model size N: "${$('#sizefit-target').value}" is not a positive number`);
  // At a fixed N the law is the plain law with L0 + B·N^-beta and C·N^gamma.
  const atN = { L0: p.L0 + p.B * targetN ** -p.beta, A: p.A, alpha: p.alpha, C: p.C * targetN ** p.gamma, lambda: p.lambda };
  const seen = new Set();
  const toPredict = [];
  for (const c of curves) {
    const base = c.name.replace(/^\S+\s+/, '');
    if (!seen.has(base)) {
      seen.add(base);
      toPredict.push({ name: `N=${fmtN(targetN)} ${base}`, schedule: c.schedule });
    }
  }
  const pred = await ctx.client.call('predict', { params: atN, warmupSteps: warmup, warmupConvention: convention, curves: toPredict.map((c) => ({ ...c, schedule: scheduleForRequest(c.schedule) })), points: 400 },
    toPredict.map((c) => scheduleColumns(c.schedule)));
  const lines = [];
  const colorOfSize = new Map([...new Set(curves.map((c) => c.size))].map((n, i) => [n, PALETTE[i % PALETTE.length]]));
  curves.forEach((c, i) => {
    const color = colorOfSize.get(c.size);
    lines.push({ label: `${c.name} (observed)`, x: c.steps, y: c.loss, color, points: true, from: warmup });
    lines.push({ label: `${c.name} (${c.role === 'fit' ? 'fitted' : 'predicted'})`, x: columns[i].steps, y: columns[i].fitted, color, dash: c.role === 'fit' ? null : [6, 4], from: warmup });
  });
  const predCurves = pred.result.curves;
  predCurves.forEach((r, i) => lines.push({ label: r.name, x: pred.columns[i].steps, y: pred.columns[i].loss, color: '#d00', dash: [2, 3], from: warmup }));
  const rows = result.curves.map((c) => [c.name, c.size, c.role, c.metrics.R2, c.metrics.PredE, c.metrics.FinalErr, c.predicted ? c.predicted[c.predicted.length - 1] : null]);
  for (const r of predCurves) rows.push([r.name, targetN, 'predicted (unseen N)', null, null, null, r.finalLoss]);
  return {
    xLabel: 'step', yLabel: 'loss', lines,
    table: { columns: ['curve', 'N', 'role', 'R2', 'PredE', 'FinalErr', 'final loss (law)'], rows },
    note: `L(s, N) = ${fmt.fixed(p.L0, 3)} + ${fmt.fixed(p.A, 3)}·S1^−${fmt.fixed(p.alpha, 3)} + ${fmt.sig(p.B, 4)}·N^−${fmt.fixed(p.beta, 3)} − ${fmt.sig(p.C, 4)}·S2·N^${fmt.fixed(p.gamma, 3)} (λ ${p.lambda}).`
      + `${result.note ? ` Note: ${result.note}.` : ''} Red dotted: predicted at N = ${fmtN(targetN)}.`,
    source: `${example || curves === sizeExample ? 'MultiPowerLaw 25M + 100M' : 'your curves'} · ${result.sizes.map(fmtN).join(', ')}`,
    elapsed: performance.now() - started,
  };
}
let sizeExample = null;

function fmtN(n) {
  return n >= 1e9 ? `${+(n / 1e9).toPrecision(3)}B` : `${+(n / 1e6).toPrecision(3)}M`;
}

// ---- table and CSV --------------------------------------------------------------------------

function renderTable(table, id) {
  lastTable = table ? { ...table, id } : null;
  const t = $('#analysis-table');
  t.hidden = !table;
  $('#analysis-csv').disabled = !table;
  if (!table) {
    t.tHead.replaceChildren();
    t.tBodies[0].replaceChildren();
    return;
  }
  const numeric = table.columns.map((_, j) => table.rows.some((r) => typeof r[j] === 'number'));
  t.tHead.replaceChildren(h('tr', {}, table.columns.map((c, j) => h('th', { scope: 'col', class: numeric[j] ? 'num' : '', text: c }))));
  t.tBodies[0].replaceChildren(...table.rows.map((r) => h('tr', {}, r.map((v, j) => {
    if (typeof v === 'number') return h('td', { class: 'num', dataset: { value: String(v) }, text: cellText(v, table.columns[j]) });
    return h('td', { class: numeric[j] ? 'num' : '', text: v === null || v === undefined ? '–' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v) });
  }))));
}

function cellText(v, column) {
  if (Number.isInteger(v) && Math.abs(v) >= 1000) return fmt.steps(v);
  if (/peak|lr/i.test(column) && Math.abs(v) < 0.01 && v !== 0) return fmt.lr(v);
  return fmt.sig(v, 5);
}

function csvField(v) {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function exportTable() {
  if (!lastTable) return;
  const lines = [lastTable.columns, ...lastTable.rows].map((r) => r.map(csvField).join(','));
  download(new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }), `analysis-${lastTable.id}.csv`);
}

// ---- the chart ------------------------------------------------------------------------------

function drawChart(spec) {
  const container = $('#chart-analysis');
  if (chart) chart.destroy();
  chart = null;
  container.replaceChildren();
  if (!spec || !spec.lines.length) {
    container.dataset.series = '';
    return;
  }
  const colors = plotColors();
  const lines = spec.lines.map((l) => {
    let x = Array.from(l.x);
    let y = Array.from(l.y);
    if (l.from !== undefined || l.to !== undefined) {
      const keep = x.map((v) => v >= (l.from ?? -Infinity) && v <= (l.to ?? Infinity));
      x = x.filter((_, i) => keep[i]);
      y = y.filter((_, i) => keep[i]);
    }
    return { ...l, x, y };
  });
  const xs = unionSteps(lines.map((l) => l.x), spec.logX ? Number.MIN_VALUE : -Infinity);
  const data = [xs, ...lines.map((l) => (l.points ? exactOnto(xs, l.x, l.y) : interpolateOnto(xs, l.x, l.y)))];
  const series = lines.map((l) => {
    const color = l.color === 'currentColor' ? colors.fg : l.color;
    const value = (u, v) => (v == null ? '–' : spec.yValues ? fmt.lr(v) : fmt.sig(v, 5));
    if (l.points) return { label: l.label, stroke: color, width: 1, paths: () => null, points: { show: true, size: l.x.length > 300 ? 2 : l.x.length > 50 ? 4 : 7, stroke: color, fill: color }, value };
    return { label: l.label, stroke: color, width: 1.75, dash: l.dash || undefined, points: { show: false }, spanGaps: true, value, scale: l.scale || 'y' };
  });
  container.dataset.series = series.map((s) => s.label).join('|');
  const axis = (label, values) => ({
    label, stroke: colors.fg, grid: { stroke: colors.grid, width: 1 }, ticks: { stroke: colors.grid, width: 1 },
    labelFont: '12px system-ui, sans-serif', font: '11px system-ui, sans-serif', ...(values ? { values } : {}), size: 64,
  });
  const xFmt = (t) => (Math.abs(t) >= 1000 ? `${+(t / 1000).toFixed(1)}K` : String(+t.toPrecision(4)));
  chart = new uPlot({
    width: Math.max(MIN_CHART_WIDTH, container.clientWidth),
    height: 340,
    scales: { x: { time: false, distr: spec.logX ? 3 : 1, log: 10, ...(spec.logX ? { range: (u, min, max) => [min, max] } : {}) }, y: { auto: true }, ...(spec.y2Label ? { y2: { auto: true } } : {}) },
    axes: [
      { ...axis(spec.xLabel, (u, ticks) => ticks.map(xFmt)), ...(spec.logX ? logTicks(xFmt) : {}), size: 48 },
      axis(spec.yLabel, spec.yValues || null),
      ...(spec.y2Label ? [{ ...axis(spec.y2Label), scale: 'y2', side: 1, grid: { show: false } }] : []),
    ],
    series: [{ label: spec.xLabel, value: (u, v) => (v == null ? '–' : fmt.sig(v, 6)) }, ...series],
    cursor: { drag: { x: true, y: false }, points: { size: 6 } },
    legend: { live: true },
  }, data, container);
  if (!resizer) {
    resizer = new ResizeObserver(() => {
      const w = Math.max(MIN_CHART_WIDTH, container.clientWidth);
      if (chart && Math.abs(w - chart.width) > 2) chart.setSize({ width: w, height: chart.height });
    });
    resizer.observe(container);
  }
}
