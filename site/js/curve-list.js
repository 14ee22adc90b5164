// The two lists of the data panel: curves with data (role, schedule, remove) and schedules to
// predict (edit, remove, predicted final loss).
import { $, h } from './dom.js';
import { summary } from './schedule-kinds.js';
import * as fmt from './format.js';

/**
 * renderCurves draws one row per curve with data.
 * on: {role(curve, role), schedule(curve), remove(curve)}
 */
export function renderCurves(curves, on) {
  replaceRows($('#curve-list'), curves.map((c) => {
    const role = h('select', { class: 'role-select', 'aria-label': `Role of ${c.name}`, dataset: { testid: 'curve-role' } },
      h('option', { value: 'fit', text: 'fit', selected: c.role === 'fit' }),
      h('option', { value: 'validate', text: 'validate', selected: c.role === 'validate' }));
    role.addEventListener('change', () => on.role(c, role.value));
    const sched = c.scheduleSource === 'file' ? `LR from ${c.lrFile || 'the file'}` : summary(c.schedule);
    return h('li', { class: `row ${c.schedule ? '' : 'needs-schedule'}`, dataset: { curveName: c.name, role: c.role } },
      h('span', { class: 'swatch', style: { background: c.color }, 'aria-hidden': 'true' }),
      h('div', { class: 'row-name', text: c.name, title: c.source ? `${c.name} (${c.source})` : c.name }),
      role,
      h('button', { type: 'button', class: 'icon-button', text: 'Schedule…', 'aria-label': `Schedule of ${c.name}`, on: { click: () => on.schedule(c) } }),
      h('button', { type: 'button', class: 'icon-button remove', text: '✕', title: `Remove ${c.name}`, 'aria-label': `Remove ${c.name}`, on: { click: () => on.remove(c) } }),
      h('div', { class: 'row-sub', title: c.schedule ? sched : '' },
        `${c.steps.length} points, steps ${fmt.steps(c.steps[0])}–${fmt.steps(c.steps[c.steps.length - 1])} · `,
        h('span', { class: c.schedule ? '' : 'warn', text: c.schedule ? sched : 'needs a schedule' })));
  }));
  $('#curves-empty').hidden = curves.length > 0;
  $('#curve-count').textContent = curves.length ? `(${curves.length})` : '';
}

/**
 * renderPredictions draws one row per schedule to predict, with its predicted final loss under
 * each law that has parameters. on: {edit(p), remove(p)}; predicted (the annealing law) and
 * predicted2 (the Multi-Power Law): Map name -> {finalLoss}
 */
export function renderPredictions(predictions, predicted, predicted2, on) {
  const finalOf = (map, name) => {
    const got = map.get(name);
    return got && Number.isFinite(got.finalLoss) ? got.finalLoss : null;
  };
  replaceRows($('#predict-list'), predictions.map((p) => {
    const final = finalOf(predicted, p.name);
    const final2 = finalOf(predicted2, p.name);
    const shown = [];
    if (final !== null || final2 === null) shown.push(h('span', { class: 'muted', text: 'final ' }), h('strong', { text: final === null ? '–' : fmt.fixed(final, 4) }));
    if (final2 !== null) {
      shown.push(h('span', { class: 'muted', text: final === null ? 'final (MPL) ' : ' · MPL ' }), h('strong', { class: 'mpl-final', text: fmt.fixed(final2, 4) }));
    }
    return h('li', { class: 'row', dataset: { scheduleName: p.name, finalLoss: final === null ? '' : String(final), finalLossMpl: final2 === null ? '' : String(final2) } },
      h('span', { class: 'swatch', style: { background: p.color }, 'aria-hidden': 'true' }),
      h('div', { class: 'row-name', text: p.name, title: p.name }),
      h('div', { class: 'final-loss', title: 'predicted loss at the last step (MPL: the Multi-Power Law)' }, ...shown),
      h('button', { type: 'button', class: 'icon-button', text: 'Edit…', 'aria-label': `Edit ${p.name}`, on: { click: () => on.edit(p) } }),
      h('button', { type: 'button', class: 'icon-button remove', text: '✕', title: `Remove ${p.name}`, 'aria-label': `Remove ${p.name}`, on: { click: () => on.remove(p) } }),
      h('div', { class: 'row-sub', text: summary(p.schedule), title: JSON.stringify(p.schedule) }));
  }));
  $('#predict-empty').hidden = predictions.length > 0;
}

/**
 * replaceRows puts new rows in a list and keeps the focus where it was: on the control with the
 * same accessible name (the rows are rebuilt on every change, a dialog returns the focus to
 * the button that opened it, and a keyboard user must not be sent back to the top).
 */
function replaceRows(list, rows) {
  const active = document.activeElement;
  const label = active && list.contains(active) ? active.getAttribute('aria-label') : null;
  list.replaceChildren(...rows);
  if (label) list.querySelector(`[aria-label="${CSS.escape(label)}"]`)?.focus();
}
