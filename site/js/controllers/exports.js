// Exports: the parameters as JSON, predicted curves as CSV (every step, predicted again for the
// file: the drawn lines are thinned), observed and fitted points as CSV, an analysis's table as
// CSV, and any chart as PNG or SVG.
import { predictionCSV, observedCSV, tableCSV, fitDocument } from '../export-files.js';
import { download, downloadJSON } from '../download.js';
import { chartPNG } from '../chart-png.js';
import { chartSVG } from '../svg-export.js';
import { LAW_NAMES } from '../schema.js';
import { paramsOf } from '../selectors.js';
import { scheduleSteps } from '../schedule-kinds.js';
import * as fmt from '../format.js';

/** MAX_CSV_ROWS bounds the predicted-curves CSV (about 80 MB): past it each curve is thinned. */
export const MAX_CSV_ROWS = 1_000_000;

/** csvPoints is how many steps each curve of the CSV keeps: 0 (every one) unless rows would pass MAX_CSV_ROWS. */
export function csvPoints(rows, curves) {
  return rows > MAX_CSV_ROWS ? Math.max(100, Math.floor(MAX_CSV_ROWS / curves)) : 0;
}

/**
 * createExports returns {json(), predictedCSV(), observedCSV(), analysisTable(), png(id, title),
 * svg(id, title)}; chartOf(id) is the uPlot drawn in chart id (null when empty).
 */
export function createExports({ store, engine, chartOf }) {
  const nothing = () => store.showMessage('Nothing to export yet: fit first, or enter parameters by hand.');

  /** image saves chart id as made by make(u, title) (PNG or SVG). */
  async function image(kind, make, id, title) {
    const u = chartOf(id);
    if (!u) return store.showMessage('This chart is empty.');
    try {
      download(await make(u, title), `annealing-law-${id}.${kind.toLowerCase()}`);
    } catch (err) {
      store.showMessage(`${kind} export: ${err.message}`);
    }
  }

  return {
    json() {
      const doc = fitDocument(store.state, engine.version);
      if (!doc) return nothing();
      downloadJSON(doc, 'annealing-law-fit.json');
    },

    /** predictedCSV predicts every step of each curve and schedule with each law that has parameters. */
    async predictedCSV() {
      const state = store.state;
      const laws = LAW_NAMES.filter((law) => paramsOf(state, law));
      if (!laws.length) return nothing();
      const items = [...state.curves.filter((c) => c.schedule), ...state.predictions];
      if (!items.length) return store.showMessage('No curves or schedules to export.');
      store.setStatus('Preparing the CSV…');
      try {
        // Every step, unless that makes more rows than a browser tab holds: then each curve is thinned.
        const rows = laws.length * items.reduce((n, c) => n + scheduleSteps(c.schedule), 0);
        const points = csvPoints(rows, laws.length * items.length);
        const curves = [];
        for (const law of laws) {
          for (const [name, line] of await engine.predict(law, paramsOf(state, law), items, points)) curves.push({ name, law, ...line });
        }
        download(predictionCSV(curves, state.band && !state.manual ? state.band.halfWidth : null), 'annealing-law-predictions.csv');
        store.setStatus(`Exported ${curves.length} predicted curve(s) as CSV`
          + (points ? `, each thinned to about ${fmt.steps(points)} steps: every step would be ${fmt.steps(rows)} rows, more than the ${fmt.steps(MAX_CSV_ROWS)} an export holds.` : '.'));
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
