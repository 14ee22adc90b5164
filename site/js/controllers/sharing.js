// Share links: making one of the view (with the curves' data while the link stays small enough,
// else without), and opening one (refit, or predict with its parameters). A link is checked as
// any link opened is before it is handed out.
import { encodeShare, decodeShare, checkShareable, MAX_FRAGMENT } from '../share/share.js';
import { shareView, linkView } from '../share/share-view.js';

/** createSharing returns {makeLink(base, copy), open(hash) -> opened}. */
export function createSharing({ store, fitting, predicting }) {
  return {
    /** makeLink makes the link of the view at base and copies it with copy(text) (which may throw). */
    async makeLink(base, copy) {
      try {
        // The link must pass the checks of a link opened: with the data when it can (a curve of
        // more points than a link holds cannot), else without.
        const withData = shareView(store.state, true);
        let fits = true;
        try {
          checkShareable(withData);
        } catch {
          fits = false;
        }
        let payload = fits ? await encodeShare(withData) : '';
        let note = 'Link copied: it holds the settings, parameters, schedules and the curves’ data.';
        if (!fits || payload.length > MAX_FRAGMENT) {
          const withoutData = shareView(store.state, false);
          checkShareable(withoutData);
          payload = await encodeShare(withoutData);
          note = `With the curves’ data the link would be too large (over ${MAX_FRAGMENT / 1024} KB): this link leaves the data out (the curves come back as schedules to predict).`;
          if (payload.length > MAX_FRAGMENT)
            throw new Error(
              `the view is too large for a link even without data (${Math.round(payload.length / 1024)} KB)`,
            );
        }
        const link = `${base}#s=${payload}`;
        try {
          await copy(link);
        } catch {
          note = note.replace('Link copied', 'Link ready (copy it from the box)');
        }
        store.setShare({ link, note });
      } catch (err) {
        store.setShare({ ...store.state.share, note: `This view cannot be shared as a link: ${err.message}` });
      }
    },

    /** open restores the view of a #s= link; it resolves to false when there is none or it was refused. */
    async open(hash, { shown } = {}) {
      const m = /^#s=(.*)$/s.exec(hash);
      if (!m) return false;
      let view;
      try {
        view = linkView(await decodeShare(m[1]));
      } catch (err) {
        store.showMessage(`Share link refused: ${err.message}. The default example is shown instead.`);
        return false;
      }
      // A link opened over the user's work (the link pasted into this tab) can be undone.
      const replaced = store.state.curves.length > 0 || store.state.predictions.length > 0;
      const restore = store.snapshotView();
      store.loadView(view);
      if (replaced) store.offerUndo('Opened a shared link.', restore);
      shown?.();
      if (view.refit) await fitting.fit({ keepMessage: true, replace: true });
      else if (view.manual) await predicting.useLink(view.manual);
      store.setStatus('Opened the view of a shared link.');
      if (view.notes.length) store.showMessage(view.notes, 'notice');
      return true;
    },
  };
}
