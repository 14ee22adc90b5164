// The footer: lawcore's version and the worker's memory, as the engine last reported them.
import { $ } from '../dom.js';
import { watch } from '../store.js';

/** showEngine keeps the footer's version and memory as the store says. */
export function showEngine(store) {
  watch(store, ['engine'], ({ engine }) => {
    $('#version').textContent = engine.version || '…';
    if (!engine.memory) return;
    $('#engine-memory').textContent = `${Math.round(engine.memory / 2 ** 20)} MB`;
    $('#engine-memory').dataset.bytes = String(engine.memory);
  });
}
