// The page: wires the controls to the state, runs fits and predictions in the worker, and
// redraws. Data flows one way: file or form -> state -> worker -> result -> state -> page.
import { $ } from './dom.js';
import { LawClient } from './lawclient.js';
import { state, DEFAULT_SETTINGS, addCurve, addPrediction, remove, removeAllCurves, snapshotView, touch, currentParams, multiPowerParams, uniqueName } from './state.js';
import { parseCurve, importFiles, importText, pairLearningRates } from './parse-files.js';
import { askImport } from './import-dialog.js';
import { initScheduleDialog, editSchedule } from './schedule-dialog.js';
import { renderCurves, renderPredictions } from './curve-list.js';
import { renderParams, renderMetrics, renderMetricsHead, renderValidation } from './results.js';
import { drawCharts, charts } from './plots.js';
import { drawnIndices } from './series.js';
import { download, downloadJSON, predictionCSV, chartPNG } from './export.js';
import { loadFig2, FIG2_SETTINGS, FIG3_PREDICTIONS, fetchMPL, MPL_FILES, MPL_SETTINGS } from './examples.js';
import * as fmt from './format.js';
import { initAnalyses, refreshAnalyses, analysisChart } from './analyses.js';
import { encodeShare, decodeShare, checkShareable, MAX_FRAGMENT, SHARE_VERSION } from './share.js';
import { chartSVG } from './svg-export.js';
import { scheduleForRequest, scheduleColumns } from './schedule-columns.js';
import { scheduleSteps, MAX_SCHEDULE_STEPS } from './schedule-kinds.js';
import { initUndo, offerUndo } from './undo.js';

const client = new LawClient('worker.js');
// For the browser console (and the tests): the worker client.
globalThis.lawcoreClient = client;
let fitting = false;
/** MAX_CSV_ROWS bounds the predicted-curves CSV (about 80 MB): past it each curve is thinned. */
const MAX_CSV_ROWS = 1_000_000;
/** fitDone resolves when the running fit or validation ends (set by setFitting). */
let fitDone = Promise.resolve();
let endFitting = () => {};
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
  predictError = false;
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
    touch();
    render();
  },
  async schedule(c) {
    const fallback = { warmup: state.settings.warmupSteps };
    const guess = c.schedule || { kind: 'constant', total: c.steps[c.steps.length - 1], peak: guessPeak() };
    const got = await editSchedule({ title: `Schedule of ${c.name}`, schedule: guess, fallback });
    if (!got) return;
    c.schedule = got.schedule;
    c.scheduleSource = got.fromFile ? 'file' : 'builder';
    c.lrFile = got.fromFile || undefined;
    touch();
    render();
    predict();
  },
  remove(c) {
    removeAndFocus('#curve-list', c, () => offerUndo(`Removed ${c.name}.`, remove(c), `Remove ${c.name}`));
  },
};

const predictionHandlers = {
  async edit(p) {
    const got = await editSchedule({ title: `Edit ${p.name}`, name: p.name, schedule: p.schedule, fallback: { warmup: state.settings.warmupSteps } });
    if (!got) return;
    state.predicted.delete(p.name);
    state.predicted2.delete(p.name);
    p.name = uniqueName(got.name, p);
    p.schedule = got.schedule;
    render();
    predict();
  },
  remove(p) {
    removeAndFocus('#predict-list', p, () => offerUndo(`Removed ${p.name}.`, remove(p), `Remove ${p.name}`));
    predict();
  },
};

/**
 * removeAndFocus runs removal (which takes item off list) and redraws, then puts the focus on
 * the next row's remove button, else the previous row's, else the Undo button: never on nothing.
 */
function removeAndFocus(listSelector, item, removal) {
  const buttons = () => [...document.querySelectorAll(`${listSelector} button.remove`)];
  const at = buttons().findIndex((b) => b.getAttribute('aria-label') === `Remove ${item.name}`);
  removal();
  render();
  const left = buttons();
  (left[Math.min(Math.max(at, 0), left.length - 1)] || $('#undo-button')).focus();
}

/** analysisSetup: the annealing law's current parameters and the page's settings, for `analyze`. */
function analysisSetup() {
  const cur = currentParams();
  const s = cur ? cur.settings : state.settings;
  const p = cur && cur.params && Number.isFinite(cur.params.C) && !('B' in cur.params) ? cur.params : null;
  return {
    params: p ? { L0: p.L0, A: p.A, alpha: p.alpha, C: p.C, lambda: p.lambda } : undefined,
    peak: analysisPeak(),
    warmup: s.warmupSteps,
    warmupConvention: s.warmupConvention,
    source: p ? (state.manualParams ? 'parameters entered by hand' : 'fitted parameters') : 'the paper’s Fig. 2 parameters (no fit yet)',
  };
}

/** analysisPeak is the peak LR of the curves' schedules (a schedule's peak, else its largest LR). */
function analysisPeak() {
  for (const c of [...state.curves, ...state.predictions]) {
    if (!c.schedule) continue;
    if (c.schedule.peak) return c.schedule.peak;
    if (Array.isArray(c.schedule.lr) && c.schedule.lr.length) return Math.max(...c.schedule.lr);
  }
  return 2e-4;
}

function guessPeak() {
  const withPeak = [...state.curves, ...state.predictions].find((c) => c.schedule && c.schedule.peak);
  return withPeak ? withPeak.schedule.peak : 3e-4;
}

/** render redraws everything from the state. */
function render() {
  renderCurves(state.curves, curveHandlers);
  renderPredictions(state.predictions, state.predicted, state.predicted2, predictionHandlers);
  const current = currentParams();
  let origin = '';
  if (state.manualParams) origin = state.manualParams.from === 'link' ? 'Parameters from a shared link.' : 'Parameters entered by hand.';
  else if (state.fit) {
    const r = state.fit.response;
    const fitNames = r.curves.filter((c) => c.role === 'fit').map((c) => c.name);
    origin = `Fitted on ${fitNames.join(', ')} · objective ${fmt.sig(r.objective, 3)}`
      + (r.search ? ` · ${r.search.starts} starts, ${r.search.evaluations} evaluations` : '')
      + ` · ${fmt.ms(r.elapsedMs)}`;
  }
  const mpl = multiPowerParams();
  if (mpl) {
    const p = mpl.params;
    origin += `${origin ? ' · ' : ''}Multi-Power Law${current ? ' (dotted)' : ''}: L0 ${fmt.sig(p.L0, 4)}, A ${fmt.sig(p.A, 4)}, α ${fmt.sig(p.alpha, 4)}, B ${fmt.sig(p.B, 4)}, C ${fmt.sig(p.C, 4)}, β ${fmt.sig(p.beta, 4)}, γ ${fmt.sig(p.gamma, 4)}`
      + (state.fit2 && !state.manualParams ? ` · objective ${fmt.sig(state.fit2.response.objective, 3)}` : '');
  }
  renderParams(current || (mpl ? { params: {}, settings: mpl.settings } : null), origin);
  $('#stale-note').hidden = !((state.fit || state.fit2) && state.stale && !state.manualParams);
  const colors = new Map(state.curves.map((c) => [c.name, c.color]));
  const fits = [];
  if (!state.manualParams) {
    if (state.fit) fits.push({ law: 'annealing', label: 'Annealing law', response: state.fit.response });
    if (state.fit2) fits.push({ law: 'multi-power', label: 'Multi-Power Law', response: state.fit2.response });
  }
  renderMetrics(fits, colors);
  renderValidation(state.validation, colors);
  drawAll();
}

/** MAX_DRAWN_POINTS is the most points of one observed curve the charts draw. */
const MAX_DRAWN_POINTS = 4000;

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
  // The validation's prediction band around the annealing law's curves.
  if (state.band) for (const l of lines) l.band = state.band.halfWidth;
  // The Multi-Power Law's predictions (dotted beside the annealing law's). Its terms are not
  // the two terms of the annealing law: they stay out of that chart.
  for (const [name, got] of state.predicted2) {
    const item = state.predictions.find((p) => p.name === name) || state.curves.find((c) => c.name === name);
    if (!item) continue;
    const both = state.predicted.has(name);
    lines.push({ name: `${name} (Multi-Power)`, label: `${name} (Multi-Power Law)`, color: item.color, dash: both ? [2, 3] : null,
      steps: got.steps, loss: got.loss, lr: both ? undefined : got.lr });
  }
  // The Multi-Power Law's lines, from its fit (dotted when the annealing law is drawn too).
  if (state.fit2 && !state.manualParams) {
    const both = !!state.fit;
    state.fit2.response.curves.forEach((r, i) => {
      const c = state.curves.find((x) => x.name === r.name);
      const col = state.fit2.columns[i];
      if (!c || !col || !col.steps) return;
      const dash = both ? [2, 3] : c.role === 'validate' ? [6, 4] : null;
      lines.push({ name: `${c.name} (Multi-Power)`, label: `${c.name} (Multi-Power Law, ${c.role === 'fit' ? 'fitted' : 'predicted'})`, color: c.color, dash, steps: col.steps, loss: col.fitted, noLR: true });
    });
  }
  const fitted = new Map();
  const fr = state.fit || state.fit2;
  if (fr && !state.manualParams) for (const c of fr.response.curves) fitted.set(c.name, c);
  const observed = state.curves.map((c) => {
    const f = fitted.get(c.name);
    let residual = null;
    if (f && f.predicted && f.predicted.length === c.loss.length && fr.curves.get(c.name) === c) {
      residual = Array.from(c.loss, (y, i) => y - f.predicted[i]);
    }
    const keep = drawnIndices(c.loss, MAX_DRAWN_POINTS);
    const pick = (a) => (a && keep ? keep.map((i) => a[i]) : a);
    return { name: c.name, color: c.color, steps: pick(c.steps), loss: pick(c.loss), residual: pick(residual) };
  });
  const firstObserved = Math.min(...state.curves.map((c) => c.steps[0]));
  const settings = (currentParams() || { settings: state.settings }).settings;
  // Like the paper's figures, start after the warmup (the law's first steps dwarf the rest),
  // unless the warmup setting runs past every line.
  const ends = [...lines, ...state.curves].map((l) => l.steps && l.steps[l.steps.length - 1]).filter(Number.isFinite);
  const afterWarmup = settings.warmupSteps < Math.max(0, ...ends) ? settings.warmupSteps : 0;
  const xStart = Math.max(Number.isFinite(firstObserved) ? firstObserved : 1, afterWarmup);
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
  $('#law').value = s.law || 'annealing';
  $('#auto').checked = !!s.auto;
  $('#mpl-search').value = s.mplSearch || 'optimum';
}

/** readSettings validates the settings form; it throws an Error naming the bad field. */
function readSettings() {
  const num = (id, label, ok) => {
    const input = $(id);
    const x = fmt.parseDecimal(input.value);
    // A number input holds '' when what was typed is not a number.
    if (Number.isNaN(x)) throw new Error(`${label}: ${input.value.trim() || input.validity.badInput ? `"${input.value}" is` : 'the field is empty, or holds'} not a number.`);
    if (!ok(x)) throw new Error(`${label}: ${x} is out of range.`);
    return x;
  };
  const fitLambda = $('#fit-lambda').checked;
  return {
    lambda: fitLambda ? state.settings.lambda : num('#lambda', 'λ (between 0 and 1)', (x) => x > 0 && x < 1),
    fitLambda,
    warmupSteps: num('#warmup-steps', 'Warmup steps (a whole number from 0 to 10,000,000)', (x) => x >= 0 && x <= MAX_SCHEDULE_STEPS && Number.isInteger(x)),
    warmupConvention: $('#warmup-convention').value,
    huberDelta: num('#huber-delta', 'Huber δ (> 0)', (x) => x > 0),
    law: $('#law').value,
    auto: $('#auto').checked,
    mplSearch: $('#mpl-search').value,
  };
}

function onSettingsChange() {
  $('#lambda').disabled = $('#fit-lambda').checked;
  try {
    state.settings = readSettings();
  } catch {
    return; // reported when fitting
  }
  touch();
  render();
}

// ---- fit and predict ------------------------------------------------------------------------

/**
 * runFit fits the law to the curves marked fit and predicts the rest. While a fit runs it does
 * nothing, unless replace is set (an example or a link replaced the curves): the running fit is
 * cancelled first.
 */
async function runFit({ keepMessage = false, replace = false } = {}) {
  if (fitting && !replace) return;
  while (fitting) {
    client.cancel();
    await fitDone;
  }
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
  const editsAtStart = state.edits;
  const request = fitRequest(curves, settings);
  const columns = curves.map(curveColumns);
  const laws = settings.law === 'both' ? ['annealing', 'multi-power'] : [settings.law];
  setFitting(true);
  const started = performance.now();
  try {
    const responses = {};
    for (const law of laws) {
      const req = { ...request };
      if (law === 'multi-power') {
        req.model = 'multi-power';
        req.search = settings.mplSearch;
        req.lambda = settings.lambda;
      } else if (settings.auto) req.auto = true;
      const label = law === 'multi-power' ? 'Multi-Power Law' : 'annealing law';
      setStatus(`Fitting the ${label} to ${curves.filter((c) => c.role === 'fit').length} curve(s)…`);
      responses[law] = await client.call('fit', req, columns, (f) => {
        $('#fit-progress').value = f;
        setStatus(`Fitting the ${label}… ${Math.round(f * 100)}%`);
      });
    }
    if (state.curves.length !== curves.length || state.curves.some((c, i) => c !== curves[i])) {
      setStatus('The curves changed while the fit ran: its result is set aside. Fit again.');
      return;
    }
    const byName = new Map(curves.map((c) => [c.name, c]));
    state.fit = null;
    state.fit2 = null;
    state.validation = null;
    state.band = null;
    const ann = responses.annealing;
    if (ann) {
      const fitSettings = { ...settings };
      const auto = ann.result.auto;
      if (auto) {
        fitSettings.warmupConvention = auto.warmupConvention;
        fitSettings.lambda = auto.lambda;
        fitSettings.fitLambda = true;
      }
      state.fit = { params: ann.result.params, response: ann.result, settings: fitSettings, curves: byName, law: 'annealing' };
    }
    const mpl = responses['multi-power'];
    if (mpl) state.fit2 = { params: mpl.result.params, response: mpl.result, columns: mpl.columns, settings: { ...settings }, curves: byName };
    state.manualParams = null;
    state.stale = state.edits !== editsAtStart; // a role or a setting changed while it ran
    const first = (ann || mpl).result;
    const nFit = first.curves.filter((c) => c.role === 'fit').length;
    const nVal = first.curves.length - nFit;
    const elapsed = laws.reduce((t, l) => t + (responses[l].result.elapsedMs ?? 0), 0) || performance.now() - started;
    setStatus(`Fitted ${laws.length === 2 ? 'both laws to ' : ''}${nFit} curve(s)${nVal ? `, predicted ${nVal} held out` : ''} in ${fmt.ms(elapsed)}.`);
    renderAutoNote();
    if (ann) fillManual(ann.result.params);
    render();
    refreshAnalyses();
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

/** curveColumns are the arrays of a curve that cross to lawcore as columns: its data and its schedule's points. */
function curveColumns(c) {
  return { steps: c.steps, loss: c.loss, ...scheduleColumns(c.schedule) };
}

/** fitRequest is the fit request of curves with settings (the annealing law; callers add the model). */
function fitRequest(curves, settings) {
  return {
    curves: curves.map((c) => ({ name: c.name, role: c.role, schedule: scheduleForRequest(c.schedule) })),
    lambda: settings.fitLambda ? 'fit' : settings.lambda,
    warmupSteps: settings.warmupSteps,
    warmupConvention: settings.warmupConvention,
    huberDelta: settings.huberDelta,
  };
}

/** renderAutoNote says what the automatic choice picked (the fit response's auto.reason). */
function renderAutoNote() {
  const auto = state.fit && state.fit.response.auto;
  $('#auto-note').hidden = !auto;
  $('#auto-note').textContent = auto
    ? `Auto picked the warmup counted ${auto.warmupConvention === 'peak' ? 'at the peak LR' : 'as run'} and λ = ${fmt.sig(auto.lambda, 6)}: ${auto.reason}`
    : '';
}

/** runValidate leaves each curve out in turn, fits each law of the setting on the others and predicts it. */
async function runValidate() {
  if (fitting) return;
  clearMessage();
  let settings;
  try {
    settings = readSettings();
  } catch (err) {
    return showMessage(err.message);
  }
  // The curves marked fit are left out in turn (the held-out curves are predicted by the fit
  // itself); every fold refits, so this keeps the cost at one fit per fitting curve.
  const curves = state.curves.filter((c) => c.schedule && c.role === 'fit');
  if (curves.length < 2) return showMessage('Validation needs at least two curves marked "fit" (with schedules).');
  const request = fitRequest(curves.map((c) => ({ ...c, role: 'fit' })), settings);
  if (settings.auto && settings.law !== 'multi-power') request.auto = true;
  request.models = settings.law === 'both' ? ['annealing', 'multi-power'] : [settings.law];
  request.level = 0.9;
  setFitting(true);
  setStatus(`Validating: ${curves.length} fits per law, each leaving one curve out…`);
  try {
    const { result } = await client.call('validate', request, curves.map(curveColumns), (f) => {
      $('#fit-progress').value = f;
    });
    state.validation = result;
    const ann = result.summaries.find((s) => s.model === 'annealing');
    state.band = ann && Number.isFinite(ann.bandHalfWidth) ? { halfWidth: ann.bandHalfWidth, level: ann.bandLevel } : null;
    setStatus(`Validated ${curves.length} curve(s) in ${fmt.ms(result.elapsedMs)}.`);
    render();
  } catch (err) {
    if (/cancel/i.test(err.message)) setStatus('Validation cancelled.');
    else {
      setStatus('The validation failed.');
      showMessage(`Validate: ${err.message}`);
    }
  } finally {
    setFitting(false);
  }
}

function setFitting(on) {
  if (on && !fitting) fitDone = new Promise((resolve) => { endFitting = resolve; });
  if (!on && fitting) endFitting();
  fitting = on;
  $('#fit-button').disabled = on;
  $('#validate-button').disabled = on;
  $('#cancel-button').disabled = !on;
  $('#fit-progress').hidden = !on;
  $('#fit-progress').value = 0;
  document.body.classList.toggle('fitting', on);
}

/** predictError: the message shows a failed prediction, to be cleared once one succeeds. */
let predictError = false;

/**
 * predict computes each law's curve, with its current parameters, for every curve with a schedule
 * and every schedule to predict, thinned to about 2000 points each for drawing. The Multi-Power
 * Law's fit already drew the curves it was fitted on: after a fit it predicts the schedules only.
 * It resolves to false when lawcore refused (the message says why).
 */
async function predict() {
  const current = currentParams();
  const mpl = multiPowerParams();
  const items = [...state.curves.filter((c) => c.schedule), ...state.predictions];
  const mplItems = state.fit2 && !state.manualParams ? state.predictions : items;
  const seq = ++predictSeq;
  try {
    const [predicted, predicted2] = await Promise.all([
      current && items.length ? predictWith(predictRequest(current, items, 2000), items) : new Map(),
      mpl && mplItems.length ? predictWith(predictRequest(mpl, mplItems, 2000, 'multi-power'), mplItems) : new Map(),
    ]);
    if (seq !== predictSeq) return true;
    state.predicted = predicted;
    state.predicted2 = predicted2;
    if (predictError) clearMessage();
    predictError = false;
  } catch (err) {
    if (seq !== predictSeq) return false;
    showMessage(`Predict: ${err.message}`);
    predictError = true;
    render();
    return false;
  }
  render();
  return true;
}

/** predictWith runs a predict request for items: Map name -> {steps, lr, loss, s1Term, s2Term, finalLoss}. */
async function predictWith(request, items) {
  const { result, columns } = await client.call('predict', request, items.map((c) => scheduleColumns(c.schedule)));
  return new Map(predictedCurves(result).map((r, i) => [r.name, { ...columns[i], finalLoss: r.finalLoss }]));
}

/** predictedCurves takes the per-curve results of `predict`: an array (README) or {curves} (bridge). */
function predictedCurves(result) {
  return Array.isArray(result) ? result : (result && result.curves) || [];
}

/** predictRequest asks for items' curves with a law's current {params, settings} (the annealing law unless model says). */
function predictRequest(current, items, points, model = 'annealing') {
  const req = {
    ...(model === 'multi-power' ? { model, multiPower: current.params } : { params: current.params }),
    warmupSteps: current.settings.warmupSteps,
    warmupConvention: current.settings.warmupConvention,
    curves: items.map((c) => ({ name: c.name, schedule: scheduleForRequest(c.schedule) })),
  };
  if (points) req.points = points;
  return req;
}

// ---- parameters by hand ---------------------------------------------------------------------

const MANUAL = ['L0', 'A', 'alpha', 'C', 'lambda'];

function fillManual(params) {
  for (const k of MANUAL) $(`#manual-${k}`).value = params[k] === undefined ? '' : String(Number(params[k].toPrecision(6)));
}

async function applyManual() {
  clearMessage();
  const params = {};
  for (const k of MANUAL) {
    const raw = $(`#manual-${k}`).value.trim();
    const x = fmt.parseDecimal(raw);
    if (Number.isNaN(x)) return showMessage(`Parameter ${k}: "${raw}" is not a number.`);
    if (k === 'lambda' ? !(x > 0 && x < 1) : x < 0) return showMessage(`Parameter ${k}: ${x} is out of range (${k === 'lambda' ? 'between 0 and 1' : 'zero or more'}).`);
    params[k] = x;
  }
  let settings;
  try {
    settings = readSettings();
  } catch (err) {
    return showMessage(err.message);
  }
  const previous = state.manualParams;
  state.manualParams = { params, settings };
  setStatus('Predicting with the parameters entered by hand.');
  if (!(await predict())) {
    // lawcore refused them (a loss that overflows, say): the view stays as it was.
    state.manualParams = previous;
    setStatus('The parameters entered by hand were not applied.');
    render();
    return;
  }
  refreshAnalyses();
}

// ---- adding curves --------------------------------------------------------------------------

async function addFiles(files) {
  if (!files.length) return;
  clearMessage();
  setStatus(`Reading ${files.length} file(s)…`);
  const { curves, lrCurves, notes, errors } = await importFiles(client, files, askImport);
  try {
    notes.push(...(await giveLearningRates(curves, lrCurves)).notes);
  } catch (err) {
    errors.push(err.message);
  }
  const added = curves.map((c) => addCurve(c));
  const noLR = added.filter((c) => !c.schedule).map((c) => c.name);
  const given = lrCurves.length ? ` ${lrCurves.length} learning-rate file(s) read.` : '';
  setStatus(`Added ${added.length} curve(s).${given}` + (noLR.length ? ` Without learning rates: give ${noLR.join(', ')} a schedule, or add its learning-rate file.` : ''));
  if (errors.length) showMessage([...errors, ...notes]);
  else if (notes.length) showMessage(notes, 'notice');
  render();
  if (added.length || lrCurves.length) predict();
}

/**
 * giveLearningRates makes files holding learning rates only the schedules of the curves they
 * belong to: the new curves without a schedule, or when there are none (the learning rates came
 * alone), the loaded curves still without one. It returns pairLearningRates' {paired, notes}.
 */
async function giveLearningRates(curves, lrCurves) {
  const waiting = curves.filter((c) => !c.schedule);
  const got = await pairLearningRates(client, waiting.length ? waiting : state.curves.filter((c) => !c.schedule), lrCurves);
  if (got.paired) touch();
  return got;
}

async function addPasted(text, name) {
  if (!text.trim()) return showMessage('Paste some CSV or TSV text first.');
  clearMessage();
  try {
    const fileName = name || 'pasted';
    const { curves, lrCurves, notes, skipped } = await importText(client, fileName, text, askImport);
    if (skipped) {
      showMessage(notes, 'notice');
      return false;
    }
    const given = await giveLearningRates(curves, lrCurves);
    notes.push(...given.notes);
    if (!curves.length && !given.paired) throw new Error(notes.join(' ') || `${fileName}: no curves`);
    const added = curves.map((c) => addCurve(curves.length === 1 ? { ...c, name: fileName } : { ...c, name: `${fileName} ${c.name}` }));
    setStatus(added.length ? `Added ${added.map((c) => c.name).join(', ')}.` : 'Learning rates read.');
    if (notes.length) showMessage(notes, 'notice');
    render();
    predict();
    return true;
  } catch (err) {
    showMessage(err.message);
    return false;
  }
}

// ---- examples -------------------------------------------------------------------------------

/** loadExample loads an example in place of the view; the view it replaced comes back with Undo. */
async function loadExample(name, load) {
  const replaced = state.curves.length > 0 || state.predictions.length > 0;
  const restore = snapshotView();
  await load();
  if (replaced) offerUndo(`Loaded ${name}.`, restore);
}

function resetTo(settings) {
  state.curves = [];
  state.predictions = [];
  state.predicted = new Map();
  state.predicted2 = new Map();
  state.fit = null;
  state.fit2 = null;
  state.validation = null;
  state.band = null;
  state.manualParams = null;
  state.settings = { ...settings };
  $('#auto-note').hidden = true;
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
    await runFit({ keepMessage, replace: true });
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
    await runFit({ replace: true });
  } catch (err) {
    showMessage(`Example: ${err.message}`);
  }
}

// ---- export ---------------------------------------------------------------------------------

const ANNEALING_LAW = 'L(s) = L0 + A*S1(s)^(-alpha) - C*S2(s); S1 = sum eta_i; m_i = lambda*m_{i-1} + (eta_{i-1} - eta_i); S2 = sum m_i';
const MULTI_POWER_LAW = 'L(t) = L0 + A*(S1(t)+S_W)^(-alpha) - LD(t); LD(t) = B * sum_k (eta_{k-1} - eta_k) * (1 - (C*eta_k^(-gamma)*S_k(t) + 1)^(-beta))';

/** fitSummary is one law's fit as exported: its parameters and, from a fit, how it went. */
function fitSummary(law, params, response) {
  const fit = response ? {
    objective: response.objective, search: response.search, elapsedMs: response.elapsedMs, auto: response.auto,
    curves: response.curves.map((c) => ({ name: c.name, role: c.role, metrics: c.metrics })),
    fitMetrics: response.fitMetrics, validateMetrics: response.validateMetrics,
  } : {};
  return { law, params, ...fit };
}

/**
 * exportJSON saves both laws' parameters (those it has), every setting that produced them, the
 * tool's version, each curve's schedule, the validation and the predictions.
 */
function exportJSON() {
  const current = currentParams();
  const mpl = multiPowerParams();
  if (!current && !mpl) return showMessage('Nothing to export yet: fit first, or enter parameters by hand.');
  const manual = state.manualParams;
  const settings = { ...DEFAULT_SETTINGS, ...(current || mpl).settings };
  const annealing = current ? fitSummary(ANNEALING_LAW, current.params, manual ? null : state.fit.response) : null;
  downloadJSON({
    tool: 'annealing scaling-law calculator',
    version: client.version,
    exported: new Date().toISOString(),
    source: manual ? (manual.from === 'link' ? 'share link' : 'entered by hand') : 'fit',
    settings: { ...settings, lambda: settings.fitLambda ? 'fit' : settings.lambda },
    ...(annealing || {}),
    multiPower: mpl ? fitSummary(MULTI_POWER_LAW, mpl.params, manual ? null : state.fit2.response) : undefined,
    schedules: state.curves.map((c) => ({ name: c.name, role: c.role, schedule: c.schedule || null })),
    validation: state.validation || undefined,
    predictions: state.predictions.map((p) => ({
      name: p.name, schedule: p.schedule, finalLoss: state.predicted.get(p.name)?.finalLoss, finalLossMultiPower: state.predicted2.get(p.name)?.finalLoss,
    })),
  }, 'annealing-law-fit.json');
}

/**
 * exportObservedCSV saves every curve's observed points with the fitted (or, for curves marked
 * validate, predicted) loss of the latest fit at the same steps: one column per law fitted.
 */
function exportObservedCSV() {
  if (!state.curves.length) return showMessage('No curves with data to export.');
  const byName = (fit) => new Map((fit && !state.manualParams ? fit.response.curves : []).map((r) => [r.name, r.predicted]));
  const laws = [['fitted', byName(state.fit)], ['fitted_multi_power', byName(state.fit2)]].filter(([, m]) => m.size);
  const rows = [['curve', 'role', 'step', 'observed', ...laws.map(([col]) => col)].join(',') + '\n'];
  for (const c of state.curves) {
    const name = /[",\n\r]/.test(c.name) ? `"${c.name.replace(/"/g, '""')}"` : c.name;
    const fitted = laws.map(([, m]) => m.get(c.name)).map((f) => (f && f.length === c.steps.length ? f : null));
    for (let i = 0; i < c.steps.length; i++) {
      rows.push([name, c.role, c.steps[i], c.loss[i], ...fitted.map((f) => (f ? f[i] : ''))].join(',') + '\n');
    }
  }
  download(new Blob(rows, { type: 'text/csv' }), 'annealing-law-observed.csv');
  setStatus(`Exported ${state.curves.length} observed curve(s) as CSV.`);
}

async function exportCSV() {
  const current = currentParams();
  const mpl = multiPowerParams();
  if (!current && !mpl) return showMessage('Nothing to export yet: fit first, or enter parameters by hand.');
  const items = [...state.curves.filter((c) => c.schedule), ...state.predictions];
  if (!items.length) return showMessage('No curves or schedules to export.');
  setStatus('Preparing the CSV…');
  try {
    const laws = [['annealing', current], ['multi-power', mpl]].filter(([, params]) => params);
    // Every step, unless that makes more rows than a browser tab holds: then each curve is thinned.
    const rows = laws.length * items.reduce((n, c) => n + scheduleSteps(c.schedule), 0);
    const points = rows > MAX_CSV_ROWS ? Math.max(100, Math.floor(MAX_CSV_ROWS / (laws.length * items.length))) : 0;
    const curves = [];
    for (const [law, params] of laws) {
      for (const [name, columns] of await predictWith(predictRequest(params, items, points, law), items)) curves.push({ name, law, ...columns });
    }
    download(predictionCSV(curves, state.band && !state.manualParams ? state.band.halfWidth : null), 'annealing-law-predictions.csv');
    setStatus(`Exported ${curves.length} predicted curve(s) as CSV`
      + (points ? `, each thinned to about ${fmt.steps(points)} steps: every step would be ${fmt.steps(rows)} rows, more than the ${fmt.steps(MAX_CSV_ROWS)} an export holds.` : '.'));
  } catch (err) {
    showMessage(`CSV export: ${err.message}`);
  }
}

/** chartOf finds the chart an export button names (data-png or data-svg) and its title. */
function chartOf(id, button) {
  if (id === 'analysis') return { u: analysisChart(), title: `Analysis: ${$('#analysis-view').selectedOptions[0]?.textContent || ''}` };
  return { u: charts.get(id), title: button.dataset.title };
}

async function exportPNG(button) {
  const id = button.dataset.png;
  const { u, title } = chartOf(id, button);
  if (!u) return showMessage('This chart is empty.');
  try {
    download(await chartPNG(u, title), `annealing-law-${id}.png`);
  } catch (err) {
    showMessage(`PNG export: ${err.message}`);
  }
}

function exportSVG(button) {
  const id = button.dataset.svg;
  const { u, title } = chartOf(id, button);
  if (!u) return showMessage('This chart is empty.');
  try {
    download(chartSVG(u, title), `annealing-law-${id}.svg`);
  } catch (err) {
    showMessage(`SVG export: ${err.message}`);
  }
}

// ---- share links ----------------------------------------------------------------------------

/** shareView is the page's view as the versioned JSON of a share link (README, "Share links"). */
function shareView(withData) {
  const current = currentParams();
  const mpl = multiPowerParams();
  const finite = (params) => Object.fromEntries(Object.entries(params).filter(([, x]) => Number.isFinite(x)));
  return {
    v: SHARE_VERSION,
    settings: { ...DEFAULT_SETTINGS, ...state.settings, law: state.settings.law || 'annealing', auto: !!state.settings.auto },
    params: current ? finite(current.params) : null,
    ...(mpl ? { multiPower: finite(mpl.params) } : {}),
    source: current || mpl ? (state.manualParams ? 'manual' : 'fit') : null,
    curves: state.curves.map((c) => ({
      name: c.name, role: c.role, schedule: withData ? c.schedule || null : thinSchedule(c.schedule),
      ...(withData ? { steps: Array.from(c.steps), loss: Array.from(c.loss) } : {}),
    })),
    predictions: state.predictions.map((p) => ({ name: p.name, schedule: p.schedule })),
  };
}

/**
 * thinSchedule keeps at most 2000 points of an explicit schedule (a file's LR column), so that a
 * link without the curves' data stays small; other schedules are descriptions and stay as they are.
 */
function thinSchedule(schedule) {
  if (!schedule || schedule.kind !== 'explicit' || !Array.isArray(schedule.steps) || schedule.steps.length <= 2000) return schedule || null;
  const n = schedule.steps.length;
  const keep = [];
  for (let k = 0; k < 2000; k++) keep.push(Math.round((k * (n - 1)) / 1999));
  return { ...schedule, steps: keep.map((k) => schedule.steps[k]), lr: keep.map((k) => schedule.lr[k]) };
}

async function makeShareLink() {
  const note = $('#share-note');
  const base = location.href.replace(/#.*$/, '');
  try {
    // The link must pass the checks of a link opened: with the data when it can (a curve of more
    // points than a link holds cannot), else without.
    const withData = shareView(true);
    let fits = true;
    try {
      checkShareable(withData);
    } catch {
      fits = false;
    }
    let payload = fits ? await encodeShare(withData) : '';
    let text = 'Link copied: it holds the settings, parameters, schedules and the curves’ data.';
    if (!fits || payload.length > MAX_FRAGMENT) {
      const withoutData = shareView(false);
      checkShareable(withoutData);
      payload = await encodeShare(withoutData);
      text = `With the curves’ data the link would be too large (over ${MAX_FRAGMENT / 1024} KB): this link leaves the data out (the curves come back as schedules to predict).`;
      if (payload.length > MAX_FRAGMENT) throw new Error(`the view is too large for a link even without data (${Math.round(payload.length / 1024)} KB)`);
    }
    const link = `${base}#s=${payload}`;
    $('#share-link').value = link;
    $('#share-link').hidden = false;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      text = text.replace('Link copied', 'Link ready (copy it from the box)');
    }
    note.textContent = text;
  } catch (err) {
    note.textContent = `This view cannot be shared as a link: ${err.message}`;
  }
}

/** restoreShare opens the view of a share link (already checked by decodeShare). */
async function restoreShare(view) {
  resetTo(view.settings);
  const notes = [];
  for (const c of view.curves) {
    if (c.steps) {
      addCurve({ name: c.name, role: c.role, steps: c.steps, loss: c.loss, schedule: c.schedule, scheduleSource: c.schedule && c.schedule.kind === 'explicit' ? 'file' : 'builder', source: 'shared link' });
    } else if (c.schedule) {
      addPrediction(c.name, c.schedule);
      notes.push(`${c.name}: the link holds no data for this curve; its schedule is predicted.`);
    } else {
      notes.push(`${c.name}: the link holds neither data nor a schedule for this curve; it is left out.`);
    }
  }
  for (const p of view.predictions) addPrediction(p.name, p.schedule);
  state.stale = false;
  render();
  const canFit = state.curves.some((c) => c.role === 'fit') && state.curves.every((c) => c.schedule);
  if (view.source === 'fit' && canFit) {
    await runFit({ keepMessage: true, replace: true });
  } else if (view.params || view.multiPower) {
    const params = view.params && { L0: view.params.L0, A: view.params.A, alpha: view.params.alpha, C: view.params.C, lambda: view.params.lambda };
    state.manualParams = { params, multiPower: view.multiPower, settings: { ...view.settings }, from: view.source === 'fit' ? 'link' : 'manual' };
    if (params) fillManual(params);
    render();
    await predict();
  }
  setStatus('Opened the view of a shared link.');
  if (notes.length) showMessage(notes, 'notice');
}

/** openFromHash restores a #s= link; it returns false when there is none or it was refused. */
async function openFromHash() {
  const m = /^#s=(.*)$/s.exec(location.hash);
  if (!m) return false;
  try {
    const view = await decodeShare(m[1]);
    await restoreShare(view);
    return true;
  } catch (err) {
    showMessage(`Share link refused: ${err.message}. The default example is shown instead.`);
    return false;
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
    if (isTyping(e.target) || $('#schedule-dialog').open || $('#import-dialog').open) return;
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
  $('#example-fig2').addEventListener('click', () => loadExample('the Fig. 2 example', () => loadFig2Example()));
  $('#example-mpl25').addEventListener('click', () => loadExample('the MultiPowerLaw 25M example', () => loadMPLExample(25)));
  $('#example-mpl100').addEventListener('click', () => loadExample('the MultiPowerLaw 100M example', () => loadMPLExample(100)));
  $('#clear-curves').addEventListener('click', () => {
    if (!state.curves.length) return;
    const n = state.curves.length;
    offerUndo(`Removed all ${n} curve(s).`, removeAllCurves());
    render();
    $('#undo-button').focus();
  });
  initUndo(() => {
    writeSettings(state.settings);
    render();
    predict();
    refreshAnalyses();
  });
  for (const id of ['#lambda', '#fit-lambda', '#warmup-steps', '#warmup-convention', '#huber-delta', '#law', '#auto', '#mpl-search']) {
    $(id).addEventListener('change', onSettingsChange);
  }
  $('#fit-button').addEventListener('click', () => runFit());
  $('#validate-button').addEventListener('click', () => runValidate());
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
  for (const b of document.querySelectorAll('[data-svg]')) b.addEventListener('click', () => exportSVG(b));
  $('#share-button').addEventListener('click', makeShareLink);
  window.addEventListener('hashchange', () => { if (/^#s=/.test(location.hash)) openFromHash(); });
  $('#export-json').addEventListener('click', exportJSON);
  $('#export-csv').addEventListener('click', exportCSV);
  $('#export-observed').addEventListener('click', exportObservedCSV);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', drawAll);

  client.addEventListener('ready', (e) => { $('#version').textContent = e.detail || '?'; });
  client.addEventListener('memory', (e) => {
    $('#engine-memory').textContent = `${Math.round(e.detail / 2 ** 20)} MB`;
    $('#engine-memory').dataset.bytes = String(e.detail);
  });
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
initAnalyses({ client, setup: analysisSetup, curves: () => state.curves });
render();
client.ready.then(() => {
  performance.mark('lawcore-ready');
  return openFromHash().then((opened) => (opened ? null : loadFig2Example({ keepMessage: true }).then(() => performance.mark('example-shown'))));
}, (err) => showMessage(`The calculator could not start: ${err.message}`));
