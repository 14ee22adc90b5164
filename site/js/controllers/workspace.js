// Keeping the user's work in this browser (docs/user-guide.md#your-work-is-kept): read back at
// start-up, saved as it changes, forgotten on request. Nothing is sent anywhere.
//
// Reading starts as the page loads (alongside lawcore). At start-up a share link wins (the user
// asked for that view), then the stored work, then the example; with a link the stored work is
// left as it is until the link's view is changed, and "Back to my saved work" brings it back.
// So it is when the user adds curves of their own while the stored work is still being read.
// Saving starts at the first change of the work after start-up (the example or a link opened
// and left untouched is not the user's work, and never replaces it; nor does an example loaded
// later over the user's work, until the user's curves replace it or it is kept; an example
// the user changes on a page without other work is theirs), waits SAVE_DELAY_MS after
// the last change (a burst of edits is one save), and runs one save at a time; a page with no
// curve and no schedule stores nothing. When storage is full, what fits is kept: the settings,
// the schedules and the curves' names first, then the curves' points one curve at a time.
// Everything the page should say about it goes in the store's `workspace` part.
//
// The example shown at start-up, fitted and predicted, is kept apart from the work (its own
// database), with the build that computed it (index.html's build id, a hash of the site's
// files): the next visit of the same build shows it at once instead of computing the same
// answers again, and any other build computes them afresh (saveFittedExample,
// restoreFittedExample).
//
// The store holds one workspace, so two tabs of the page would each save over the other's
// work. Each save (and "Forget my data") is announced to the other tabs (a BroadcastChannel);
// a tab that hears of one stops saving and says so, offering to save its own work instead: the
// work stored is then the latest tab's, and never replaced without the user asking.
import { openWorkspaceDB, deleteWorkspaceDB, EXAMPLE_DB_NAME } from '../persistence/workspace-db.js';
import { ArrayIds, FORMAT, packWorkspace, isEmptyWork, ANALYSIS_CHOICES } from '../persistence/persist.js';
import { readWorkspace, describeWork } from '../persistence/read-workspace.js';
import { createKeptExample } from './kept-example.js';
import { arrayRefs } from '../persistence/array-refs.js';
import { DEFAULT_SETTINGS } from '../state/settings.js';
import { CHART_VIEW_KEYS } from '../state/store.js';
import * as fmt from '../common/format.js';

/**
 * WORK_KEYS are the parts of the state that are the user's work: a change to one is saved (a
 * validation is too, alone).
 */
const WORK_KEYS = ['curves', 'predictions', 'settings', 'fits', 'manual', 'validation'];
/** USER_KEYS are the parts of the work only the user changes (a fit changes fits, manual, lines). */
const USER_KEYS = ['curves', 'predictions', 'settings'];
/** SAVED_KEYS are the parts saved: the work, and what follows from it. */
const SAVED_KEYS = [...WORK_KEYS, 'lines', 'stale'];
/**
 * changed says whether the work differs between two states: keys, and the chart's settings that
 * are work too (how x is counted, entered once: CHART_VIEW_KEYS); its others (log axes, theme)
 * are not, so that a look at a link's view in the dark keeps it a look.
 */
const changed = (a, b, keys) =>
  keys.some((k) => a[k] !== b[k]) || CHART_VIEW_KEYS.some((k) => a.chart[k] !== b.chart[k]);
/** choicesChanged says whether the Analyses panel's choices differ (the work's: not an example's). */
const choicesChanged = (a, b) => ANALYSIS_CHOICES.some((k) => a.analysis[k] !== b.analysis[k]);
/** SAVE_DELAY_MS: a save waits this long after the last change. */
export const SAVE_DELAY_MS = 400;
const KEEPING = 'Your work is kept in this browser as you change it.';
/** CHANNEL is the BroadcastChannel on which the page's tabs announce their saves. */
export const CHANNEL = 'annealing-calculator-workspace';

/** when formats a save's time for the page: "May 12, 2025, 2:02 PM". */
const when = (t) => (t ? fmt.dateTime(t) : 'an earlier visit');
const pointsOf = (curves) => curves.reduce((n, c) => n + c.steps.length, 0);

/**
 * createWorkspace starts reading the stored work and returns {restore() -> restored?,
 * restoreFittedExample() -> restored?, saveFittedExample(shown), linkOpened(), watch(shown),
 * flush() -> promise, startEmpty(), backToSaved(), forget(), resume()}. open opens the database
 * (workspace-db.js's openWorkspaceDB), openExample the example's (removeExample deletes it);
 * build identifies the site's build (empty: an unbuilt site, which keeps no example).
 */
export function createWorkspace({
  store,
  open = openWorkspaceDB,
  remove = deleteWorkspaceDB,
  delayMs = SAVE_DELAY_MS,
  channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null,
  build = '',
  openExample = () => openWorkspaceDB({ name: EXAMPLE_DB_NAME }),
  removeExample = () => deleteWorkspaceDB({ name: EXAMPLE_DB_NAME }),
}) {
  const ids = new ArrayIds();
  const example = createKeptExample({
    store,
    build,
    open: openExample,
    remove: removeExample,
    changed: (a, b) => changed(a, b, USER_KEYS),
  });
  let db = null;
  /** off says why this tab does not save (null: it does). */
  let off = null;
  let baseline = null;
  let dirty = false;
  let timer = null;
  let saving = null;
  let again = false;
  /** kept is the stored work as read at start-up (readWorkspace's answer), while this tab may bring it back. */
  let kept = null;
  let linkShown = false;
  let lastSaved = 0;

  const say = (text, kind = 'notice', actions = []) =>
    store.setWorkspace({ line: { text: [].concat(text), kind, actions } });

  // Reading starts at once, while lawcore loads.
  const found = (async () => {
    try {
      db = await open();
    } catch (err) {
      return { kind: 'unavailable', error: err };
    }
    db.onclose = (why) => stopSaving(`This tab no longer saves your work: ${why}. Reload it to keep your work again.`);
    try {
      const { record, arrays } = await db.read(arrayRefs);
      performance.mark('workspace-read'); // for tests/browser/measure-persist.mjs
      return record === null ? { kind: 'none' } : { kind: 'found', record, arrays };
    } catch (err) {
      return { kind: 'unavailable', error: err };
    }
  })();

  /** stopSaving turns saving off for this tab, saying why. */
  function stopSaving(why, { canForget = false } = {}) {
    off = why;
    clearTimeout(timer);
    timer = null;
    say(why, 'warning');
    store.setWorkspace({ kept: 'Not kept in this browser', canForget });
  }

  /** unavailable: the browser gave no storage. The page works as before and says it will not remember. */
  function unavailable(err) {
    if (err.kind === 'newer') return newer();
    off = 'unavailable';
    const why =
      err.kind === 'refused' || err.kind === 'timeout'
        ? 'This browser does not let the page keep data (private browsing, or storage turned off)'
        : `The browser's storage failed (${err.message})`;
    say(`${why}: the page works as usual, but will not remember your work after a reload.`);
    store.setWorkspace({ kept: 'Not kept in this browser', canForget: false });
  }

  /** newer: a newer version of the page stored the work; it is left alone. */
  function newer(format) {
    stopSaving(
      `Your saved work was written by a newer version of this page${format ? ` (format ${format}; this one reads up to ${FORMAT})` : ''}. `
        + 'It is left as it is, and this tab will not save over it: reload to get the newer version, or press “Forget my data” to drop it.',
      { canForget: true },
    );
  }

  /** clearQuietly empties the store after what it held was dropped (a failure leaves it for the next save). */
  async function clearQuietly() {
    try {
      await db.clear();
      store.setWorkspace({ canForget: false });
    } catch {
      /* the next save replaces it */
    }
  }

  let reading = null;
  /** readFound reads the stored work back once: readWorkspace's answer, or null (saying why when it matters). */
  function readFound() {
    reading ??= (async () => {
      const got = await found;
      if (got.kind === 'unavailable') {
        unavailable(got.error);
        return null;
      }
      store.setWorkspace({ kept: KEEPING, canForget: got.kind === 'found' });
      if (got.kind === 'none') return null;
      const read = readWorkspace(got.record, got.arrays, ids);
      got.arrays = null;
      if (read.kind === 'newer') {
        newer(read.format);
        return null;
      }
      if (read.kind === 'unreadable') {
        await clearQuietly();
        say(
          `Your saved work could not be read (${read.reason}), so the page starts clean. Dropped: ${read.lost}.`,
          'warning',
        );
        return null;
      }
      if (isEmptyWork(read.view)) {
        await clearQuietly();
        if (read.notes.length)
          say(['Your saved work could not be read, so the page starts clean.', ...read.notes], 'warning');
        return null;
      }
      return read;
    })();
    return reading;
  }

  /**
   * show puts read work on the page, calling shown once it is in place; false (and the page
   * clean) when the page cannot draw it. Lines not stored (or not read) are predicted again,
   * and the Analyses panel computed again, as after any change (derived.js).
   */
  function show(read, shown) {
    try {
      store.restoreView(read.view);
      shown?.();
    } catch (err) {
      store.loadView({ settings: DEFAULT_SETTINGS });
      say(
        `Your saved work could not be shown (${err.message}), so the page starts clean. Dropped: ${describeWork(read.view)}.`,
        'warning',
      );
      return false;
    }
    return true;
  }

  /**
   * pack is the stored form of state, with the points of the curves withData says and, if results,
   * the fits and lines.
   */
  const pack = (state, savedAt, withData, results) => packWorkspace(state, ids, { savedAt, withData, results });

  /** announce tells the other tabs that this one saved (kind 'saved', at savedAt) or forgot the work. */
  const announce = (kind, savedAt = Date.now()) => channel && channel.postMessage({ kind, savedAt });

  /** otherTab: another tab saved its work, or forgot it; this one stops saving over it. */
  function otherTab({ kind, savedAt }) {
    if (off && !off.startsWith('other-tab')) return; // not saving already, for its own reason
    off = `other-tab ${kind}`;
    clearTimeout(timer);
    timer = null;
    if (kind === 'forgot') {
      say(
        'Your saved work was forgotten in another tab of this page, so this tab stores nothing more either.',
        'notice',
        db ? ['resume'] : [],
      );
      store.setWorkspace({ kept: 'Not kept in this browser (forgotten on request).', canForget: false, savedAt: 0 });
      return;
    }
    say(
      `Another tab of this page saved its work at ${fmt.clock(savedAt)}, so this tab stopped saving: its changes would replace that work. `
        + 'Reload this tab to see the other tab’s work, or keep working here and save this tab’s work instead.',
      'warning',
      db ? ['this-tab'] : [],
    );
    store.setWorkspace({ kept: `Not kept: another tab saved its work at ${fmt.clock(savedAt)}.` });
  }
  if (channel) channel.onmessage = (e) => otherTab(e.data || {});

  /** saved: the work was written at savedAt. */
  function saved(savedAt) {
    lastSaved = savedAt;
    announce('saved', savedAt);
    store.setWorkspace({
      savedAt,
      kept: `Your work is kept in this browser: saved at ${fmt.clock(savedAt)}.`,
      canForget: true,
    });
  }

  /**
   * saveWhatFits saves what the full storage takes: the settings, the schedules and the
   * curves' names first, then each curve's points while they fit (the fit, which needs them
   * all, is left out).
   */
  async function saveWhatFits(state, savedAt) {
    const withData = new Set();
    const attempt = () => {
      const { record, arrays } = pack(state, savedAt, (c) => withData.has(c), false);
      return db.write(record, arrays);
    };
    try {
      await attempt();
    } catch (err) {
      if (err.kind !== 'quota') throw err;
      say(
        `The browser's storage for this page is full: this change could not be saved. A reload brings back the work saved ${lastSaved ? `at ${fmt.clock(lastSaved)}` : 'before'}. `
          + 'Free some space (or remove curves) to keep saving; the page works as usual.',
        'warning',
      );
      return;
    }
    for (const c of state.curves) {
      withData.add(c);
      try {
        await attempt();
      } catch (err) {
        withData.delete(c);
        if (err.kind !== 'quota') throw err;
      }
    }
    const left = state.curves.filter((c) => !withData.has(c));
    const fitted = Object.keys(state.fits).length > 0 || state.manual !== null;
    saved(savedAt);
    if (!left.length && !fitted) return; // the space came back meanwhile
    say(
      [
        left.length
          ? `The browser's storage for this page is full: the settings, the schedules and the curves' names are kept, but not the points of ${left.map((c) => c.name).join(', ')} (${fmt.grouped(pointsOf(left))} points)`
            + `${fitted ? ', nor the fit' : ''}. After a reload they come back as schedules to predict.`
          : "The browser's storage for this page is full: the curves, schedules and settings are kept, but not the fit: after a reload, press Fit again.",
        'Free some space (or remove curves) to keep everything; the page works as usual.',
      ],
      'warning',
    );
  }

  /** save writes state; when storage is full, what fits. */
  async function save(state, { leaving = false } = {}) {
    store.setWorkspace({ saving: true });
    try {
      if (isEmptyWork(state)) {
        await db.clear();
        store.setWorkspace({ kept: KEEPING, canForget: false });
        announce('saved');
        return;
      }
      const savedAt = Date.now();
      const started = performance.now();
      const { record, arrays } = pack(state, savedAt, () => true);
      try {
        await db.write(record, arrays, { commitNow: leaving });
      } catch (err) {
        if (err.kind !== 'quota') throw err;
        return await saveWhatFits(state, savedAt);
      }
      performance.measure('workspace-save', { start: started }); // for tests/browser/measure-persist.mjs
      saved(savedAt);
      const line = store.state.workspace.line;
      if (line && line.kind === 'warning' && /storage for this page is full|could not be saved/.test(line.text[0]))
        store.setWorkspace({ line: null });
      if (linkShown && kept) sayReplaced();
    } finally {
      store.setWorkspace({ saving: false });
    }
  }

  /** sayReplaced says that the link's view, changed, replaced the saved work read at start-up. */
  function sayReplaced() {
    linkShown = false;
    say(
      `Your earlier saved work (${describeWork(kept.view)}, saved ${when(kept.savedAt)}) was replaced by this view; “Back to my saved work” still brings it back in this tab.`,
      'notice',
      ['back'],
    );
  }

  /** failed reports a save that failed for another reason than a full storage. */
  function failed(err) {
    if (err.kind === 'closed')
      return stopSaving(`This tab no longer saves your work (${err.message}). Reload it to keep your work again.`);
    say(
      `Your work could not be saved (${err.message}). The page works as usual; the next change tries again.`,
      'warning',
    );
  }

  /**
   * flush saves now what is waiting to be saved; it resolves once saved (or failed). A save
   * under way is followed by another, unless leaving: the page is going away (pagehide, hidden),
   * and the one under way would end with no callback left to begin the next, so the next begins
   * now (IndexedDB runs the two in turn).
   */
  function flush({ leaving = false } = {}) {
    const waiting = timer !== null || again;
    clearTimeout(timer);
    timer = null;
    if (off || !db || !dirty || (leaving && !waiting)) return saving || Promise.resolve();
    if (saving && !leaving) {
      again ||= waiting;
      return saving;
    }
    again = false;
    const run = save(store.state, { leaving })
      .catch(failed)
      .finally(() => {
        if (saving !== run) return; // a later save, begun while leaving, follows it
        saving = null;
        if (again) {
          again = false;
          flush();
        }
      });
    saving = run;
    return run;
  }

  return {
    flush,
    /** restoreFittedExample puts back the example as this build kept it (kept-example.js). */
    restoreFittedExample: (options) => example.restore(options),
    /** saveFittedExample keeps the example once fitted and predicted (kept-example.js). */
    saveFittedExample: (shown) => example.save(shown, () => off === 'forgotten'),

    /**
     * restore puts the stored work back on the page; it resolves to false when there is none to
     * show. shown is called once it is in place, before its predictions. When the user has put
     * work of their own on the page while it was read (begun() says so), that stays, and the
     * stored work is kept aside as for a link: "Back to my saved work" brings it back, and the
     * user's work replaces it once saved.
     */
    async restore({ begun = () => false, shown } = {}) {
      const read = await readFound();
      if (!read) return false;
      if (begun()) {
        kept = read;
        linkShown = true;
        say(
          `Your saved work (${describeWork(read.view)}, saved ${when(read.savedAt)}) was still being read when you added yours: it is kept aside, and “Back to my saved work” brings it back.`,
          'notice',
          ['back'],
        );
        return true;
      }
      if (!show(read, shown)) {
        await clearQuietly();
        return false;
      }
      kept = read;
      performance.mark('workspace-restored');
      say(
        [`Restored your work from ${when(read.savedAt)}: ${describeWork(read.view)}.`, ...read.notes],
        read.notes.length ? 'warning' : 'notice',
        ['start-empty'],
      );
      return true;
    },

    /** linkOpened: a share link was opened at start-up; the stored work is left as it is, and said to be. */
    async linkOpened() {
      const read = await readFound();
      if (!read) {
        if (dirty) flush(); // a change made while the store opened
        return;
      }
      kept = read;
      linkShown = true;
      // the link's view may have been changed (and saved) while the stored work was read
      if (lastSaved) return sayReplaced();
      if (dirty) return void flush(); // its save says so
      say(
        `You opened a shared link. Your saved work (${describeWork(read.view)}, saved ${when(read.savedAt)}) is kept: it is replaced only once you change this view.`,
        'notice',
        ['back'],
      );
    },

    /**
     * watch starts saving: from the first change of the work on, every change is saved. shown
     * is the start-up view (a link's, the example) as it was put in place, before its fit or
     * predictions ran: a change the user made since to the curves, schedules or settings (the
     * fit and predictions change none of them) is a change of the work already.
     */
    watch(shown = null) {
      baseline = store.state;
      if (shown && !off && changed(store.state, shown, USER_KEYS)) {
        dirty = true;
        clearTimeout(timer);
        timer = setTimeout(flush, delayMs);
      }
      // the example as it was put in place, and whether it was loaded over the user's work
      let example = store.state.example ? { view: shown || store.state, overWork: false, said: false } : null;
      store.subscribe((state, previous) => {
        if (off) return;
        if (state.example) {
          // (an example put in place anew: the examples are the same objects each time)
          if (!example || !previous.example || example.view.example !== state.example) {
            example = { view: state, overWork: !previous.example && !isEmptyWork(previous), said: false };
          }
          // an example left as it was shown is not the user's work; nor is one loaded over
          // their work, which stays saved (Keep it makes it theirs). One they changed on a page
          // without other work is: it is saved, the example's marker with it (a schedule added
          // to the first view's example was lost by a reload).
          if (!changed(state, example.view, USER_KEYS)) {
            clearTimeout(timer);
            timer = null;
            return;
          }
          if (example.overWork) {
            clearTimeout(timer);
            timer = null;
            if (!example.said) {
              example.said = true; // before saying it: say sets the store, which calls this again
              say(
                `Your changes to ${state.example.title} are not kept: your saved work is. “Keep it, and add my curves beside it” makes the example your work.`,
              );
            }
            return;
          }
          dirty = true;
        }
        if (!dirty) dirty = changed(state, baseline, WORK_KEYS) || choicesChanged(state, baseline);
        if (!dirty || !(changed(state, previous, SAVED_KEYS) || choicesChanged(state, previous))) return;
        clearTimeout(timer);
        timer = setTimeout(flush, delayMs);
      });
    },

    /** startEmpty empties the page (the restored work comes back with Undo). */
    startEmpty() {
      const restore = store.snapshotView();
      store.loadView({ settings: DEFAULT_SETTINGS });
      store.offerUndo('Started empty.', restore);
      store.setWorkspace({ line: null });
      store.setStatus('Started empty: add loss curves, or load an example.');
    },

    /** backToSaved puts the stored work read at start-up back in place of the view (Undo returns to it). */
    backToSaved() {
      if (!kept) return;
      const restore = store.snapshotView();
      if (!show(kept)) return;
      linkShown = false;
      store.offerUndo('Back to your saved work.', restore);
      say(`Back to your saved work: ${describeWork(kept.view)}.`);
    },

    /** forget deletes the stored work; this tab saves nothing more until resume. */
    async forget() {
      off = 'forgotten';
      clearTimeout(timer);
      timer = null;
      if (saving) await saving;
      try {
        await (db ? db.clear() : remove());
      } catch (err) {
        return say(`Your saved work could not be forgotten (${err.message}).`, 'warning');
      }
      kept = null;
      linkShown = false;
      // the example kept as fitted too: its database is deleted (its connection closes when asked)
      await example.remove();
      announce('forgot');
      say(
        'Forgotten: nothing of your work is stored in this browser, and this tab stores nothing more.',
        'notice',
        db ? ['resume'] : [],
      );
      store.setWorkspace({ kept: 'Not kept in this browser (forgotten on request).', canForget: false, savedAt: 0 });
    },

    /** resume keeps the work again after forget, or after another tab saved: this tab's is saved at once. */
    resume() {
      if (!db) return;
      off = null;
      dirty = true;
      store.setWorkspace({ line: null, kept: KEEPING });
      flush();
    },
  };
}
