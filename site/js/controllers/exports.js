// Exports: the parameters as JSON, predicted curves as CSV (as dense as the charts, from the
// lines drawn, or every step, predicted again for the file), observed and fitted points as CSV, an analysis's table as
// CSV, and any chart as PNG or SVG.
import { predictionCSV, observedCSV, tableCSV, fitDocument, csvStart, fromStep } from '../export/export-files.js';
import { download, downloadJSON } from '../export/download.js';
import { chartPNG } from '../export/chart-png.js';
import { chartSVG } from '../export/svg-export.js';
import { LAW_NAMES } from '../engine/schema.js';
import { paramsOf, lineOf, lineBand } from '../state/selectors.js';
import { DRAWN_POINTS } from './predicting.js';
import { scheduleSteps } from '../schedules/schedule-kinds.js';
import * as fmt from '../common/format.js';

/** MAX_CSV_ROWS bounds the predicted-curves CSV (about 80 MB): past it each curve is thinned. */
export const MAX_CSV_ROWS = 1_000_000;

/** csvPoints is how many steps each curve of the CSV keeps: 0 (every one) unless rows would pass MAX_CSV_ROWS. */
export function csvPoints(rows, curves) {
  return rows > MAX_CSV_ROWS ? Math.max(100, Math.floor(MAX_CSV_ROWS / curves)) : 0;
}

/**
 * createExports returns {json(), predictedCSV({everyStep}), observedCSV(), analysisTable(), png(id, title),
 * svg(id, title)}; chartOf(id) is the uPlot drawn in chart id (null when empty).
 */
export function createExports({ store, engine, chartOf }) {
  const nothing = () => store.showMessage('Nothing to export yet: fit first, or enter parameters by hand.');

  /** image saves chart id as made by make(u, title) (PNG or SVG). */
  /**
   * image exports a chart as kind (PNG or SVG), saying so while it draws (the status paints
   * first) and how long it took once downloaded.
   */
  async function image(kind, make, id, title) {
    const u = chartOf(id);
    if (!u) return store.showMessage('This chart is empty.');
    const started = performance.now();
    store.setStatus(`Drawing the ${title ? `“${title}” ` : ''}chart as ${kind}…`);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    try {
      const blob = await make(u, title);
      download(blob, `annealing-law-${id}.${kind.toLowerCase()}`);
      store.setStatus(
        `Exported the ${title ? `“${title}” ` : ''}chart as ${kind} (${fmt.bytes(blob.size)}) in ${fmt.ms(performance.now() - started)}.`,
      );
    } catch (err) {
      store.setStatus(`The ${kind} export failed.`);
      store.showMessage(`${kind} export: ${err.message}`);
    }
  }

  return {
    json() {
      const doc = fitDocument(store.state, engine.version);
      if (!doc) return nothing();
      downloadJSON(doc, 'annealing-law-fit.json');
    },

    /**
     * predictedCSV writes each curve and schedule under each law with parameters, from where the
     * charts start (csvStart): as dense as the charts draw them (the lines drawn), or with
     * everyStep, predicted again at every step (thinned only past MAX_CSV_ROWS rows).
     */
    async predictedCSV({ everyStep = false } = {}) {
      const state = store.state;
      const laws = LAW_NAMES.filter((law) => paramsOf(state, law));
      if (!laws.length) return nothing();
      const items = [...state.curves.filter((c) => c.schedule), ...state.predictions];
      if (!items.length) return store.showMessage('No curves or schedules to export.');
      store.setStatus(everyStep ? 'Predicting every step for the CSV…' : 'Preparing the CSV…');
      try {
        const rows = laws.length * items.reduce((n, c) => n + scheduleSteps(c.schedule), 0);
        const points = everyStep ? csvPoints(rows, laws.length * items.length) : 0;
        const curves = [];
        for (const law of laws) {
          const p = paramsOf(state, law);
          // The lines drawn, and those not drawn yet predicted as densely as the charts draw them.
          const drawn = everyStep
            ? new Map()
            : new Map(items.map((item) => [item.name, lineOf(state, law, item)]).filter(([, line]) => line));
          const missing = items.filter((item) => !drawn.has(item.name));
          const predicted = missing.length
            ? await engine.predict(law, p, missing, everyStep ? points : DRAWN_POINTS, lineBand(state, law))
            : new Map();
          for (const item of items) {
            const line = drawn.get(item.name) || predicted.get(item.name);
            if (line)
              curves.push({
                name: item.name,
                law,
                average: Boolean(p.members),
                ...fromStep(line, csvStart(state, item, p.settings)),
              });
          }
        }
        const blob = predictionCSV(curves, state.band && !state.manual ? state.band : null);
        download(blob, 'annealing-law-predictions.csv');
        const written = curves.reduce((n, c) => n + c.steps.length, 0);
        store.setStatus(
          `Exported ${curves.length} predicted curve(s) as CSV: ${fmt.steps(written)} rows, ${fmt.bytes(blob.size)}, from the first observed step (schedules: the end of warmup)`
            + (!everyStep
              ? ', as dense as the charts.'
              : points
                ? `, each thinned to about ${fmt.steps(points)} steps: every step would be ${fmt.steps(rows)} rows, more than the ${fmt.steps(MAX_CSV_ROWS)} an export holds.`
                : ', every step.'),
        );
      } catch (err) {
        store.showMessage(`CSV export: ${err.message}`);
      }
    },

    observedCSV() {
      const { curves } = store.state;
      if (!curves.length) return store.showMessage('No curves with data to export.');
      download(observedCSV(store.state), 'annealing-law-observed.csv');
      store.setStatus(`Exported ${curves.length} observed curve(s) as CSV.`);
    },

    analysisTable() {
      const { result } = store.state.analysis;
      if (result && result.table) download(tableCSV(result.table), `analysis-${result.view}.csv`);
    },

    png: (id, title) => image('PNG', chartPNG, id, title),
    svg: (id, title) => image('SVG', chartSVG, id, title),
  };
}
