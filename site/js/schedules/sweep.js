// Sweeps: one action of the schedule builder adds a family of schedules to predict, the same
// schedule at each of several decay fractions, totals or peak LRs, each named by what varies.
// Values are typed as a list ("0.1, 0.2, 0.4") or a range ("0.1 to 0.9 by 0.1"), and shown as
// typed: a range's steps carry no float noise (0.3, not 0.30000000000000004). Pure (node tests it).
import { parseCount, parseDecimal } from '../common/format.js';
import { readableCount } from '../common/names.js';

/** MAX_SWEEP is the most schedules one sweep adds. */
export const MAX_SWEEP = 50;

/**
 * SWEEPS are the fields a sweep may vary: label (the builder's), kind (the kind the field
 * belongs to, or null for every kind), parse (a value as typed), ok (its range, in words when
 * not), name (what names a schedule of the sweep, from the value and its text as typed).
 */
export const SWEEPS = {
  decayFraction: {
    label: 'decay fraction',
    kind: 'wsd',
    parse: parseDecimal,
    ok: (x) => (x > 0 && x <= 1 ? '' : 'a fraction of the run above 0 and at most 1'),
    name: (_x, text) => `decay ${text}`,
  },
  total: {
    label: 'total steps',
    kind: null,
    parse: parseCount,
    ok: (x) => (Number.isInteger(x) && x >= 1 ? '' : 'a whole number of steps, 1 or more'),
    name: (x) => `${readableCount(x)} steps`,
  },
  peak: {
    label: 'peak LR',
    kind: null,
    parse: parseDecimal,
    ok: (x) => (x > 0 ? '' : 'a learning rate above 0'),
    name: (_x, text) => `peak ${text}`,
  },
};

/** decimalsOf counts the decimals a number was typed with (2 for 0.25, 6 for 2.5e-5, 0 for 30k). */
function decimalsOf(text) {
  const m = /^[+-]?(\d*)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(String(text).trim());
  if (!m) return 0;
  return Math.max(0, (m[2] || '').length - Number(m[3] || 0));
}

/**
 * sweepValues reads the values of a sweep of field as typed: a list ("0.1, 0.2, 0.4") or a range
 * ("0.1 to 0.9 by 0.1", "10k to 50k by 10k"), each {value, text} (text: as typed, or as the
 * range's step writes it). It throws an Error saying what is wrong.
 */
export function sweepValues(field, typed) {
  const sweep = SWEEPS[field];
  const raw = String(typed).trim();
  if (!raw)
    throw new Error(`Values: type the ${sweep.label}s, as a list (0.1, 0.2, 0.4) or a range (0.1 to 0.9 by 0.1).`);
  const read = (text) => {
    const x = sweep.parse(text);
    if (Number.isNaN(x)) throw new Error(`Values: "${text.slice(0, 40)}" is not a number.`);
    return x;
  };
  let out;
  const range = /^(\S+)\s*(?:to|–|\.\.)\s*(\S+)\s+(?:by|step)\s+(\S+)$/i.exec(raw);
  if (range) {
    const [from, to, by] = range.slice(1).map(read);
    if (!(by > 0)) throw new Error('Values: the range’s step must be above 0.');
    if (to < from) throw new Error('Values: the range must run upwards (0.1 to 0.9 by 0.1).');
    const decimals = Math.max(decimalsOf(range[1]), decimalsOf(range[3]));
    const n = Math.floor((to - from) / by + 1e-9) + 1;
    if (n > MAX_SWEEP) throw new Error(`Values: the range holds ${n} values; a sweep adds at most ${MAX_SWEEP}.`);
    out = Array.from({ length: n }, (_, i) => {
      const value = Number((from + i * by).toFixed(Math.min(decimals, 15)));
      return { value, text: String(value) };
    });
  } else {
    const texts = raw.split(/[\s,;]+/).filter(Boolean);
    if (texts.length > MAX_SWEEP) throw new Error(`Values: ${texts.length} values; a sweep adds at most ${MAX_SWEEP}.`);
    out = texts.map((text) => ({ value: read(text), text }));
  }
  for (const { value, text } of out) {
    const wrong = sweep.ok(value);
    if (wrong) throw new Error(`Values: ${text} is not ${wrong}.`);
  }
  const seen = new Set();
  return out.filter(({ value }) => !seen.has(value) && seen.add(value));
}

/**
 * sweepName is what a sweep's schedules are named after when no name is typed: the schedule's
 * kind and shape, and its length unless the sweep varies it ("WSD linear 50K").
 */
export function sweepName(base, field) {
  const kind = base.kind === 'wsd' ? `WSD ${base.decay || 'linear'}` : base.kind;
  return field === 'total' || !Number.isFinite(base.total) ? kind : `${kind} ${readableCount(base.total)}`;
}

/**
 * sweepSchedules is the family of schedules a sweep adds: base with field set to each value
 * ({value, text}), each named "<name>, <what varies>" (name: as typed, else sweepName). A decay
 * fraction replaces the decay steps.
 */
export function sweepSchedules(base, name, field, values) {
  const sweep = SWEEPS[field];
  const prefix = String(name || '').trim() || sweepName(base, field);
  return values.map(({ value, text }) => {
    const schedule = { ...base, [field]: value };
    if (field === 'decayFraction') delete schedule.decaySteps;
    return { name: `${prefix}, ${sweep.name(value, text)}`, schedule };
  });
}
