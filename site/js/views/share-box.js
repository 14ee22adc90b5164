// The share link box: the latest link made and what it holds.
import { $ } from './dom.js';
import { watch } from '../state/store.js';

/** showShare keeps #share-link and #share-note as the store's share says. */
export function showShare(store) {
  watch(store, ['share'], ({ share }) => {
    $('#share-link').value = share.link;
    $('#share-link').hidden = !share.link;
    $('#share-note').textContent = share.note;
  });
}
