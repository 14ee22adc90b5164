// The undo bar: the latest change that can be undone and how many there are. After an undo the
// focus goes to the restored row's control (or stays on Undo): never to nothing.
import { $ } from './dom.js';
import { watch } from '../state/store.js';

/** showUndo keeps the undo bar as the store's undo stack says; onUndo() undoes and returns the change undone. */
export function showUndo(store, onUndo) {
  watch(store, ['undo'], ({ undo }) => {
    const top = undo[undo.length - 1];
    $('#undo-bar').hidden = !top;
    if (top) $('#undo-text').textContent = undo.length > 1 ? `${top.text} (${undo.length} changes to undo)` : top.text;
  });
  $('#undo-button').addEventListener('click', () => {
    const done = onUndo();
    if (!done) return;
    const target = done.focusLabel && document.querySelector(`[aria-label="${CSS.escape(done.focusLabel)}"]`);
    if (target) target.focus();
    else if (!$('#undo-bar').hidden) $('#undo-button').focus();
  });
}
