// The page's wiring: the store, the engine (lawcore in its worker), the controllers that run
// what the user asks and the views that draw the store. Data flows one way: a control calls a
// controller (or a store action), the controller calls the engine and hands the answer to the
// store, the results derived from the state (predicted lines, the Analyses panel's answer) are
// computed again in one place when what they derive from changes (controllers/derived.js), and
// the views redraw from the store.
import { $ } from './views/dom.js';
import { LawClient } from './engine/lawclient.js';
import { createEngine } from './engine/engine.js';
import { setSchema } from './engine/schema.js';
// lawcore's `schema` answer, as built: TestCoreSchemaFile keeps this file equal to what the full
// module answers, and esbuild bundles it. With it, the views are built while lawcore loads,
// and the first fit goes to the worker the moment lawcore is up (a `schema` call first, then
// the views, cost 50-80 ms of the first view).
import SCHEMA from '../../wasm/schema.json' with { type: 'json' };
import { createStore } from './state/store.js';
import { parseManualParams } from './state/settings.js';
import { createAnalyses } from './controllers/analyses.js';
import { createPredicting } from './controllers/predicting.js';
import { createFitting } from './controllers/fitting.js';
import { createImports } from './controllers/imports.js';
import { createExamples, EXAMPLES } from './controllers/examples.js';
import { createSharing } from './controllers/sharing.js';
import { createSchedules } from './controllers/schedules.js';
import { createWorkspace } from './controllers/workspace.js';
import { deriveResults } from './controllers/derived.js';
import { showMessages } from './views/messages.js';
import { showWorkspace } from './views/workspace.js';
import { showEngine } from './views/footer.js';
import { showFitting } from './views/fit-controls.js';
import { showSettings, readSettings, lockLambda, fillLawChoices, SETTING_FIELDS } from './views/settings-form.js';
import { showManualParams, manualTexts, manualLaw } from './views/manual-form.js';
import { showResults } from './views/results.js';
import { showLists } from './views/curve-list.js';
import { parseWindow } from './schedules/curve-facts.js';
import { parseCount } from './common/format.js';
import { showCharts } from './views/charts.js';
import { showAnalyses } from './views/analysis-panel.js';
import { showPaperClaims } from './views/paper-panel.js';
import { showUndo } from './views/undo-bar.js';
import { showExampleNote } from './views/example-note.js';
import { showLawNotes, showExportSize } from './views/law-notes.js';
import { showAnswers } from './views/answers.js';
import { showExplain } from './views/explain.js';
import { showShare } from './views/share-box.js';
import { acceptDrops } from './views/file-drop.js';
import { pickedFolder } from './import/folder-files.js';

// Modules the first view does not use load on first use: the exports (PNG, SVG, CSV, JSON),
// the schedule builder and the import questions.
let exportsLoaded = null;
/** exporting runs one of the exports' methods, loading them the first time. */
const exporting =
  (name) =>
  async (...args) => {
    exportsLoaded ||= import('./controllers/exports.js').then(({ createExports }) =>
      createExports({ store, engine, chartOf: (id) => (id === 'analysis' ? analysisChart() : resultChart(id)) }),
    );
    return (await exportsLoaded)[name](...args);
  };
let dialogLoaded = null;
/** editSchedule opens the schedule builder (schedule-dialog.js), loading it the first time. */
const editSchedule = async (options) => {
  dialogLoaded ||= import('./views/schedule-dialog.js').then((m) => {
    m.initScheduleDialog(schedules.service, engine.ready);
    return m;
  });
  return (await dialogLoaded).editSchedule(options);
};
/** askImport asks the user how to read an ambiguous file (import-dialog.js, loaded the first time). */
const askImport = async (...args) => (await import('./views/import-dialog.js')).askImport(...args);

const client = new LawClient('worker.js');
// For the browser console (and the tests): the worker client.
globalThis.lawcoreClient = client;
setSchema(SCHEMA);
const engine = createEngine(client);
const store = createStore();

// ---- controllers ----------------------------------------------------------------------------

const analyses = createAnalyses({ store, engine });
const predicting = createPredicting({ store, engine });
deriveResults({ store, predicting, analyses });
const fitting = createFitting({ store, engine, predicting });
const imports = createImports({ store, engine, ask: askImport });
const examples = createExamples({ store, engine, fitting });
const sharing = createSharing({ store, fitting, predicting });
const schedules = createSchedules({ store, engine, editSchedule });
// The stored work is read from here on, while lawcore loads.
// boot.js has opened the databases and begun reading them; the site's build (a hash of its files,
// written by make build) is the one under which the example as fitted is kept
const storage = globalThis.lawcoreStorage;
const workspace = createWorkspace({
  store,
  build: storage?.build || '',
  open: storage && (() => storage.work),
  openExample: storage?.example ? () => storage.example : undefined,
});
const exports = Object.fromEntries(
  ['png', 'svg', 'json', 'predictedCSV', 'observedCSV', 'analysisTable'].map((name) => [name, exporting(name)]),
);

// ---- views ----------------------------------------------------------------------------------

// Every view shows at once, while lawcore loads (a failure to start is a message); the schema
// they read (the laws' parameters and terms) is the build's.
showMessages(store, { fit: () => fitNow() });
showWorkspace(store, {
  startEmpty: () => workspace.startEmpty(),
  back: () => workspace.backToSaved(),
  resume: () => workspace.resume(),
  forget: () => workspace.forget(),
  dismiss: () => store.setWorkspace({ line: null }),
});
showEngine(store);
showFitting(store);
showExampleNote(store, EXAMPLES);
let resultChart = () => null;
let analysisChart = () => null;
function showViews() {
  showSettings(store);
  showManualParams(store);
  showResults(store, {
    // A warning's fix: the window of the curves named starts at from, and the fit runs again.
    fitFrom: (names, from) => {
      store.setWindow(names, from);
      if (commitSettings()) fitting.fit();
    },
  });
  showLawNotes(store);
  showExplain();
  showAnswers(store, {
    options: (change) => store.setAnswerOptions(change),
    code: (name, flavour) => schedules.copyCode(name, flavour, (text) => navigator.clipboard.writeText(text)),
  });
  showExportSize(store);
  showShare(store);
  showLists(store, {
    role: (name, role) => store.setRole(name, role),
    schedule: (name) => schedules.editCurve(name),
    window: (name, text) => {
      const curve = store.state.curves.find((c) => c.name === name);
      if (!curve) return;
      let from;
      try {
        from = parseWindow(text, curve);
      } catch (err) {
        store.showMessage(err.message);
        return false;
      }
      store.clearMessage();
      if (from !== (curve.from ?? null)) store.setWindow(name, from);
      return true;
    },
    rename: (name, label) => store.renameCurve(name, label),
    edit: (name) => schedules.editPrediction(name),
    remove: (name) => store.remove(name),
  });
  resultChart = showCharts(store);
  analysisChart = showAnalyses(store, {
    select: (id) => analyses.select(id),
    run: () => analyses.run(),
    cancel: () => analyses.cancel(),
    reset: () => analyses.resetOptions(),
    toggled: (open) => analyses.toggled(open),
    example: () => analyses.run({ example: true }),
    field: (key, text) => analyses.setField(key, text),
    options: (text) => analyses.setOptionsText(text),
    relative: (on) => store.analysisChanged({ relative: on }),
    size: (name, size) => analyses.setCurveSize(name, size),
    target: (text) => analyses.setSizeTarget(text),
    exportTable: () => exports.analysisTable(),
  });
  showPaperClaims(store, { open: openClaim, back: () => analyses.select('paper') });
  showUndo(store, () => store.undo());
}

/**
 * openClaim shows the view of one of the paper's claims (analyses.openClaim); the claim about the
 * page's own fit shows the Fig. 2 example's fit (loaded, with Undo, when another view is on the
 * page) and its loss chart.
 */
async function openClaim(id) {
  if (analyses.openClaim(id) !== 'fit') return;
  if (!(store.state.example && store.state.example.title === EXAMPLES.fig2.title))
    await examples.load('the Fig. 2 example', 'fig2');
  $('#chart-loss').scrollIntoView({ behavior: 'smooth', block: 'center' });
}

// ---- controls -------------------------------------------------------------------------------

const on = (selector, event, fn) => $(selector).addEventListener(event, fn);

/** commitSettings puts the settings form in the store; false (and the reason shown) when a field is wrong. */
function commitSettings() {
  try {
    store.setSettings(readSettings(store.state.settings.lambda));
    return true;
  } catch (err) {
    store.showMessage(err.message);
    return false;
  }
}

for (const id of SETTING_FIELDS) {
  on(id, 'change', () => {
    lockLambda();
    try {
      store.setSettings(readSettings(store.state.settings.lambda));
    } catch {
      /* reported when fitting */
    }
  });
}
/** fitNow fits the curves with the settings of the form (Fit, or the Fit of an import's report). */
async function fitNow() {
  if (!commitSettings()) return;
  // Fit pressed while files are read fits them once they are in (else it fitted the example they replace)
  const waited = imports.reading;
  if (waited) {
    store.setStatus('The fit starts once the files being read are in…');
    await imports.whenRead();
  }
  fitting.fit({ keepMessage: waited }); // what the import said, not yet read
}
on('#fit-button', 'click', fitNow);
on('#validate-button', 'click', () => commitSettings() && fitting.validate());
on('#cancel-button', 'click', () => fitting.cancel());
on('#manual-apply', 'click', () => {
  let params;
  let settings;
  const law = manualLaw(store.state);
  try {
    params = parseManualParams(manualTexts(), law);
    settings = readSettings(store.state.settings.lambda);
  } catch (err) {
    return store.showMessage(err.message);
  }
  predicting.applyManual(params, settings, law);
});

on('#file-input', 'change', (e) => {
  const files = [...e.target.files];
  e.target.value = '';
  imports.addFiles(files);
});
on('#folder-input', 'change', (e) => {
  const files = [...e.target.files];
  e.target.value = '';
  imports.addFolder(Promise.resolve().then(() => pickedFolder(files)));
});
acceptDrops({
  onFiles: (files) => imports.addFiles(files),
  onFolder: (folder, files) => imports.addFolder(folder, files),
  onText: (text) => imports.addPasted(text, 'pasted'),
});
on('#paste-add', 'click', async () => {
  if (await imports.addPasted($('#paste-text').value, $('#paste-name').value.trim())) $('#paste-text').value = '';
});
on('#example-fig2', 'click', () => examples.load('the Fig. 2 example', 'fig2'));
on('#example-mpl25', 'click', () => examples.load('the MultiPowerLaw 25M example', 25));
on('#example-mpl100', 'click', () => examples.load('the MultiPowerLaw 100M example', 100));
on('#clear-curves', 'click', () => {
  if (!store.state.curves.length && !store.state.predictions.length) return;
  store.clearAll();
  $('#undo-button').focus();
});
on('#add-prediction', 'click', () => schedules.addPrediction());
on('#example-keep', 'click', () => store.keepExample());

on('#log-x', 'change', (e) => store.setChartOption('logX', e.target.checked));
on('#x-unit', 'change', (e) => store.setChartOption('xUnit', e.target.value));
on('#smooth-loss', 'change', (e) => store.setChartOption('smooth', e.target.checked));
/**
 * chartNumber reads a positive count the charts need (tokens per step, N; 4M and 1.3B as typed), or
 * refuses it naming the field.
 */
function chartNumber(key, label, input) {
  const raw = input.value.trim();
  if (raw === '') return store.setChartOption(key, null);
  const x = parseCount(raw);
  if (!(x > 0)) {
    store.showMessage(`${label}: "${raw.slice(0, 40)}" is not a positive number (such as 4000000, 4,000,000 or 4M).`);
    input.value = store.state.chart[key] ?? '';
    return;
  }
  store.setChartOption(key, x);
}
on('#tokens-per-step', 'change', (e) => chartNumber('tokensPerStep', 'Tokens per step', e.target));
on('#model-size', 'change', (e) => chartNumber('modelSize', 'Model size N', e.target));
on('#log-y', 'change', (e) => store.setChartOption('logY', e.target.checked));
const dark = matchMedia('(prefers-color-scheme: dark)');
store.setChartOption('scheme', dark.matches ? 'dark' : 'light');
dark.addEventListener('change', () => store.setChartOption('scheme', dark.matches ? 'dark' : 'light'));

/** chartTitle is the title an exported chart gets: the button's, or the analysis view's. */
const chartTitle = (id, button) =>
  id === 'analysis' ? `Analysis: ${$('#analysis-view').selectedOptions[0]?.textContent || ''}` : button.dataset.title;
for (const b of document.querySelectorAll('[data-png]'))
  b.addEventListener('click', () => exports.png(b.dataset.png, chartTitle(b.dataset.png, b)));
for (const b of document.querySelectorAll('[data-svg]'))
  b.addEventListener('click', () => exports.svg(b.dataset.svg, chartTitle(b.dataset.svg, b)));
on('#export-json', 'click', () => exports.json());
on('#export-csv', 'click', () => exports.predictedCSV());
on('#export-csv-every', 'click', () => exports.predictedCSV({ everyStep: true }));
on('#export-observed', 'click', () => exports.observedCSV());
on('#share-button', 'click', () =>
  sharing.makeLink(location.href.replace(/#.*$/, ''), (link) => navigator.clipboard.writeText(link)),
);
window.addEventListener('hashchange', () => {
  if (/^#s=/.test(location.hash)) sharing.open(location.hash);
});
// A change waiting to be saved is saved at once when the tab is hidden or closed.
window.addEventListener('pagehide', () => workspace.flush({ leaving: true }));
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') workspace.flush({ leaving: true });
});

engine.on('ready', (version) => store.engineReady(version));
engine.on('memory', (bytes) => store.engineMemory(bytes));
engine.on('loading', ({ what, done }) => store.engineLoading(done ? '' : what));
engine.on('restart', (reason) => {
  store.engineLoading(''); // a load under way died with the worker
  store.showMessage(
    `The calculation worker stopped (${reason}) and was restarted. Your curves and settings are kept; run the last action again.`,
  );
});
engine.on('failed', (reason) =>
  store.showMessage(`The calculator could not start: ${reason}. Reload the page to try again.`),
);

// ---- start ----------------------------------------------------------------------------------

fillLawChoices();
showViews();
engine.ready.then(
  () => performance.mark('lawcore-ready'),
  (err) => store.showMessage(`The calculator could not start: ${err.message}`),
);
// The start-up view is put in place without waiting for lawcore: its fit or predictions wait in
// the worker's queue and start the moment lawcore is up, and the page builds the view meanwhile
// (waiting for lawcore first left the worker idle 50-130 ms while the page did that).
(async () => {
  // A share link wins (the user asked for that view), then the work kept in this browser, then the example.
  // shown is the view as the page put it, before its fit or predictions (the empty page when it
  // put none): a change the user made since (a field of the link's view, a file dropped on the
  // example) is the user's work, and watch saves it; a change made while the stored work is
  // still being read too. A curve or schedule the user adds while the stored work or the
  // example is read is theirs: it stays (begun), and is saved.
  const empty = store.state;
  let shown = empty;
  const onShown = () => {
    shown = store.state;
  };
  const begun = () => store.state.curves !== empty.curves || store.state.predictions !== empty.predictions;
  if (await sharing.open(location.hash, { shown: onShown })) {
    workspace.watch(shown);
    await workspace.linkOpened();
  } else {
    // the example as this build computed it on an earlier visit, or computed now (and kept for the next)
    if (
      !(await workspace.restore({ begun, shown: onShown }))
      && !(await workspace.restoreFittedExample({ examples: EXAMPLES, begun, shown: onShown }))
    ) {
      await examples.fig2({ keepMessage: true, shown: onShown, unless: begun });
      workspace.saveFittedExample(shown);
    }
    workspace.watch(shown);
  }
  performance.mark('example-shown');
  // offline.js registers the service worker now that the first view is on screen.
  dispatchEvent(new Event('lawcore-first-view'));
})();
