// How a stored workspace refers to its large arrays (persist.js writes them, workspace-db.js
// stores them apart): {$a: id, n: length, plain?} in the record, in place of each array. Its
// own module so that boot.js can read the stored work without the rest of persist.js.

/** MAX_DEPTH bounds how deep a stored record may nest (lawcore's answers nest a few levels). */
export const MAX_DEPTH = 40;

/** isRef says whether x is a reference to an array stored apart. */
export const isRef = (x) => x !== null && typeof x === 'object' && !Array.isArray(x) && typeof x.$a === 'string';

/** arrayRefs lists the ids of the arrays a stored record refers to (what to read with it). */
export function arrayRefs(record) {
  const ids = new Set();
  (function walk(v, depth) {
    if (depth > MAX_DEPTH || v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return;
    if (isRef(v)) ids.add(v.$a);
    else for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, depth + 1);
  })(record, 0);
  return [...ids];
}
