// Names a person can read: a run's name as its logger wrote it
// ("ann124-0.2_slimpajama_llama_..._decay_linear_0.2_iter25000_bs50x2_ws2_seed0_data_seed1337",
// 130 characters) shown by what tells it from the others ("ann124-0.2 0.2 25K"). The full name
// stays the curve's: it is what exports, share links and lawcore's messages use, and what the
// page shows on hover. Pure (node tests it).

/** SEPARATORS split a name into its words. */
const SEPARATORS = /[_\s/]+/;

/** STEP_WORD is a word naming a run's length: iter25000, steps_50000 once split, it100000. */
const STEP_WORD = /^(?:iter|iters|iteration|iterations|step|steps|it|total)[-=]?(\d{4,})$/i;

/** readableCount writes a whole number of steps as a person says it: 25000 as 25K, 1500000 as 1.5M. */
export function readableCount(n) {
  for (const [unit, size] of [
    ['M', 1e6],
    ['K', 1e3],
  ]) {
    if (n >= size && (n * 10) % size === 0) return `${n / size}${unit}`;
  }
  return String(n);
}

/** readableWord writes a word of a name as a person reads it: iter25000 as 25K. */
function readableWord(word) {
  const m = STEP_WORD.exec(word);
  return m ? readableCount(Number(m[1])) : word;
}

/** readableName is a name with its step words made readable in place: run_iter25000 as run_25K. */
export function readableName(name) {
  return String(name).replace(/[^_\s/]+/g, readableWord);
}

/**
 * shortNames maps each of names to what distinguishes it from the others: its words less those
 * every name has (a common prefix and suffix, and the settings all the runs share), joined by
 * spaces, with a step count read as 25K. A name shown alone, one that nothing was dropped from,
 * or whose distinguishing words would be another name's too, is itself (its step words made
 * readable); and every name is, when one of them has no word of its own.
 */
export function shortNames(names) {
  const words = names.map((n) => String(n).split(SEPARATORS).filter(Boolean));
  const out = new Map();
  if (names.length < 2) {
    for (const n of names) out.set(n, readableName(n));
    return out;
  }
  const sets = words.map((w) => new Set(w));
  const everywhere = (word) => sets.every((s) => s.has(word));
  const kept = words.map((w) => w.filter((word) => !everywhere(word)));
  const short = kept.map((w) => w.map(readableWord).join(' '));
  const count = new Map();
  for (const s of short) count.set(s, (count.get(s) || 0) + 1);
  // a name with nothing of its own (another holds all its words: a file added twice) says what
  // the others' words are relative to: every name is shown whole then
  const relative = kept.every((k) => k.length > 0);
  names.forEach((n, i) => {
    const shorter = relative && kept[i].length < words[i].length && count.get(short[i]) === 1;
    out.set(n, shorter ? short[i] : readableName(n));
  });
  return out;
}

/**
 * curveLabels maps each curve's name to the name the page shows: the label the user gave it,
 * else what distinguishes it from the other curves (shortNames). Schedules to predict keep the
 * names they were given (typed, or a sweep's), unless relabelled.
 */
export function curveLabels(curves, predictions = []) {
  const short = shortNames(curves.map((c) => c.name));
  const out = new Map();
  for (const c of curves) out.set(c.name, c.label || short.get(c.name));
  for (const p of predictions) out.set(p.name, p.label || p.name);
  return out;
}
