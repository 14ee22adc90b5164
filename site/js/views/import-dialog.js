// The question an imported file may raise: which loss column (radio buttons) and which runs
// (checkboxes) to take; a file may leave both open. askImport resolves to lawcore's `choice`
// ({column?, runs?}) or null when cancelled.
import { $, h } from './dom.js';
import { grouped, steps } from '../common/format.js';

// lawcore counts only the columns it read: one offered by its name alone has no count yet
const describe = (o) =>
  (o.points > 1
    ? `${grouped(o.points)} points, steps ${steps(o.firstStep)}–${steps(o.lastStep)}`
    : o.points === 1
      ? `1 point, step ${steps(o.firstStep)}`
      : 'read once chosen') + (o.summary ? ', a summary (no curve to fit)' : o.kind ? `, ${o.kind}` : '');

/**
 * optionGroup is a fieldset of radio buttons (one choice: checked, the one named first, else
 * the first) or checkboxes (all checked at first).
 */
function optionGroup(legend, name, options, multiple, first = '') {
  const checked = multiple ? null : options.some((o) => o.name === first) ? first : options[0].name;
  return h(
    'fieldset',
    { class: 'import-options' },
    h('legend', { text: legend }),
    options.map((o) =>
      h(
        'label',
        { class: 'check import-option' },
        h('input', {
          type: multiple ? 'checkbox' : 'radio',
          name,
          value: o.name,
          checked: multiple || o.name === checked,
          dataset: { testid: 'import-option' },
        }),
        h('span', { text: o.name }),
        h('span', { class: 'muted', text: describe(o) }),
      ),
    ),
  );
}

/**
 * askImport asks which column and runs of fileName to import (ambiguity: the import's question,
 * with the column lawcore offers first, default, and why, reason); upload: the question is about
 * the loss column of several files read together (fileName names them), asked once for all. It
 * resolves to the choice, or null.
 */
export function askImport(ambiguity, fileName, { upload = false } = {}) {
  const dialog = $('#import-dialog');
  $('#import-dialog-title').textContent = `Import ${fileName}`;
  $('#import-message').textContent = ambiguity.message || 'Choose what to import.';
  $('#import-reason').textContent = ambiguity.reason || '';
  $('#import-reason').hidden = !ambiguity.reason;
  $('#import-cancel').textContent = upload ? 'Skip these files' : 'Skip this file';
  const columns = ambiguity.columns && ambiguity.columns.length ? ambiguity.columns : null;
  const runs = ambiguity.runs && ambiguity.runs.length ? ambiguity.runs : null;
  $('#import-options').replaceChildren(
    columns ? optionGroup('The loss column', 'import-column', columns, false, ambiguity.default) : '',
    runs ? optionGroup('The runs (one curve each)', 'import-run', runs, true) : '',
  );
  const picked = (name) =>
    [...$('#import-options').querySelectorAll(`input[name="${name}"]:checked`)].map((x) => x.value);
  return new Promise((resolve) => {
    const done = (value) => {
      $('#import-ok').removeEventListener('click', ok);
      $('#import-cancel').removeEventListener('click', cancel);
      dialog.removeEventListener('cancel', cancel);
      dialog.close();
      resolve(value);
    };
    const ok = (e) => {
      e.preventDefault();
      const choice = {};
      if (columns) [choice.column] = picked('import-column');
      if (runs) choice.runs = picked('import-run');
      if ((columns && !choice.column) || (runs && !choice.runs.length)) return;
      done(choice);
    };
    const cancel = (e) => {
      e.preventDefault();
      done(null);
    };
    $('#import-ok').addEventListener('click', ok);
    $('#import-cancel').addEventListener('click', cancel);
    dialog.addEventListener('cancel', cancel);
    dialog.showModal();
  });
}
