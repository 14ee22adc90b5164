// The fit settings form: shows the store's settings, and reads what was typed (checked by
// settings.js, which names the field that is wrong).
import { $ } from './dom.js';
import { watch } from '../state/store.js';
import { parseSettings, lawChoices, autoChose } from '../state/settings.js';
import { LAWS } from '../engine/schema.js';

/** SETTING_FIELDS are the form's controls, each changing the settings. */
export const SETTING_FIELDS = [
  '#lambda',
  '#fit-lambda',
  '#warmup-steps',
  '#warmup-convention',
  '#huber-delta',
  '#law',
  '#auto',
  '#mpl-search',
  '#priors',
];

/**
 * showSettings writes the store's settings into the form whenever they change. A number the
 * user is typing is left as typed (the field has the focus and differs from what was last
 * shown: its change event has not come yet): settings that change meanwhile, as when a file
 * chosen over the example lands, must not wipe it; its change event then sets it.
 *
 * After an auto fit, while auto is on, the fields auto chooses (the law, λ, the warmup convention,
 * the Multi-Power Law's search) say "auto chose ..." in place of the settings it did not read;
 * they come back as set when auto is unticked.
 */
export function showSettings(store) {
  const shown = new Map(); // a number field -> the text last written into it
  const showNumber = (id, value) => {
    const field = $(id);
    const typing = document.activeElement === field && shown.has(field) && field.value !== shown.get(field);
    if (!typing) field.value = value;
    shown.set(field, value);
  };
  watch(store, ['settings'], ({ settings: s }) => {
    showNumber('#lambda', String(s.lambda));
    $('#fit-lambda').checked = s.fitLambda;
    $('#lambda').disabled = s.fitLambda;
    showNumber('#warmup-steps', String(s.warmupSteps));
    $('#warmup-convention').value = s.warmupConvention;
    showNumber('#huber-delta', String(s.huberDelta));
    $('#law').value = s.law || 'annealing';
    $('#auto').checked = !!s.auto;
    $('#mpl-search').value = s.mplSearch || 'optimum';
    $('#priors').value = s.priors || 'weak';
  });
  watch(store, ['settings', 'fits', 'manual'], showAutoChoice);
}

/** AUTO_FIELDS: each setting auto chooses, the controls it replaces, and its output. */
const AUTO_FIELDS = [
  ['law', ['#law'], '#law-auto'],
  ['lambda', ['#lambda', '#fit-lambda-field'], '#lambda-auto'],
  ['convention', ['#warmup-convention'], '#warmup-convention-auto'],
  ['search', ['#mpl-search'], '#mpl-search-auto'],
];

/**
 * showAutoChoice shows, with auto on, what the auto fit in use chose in place of the fields it
 * chose them for (a field whose setting the choice does not use says so); the fields as set
 * otherwise.
 */
function showAutoChoice(state) {
  const fit = state.settings.auto && !state.manual ? Object.values(state.fits).find((f) => f.response?.auto) : null;
  const chose = autoChose(fit);
  for (const [key, controls, output] of AUTO_FIELDS) {
    let text = '';
    if (chose)
      text = chose[key]
        ? `auto chose ${chose[key]}`
        : `not used: auto chose ${chose.law}${key === 'lambda' ? ', which has no λ' : ''}`;
    $(output).textContent = text;
    $(output).hidden = !chose;
    for (const c of controls) $(c).hidden = !!chose;
  }
}

/**
 * fillLawChoices lists the laws of the engine's schema in the law field (once the engine is
 * ready), keeping the choice made.
 */
export function fillLawChoices() {
  const select = $('#law');
  const chosen = select.value;
  select.replaceChildren(
    ...lawChoices().map((law) => {
      const option = document.createElement('option');
      option.value = law;
      option.textContent = law === 'both' ? 'annealing law and Multi-Power Law' : LAWS[law].label;
      return option;
    }),
  );
  select.value = chosen;
}

/** readSettings reads the form; it throws an Error naming the bad field. With λ fitted, previousLambda is kept. */
export function readSettings(previousLambda) {
  const text = (id) => ({ value: $(id).value, badInput: $(id).validity.badInput });
  return parseSettings(
    {
      lambda: text('#lambda'),
      fitLambda: $('#fit-lambda').checked,
      warmupSteps: text('#warmup-steps'),
      warmupConvention: $('#warmup-convention').value,
      huberDelta: text('#huber-delta'),
      law: $('#law').value,
      auto: $('#auto').checked,
      mplSearch: $('#mpl-search').value,
      priors: $('#priors').value,
    },
    previousLambda,
  );
}

/** lockLambda disables the λ field while "fit λ too" is checked (at once, even before the form reads well). */
export function lockLambda() {
  $('#lambda').disabled = $('#fit-lambda').checked;
}
