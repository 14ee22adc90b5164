// The page: wires the controls to the state, runs fits and predictions in the worker, and
// redraws. Data flows one way: file or form -> state -> worker -> result -> state -> page.
import { $ } from './dom.js';
import { LawClient } from './lawclient.js';
import { state, DEFAULT_SETTINGS, addCurve, addPrediction, remove, currentParams, uniqueName } from './state.js';
import { parseFiles, parseCurve } from './parse-files.js';
import { initScheduleDialog, editSchedule } from './schedule-dialog.js';
import { renderCurves, renderPredictions } from './curve-list.js';
import { renderParams, renderMetrics, renderMetricsHead } from './results.js';
import { drawCharts, charts } from './plots.js';
import { download, downloadJSON, predictionCSV, chartPNG } from './export.js';
import { loadFig2, FIG2_SETTINGS, FIG3_PREDICTIONS, fetchMPL, MPL_FILES, MPL_SETTINGS } from './examples.js';
import * as fmt from './format.js';

const client = new LawClient('worker.js');
// For the browser console (and the tests): the worker client.
globalThis.lawcoreClient = client;
let fitting = false;
let predictSeq = 0;

// ---- messages -------------------------------------------------------------------------------

/** showMessage puts errors (or a notice) in the alert area; several become a list. */
function showMessage(lines, kind = 'error') {
  const list = Array.isArray(lines) ? lines : [lines];
  const box = $('#message');
  const text = $('#message-text');
  text.replaceChildren(...list.map((l) => Object.assign(document.createElement('div'), { textContent: l })));
  box.classList.toggle('notice', kind !== 'error');
  box.hidden = false;
}

function clearMessage() {
  $('#message').hidden = true;
  $('#message-text').replaceChildren();
}

function setStatus(text) {
  $('#status').textContent = text;
}

// ---- rendering ------------------------------------------------------------------------------

const curveHandlers = {
  role(c, role) {
    c.role = role;
    state.stale = true;
    render();
  },
  async schedule(c) {
    const fallback = { warmup: state.settings.warmupSteps };
    const guess = c.schedule || { kind: 'constant', total: c.steps[c.steps.length - 1], peak: guessPeak() };
    const got = await editSchedule({ title: `Schedule of ${c.name}`, schedule: guess, fallback });
    if (!got) return;
    c.schedule = got.schedule;
    c.scheduleSource = 'builder';
    state.stale = true;
    render();
    predict();
  },
  remove(c) {
    remove(c);
    render();
  },
};

const predictionHandlers = {
  async edit(p) {
    const got = await editSchedule({ title: `Edit ${p.name}`, name: p.name, schedule: p.schedule, fallback: { warmup: state.settings.warmupSteps } });
    if (!got) return;
    state.predicted.delete(p.name);
    p.name = uniqueName(got.name, p);
    p.schedule = got.schedule;
    render();
    predict();
  },
  remove(p) {
    remove(p);
    render();
  },
};

function guessPeak() {
  const withPeak = [...state.curves, ...state.predictions].find((c) => c.schedule && c.schedule.peak);
  return withPeak ? withPeak.schedule.peak : 3e-4;
}

/** render redraws everything from the state. */
function render() {
  renderCurves(state.curves, curveHandlers);
  renderPredictions(state.predictions, state.predicted, predictionHandlers);
  const current = currentParams();
  let origin = '';
  if (state.manualParams) origin = 'Parameters entered by hand.';
  else if (state.fit) {
    const r = state.fit.response;
    const fitNames = r.curves.filter((c) => c.role === 'fit').map((c) => c.name);
    origin = `Fitted on ${fitNames.join(', ')} · objective ${fmt.sig(r.objective, 3)}`
      + (r.search ? ` · ${r.search.starts} starts, ${r.search.evaluations} evaluations` : '')
      + ` · ${fmt.ms(r.elapsedMs)}`;
  }
  renderParams(current, origin);
  $('#stale-note').hidden = !(state.fit && state.stale && !state.manualParams);
  const colors = new Map(state.curves.map((c) => [c.name, c.color]));
  renderMetrics(state.manualParams ? null : state.fit && state.fit.response, colors);
  drawAll();
}

/** drawAll builds the chart view from the state and draws it. */
function drawAll() {
  const lines = [];
  for (const c of state.curves) {
    const got = state.predicted.get(c.name);
    if (got) lines.push({ ...got, name: c.name, label: `${c.name} (${c.role === 'fit' ? 'fitted' : 'predicted'})`, color: c.color, dash: c.role === 'validate' ? [6, 4] : null });
  }
  for (const p of state.predictions) {
    const got = state.predicted.get(p.name);
    if (got) lines.push({ ...got, name: p.name, label: p.name, color: p.color, dash: null });
  }
  const fitted = new Map();
  if (state.fit && !state.manualParams) for (const c of state.fit.response.curves) fitted.set(c.name, c);
  const observed = state.curves.map((c) => {
    const f = fitted.get(c.name);
    let residual = null;
    if (f && f.predicted && f.predicted.length === c.loss.length && state.fit.curves.get(c.name) === c) {
      residual = Array.from(c.loss, (y, i) => y - f.predicted[i]);
    }
    return { name: c.name, color: c.color, steps: c.steps, loss: c.loss, residual };
  });
  const firstObserved = Math.min(...state.curves.map((c) => c.steps[0]));
  const settings = (currentParams() || { settings: state.settings }).settings;
  // Like the paper's figures, start after the warmup: the law's first steps dwarf the rest.
  const xStart = Math.max(Number.isFinite(firstObserved) ? firstObserved : 1, settings.warmupSteps);
  drawCharts(
    { lr: $('#chart-lr'), loss: $('#chart-loss'), residuals: $('#chart-residuals'), terms: $('#chart-terms') },
    { lines, observed, xStart, logX: $('#log-x').checked, logY: $('#log-y').checked },
  );
}

// ---- settings -------------------------------------------------------------------------------

function writeSettings(s) {
  $('#lambda').value = String(s.lambda);
  $('#fit-lambda').checked = s.fitLambda;
  $('#lambda').disabled = s.fitLambda;
  $('#warmup-steps').value = String(s.warmupSteps);
  $('#warmup-convention').value = s.warmupConvention;
  $('#huber-delta').value = String(s.huberDelta);
}

/** readSettings validates the settings form; it throws an Error naming the bad field. */
function readSettings() {
  const num = (id, label, ok) => {
    const x = Number($(id).value);
    if ($(id).value.trim() === '' || !Number.isFinite(x) || !ok(x)) throw new Error(`${label}: "${$(id).value}" is out of range.`);
    return x;
  };
  const fitLambda = $('#fit-lambda').checked;
  return {
    lambda: fitLambda ? state.settings.lambda : num('#lambda', 'λ (between 0 and 1)', (x) => x > 0 && x < 1),
    fitLambda,
    warmupSteps: num('#warmup-steps', 'Warmup steps (a whole number ≥ 0)', (x) => x >= 0 && Number.isInteger(x)),
    warmupConvention: $('#warmup-convention').value,
    huberDelta: num('#huber-delta', 'Huber δ (> 0)', (x) => x > 0),
  };
}

function onSettingsChange() {
  $('#lambda').disabled = $('#fit-lambda').checked;
  try {
    state.settings = readSettings();
  } catch {
    return; // reported when fitting
  }
  state.stale = true;
  render();
}

// ---- fit and predict ------------------------------------------------------------------------

/** runFit fits the law to the curves marked fit and predicts the rest. */
async function runFit({ keepMessage = false } = {}) {
  if (fitting) return;
  if (!keepMessage) clearMessage();
  let settings;
  try {
    settings = readSettings();
  } catch (err) {
    return showMessage(err.message);
  }
  state.settings = settings;
  const problems = [];
  if (!state.curves.length) problems.push('Add at least one loss curve (drop a CSV file, paste, or load an example).');
  else if (!state.curves.some((c) => c.role === 'fit')) problems.push('Mark at least one curve as "fit".');
  const missing = state.curves.filter((c) => !c.schedule).map((c) => c.name);
  if (missing.length) problems.push(`These curves need a schedule (button "Schedule…"): ${missing.join(', ')}.`);
  if (problems.length) return showMessage(problems);

  const curves = [...state.curves];
  const request = {
    curves: curves.map((c) => ({ name: c.name, role: c.role, schedule: c.schedule })),
    lambda: settings.fitLambda ? 'fit' : settings.lambda,
    warmupSteps: settings.warmupSteps,
    warmupConvention: settings.warmupConvention,
    huberDelta: settings.huberDelta,
  };
  const columns = curves.map((c) => ({ steps: c.steps, loss: c.loss }));
  setFitting(true);
  setStatus(`Fitting ${curves.filter((c) => c.role === 'fit').length} curve(s)…`);
  const started = performance.now();
  try {
    const { result } = await client.call('fit', request, columns, (f) => {
      $('#fit-progress').value = f;
      setStatus(`Fitting… ${Math.round(f * 100)}%`);
    });
    state.fit = { params: result.params, response: result, settings: { ...settings }, curves: new Map(curves.map((c) => [c.name, c])) };
    state.manualParams = null;
    state.stale = false;
    const nFit = result.curves.filter((c) => c.role === 'fit').length;
    const nVal = result.curves.length - nFit;
    setStatus(`Fitted ${nFit} curve(s)${nVal ? `, predicted ${nVal} held out` : ''} in ${fmt.ms(result.elapsedMs ?? performance.now() - started)}.`);
    fillManual(result.params);
    render();
    await predict();
  } catch (err) {
    if (/cancel/i.test(err.message)) setStatus('Fit cancelled; the previous results are kept.');
    else {
      setStatus('The fit failed.');
      showMessage(`Fit: ${err.message}`);
    }
  } finally {
    setFitting(false);
  }
}

function setFitting(on) {
  fitting = on;
  $('#fit-button').disabled = on;
  $('#cancel-button').disabled = !on;
  $('#fit-progress').hidden = !on;
  $('#fit-progress').value = 0;
  document.body.classList.toggle('fitting', on);
}

/**
 * predict computes the law's curve for every curve with a schedule and every schedule to predict,
 * with the current parameters, thinned to about 2000 points each for drawing.
 */
async function predict() {
  const current = currentParams();
  if (!current) return;
  const items = [...state.curves.filter((c) => c.schedule), ...state.predictions];
  if (!items.length) {
    state.predicted = new Map();
    render();
    return;
  }
  const seq = ++predictSeq;
  try {
    const { result, columns } = await client.call('predict', predictRequest(current, items, 2000));
    if (seq !== predictSeq) return;
    state.predicted = new Map(predictedCurves(result).map((r, i) => [r.name, { ...columns[i], finalLoss: r.finalLoss }]));
  } catch (err) {
    if (seq !== predictSeq) return;
    showMessage(`Predict: ${err.message}`);
  }
  render();
}

/** predictedCurves takes the per-curve results of `predict`: an array (README) or {curves} (bridge). */
function predictedCurves(result) {
  return Array.isArray(result) ? result : (result && result.curves) || [];
}

function predictRequest(current, items, points) {
  const req = {
    params: current.params,
    warmupSteps: current.settings.warmupSteps,
    warmupConvention: current.settings.warmupConvention,
    curves: items.map((c) => ({ name: c.name, schedule: c.schedule })),
  };
  if (points) req.points = points;
  return req;
}

// ---- parameters by hand ---------------------------------------------------------------------

const MANUAL = ['L0', 'A', 'alpha', 'C', 'lambda'];

function fillManual(params) {
  for (const k of MANUAL) $(`#manual-${k}`).value = params[k] === undefined ? '' : String(Number(params[k].toPrecision(6)));
}

function applyManual() {
  clearMessage();
  const params = {};
  for (const k of MANUAL) {
    const raw = $(`#manual-${k}`).value.trim();
    const x = Number(raw);
    if (!raw || !Number.isFinite(x)) return showMessage(`Parameter ${k}: "${raw}" is not a number.`);
    params[k] = x;
  }
  let settings;
  try {
    settings = readSettings();
  } catch (err) {
    return showMessage(err.message);
  }
  state.manualParams = { params, settings };
  setStatus('Predicting with the parameters entered by hand.');
  render();
  predict();
}

// ---- adding curves --------------------------------------------------------------------------

async function addFiles(files) {
  if (!files.length) return;
  clearMessage();
  setStatus(`Reading ${files.length} file(s)…`);
  const { curves, errors } = await parseFiles(client, files);
  for (const c of curves) addCurve(c);
  const noLR = curves.filter((c) => !c.schedule).map((c) => c.name);
  setStatus(`Added ${curves.length} curve(s).` + (noLR.length ? ` Without an LR column: give ${noLR.join(', ')} a schedule.` : ''));
  if (errors.length) showMessage(errors);
  render();
  if (curves.length) predict();
}

async function addPasted(text, name) {
  if (!text.trim()) return showMessage('Paste some CSV or TSV text first.');
  clearMessage();
  try {
    const c = addCurve(await parseCurve(client, name || 'pasted', text));
    setStatus(`Added ${c.name}.`);
    render();
    predict();
    return true;
  } catch (err) {
    showMessage(err.message);
    return false;
  }
}

// ---- examples -------------------------------------------------------------------------------

function resetTo(settings) {
  state.curves = [];
  state.predictions = [];
  state.predicted = new Map();
  state.fit = null;
  state.manualParams = null;
  state.settings = { ...settings };
  writeSettings(state.settings);
}

/** loadFig2Example opens the paper's companion view: fit Fig. 2, predict the 60K schedules. */
async function loadFig2Example({ keepMessage = false } = {}) {
  if (!keepMessage) clearMessage();
  try {
    const curves = await loadFig2();
    resetTo(FIG2_SETTINGS);
    for (const c of curves) addCurve(c);
    for (const p of FIG3_PREDICTIONS) addPrediction(p.name, p.schedule);
    render();
    await runFit({ keepMessage });
  } catch (err) {
    showMessage(`Example: ${err.message}`);
  }
}

async function loadMPLExample(size) {
  clearMessage();
  try {
    const files = await fetchMPL(size);
    const parsed = await Promise.all(files.map((f) => parseCurve(client, f.file, f.text)));
    resetTo(MPL_SETTINGS);
    parsed.forEach((c, i) => addCurve({ ...c, role: files[i].role, name: `${MPL_FILES[i][0]}`, source: `MultiPowerLaw ${size}M` }));
    render();
    await runFit();
  } catch (err) {
    showMessage(`Example: ${err.message}`);
  }
}

// ---- export ---------------------------------------------------------------------------------

function exportJSON() {
  const current = currentParams();
  if (!current) return showMessage('Nothing to export yet: fit first, or enter parameters by hand.');
  const r = state.manualParams ? null : state.fit.response;
  downloadJSON({
    tool: 'annealing scaling-law calculator',
    lawcore: client.version,
    law: 'L(s) = L0 + A*S1(s)^(-alpha) - C*S2(s); S1 = sum eta_i; m_i = lambda*m_{i-1} + (eta_{i-1} - eta_i); S2 = sum m_i',
    params: current.params,
    source: state.manualParams ? 'entered by hand' : 'fit',
    settings: {
      lambda: current.settings.fitLambda ? 'fit' : current.settings.lambda,
      warmupSteps: current.settings.warmupSteps,
      warmupConvention: current.settings.warmupConvention,
      huberDelta: current.settings.huberDelta,
    },
    objective: r ? r.objective : undefined,
    search: r ? r.search : undefined,
    elapsedMs: r ? r.elapsedMs : undefined,
    curves: r ? r.curves.map((c) => ({
      name: c.name, role: c.role, metrics: c.metrics,
      schedule: state.fit.curves.get(c.name) ? state.fit.curves.get(c.name).schedule : undefined,
    })) : undefined,
    fitMetrics: r ? r.fitMetrics : undefined,
    validateMetrics: r ? r.validateMetrics : undefined,
    predictions: state.predictions.map((p) => ({ name: p.name, schedule: p.schedule, finalLoss: state.predicted.get(p.name)?.finalLoss })),
    exported: new Date().toISOString(),
  }, 'annealing-law-fit.json');
}

async function exportCSV() {
  const current = currentParams();
  if (!current) return showMessage('Nothing to export yet: fit first, or enter parameters by hand.');
  const items = [...state.curves.filter((c) => c.schedule), ...state.predictions];
  if (!items.length) return showMessage('No curves or schedules to export.');
  setStatus('Preparing the CSV…');
  try {
    const { result, columns } = await client.call('predict', predictRequest(current, items, 0));
    const curves = predictedCurves(result);
    download(predictionCSV(curves.map((r, i) => ({ name: r.name, ...columns[i] }))), 'annealing-law-predictions.csv');
    setStatus(`Exported ${curves.length} predicted curve(s) as CSV.`);
  } catch (err) {
    showMessage(`CSV export: ${err.message}`);
  }
}

async function exportPNG(button) {
  const u = charts.get(button.dataset.png);
  if (!u) return showMessage('This chart is empty.');
  try {
    download(await chartPNG(u, button.dataset.title), `annealing-law-${button.dataset.png}.png`);
  } catch (err) {
    showMessage(`PNG export: ${err.message}`);
  }
}

// ---- wiring ---------------------------------------------------------------------------------

function isTyping(target) {
  return target instanceof HTMLElement && (target.closest('input, textarea, select, [contenteditable]') !== null);
}

function wire() {
  $('#message-close').addEventListener('click', clearMessage);
  $('#file-input').addEventListener('change', async (e) => {
    const files = [...e.target.files];
    e.target.value = '';
    await addFiles(files);
  });
  // Drag and drop anywhere on the page.
  let depth = 0;
  document.addEventListener('dragenter', (e) => {
    if (![...(e.dataTransfer?.types || [])].includes('Files')) return;
    depth++;
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) document.body.classList.remove('dragging');
  });
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    document.body.classList.remove('dragging');
    addFiles([...(e.dataTransfer?.files || [])]);
  });
  // Paste anywhere outside a form field.
  document.addEventListener('paste', (e) => {
    if (isTyping(e.target) || $('#schedule-dialog').open) return;
    const files = [...(e.clipboardData?.files || [])];
    if (files.length) return addFiles(files);
    const text = e.clipboardData?.getData('text/plain') || '';
    if (text.trim()) {
      e.preventDefault();
      addPasted(text, 'pasted');
    }
  });
  $('#paste-add').addEventListener('click', async () => {
    if (await addPasted($('#paste-text').value, $('#paste-name').value.trim())) $('#paste-text').value = '';
  });
  $('#example-fig2').addEventListener('click', () => loadFig2Example());
  $('#example-mpl25').addEventListener('click', () => loadMPLExample(25));
  $('#example-mpl100').addEventListener('click', () => loadMPLExample(100));
  $('#clear-curves').addEventListener('click', () => {
    state.curves = [];
    state.stale = true;
    for (const k of [...state.predicted.keys()]) if (!state.predictions.some((p) => p.name === k)) state.predicted.delete(k);
    render();
  });
  for (const id of ['#lambda', '#fit-lambda', '#warmup-steps', '#warmup-convention', '#huber-delta']) {
    $(id).addEventListener('change', onSettingsChange);
  }
  $('#fit-button').addEventListener('click', () => runFit());
  $('#cancel-button').addEventListener('click', () => {
    setStatus('Cancelling…');
    client.cancel();
  });
  $('#add-prediction').addEventListener('click', async () => {
    const last = state.predictions[state.predictions.length - 1];
    const got = await editSchedule({ title: 'Add a schedule to predict', name: '', schedule: last ? { ...last.schedule } : null, fallback: { warmup: state.settings.warmupSteps } });
    if (!got) return;
    addPrediction(got.name, got.schedule);
    render();
    predict();
  });
  $('#manual-apply').addEventListener('click', applyManual);
  $('#log-x').addEventListener('change', drawAll);
  $('#log-y').addEventListener('change', drawAll);
  for (const b of document.querySelectorAll('[data-png]')) b.addEventListener('click', () => exportPNG(b));
  $('#export-json').addEventListener('click', exportJSON);
  $('#export-csv').addEventListener('click', exportCSV);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', drawAll);

  client.addEventListener('ready', (e) => { $('#version').textContent = e.detail || '?'; });
  client.addEventListener('restart', (e) => {
    showMessage(`The calculation worker stopped (${e.detail}) and was restarted. Your curves and settings are kept; run the last action again.`);
  });
  client.addEventListener('failed', (e) => {
    showMessage(`The calculator could not start: ${e.detail}. Reload the page to try again.`);
  });
}

// ---- start ----------------------------------------------------------------------------------

renderMetricsHead();
writeSettings(DEFAULT_SETTINGS);
wire();
initScheduleDialog(client);
render();
client.ready.then(() => {
  performance.mark('lawcore-ready');
  return loadFig2Example({ keepMessage: true }).then(() => performance.mark('example-shown'));
}, (err) => showMessage(`The calculator could not start: ${err.message}`));
