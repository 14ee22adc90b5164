// The four result charts (learning rate, loss, residuals, the two terms), drawn from the chart
// model whenever what it reads changes. They share the cursor and the x zoom.
import { $ } from '../dom.js';
import { watch } from '../store.js';
import { resultCharts, xAxis } from '../chart-model.js';
import { createChart } from '../chart-factory.js';

/** CHART_IDS are the result charts, each drawn in #chart-<id>. */
export const CHART_IDS = ['lr', 'loss', 'residuals', 'terms'];

/** showCharts draws the result charts from the store; it returns chart(id) -> the uPlot drawn (null when empty). */
export function showCharts(store) {
  const slots = new Map(CHART_IDS.map((id) => [id, createChart($(`#chart-${id}`), { group: 'annealing-law' })]));
  // The x axis: steps, tokens or FLOPs; the numbers they need show when asked for (entered once).
  watch(store, ['chart'], ({ chart }) => {
    const axis = xAxis(chart);
    $('#x-unit').value = chart.xUnit || 'steps';
    $('.x-factor').hidden = chart.xUnit !== 'tokens' && chart.xUnit !== 'flops';
    $('.x-factor-n').hidden = chart.xUnit !== 'flops';
    $('#x-unit-note').textContent = axis.note;
    $('#x-unit-note').hidden = !axis.note;
    for (const [id, key] of [['#tokens-per-step', 'tokensPerStep'], ['#model-size', 'modelSize']]) {
      if (document.activeElement !== $(id)) $(id).value = Number.isFinite(chart[key]) ? String(chart[key]) : '';
    }
  });
  // The charts are drawn once the change that asked for it has run to its end (a microtask),
  // from the state then: a burst of changes draws once, and a change that goes on to ask lawcore
  // for something (an example's fit) posts it before the charts are drawn, so that lawcore
  // computes while the page draws (drawn first, it started 70 ms later on a 2-core machine).
  let due = false;
  const draw = () => {
    if (!due) return;
    due = false;
    const specs = resultCharts(store.state);
    for (const [id, slot] of slots) slot.update(specs[id]);
  };
  watch(store, ['curves', 'predictions', 'fits', 'manual', 'lines', 'band', 'settings', 'chart'], () => {
    if (due) return;
    due = true;
    queueMicrotask(draw);
  });
  return (id) => {
    draw(); // a chart asked for (an export) is the state's
    return slots.has(id) ? slots.get(id).chart() : null;
  };
}
