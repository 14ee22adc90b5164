// The alert area (errors, or a notice; several become a list) and the status line under the
// fit buttons, drawn from the store's message and status.
import { $ } from './dom.js';
import { watch } from '../state/store.js';

/** showMessages keeps #message and #status as the store says; the close button clears the message. */
export function showMessages(store) {
  $('#message-close').addEventListener('click', () => store.clearMessage());
  watch(store, ['message'], ({ message }) => {
    $('#message').hidden = !message;
    $('#message-text').replaceChildren(
      ...(message ? message.lines : []).map((l) => Object.assign(document.createElement('div'), { textContent: l })),
    );
    $('#message').classList.toggle('notice', !!message && message.kind !== 'error');
  });
  watch(store, ['status'], ({ status }) => {
    $('#status').textContent = status;
  });
}
