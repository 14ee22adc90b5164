// The fit buttons and progress bar: while a fit or validation runs, Fit and Validate are
// disabled, Cancel is enabled, the progress bar moves and the page is marked "fitting".
import { $ } from './dom.js';
import { watch } from '../state/store.js';

/** showFitting keeps the fit controls as the store's fitting says. */
export function showFitting(store) {
  watch(store, ['fitting'], ({ fitting }) => {
    const on = !!fitting;
    $('#fit-button').disabled = on;
    $('#validate-button').disabled = on;
    $('#cancel-button').disabled = !on;
    $('#fit-progress').hidden = !on;
    $('#fit-progress').value = on ? fitting.progress : 0;
    document.body.classList.toggle('fitting', on);
  });
}
