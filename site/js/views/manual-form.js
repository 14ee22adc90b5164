// The "Enter parameters by hand" form: one field per parameter of the law the settings fit
// first (lawcore's schema), showing that law's parameters in use (fitted, or from a link), and
// reading the parameters typed.
import { $, h } from './dom.js';
import { watch } from '../state/store.js';
import { LAWS } from '../engine/schema.js';
import { lawsOf } from '../state/settings.js';
import { paramsOf } from '../state/selectors.js';

/** manualLaw is the law whose parameters the form takes: the first the settings fit. */
export function manualLaw(state) {
  return lawsOf(state.settings).find((law) => LAWS[law]) || 'annealing';
}

/** showManualParams rebuilds the form for the law chosen, and fills it whenever that law's parameters in use change. */
export function showManualParams(store) {
  let law = null;
  let shown = null;
  watch(store, ['fits', 'manual', 'settings'], (state) => {
    const now = manualLaw(state);
    if (now !== law) {
      law = now;
      shown = null;
      const { params, symbols, meanings } = LAWS[law];
      $('#manual-law').textContent = `The ${LAWS[law].label}’s parameters (the law chosen in the fit settings).`;
      $('#manual-fields').replaceChildren(
        ...params.map((k) =>
          h(
            'label',
            { class: 'field', for: `manual-${k}`, title: meanings[k] || '' },
            h('span', { class: 'field-label', text: symbols[k] }),
            h('input', { id: `manual-${k}`, type: 'text', inputmode: 'decimal', autocomplete: 'off' }),
          ),
        ),
      );
    }
    const p = paramsOf(state, law);
    if (!p || p.params === shown) return;
    shown = p.params;
    for (const k of LAWS[law].params)
      $(`#manual-${k}`).value = p.params[k] === undefined ? '' : String(Number(p.params[k].toPrecision(6)));
  });
}

/** manualTexts are the parameters as typed: {name: text}. */
export function manualTexts() {
  const fields = [...document.querySelectorAll('#manual-fields input')];
  return Object.fromEntries(fields.map((input) => [input.id.replace(/^manual-/, ''), input.value]));
}
