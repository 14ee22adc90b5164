// The question an imported file may raise: which loss column (radio buttons) and which runs
// (checkboxes) to take; a file may leave both open. askImport resolves to lawcore's `choice`
// ({column?, runs?}) or null when cancelled.
import { $, h } from './dom.js';

// lawcore counts only the columns it read: one offered by its name alone has no count yet
const describe = (o) =>
  (o.points > 1
    ? `${o.points} points, steps ${o.firstStep}–${o.lastStep}`
    : o.points === 1
      ? `1 point, step ${o.firstStep}`
      : 'read once chosen') + (o.kind ? `, ${o.kind}` : '');

/** optionGroup is a fieldset of radio buttons (one choice) or checkboxes (all checked at first). */
function optionGroup(legend, name, options, multiple) {
  return h(
    'fieldset',
    { class: 'import-options' },
    h('legend', { text: legend }),
    options.map((o, i) =>
      h(
        'label',
        { class: 'check import-option' },
        h('input', {
          type: multiple ? 'checkbox' : 'radio',
          name,
          value: o.name,
          checked: multiple || i === 0,
          dataset: { testid: 'import-option' },
        }),
        h('span', { text: o.name }),
        h('span', { class: 'muted', text: describe(o) }),
      ),
    ),
  );
}

/**
 * askImport asks which column and runs of fileName to import (ambiguity: the import's question); it
 * resolves to the choice, or null.
 */
export function askImport(ambiguity, fileName) {
  const dialog = $('#import-dialog');
  $('#import-dialog-title').textContent = `Import ${fileName}`;
  $('#import-message').textContent = ambiguity.message || 'Choose what to import.';
  const columns = ambiguity.columns && ambiguity.columns.length ? ambiguity.columns : null;
  const runs = ambiguity.runs && ambiguity.runs.length ? ambiguity.runs : null;
  $('#import-options').replaceChildren(
    columns ? optionGroup('The loss column', 'import-column', columns, false) : '',
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
