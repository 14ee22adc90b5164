// "How to read this page": the laws' part is written from lawcore's schema (each law's formula
// and what each parameter is), and a link to any part of it opens the section where it points.
import { $, h } from './dom.js';
import { LAWS } from '../engine/schema.js';
import { lawTitle } from '../state/selectors.js';

/** showExplain fills the laws' explanations and opens the section when a link to it is followed. */
export function showExplain() {
  $('#explain-law-list').replaceChildren(
    ...Object.keys(LAWS).flatMap((law) => {
      const { params, symbols, meanings, priors = {}, formula } = LAWS[law];
      return [
        h('dt', { text: lawTitle(law) }),
        h(
          'dd',
          {},
          h('div', { class: 'formula', text: formula }),
          params.map((k) =>
            h('div', {
              text: `${symbols[k]}: ${meanings[k] || k}${priors[k] ? `. Prior: ${priors[k].source}` : ''}`,
            }),
          ),
        ),
      ];
    }),
  );
  const open = (hash) => {
    if (!/^#explain/.test(hash)) return;
    $('#explain').open = true;
    document.querySelector(hash)?.scrollIntoView({ block: 'start' });
  };
  document.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('a[href^="#explain"]');
    if (a) open(a.getAttribute('href'));
  });
  open(location.hash);
}
