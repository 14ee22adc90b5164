// The four result charts (learning rate, loss, residuals, the two terms), drawn from the chart
// model whenever what it reads changes. They share the cursor and the x zoom.
import { $ } from '../dom.js';
import { watch } from '../store.js';
import { resultCharts } from '../chart-model.js';
import { createChart } from '../chart-factory.js';

/** CHART_IDS are the result charts, each drawn in #chart-<id>. */
export const CHART_IDS = ['lr', 'loss', 'residuals', 'terms'];

/** showCharts draws the result charts from the store; it returns chart(id) -> the uPlot drawn (null when empty). */
export function showCharts(store) {
  const slots = new Map(CHART_IDS.map((id) => [id, createChart($(`#chart-${id}`), { group: 'annealing-law' })]));
  watch(store, ['curves', 'predictions', 'fits', 'manual', 'lines', 'band', 'settings', 'chart'], (state) => {
    const specs = resultCharts(state);
    for (const [id, slot] of slots) slot.update(specs[id]);
  });
  return (id) => (slots.has(id) ? slots.get(id).chart() : null);
}
