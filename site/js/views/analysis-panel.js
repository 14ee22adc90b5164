// The Analyses panel: a view selector, the analysis's form (its main options as fields with
// units and ranges) and the same options as JSON (the advanced view), or the model-size fields;
// the answer in one sentence, one chart (optionally each line less its best), one table, the
// note and status, drawn from the store's analysis.
import { $, h } from './dom.js';
import * as fmt from '../common/format.js';
import { watch } from '../state/store.js';
import { createChart } from '../charts/chart-factory.js';
import { VIEWS, viewById, sizeOfCurve, chartSpec, parseModelSize } from '../analysis/analysis-views.js';
import { fieldsOf, optionsInUse, fieldText, rangeText, optionsJSON } from '../analysis/analysis-forms.js';
import { analysisSetup, analysisRuns, labelsOf } from '../state/selectors.js';

/**
 * showAnalyses draws the panel from the store and wires its controls to on: {select(id), run(),
 * cancel(), reset(), toggled(open), example(), field(key, text), options(text), relative(on), size(name,
 * size), target(text), exportTable()}. It returns chart() -> the uPlot drawn (null when none).
 */
export function showAnalyses(store, on) {
  const select = $('#analysis-view');
  select.replaceChildren(...VIEWS.map((v) => h('option', { value: v.id, text: v.label })));
  select.addEventListener('change', () => on.select(select.value));
  $('#analysis-run').addEventListener('click', () => on.run());
  $('#analysis-cancel').addEventListener('click', () => on.cancel());
  $('#analysis-reset').addEventListener('click', () => on.reset());
  $('#analysis-options').addEventListener('change', () => on.options($('#analysis-options').value));
  $('#analysis-relative').addEventListener('change', (e) => on.relative(e.target.checked));
  $('#analysis-csv').addEventListener('click', () => on.exportTable());
  $('#sizefit-example').addEventListener('click', () => on.example());
  $('#sizefit-target').addEventListener('change', (e) => {
    try {
      parseModelSize(e.target.value, 'Predict at unseen N');
    } catch (err) {
      store.showMessage(err.message);
      e.target.value = store.state.analysis.sizeTarget;
      return;
    }
    on.target(e.target.value.trim());
  });
  const details = $('#analyses-panel');
  details.addEventListener('toggle', () => on.toggled(details.open));

  let storeOpen = store.state.analysis.open;
  const slot = createChart($('#chart-analysis'));
  let revision = -1;
  /** writtenJSON is the text the JSON view was last given: one that differs, focused, is being typed. */
  let writtenJSON = '';
  /**
   * typedText is the text typed but not yet changed in the focused text field of the options
   * ({option | json, value, start, end}), or null.
   */
  const typedText = () => {
    const el = document.activeElement;
    if (el === $('#analysis-options'))
      return el.value !== writtenJSON
        ? { json: true, value: el.value, start: el.selectionStart, end: el.selectionEnd }
        : null;
    if (
      !el
      || el.type !== 'text'
      || !el.dataset.option
      || !$('#analysis-form').contains(el)
      || el.value === el.defaultValue
    )
      return null;
    return { option: el.dataset.option, value: el.value, start: el.selectionStart, end: el.selectionEnd };
  };
  /** keepTyping puts typed text (typedText's) back in its field, focused, the caret where it was. */
  const keepTyping = (typing) => {
    if (!typing) return;
    const el = typing.json
      ? $('#analysis-options')
      : document.querySelector(`#analysis-form input[type="text"][data-option="${typing.option}"]`);
    if (!el) return;
    el.value = typing.value;
    el.focus();
    el.setSelectionRange(typing.start, typing.end);
  };
  let result;
  let relative;
  /**
   * shownRuns are the runs (selectors.js analysisRuns), and shownWarmup the warmup, whose
   * defaults the form last showed.
   */
  let shownRuns = null;
  let shownWarmup = null;
  watch(store, ['analysis'], (state) => {
    const a = state.analysis;
    // opened by the store (saved work or a link with the panel open: its toggle computes the view);
    // only when the store's value changes, not over a click whose toggle event is still to come
    if (a.open !== storeOpen) {
      storeOpen = a.open;
      if (details.open !== a.open) details.open = a.open;
    }
    const v = viewById(a.view);
    select.value = v.id;
    if (document.activeElement !== $('#sizefit-target')) $('#sizefit-target').value = a.sizeTarget;
    $('#sizefit-options').hidden = !v.sizefit;
    $('#analysis-options-box').hidden = !!v.sizefit;
    // the model-size views take their curves from the fields above; the drop view has a form too
    $('#analysis-form').hidden = !!v.sizefit && !v.sizeDrop;
    // The form and the JSON view are written only when another view's options, or options set
    // elsewhere, are to show (lawcore's defaults arriving, say; the runs or the warmup the
    // defaults start from changed), and never over typing: the text being typed in a field
    // stays, focused, until its change sets the option.
    const runs = analysisRuns(state);
    const { warmup, peak } = analysisSetup(state);
    const changed = a.optionsRevision !== revision || runs !== shownRuns || warmup !== shownWarmup;
    if (changed && (!v.sizefit || v.sizeDrop)) {
      shownRuns = runs;
      shownWarmup = warmup;
      const typing = typedText();
      const options = optionsInUse(a, v.analysis, runs, warmup);
      writtenJSON = optionsJSON(options);
      $('#analysis-options').value = writtenJSON;
      renderForm(fieldsOf(v.analysis, a.defaults), options, on, peak);
      keepTyping(typing);
    }
    revision = a.optionsRevision;
    for (const input of document.querySelectorAll('#analysis-form [data-option]'))
      input.toggleAttribute('aria-invalid', input.dataset.option === a.errorField);
    $('#analysis-options').toggleAttribute('aria-invalid', a.errorField === 'json');
    $('#analysis-status').textContent = a.status;
    $('#analysis-cancel').hidden = !a.computing;
    $('#analysis-progress').hidden = !a.computing;
    $('#analysis-progress').value = a.computing ? a.progress : 0;
    $('#analysis-error').hidden = !a.error;
    $('#analysis-error').textContent = a.error;
    if (a.result !== result || a.relative !== relative) {
      result = a.result;
      relative = a.relative;
      const canRelative = !!(result && result.chart && result.chart.relative);
      $('#analysis-relative').disabled = !canRelative;
      $('#analysis-relative').checked = relative;
      slot.update(result && result.chart ? chartSpec(result.chart, { relative }) : null);
      renderTable(result && result.table);
      $('#analysis-answer').textContent = result ? result.answer : '';
      $('#analysis-answer').hidden = !(result && result.answer);
      $('#analysis-note').textContent = result ? result.note : '';
      $('#analysis-result').dataset.view = result ? result.view : '';
      $('#analysis-result').dataset.relative = String(canRelative && relative);
      $('#analysis-result').dataset.crossover = result && result.crossover ? String(result.crossover.total) : '';
      // a first, coarser answer shown while the answer computes (controllers/analyses.js)
      $('#analysis-result').dataset.refining = String(!!(result && result.refining));
    }
  });
  // The peak field's placeholder is the peak the page gives: the curves' own.
  watch(store, ['curves', 'predictions'], (state) => {
    const peak = document.querySelector('#analysis-form [data-option="peak"]');
    if (peak) peak.placeholder = peakPlaceholder(analysisSetup(state).peak);
  });

  // The model-size fields: one per curve, rebuilt when the curves come or go (not when a size is typed).
  let names = null;
  watch(store, ['curves', 'analysis'], (state) => {
    const { curves, analysis } = state;
    if (!viewById(analysis.view).sizefit) return;
    const labels = labelsOf(state);
    const now = curves.map((c) => c.name).join('\n');
    if (now === names) return;
    names = now;
    $('#sizefit-curves').replaceChildren(
      ...curves.map((c) => {
        const size = sizeOfCurve(c);
        const input = h('input', {
          type: 'text',
          inputmode: 'decimal',
          value: size ? String(size) : '',
          placeholder: 'e.g. 25M',
          'aria-label': `Model size N of ${c.name}`,
          dataset: { curveName: c.name },
        });
        input.addEventListener('change', () => {
          // empty: none (the curve is left out of the fit); text that is no size is refused, not taken for none
          if (!input.value.trim()) return on.size(c.name, null);
          try {
            on.size(c.name, parseModelSize(input.value, `Model size N of ${c.name}`));
          } catch (err) {
            store.showMessage(err.message);
            const tagged = sizeOfCurve(store.state.curves.find((x) => x.name === c.name) || {});
            input.value = tagged ? String(tagged) : '';
          }
        });
        return h(
          'label',
          { class: 'field', title: c.name },
          h('span', { class: 'field-label', text: labels.get(c.name) ?? c.name }),
          input,
        );
      }),
    );
    $('#sizefit-none').hidden = curves.length > 0;
  });
  return () => slot.chart();
}

/** peakPlaceholder says which peak LR the analyses take when the field is left blank. */
const peakPlaceholder = (peak) => `${fmt.lr(peak)} (your curves')`;

/**
 * renderForm draws an analysis's fields with the values of options: a text field per number or
 * list (its unit and range below it), a menu for one choice, boxes for several; each reports
 * its text to on.field(key, text) when changed.
 */
function renderForm(fields, options, on, pagePeak) {
  $('#analysis-form').replaceChildren(
    ...fields.map((f) => {
      const id = `analysis-field-${f.key}`;
      if (f.kind === 'choices') {
        const picked = Array.isArray(options[f.key]) ? options[f.key] : [];
        const boxes = f.choices.map((c) =>
          h(
            'label',
            { class: 'check' },
            h('input', { type: 'checkbox', value: c, checked: picked.includes(c) }),
            ` ${c}`,
          ),
        );
        const set = h(
          'fieldset',
          { class: 'field choices', dataset: { option: f.key } },
          h('legend', { class: 'field-label', text: f.label }),
          ...boxes,
        );
        set.addEventListener('change', () =>
          on.field(f.key, [...set.querySelectorAll('input:checked')].map((x) => x.value).join(',')),
        );
        return set;
      }
      const hint = h('small', { class: 'field-hint', id: `${id}-range`, text: rangeText(f) });
      let input;
      if (f.kind === 'choice') {
        input = h(
          'select',
          { id, dataset: { option: f.key } },
          f.choices.map((c) => h('option', { value: c, text: c })),
        );
        input.value = options[f.key] ?? '';
      } else {
        const list = f.kind.endsWith('-list');
        input = h('input', {
          id,
          type: 'text',
          inputmode: list ? 'text' : 'decimal',
          spellcheck: 'false',
          autocomplete: 'off',
          value: fieldText(f, options[f.key]),
          placeholder: f.kind === 'peak' ? peakPlaceholder(pagePeak) : '',
          dataset: { option: f.key },
          'aria-describedby': hint.id,
          class: list ? 'list-field' : '',
        });
      }
      input.addEventListener('change', () => on.field(f.key, input.value));
      return h(
        'label',
        { class: `field${f.kind.endsWith('-list') ? ' wide' : ''}`, for: id },
        h('span', { class: 'field-label', text: f.label }),
        input,
        hint,
      );
    }),
  );
}

/** renderTable shows an analysis's table ({columns, rows, tied?: a flag per row}), or nothing. */
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
  t.tHead.replaceChildren(
    h(
      'tr',
      {},
      table.columns.map((c, j) => h('th', { scope: 'col', class: numeric[j] ? 'num' : '', text: c })),
    ),
  );
  // rows within the band of the best (table.tied) are marked: they cannot be told apart from it
  const tied = (i) => !!(table.tied && table.tied[i]);
  t.tBodies[0].replaceChildren(
    ...table.rows.map((r, i) =>
      h(
        'tr',
        tied(i)
          ? {
              class: 'tied',
              dataset: { tied: 'true' },
              title: 'within the band of the best: the fit cannot tell it apart',
            }
          : {},
        r.map((v, j) => {
          if (typeof v === 'number')
            return h('td', { class: 'num', dataset: { value: String(v) }, text: cellText(v, table.columns[j]) });
          return h('td', {
            class: numeric[j] ? 'num' : '',
            text: v === null || v === undefined ? '–' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v),
          });
        }),
      ),
    ),
  );
}

function cellText(v, column) {
  if (/^(PredE|WorstE|FinalErr)$/.test(column)) return fmt.pct(v, 3); // relative errors, in percent
  if (Number.isInteger(v) && Math.abs(v) >= 1000) return fmt.steps(v);
  if (/peak|lr/i.test(column) && Math.abs(v) < 0.01 && v !== 0) return fmt.lr(v);
  return fmt.sig(v, 5);
}
