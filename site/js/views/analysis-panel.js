// The Analyses panel: a view selector, the options box (JSON) or the model-size fields, one
// chart, one table, the note and status, drawn from the store's analysis.
import { $, h } from '../dom.js';
import * as fmt from '../format.js';
import { watch } from '../store.js';
import { createChart } from '../chart-factory.js';
import { VIEWS, viewById, optionsText, sizeOfCurve } from '../analysis-views.js';

/**
 * showAnalyses draws the panel from the store and wires its controls to on: {select(id), run(),
 * reset(), toggled(open), example(), options(analysis, text), size(name, size), target(text),
 * exportTable()}. It returns chart() -> the uPlot drawn (null when none).
 */
export function showAnalyses(store, on) {
  const select = $('#analysis-view');
  select.replaceChildren(...VIEWS.map((v) => h('option', { value: v.id, text: v.label })));
  select.addEventListener('change', () => on.select(select.value));
  $('#analysis-run').addEventListener('click', () => on.run());
  $('#analysis-reset').addEventListener('click', () => on.reset());
  $('#analysis-options').addEventListener('change', () => {
    const v = viewById(store.state.analysis.view);
    if (v.analysis) on.options(v.analysis, $('#analysis-options').value);
  });
  $('#analysis-csv').addEventListener('click', () => on.exportTable());
  $('#sizefit-example').addEventListener('click', () => on.example());
  $('#sizefit-target').addEventListener('change', () => on.target($('#sizefit-target').value));
  const details = $('#analyses-panel');
  details.addEventListener('toggle', () => on.toggled(details.open));

  const slot = createChart($('#chart-analysis'));
  let revision = -1;
  let result;
  watch(store, ['analysis'], ({ analysis: a }) => {
    const v = viewById(a.view);
    select.value = v.id;
    $('#sizefit-options').hidden = !v.sizefit;
    $('#analysis-options-box').hidden = !!v.sizefit;
    // The options box is written only when another view's options are to show: never over typing.
    if (a.optionsRevision !== revision && !v.sizefit) $('#analysis-options').value = optionsText(a, v);
    revision = a.optionsRevision;
    $('#analysis-status').textContent = a.status;
    $('#analysis-error').hidden = !a.error;
    $('#analysis-error').textContent = a.error;
    if (a.result !== result) {
      result = a.result;
      slot.update(result && result.spec);
      renderTable(result && result.table);
      $('#analysis-note').textContent = result ? result.note : '';
      $('#analysis-result').dataset.view = result ? result.view : '';
      $('#analysis-result').dataset.crossover = result && result.crossover ? String(result.crossover.total) : '';
    }
  });

  // The model-size fields: one per curve, rebuilt when the curves come or go (not when a size is typed).
  let names = null;
  watch(store, ['curves', 'analysis'], ({ curves, analysis }) => {
    if (!viewById(analysis.view).sizefit) return;
    const now = curves.map((c) => c.name).join('\n');
    if (now === names) return;
    names = now;
    $('#sizefit-curves').replaceChildren(...curves.map((c) => {
      const size = sizeOfCurve(c);
      const input = h('input', { type: 'text', inputmode: 'decimal', value: size ? String(size) : '', placeholder: 'e.g. 25e6', 'aria-label': `Model size N of ${c.name}`, dataset: { curveName: c.name } });
      input.addEventListener('change', () => {
        const x = Number(input.value);
        on.size(c.name, input.value.trim() && Number.isFinite(x) && x > 0 ? x : null);
      });
      return h('label', { class: 'field' }, h('span', { class: 'field-label', text: c.name }), input);
    }));
    $('#sizefit-none').hidden = curves.length > 0;
  });
  return () => slot.chart();
}

/** renderTable shows an analysis's table ({columns, rows}), or nothing. */
function renderTable(table) {
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
  if (/^(PredE|WorstE|FinalErr)$/.test(column)) return fmt.pct(v, 3); // relative errors, in percent
  if (Number.isInteger(v) && Math.abs(v) >= 1000) return fmt.steps(v);
  if (/peak|lr/i.test(column) && Math.abs(v) < 0.01 && v !== 0) return fmt.lr(v);
  return fmt.sig(v, 5);
}
