// The bundled examples: the paper's Fig. 2 (fitted, with the 60K schedules predicted) and the
// MultiPowerLaw release's runs of one size (imported, fitted three, predicted six). An example
// replaces the view; the view it replaced comes back with Undo.
import { loadFig2, FIG2_SETTINGS, FIG3_PREDICTIONS, fetchReleaseRuns, RELEASE_SETTINGS } from '../import/examples.js';
import { importText } from '../import/import-files.js';

/** EXAMPLES say what each example is, on the page: {title, about}. */
export const EXAMPLES = {
  fig2: {
    title: 'the paper’s Fig. 2 example',
    about:
      'the paper’s Fig. 2 (Tissue et al. 2024): its constant and cosine runs of 20K steps at peak LR 2e-4, fitted, and five unseen 60K-step schedules predicted as in its Fig. 3.',
  },
  ...Object.fromEntries(
    [25, 100].map((size) => [
      size,
      {
        title: `the MultiPowerLaw ${size}M example`,
        about: `the MultiPowerLaw release’s ${size}M runs (Luo et al., ICLR 2025): three fitted, six held out and predicted, with the schedules from the files’ LR columns.`,
      },
    ]),
  ),
};

/** createExamples returns {load(title, which), fig2({keepMessage, shown})}; which is 'fig2', 25 or 100. */
export function createExamples({ store, engine, fitting }) {
  /**
   * fig2 opens the paper's companion view: fit Fig. 2, predict the 60K schedules. shown is
   * called once the view is in place, before its fit; unless() true once the file is read
   * leaves the view as it is (at start-up: the user has put work of their own on the page).
   */
  async function fig2({ keepMessage = false, shown, unless = () => false } = {}) {
    if (!keepMessage) store.clearMessage();
    try {
      const curves = await loadFig2();
      if (unless()) return;
      store.loadView({ settings: FIG2_SETTINGS, curves, predictions: FIG3_PREDICTIONS, example: EXAMPLES.fig2 });
      shown?.();
      await fitting.fit({ keepMessage, replace: true });
    } catch (err) {
      store.showMessage(`Example: ${err.message}`);
    }
  }

  /** release opens the MultiPowerLaw release's runs of one size, imported as files are. */
  async function release(size) {
    store.clearMessage();
    try {
      const runs = await fetchReleaseRuns(size);
      const imported = await Promise.all(runs.map((r) => importText(engine, r.file, r.text)));
      const curves = imported.map(({ curves: [c] }, i) => ({
        ...c,
        role: runs[i].role,
        name: runs[i].name,
        source: `MultiPowerLaw ${size}M`,
      }));
      store.loadView({ settings: RELEASE_SETTINGS, curves, example: EXAMPLES[size] });
      await fitting.fit({ replace: true });
    } catch (err) {
      store.showMessage(`Example: ${err.message}`);
    }
  }

  return {
    fig2,
    /** load loads an example in place of the view (title names it for Undo). */
    async load(title, which) {
      const { curves, predictions } = store.state;
      const replaced = curves.length > 0 || predictions.length > 0;
      const restore = store.snapshotView();
      await (which === 'fig2' ? fig2() : release(which));
      if (replaced) store.offerUndo(`Loaded ${title}.`, restore);
    },
  };
}
