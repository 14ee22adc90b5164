// The notes that name the law they describe: which law the loss chart draws dotted, what the two
// terms of the terms chart are for each law shown, and what the predicted-curves CSV's term columns
// hold (and how large it is at every step). All from lawcore's schema (schema.js LAWS), so that
// every law reads right alone or beside another.
import { $ } from './dom.js';
import { watch } from '../state/store.js';
import { LAWS } from '../engine/schema.js';
import { lawsOf } from '../state/settings.js';
import { lawsWithParams, lawTitle } from '../state/selectors.js';
import { everyStepCSV } from '../export/export-files.js';
import * as fmt from '../common/format.js';

/** lawsShown are the laws with parameters, else those the settings fit. */
const lawsShown = (state) => {
  const withParams = lawsWithParams(state);
  return withParams.length ? withParams : lawsOf(state.settings).filter((law) => LAWS[law]);
};

/** termsNote says what the terms chart draws for each law: loss = L0 + solid − dashed. */
export function termsNote(laws) {
  const one = (law) => {
    const [s1, s2] = LAWS[law].terms;
    return `${laws.length > 1 ? `${lawTitle(law)}: s` : 'S'}olid ${s1}, the power law in the learning-rate area; dashed ${s2}, the drop the decreases of the learning rate bring (loss = L0 + solid − dashed).`;
  };
  return `${laws.length > 1 ? 'The first law’s terms. ' : ''}${one(laws[0])}`;
}

/** showLawNotes fills the notes from the store's laws. */
export function showLawNotes(store) {
  watch(store, ['settings', 'fits', 'manual'], (state) => {
    const laws = lawsShown(state);
    $('#loss-hint-laws').textContent =
      laws.length > 1
        ? `Dotted: the ${laws
            .slice(1)
            .map((l) => LAWS[l].label)
            .join(' and the ')}, beside the ${LAWS[laws[0]].label}.`
        : '';
    $('#terms-hint').textContent = laws.length ? termsNote(laws) : '';
    $('#export-hint').textContent =
      'The predicted-curves CSV holds each curve and schedule under each law with parameters: curve, law, step, lr, loss, '
      + `s1_term and s2_term (${laws.map((law) => `${LAWS[law].label}: ${LAWS[law].terms.join(' and ')}`).join('; ')}; loss = L0 + s1_term − s2_term), `
      + 'and after “Validate” lower and upper (the band). It starts where the charts do (after the warmup) and has as many steps as they draw; ask for every step below.';
  });
}

/** showExportSize says on the every-step CSV button how large that file is. */
export function showExportSize(store) {
  watch(store, ['curves', 'predictions', 'fits', 'manual', 'band'], (state) => {
    const { rows, bytes } = everyStepCSV(state);
    $('#export-csv-every').textContent = rows
      ? `Predicted curves, every step (CSV, ${fmt.steps(rows)} rows, about ${fmt.bytes(bytes)})`
      : 'Predicted curves, every step (CSV)';
  });
}
