// The alert area (errors, or a notice; several become a list) and the status line under the
// fit buttons, drawn from the store's message and status. After an import the area leads with
// the curves added, one line each (the name shown, points, steps, learning rates found or not)
// and a Fit button, and keeps the import's notes behind a disclosure.
import { $, h } from './dom.js';
import { watch } from '../state/store.js';
import { labelsOf } from '../state/selectors.js';
import * as fmt from '../common/format.js';

const line = (text) => h('div', { text });

/**
 * showMessages keeps #message and #status as the store says; the close button clears the
 * message. on.fit() fits (the report's Fit button).
 */
export function showMessages(store, on = { fit: () => {} }) {
  $('#message-close').addEventListener('click', () => store.clearMessage());
  watch(store, ['message', 'curves'], (state) => {
    const { message } = state;
    $('#message').hidden = !message;
    const lines = message ? message.lines : [];
    $('#message-text').replaceChildren(
      ...(message && message.report ? reportOf(message.report, lines, labelsOf(state), on) : lines.map(line)),
    );
    $('#message').classList.toggle('notice', !!message && message.kind !== 'error');
  });
  watch(store, ['status'], ({ status }) => {
    $('#status').textContent = status;
  });
}

/** curveLine says what an import read of one curve: points, steps, learning rates. */
function curveLine(c, labels) {
  const steps = c.points === 1 ? `step ${fmt.steps(c.first)}` : `steps ${fmt.steps(c.first)}–${fmt.steps(c.last)}`;
  const lr = c.lr ? 'LR from the file' : c.schedule ? 'schedule given' : 'no LR found: give it a schedule';
  return h(
    'li',
    { class: 'report-curve', dataset: { reportCurve: c.name }, title: c.name },
    h('span', { class: 'report-name', text: labels.get(c.name) ?? c.name }),
    h('span', { class: 'muted', text: ` · ${fmt.grouped(c.points)} points, ${steps} · ` }),
    h('span', { class: c.lr || c.schedule ? '' : 'warn', text: lr }),
  );
}

/** reportOf draws an import's report: the curves added and Fit, the first `shown` lines, the rest folded. */
function reportOf(report, lines, labels, on) {
  const n = report.curves.length;
  const head = h(
    'p',
    { class: 'report-head' },
    h('span', { text: `Added ${n} curve${n === 1 ? '' : 's'}.` }),
    h('button', {
      type: 'button',
      class: 'primary small',
      id: 'report-fit',
      text: `Fit ${n === 1 ? 'it' : `these ${n}`}`,
      on: { click: () => on.fit() },
    }),
  );
  const shown = lines.slice(0, report.shown);
  const rest = lines.slice(report.shown);
  return [
    head,
    h(
      'ul',
      { class: 'report-curves' },
      report.curves.map((c) => curveLine(c, labels)),
    ),
    ...shown.map(line),
    rest.length
      ? h(
          'details',
          { class: 'report-notes' },
          h('summary', { text: `Details: ${rest.length} note${rest.length === 1 ? '' : 's'} on the import` }),
          rest.map(line),
        )
      : null,
  ].filter(Boolean);
}
