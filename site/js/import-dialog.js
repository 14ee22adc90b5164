// The question an imported file may raise: which runs (checkboxes) or which loss column (radio
// buttons) to take. askImport resolves to lawcore's `choice` or null when cancelled.
import { $, h } from './dom.js';

export function askImport(ambiguity, fileName) {
  const dialog = $('#import-dialog');
  $('#import-dialog-title').textContent = `Import ${fileName}`;
  $('#import-message').textContent = ambiguity.message || 'Choose what to import.';
  const runs = ambiguity.runs && ambiguity.runs.length ? ambiguity.runs : null;
  const options = runs || ambiguity.columns || [];
  const describe = (o) => `${o.points} points, steps ${o.firstStep}–${o.lastStep}${o.kind ? `, ${o.kind}` : ''}`;
  $('#import-options').replaceChildren(...options.map((o, i) => h('label', { class: 'check import-option' },
    h('input', { type: runs ? 'checkbox' : 'radio', name: 'import-choice', value: o.name, checked: runs ? true : i === 0, dataset: { testid: 'import-option' } }),
    h('span', { text: o.name }), h('span', { class: 'muted', text: describe(o) }))));
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
      const picked = [...$('#import-options').querySelectorAll('input:checked')].map((x) => x.value);
      if (!picked.length) return;
      done(runs ? { runs: picked } : { column: picked[0] });
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
