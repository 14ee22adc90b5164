// The label of the bundled example: while the page shows one, the data panel and the schedules
// to predict say so (what it is, that the user's first curves replace it, that Undo brings it
// back), so that it is never taken for the user's own work.
import { $ } from './dom.js';
import { watch } from '../state/store.js';

/** showExampleNote labels the example shown; examples maps an example's title to what it is ({about}). */
export function showExampleNote(store, examples) {
  watch(store, ['example', 'predictions'], ({ example, predictions }) => {
    const about = example && Object.values(examples).find((e) => e.title === example.title);
    $('#example-note').hidden = !example;
    $('#example-about').textContent = example ? `Example: ${about ? about.about : example.title}` : '';
    const fromExample = example ? predictions.filter((p) => p.fromExample).length : 0;
    $('#predict-example-note').hidden = !fromExample;
    $('#predict-example-note').textContent = fromExample
      ? `${fromExample} of these come with the example: your first file replaces them.`
      : '';
  });
}
