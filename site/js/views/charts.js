// The four result charts (learning rate, loss, residuals, the two terms), drawn from the chart
// model whenever what it reads changes. They share the cursor and the x zoom.
import { $ } from './dom.js';
import { watch } from '../state/store.js';
import { resultCharts, xAxis } from '../charts/chart-model.js';
import { createChart } from '../charts/chart-factory.js';

/** CHART_IDS are the result charts, each drawn in #chart-<id>. */
export const CHART_IDS = ['lr', 'loss', 'residuals', 'terms'];
/** FIRST is the chart drawn before the page is painted: the others are drawn after. */
const FIRST = 'loss';

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
    for (const [id, key] of [
      ['#tokens-per-step', 'tokensPerStep'],
      ['#model-size', 'modelSize'],
    ]) {
      if (document.activeElement !== $(id)) $(id).value = Number.isFinite(chart[key]) ? String(chart[key]) : '';
    }
  });
  // The charts are drawn once the change that asked for it has run to its end (a microtask),
  // from the state then: a burst of changes draws once, and a change that goes on to ask lawcore
  // for something (an example's fit) posts it before the charts are drawn, so that lawcore
  // computes while the page draws (drawn first, it started 70 ms later on a 2-core machine).
  // The loss chart (the paper's Fig. 3) is drawn then; the other three after the page has
  // been painted with it: they sit below it (on a 1920x1080 screen it is the only one that
  // shows without scrolling), and building them held the first view back 30-40 ms on a
  // 2-core machine (measure-ab.mjs, medians of 12 and 14 alternated loads).
  let due = false;
  let latest = null; // the specs of the latest draw, which the others' draw takes
  let othersDue = false;
  const drawOthers = () => {
    if (!othersDue) return;
    othersDue = false;
    for (const [id, slot] of slots) if (id !== FIRST) slot.update(latest[id]);
  };
  const draw = () => {
    if (!due) return;
    due = false;
    latest = resultCharts(store.state);
    slots.get(FIRST).update(latest[FIRST]);
    if (othersDue) return;
    othersDue = true;
    // a frame's callback runs just before its paint; a task queued from it, just after
    requestAnimationFrame(() => setTimeout(drawOthers, 0));
  };
  watch(store, ['curves', 'predictions', 'fits', 'manual', 'lines', 'band', 'settings', 'chart'], () => {
    if (due) return;
    due = true;
    queueMicrotask(draw);
  });
  return (id) => {
    draw(); // a chart asked for (an export) is the state's
    drawOthers();
    return slots.has(id) ? slots.get(id).chart() : null;
  };
}
