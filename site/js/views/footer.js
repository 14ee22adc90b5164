// The footer: lawcore's version and the worker's memory, as the engine last reported them; and
// the status line saying what the engine is loading.
import { $ } from './dom.js';
import { watch } from '../state/store.js';

/** showEngine keeps the footer's version and memory, and the line saying what the engine loads, as the store says. */
export function showEngine(store) {
  watch(store, ['engine'], ({ engine }) => {
    $('#engine-loading').hidden = !engine.loading;
    $('#engine-loading').textContent = engine.loading ? `Loading ${engine.loading} (lawcore.wasm)…` : '';
    $('#version').textContent = engine.version || '…';
    if (!engine.memory) return;
    $('#engine-memory').textContent = `${Math.round(engine.memory / 2 ** 20)} MB`;
    $('#engine-memory').dataset.bytes = String(engine.memory);
  });
}
