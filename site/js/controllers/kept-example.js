// The start-up example as this build fitted and predicted it, kept for the next visit: a
// visit of the same build shows it without computing it again (tests/browser/kept-example.test.mjs).
// It is kept in a database of its own (workspace-db.js's EXAMPLE_DB_NAME), apart from the
// user's work, under the site's build id; another build fits it afresh.
import { ArrayIds, packWorkspace } from '../persistence/persist.js';
import { readWorkspace } from '../persistence/read-workspace.js';
import { arrayRefs } from '../persistence/array-refs.js';
import { LAW_NAMES } from '../engine/schema.js';
import { missingLines, restoredBand } from '../state/selectors.js';

/**
 * answered says whether a view has a fit and a line for every curve and schedule (drawn with the
 * band the view's fit or validation gives, as the store restores it): the example as kept.
 */
const answered = (view) => {
  const shown = view.band === undefined ? { ...view, band: restoredBand(view) } : view;
  return LAW_NAMES.some((law) => shown.fits[law]) && !LAW_NAMES.some((law) => missingLines(shown, law).length);
};

/** whenIdle runs fn once the page is idle (after a moment where the browser cannot say). */
const whenIdle = (fn) =>
  globalThis.requestIdleCallback ? requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 500);

/**
 * createKeptExample starts reading the example kept for build (empty: an unbuilt site, which
 * keeps none) and returns {restore, save, remove}. open opens its database, remove deletes it;
 * changed(a, b) says whether the user's work differs between two states.
 */
export function createKeptExample({ store, build, open, remove, changed }) {
  const ids = new ArrayIds();
  // read at once, while lawcore loads: {db, record, arrays} (record null when none is kept), or
  // null when there is no storage for it (it is then computed every visit)
  const kept = (async () => {
    if (!build) return null;
    try {
      const db = await open();
      return { db, ...(await db.read(arrayRefs)) };
    } catch {
      return null;
    }
  })();

  return {
    /**
     * restore puts back the start-up example as this build fitted and predicted it on an
     * earlier visit (save): the view its fit and predictions would give, now. It resolves to
     * false when none is kept for this build, or the user has put work of their own on the page
     * meanwhile (begun). examples are the bundled examples ({title, about}), by which the kept
     * view is labelled again.
     */
    async restore({ examples, begun = () => false, shown } = {}) {
      const got = await kept;
      if (!got || !got.record || got.record.build !== build || begun()) return false;
      const read = readWorkspace(got.record, got.arrays, ids);
      got.arrays = null;
      const example =
        read.kind === 'restored'
        && read.view.example
        && Object.values(examples).find((e) => e.title === read.view.example.title);
      // all of it or none: a part dropped is computed afresh with the rest
      if (!example || read.notes.length || !answered(read.view)) return false;
      try {
        store.restoreView({ ...read.view, example });
      } catch {
        return false;
      }
      shown?.();
      const fitted = read.view.curves.filter((c) => c.role === 'fit').length;
      store.setStatus(
        `Fitted ${fitted} curve(s) on an earlier visit, by this same version of the calculator (Fit fits them again).`,
      );
      performance.mark('example-restored');
      return true;
    },

    /**
     * save keeps the start-up example once this build has fitted and predicted it, for restore
     * on the next visit. Only the example as it was put in place (shown), unchanged, with its
     * fit and every line, is kept, when the page is next idle; a change of it first keeps
     * nothing, and so does a page whose user asked to forget (forgotten).
     */
    save(shown, forgotten = () => false) {
      if (!build) return;
      const check = () => {
        const state = store.state;
        if (!state.example || changed(state, shown)) return stop();
        if (state.fitting || state.stale || !answered(state)) return;
        stop();
        whenIdle(async () => {
          const got = await kept;
          if (!got || forgotten()) return;
          const { record, arrays } = packWorkspace(state, ids, { results: true });
          record.build = build;
          try {
            await got.db.write(record, arrays);
            performance.mark('example-kept'); // for the tests (harness.mjs, exampleSaved)
          } catch {
            /* the next visit computes it again */
          }
        });
      };
      const stop = store.subscribe(check);
      check();
    },

    /** remove deletes the kept example (its connection closes when asked). */
    remove: () => remove().catch(() => {}),
  };
}
