// The "Enter parameters by hand" form: it shows the annealing law's parameters in use (fitted,
// or from a link) and reads the parameters typed.
import { $ } from '../dom.js';
import { watch } from '../store.js';
import { LAWS } from '../schema.js';
import { paramsOf } from '../selectors.js';

/** showManualParams fills the form whenever the annealing law's parameters in use change. */
export function showManualParams(store) {
  let shown = null;
  watch(store, ['fits', 'manual'], (state) => {
    const p = paramsOf(state, 'annealing');
    if (!p || p.params === shown) return;
    shown = p.params;
    for (const k of LAWS.annealing.params) $(`#manual-${k}`).value = p.params[k] === undefined ? '' : String(Number(p.params[k].toPrecision(6)));
  });
}

/** manualTexts are the parameters as typed: {name: text}. */
export function manualTexts() {
  return Object.fromEntries(LAWS.annealing.params.map((k) => [k, $(`#manual-${k}`).value]));
}
