// The answers table: for each schedule to predict, under each law with parameters, its final
// loss (± the band after a validation), its difference from the baseline chosen, its loss at
// the step chosen and the step at which it reaches the loss chosen (answers.js), with buttons
// that copy it as a PyTorch scheduler or a Hugging Face call (the code copied shows below the
// table, to read or copy by hand). The choices and the code live in the store.
import { $, h } from './dom.js';
import * as fmt from '../common/format.js';
import { watch } from '../state/store.js';
import { answerTable, parseAnswerStep, parseAnswerLoss } from '../results/answers.js';
import { lawTitle, labelsOf } from '../state/selectors.js';

/** signed writes a difference with its sign: +0.0123, −0.0040. */
const signed = (x, d) => (Number.isFinite(x) ? `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(d)}` : '–');

/** lossText shows a loss to reach to 4 decimals at most (2.9 as typed, a final loss as 2.9524). */
const lossText = (x) => String(Number(x.toFixed(4)));

/**
 * showAnswers draws the answers table from the store; on: {options(change), code(name,
 * flavour: 'pytorch'|'huggingface')} (the latter copies the schedule as code).
 */
export function showAnswers(store, on) {
  $('#answer-baseline').addEventListener('change', (e) => on.options({ baseline: e.target.value }));
  /**
   * choose takes a field's text when parse reads it; else it says why, and the field goes back to
   * the choice in use.
   */
  const choose = (key, parse) => (e) => {
    try {
      parse(e.target.value);
    } catch (err) {
      store.showMessage(err.message);
      e.target.value = store.state.answers[key];
      return;
    }
    on.options({ [key]: e.target.value });
  };
  $('#answer-step').addEventListener('change', choose('atStep', parseAnswerStep));
  $('#answer-loss').addEventListener('change', choose('reachLoss', parseAnswerLoss));
  watch(store, ['predictions', 'lines', 'fits', 'manual', 'band', 'answers'], (state) => {
    const t = answerTable(state, state.answers);
    const code = state.answers.code;
    $('#answer-code-box').hidden = !code;
    $('#answer-code-title').textContent = code ? code.title : '';
    $('#answer-code').value = code ? code.text : '';
    const labels = labelsOf(state);
    const select = $('#answer-baseline');
    select.replaceChildren(
      ...state.predictions.map((p) =>
        h('option', { value: p.name, text: labels.get(p.name) ?? p.name, selected: p.name === t.baseline }),
      ),
    );
    $('#answer-step').placeholder = t.defaults.atStep === null ? 'a step' : String(t.defaults.atStep);
    $('#answer-step').title = 'A step (20000, 20,000 or 20k); empty: the last step of the shortest schedule';
    $('#answer-loss').placeholder = t.defaults.reachLoss === null ? 'a loss' : lossText(t.defaults.reachLoss);
    $('#answer-loss').title = 'Empty: the baseline’s final loss';
    const any = t.laws.length > 0 && state.predictions.length > 0;
    $('#answers-table').hidden = !any;
    $('#answers-empty').hidden = any;
    if (!any) {
      $('#answers-note').textContent = '';
      return;
    }
    const many = t.laws.length > 1;
    // each answer's column, which labels it where the table folds to a block a schedule (a phone)
    const finalHead =
      state.band && !state.manual ? `final loss with ${Math.round(state.band.level * 100)}% band` : 'final loss';
    const heads = {
      final: finalHead,
      diff: 'vs baseline',
      atStep: `loss at ${t.atStep === null ? '–' : fmt.steps(t.atStep)}`,
      reach: `steps to ${t.reachLoss === null ? '–' : lossText(t.reachLoss)}`,
    };
    $('#answers-table thead').replaceChildren(
      h(
        'tr',
        {},
        h('th', { scope: 'col', text: 'schedule' }),
        h('th', {
          scope: 'col',
          class: 'num',
          title:
            'predicted loss at the schedule’s last step, ± the prediction band’s half-width there (the band of an auto fit, or of “Validate”)',
          text: heads.final,
        }),
        h('th', {
          scope: 'col',
          class: 'num',
          title: `final loss minus the baseline’s (${t.baseline}): negative ends lower`,
          text: 'vs baseline',
        }),
        h('th', {
          scope: 'col',
          class: 'num',
          title: 'predicted loss at the step chosen (– past the schedule’s end)',
          text: heads.atStep,
        }),
        h('th', {
          scope: 'col',
          class: 'num',
          title: 'the first step at which the predicted loss reaches the loss chosen (– if it never does)',
          text: heads.reach,
        }),
        h('th', { scope: 'col', text: 'copy as' }),
      ),
    );
    const body = [];
    let coarsest = 0;
    for (const { law, rows } of t.laws) {
      if (many) body.push(h('tr', { class: 'group' }, h('th', { colspan: 6, scope: 'rowgroup', text: lawTitle(law) })));
      for (const r of rows) {
        coarsest = Math.max(coarsest, r.spacing || 0);
        const value = (key, x) => ({ metric: key, value: Number.isFinite(x) ? String(x) : '' });
        body.push(
          h(
            'tr',
            { dataset: { scheduleName: r.name, law, baseline: String(r.name === t.baseline) } },
            h(
              'th',
              { scope: 'row', title: r.name },
              h('span', { class: 'swatch', style: { background: r.color } }),
              labels.get(r.name) ?? r.name,
              r.name === t.baseline ? h('span', { class: 'muted', text: ' (baseline)' }) : null,
            ),
            h('td', {
              class: 'num',
              'data-label': heads.final,
              dataset: {
                ...value('final', r.final),
                band: r.band === null ? '' : String(r.band),
                lower: r.lower === null ? '' : String(r.lower),
                upper: r.upper === null ? '' : String(r.upper),
              },
              title:
                r.lower !== null && r.upper !== null ? `between ${r.lower.toFixed(4)} and ${r.upper.toFixed(4)}` : null,
              text: r.final === null ? '–' : `${r.final.toFixed(4)}${r.band !== null ? ` ± ${r.band.toFixed(4)}` : ''}`,
            }),
            h('td', {
              class: 'num',
              'data-label': heads.diff,
              dataset: value('diff', r.diff),
              text: r.name === t.baseline ? '' : signed(r.diff, 4),
            }),
            h('td', {
              class: 'num',
              'data-label': heads.atStep,
              dataset: value('atStep', r.atStep),
              text: r.atStep === null ? '–' : r.atStep.toFixed(4),
            }),
            h('td', {
              class: 'num',
              'data-label': heads.reach,
              dataset: value('reach', r.reach),
              text: r.reach === null ? '–' : fmt.steps(r.reach),
            }),
            h(
              'td',
              { class: 'copy-cell' },
              h('button', {
                type: 'button',
                class: 'small',
                text: 'PyTorch',
                title: `Copy ${r.name} as a PyTorch scheduler`,
                'aria-label': `Copy ${r.name} as a PyTorch scheduler`,
                on: { click: () => on.code(r.name, 'pytorch') },
              }),
              h('button', {
                type: 'button',
                class: 'small',
                text: 'HF',
                title: `Copy ${r.name} as a Hugging Face get_*_schedule call`,
                'aria-label': `Copy ${r.name} as a Hugging Face call`,
                on: { click: () => on.code(r.name, 'huggingface') },
              }),
            ),
          ),
        );
      }
    }
    $('#answers-table tbody').replaceChildren(...body);
    $('#answers-note').textContent =
      `Losses and steps from the predicted lines, joined linearly between their points (every ${fmt.steps(coarsest)} steps or closer); the final loss is lawcore’s, at the last step.`
      + (state.band && !state.manual
        ? ` ${bandText(state.band)}`
        : ' Fit with intervals, auto or “Validate” for a band.');
  });
}

/**
 * bandText says what the ± is: lawcore's band, the parameters' spread, the laws the held-out
 * data leave plausible and the law's own error on unseen schedules, learnt from held-out folds
 * or from the paper's figures alone.
 */
function bandText(band) {
  const spec = band.spec || {};
  const level = Math.round(band.level * 100);
  let learnt = 'the paper’s ~0.2% on unseen schedules, no held-out data having measured it';
  if (spec.folds > 0 && spec.design === 'forecast')
    learnt = `the paper’s ~0.2% on unseen schedules, which forecasts of the one fit curve’s own tail can adjust a little: they cannot show how far other schedules miss`;
  else if (spec.folds > 0) learnt = `learnt from ${spec.folds} held-out fold${spec.folds === 1 ? '' : 's'}`;
  const parts = ['the spread of the parameters the fit leaves open'];
  if (spec.alternatives && spec.alternatives.length) parts.push('of the laws the held-out data cannot rule out');
  return `± is the ${level}% prediction band ${band.from === 'validation' ? 'of the validation' : 'of the fit'}. It holds ${parts.join(', ')}, and the law’s own error on schedules it did not see (${learnt}), and widens the farther a schedule runs beyond the fitted data.`;
}
