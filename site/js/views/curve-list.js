// The two lists of the data panel: curves with data (role, schedule, remove) and schedules to
// predict (edit, remove, predicted final loss under each law).
import { $, h } from './dom.js';
import { summary } from '../schedules/schedule-kinds.js';
import * as fmt from '../common/format.js';
import { watch } from '../state/store.js';
import { finalLosses, lawsWithParams, averageOf, labelsOf } from '../state/selectors.js';
import { LAWS } from '../engine/schema.js';
import { flaggedProblems, windowOf, defaultWindow, pointsInWindow } from '../schedules/curve-facts.js';

/**
 * showLists draws both lists from the store. on: {role(name, role), schedule(name), window(name,
 * text) (the step its fit window starts at, as typed), rename(name, label) (the name shown; ''
 * goes back to the page's), edit(name), remove(name)}; after a removal the focus goes to the next
 * row's remove button, else the previous row's, else Undo. Each curve shows by what tells it
 * from the others (common/names.js), its full name on hover.
 */
export function showLists(store, on) {
  const removing = (list) => (name) => {
    const buttons = () => [...document.querySelectorAll(`${list} button.remove`)];
    const at = buttons().findIndex((b) => b.getAttribute('aria-label') === `Remove ${name}`);
    on.remove(name);
    const left = buttons();
    (left[Math.min(Math.max(at, 0), left.length - 1)] || $('#undo-button')).focus();
  };
  const curveHandlers = {
    role: on.role,
    schedule: on.schedule,
    window: on.window || (() => {}),
    rename: on.rename || (() => {}),
    remove: removing('#curve-list'),
  };
  const predictionHandlers = { edit: on.edit, remove: removing('#predict-list') };
  // the settings' warmup is the default window's start for schedules that take it: the rows are
  // drawn again when it changes, not on every other setting (each row reads its curve's points)
  let drawn = null;
  watch(store, ['curves', 'settings'], (state) => {
    const {
      curves,
      settings: { warmupSteps },
    } = state;
    if (drawn && drawn.curves === curves && drawn.warmupSteps === warmupSteps) return;
    drawn = { curves, warmupSteps };
    renderCurves(curves, labelsOf(state), warmupSteps, curveHandlers);
  });
  watch(store, ['predictions', 'lines', 'fits', 'manual'], (state) => {
    const finals = lawsWithParams(state).map((law) => {
      const average = averageOf(state, law);
      return {
        law,
        byName: finalLosses(state, law),
        short: average ? average.short : shortLabel(law),
        long: average ? average.long : `the ${LAWS[law].label}`,
        average: Boolean(average),
      };
    });
    renderPredictions(state.predictions, labelsOf(state), finals, predictionHandlers);
  });
}

/**
 * nameCell is a row's name: the label shown (labels: name -> label), the full name on hover and
 * to screen readers, and, with rename, a button that edits the label in place (Enter or leaving
 * the field keeps it, Escape keeps the old one).
 */
function nameCell(item, labels, rename = null) {
  const label = labels.get(item.name) ?? item.name;
  const full = item.source ? `${item.name} (${item.source})` : item.name;
  const text = h('span', { class: 'row-label', text: label });
  const cell = h('div', { class: 'row-name', title: full, dataset: { label } }, text);
  if (label !== item.name) cell.setAttribute('aria-label', item.name);
  if (!rename) return cell;
  const button = h('button', {
    type: 'button',
    class: 'icon-button rename',
    title: `Rename ${item.name} (its full name stays in exports and links)`,
    'aria-label': `Rename ${item.name}`,
  });
  button.addEventListener('click', () => {
    const input = h('input', {
      type: 'text',
      class: 'rename-input',
      autocomplete: 'off',
      value: label,
      'aria-label': `Name shown for ${item.name} (empty: the page's)`,
    });
    let done = false;
    const finish = (keep) => {
      if (done) return;
      done = true;
      if (keep && input.value.trim() !== label) rename(item.name, input.value);
      else input.replaceWith(text);
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') finish(true);
      if (e.key === 'Escape') {
        e.preventDefault();
        finish(false);
      }
    });
    input.addEventListener('blur', () => finish(true));
    text.replaceWith(input);
    input.focus();
    input.select();
  });
  cell.append(button);
  return cell;
}

/**
 * renderCurves draws one row per curve with data (labels: the names shown); warmupSteps is the
 * fit's warmup setting.
 */
function renderCurves(curves, labels, warmupSteps, on) {
  replaceRows(
    $('#curve-list'),
    curves.map((c) => {
      const role = h(
        'select',
        { class: 'role-select', 'aria-label': `Role of ${c.name}`, dataset: { testid: 'curve-role' } },
        h('option', { value: 'fit', text: 'fit', selected: c.role === 'fit' }),
        h('option', { value: 'validate', text: 'validate', selected: c.role === 'validate' }),
      );
      role.addEventListener('change', () => on.role(c.name, role.value));
      const sched = c.scheduleSource === 'file' ? `LR from ${c.lrFile || 'the file'}` : summary(c.schedule);
      const problems = flaggedProblems(c).map((p) => p.text);
      // The fit window: from the end of the warmup unless the user set it (empty: that default).
      const fallback = defaultWindow(c, warmupSteps);
      const win = windowOf(c, warmupSteps, fallback);
      const kept = pointsInWindow(c, warmupSteps, win);
      const windowInput = h('input', {
        type: 'text',
        inputmode: 'numeric',
        autocomplete: 'off',
        class: 'window-input',
        'aria-label': `Fit ${c.name} from step`,
        value: win.set ? String(win.from) : '',
        placeholder: String(fallback),
        title: `The first step the fit uses (the points before are drawn, not fitted). Empty: ${fallback ? `step ${fmt.steps(fallback)}, the end of the warmup` : 'the whole curve'}.`,
        dataset: { from: String(win.from), set: String(win.set) },
      });
      // A step refused (the message says why) leaves the window as it was.
      windowInput.addEventListener('change', () => {
        if (on.window(c.name, windowInput.value) === false) windowInput.value = win.set ? String(win.from) : '';
      });
      return h(
        'li',
        {
          class: `row ${c.schedule ? '' : 'needs-schedule'}`,
          dataset: { curveName: c.name, role: c.role, scheduleProblems: problems.join('; ') },
        },
        h('span', { class: 'swatch', style: { background: c.color }, 'aria-hidden': 'true' }),
        nameCell(c, labels, on.rename),
        role,
        h('button', {
          type: 'button',
          class: 'icon-button',
          text: 'Schedule…',
          'aria-label': `Schedule of ${c.name}`,
          on: { click: () => on.schedule(c.name) },
        }),
        h('button', {
          type: 'button',
          class: 'icon-button remove',
          text: '✕',
          title: `Remove ${c.name}`,
          'aria-label': `Remove ${c.name}`,
          on: { click: () => on.remove(c.name) },
        }),
        h(
          'div',
          { class: 'row-sub', title: c.schedule ? sched : '' },
          c.steps.length === 1
            ? `1 point, step ${fmt.steps(c.steps[0])} · `
            : `${c.steps.length} points, steps ${fmt.steps(c.steps[0])}–${fmt.steps(c.steps[c.steps.length - 1])} · `,
          h('span', { class: c.schedule ? '' : 'warn', text: c.schedule ? sched : 'needs a schedule' }),
        ),
        h(
          'div',
          { class: 'row-sub row-window' },
          h('label', {}, 'fit from step ', windowInput),
          h('span', {
            class: 'muted',
            text:
              win.from > 0
                ? ` ${kept} of ${c.steps.length} points fitted${win.set ? '' : ' (from the end of the warmup)'}`
                : ' the whole curve',
          }),
        ),
        problems.length
          ? h('div', { class: 'row-warn', role: 'note', text: `⚠ The data disagrees: ${problems.join('; ')}.` })
          : null,
      );
    }),
  );
  $('#curves-empty').hidden = curves.length > 0;
  $('#curve-count').textContent = curves.length ? `(${curves.length})` : '';
}

/**
 * renderPredictions draws one row per schedule to predict (labels: the names shown), with its predicted final loss under
 * each law that has one: finals is [{law, byName: Map name -> final loss, short, long, average}]
 * (short and long name what predicts: the law, or auto's average of laws in its place), the
 * first law's shown first. on: {edit(name), remove(name)}.
 */
function renderPredictions(predictions, labels, finals, on) {
  replaceRows(
    $('#predict-list'),
    predictions.map((p) => {
      const mine = finals.map(({ law, byName, short }) => ({ law, short, final: byName.get(p.name) ?? null }));
      const shown = [];
      mine.forEach(({ law, short, final }, k) => {
        if (k > 0 && final === null) return;
        const label =
          k === 0
            ? finals.length > 1 || law !== 'annealing' || finals[0].average
              ? `final (${short}) `
              : 'final '
            : ` · ${short} `;
        shown.push(
          h('span', { class: 'muted', text: label }),
          h('strong', {
            class: law === 'multi-power' ? 'mpl-final' : '',
            dataset: { law },
            text: final === null ? '–' : fmt.fixed(final, 4),
          }),
        );
      });
      if (!shown.length) shown.push(h('span', { class: 'muted', text: 'final ' }), h('strong', { text: '–' }));
      const of = (law) => mine.find((m) => m.law === law)?.final ?? null;
      // data-final-loss: the annealing law's; data-final-loss-mpl: the Multi-Power Law's (the tests' hooks).
      return h(
        'li',
        {
          class: 'row',
          dataset: {
            scheduleName: p.name,
            finalLoss: of('annealing') === null ? '' : String(of('annealing')),
            finalLossMpl: of('multi-power') === null ? '' : String(of('multi-power')),
          },
        },
        h('span', { class: 'swatch', style: { background: p.color }, 'aria-hidden': 'true' }),
        nameCell(p, labels),
        h(
          'div',
          {
            class: 'final-loss',
            title: `predicted loss at the last step (${finals.map(({ short, long }) => `${short}: ${long}`).join(', ')})`,
          },
          ...shown,
        ),
        h('button', {
          type: 'button',
          class: 'icon-button',
          text: 'Edit…',
          'aria-label': `Edit ${p.name}`,
          on: { click: () => on.edit(p.name) },
        }),
        h('button', {
          type: 'button',
          class: 'icon-button remove',
          text: '✕',
          title: `Remove ${p.name}`,
          'aria-label': `Remove ${p.name}`,
          on: { click: () => on.remove(p.name) },
        }),
        h('div', { class: 'row-sub', text: summary(p.schedule), title: JSON.stringify(p.schedule) }),
      );
    }),
  );
  $('#predict-empty').hidden = predictions.length > 0;
}

/** SHORT_LABELS name a law in a row's few characters. */
const SHORT_LABELS = { annealing: 'annealing', 'multi-power': 'MPL', 'lr-weighted': 'LR-weighted', 's2-power': 'S2^ζ' };
const shortLabel = (law) => SHORT_LABELS[law] || law;

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
