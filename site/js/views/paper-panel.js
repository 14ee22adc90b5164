// The Paper view's list of claims and a claim's verdict above the view it opened, drawn from the
// store's analysis (result.claims: lawcore's `paper` answer; claim: the claim whose view is
// shown). Each claim's button reports on.open(id); the verdict's button on.back().
import { $, h } from './dom.js';
import { watch } from '../state/store.js';
import { claimSections, claimBanner, verdictParts } from '../analysis/paper-claims.js';
import { VIEWS } from '../analysis/analysis-views.js';

/** viewLabel names the view a claim opens, for its button. */
function viewLabel(claim) {
  if (claim.view === 'fit') return 'the Fig. 2 example’s fit';
  const v = VIEWS.find((x) => x.id === claim.view) || VIEWS.find((x) => x.analysis && x.analysis === claim.analysis);
  return v ? v.label : claim.view;
}

/** showPaperClaims draws the claims and the claim's verdict from the store; on: {open(id), back()}. */
export function showPaperClaims(store, on) {
  $('#analysis-claim-back').addEventListener('click', () => on.back());
  let claims;
  watch(store, ['analysis'], ({ analysis: a }) => {
    const list = a.result && a.result.claims;
    if (list !== claims) {
      claims = list;
      renderClaims(list, on);
    }
    const claim = a.claim && a.claim.view === a.view ? a.claim : null;
    $('#analysis-claim').hidden = !claim;
    $('#analysis-claim').dataset.status = claim ? claim.status : '';
    $('#analysis-claim').dataset.claim = claim ? claim.id : '';
    $('#analysis-claim-verdict').textContent = claim ? claimBanner(claim) : '';
  });
}

/** renderClaims lists the claims by section (none: the list is hidden). */
function renderClaims(claims, on) {
  const box = $('#paper-claims');
  box.hidden = !claims;
  if (!claims) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    ...claimSections(claims).flatMap((s) => [
      h('h3', { text: `§${s.section} ${s.topic}` }),
      ...s.claims.map((c) => {
        const open = h('button', {
          type: 'button',
          class: 'small',
          text: `Show it: ${viewLabel(c)}`,
          dataset: { openClaim: c.id },
        });
        open.addEventListener('click', () => on.open(c.id));
        return h(
          'article',
          { class: 'claim', dataset: { claim: c.id, status: c.status } },
          h('p', { class: 'claim-statement', text: `“${c.statement}” (${c.source})` }),
          h(
            'p',
            { class: 'claim-verdict' },
            h('span', { class: 'claim-status', text: verdictParts(c.verdict).lead }),
            verdictParts(c.verdict).rest,
          ),
          open,
        );
      }),
    ]),
  );
}
