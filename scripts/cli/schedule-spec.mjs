// Compact schedule specs for the command line, such as "cosine 60000 final=2e-5" or
// "wsd 0.2 60000 decay=1-sqrt peak=3e-4", turned into lawcore's schedule descriptions
// (docs/api.md#schedule-descriptions). A spec that starts with "{" is a schedule description in JSON.

import { UsageError, number } from './args.mjs';
import { takesWarmupSetting } from '../../site/js/schedules/schedule-kinds.js';

/** KINDS are the schedule kinds a spec may start with (lawcore's, as `schema` lists them). */
export const KINDS = [
  'constant',
  'linear',
  'cosine',
  'wsd',
  'multistep',
  'cyclic',
  'inverse-sqrt',
  'polynomial',
  'one-cycle',
  'concat',
  'explicit',
];

/** STRING_KEYS are the fields whose values are words, not numbers. */
const STRING_KEYS = new Set(['decay', 'after', 'mode', 'start', 'drop', 'anneal']);

/** isScheduleSpec says whether text is a spec (starts with a kind, or is JSON) rather than FILE=spec. */
export function isScheduleSpec(text) {
  const t = text.trim();
  return t.startsWith('{') || KINDS.includes(t.split(/\s+/)[0].toLowerCase());
}

/** specValue reads the value of key=value: a number, a comma list of numbers, or a word. */
function specValue(key, value, spec) {
  if (STRING_KEYS.has(key)) return value;
  const parts = value.split(',');
  const read = (p) => number(p, `schedule ${JSON.stringify(spec)}: ${key}`);
  return parts.length > 1 || key === 'stages' || key === 'levels' ? parts.map(read) : read(value);
}

/**
 * parseScheduleSpec turns a spec into {schedule, size?}. The numbers after the kind are its
 * total steps ("cosine 60000", "60k" also reads), or for wsd its decay fraction then its total
 * ("wsd 0.2 60000"); key=value pairs set any field of the description (peak=3e-4 warmup=500
 * final=2e-5 decay=linear ...), and size=N the model size of a prediction (the size law).
 * defaults.peak fills a missing peak and defaults.warmup a missing warmup (when given).
 */
export function parseScheduleSpec(text, defaults = {}) {
  const spec = text.trim();
  let schedule;
  let size;
  if (spec.startsWith('{')) {
    try {
      schedule = JSON.parse(spec);
    } catch (err) {
      throw new UsageError(`schedule ${spec}: not JSON: ${err.message}`);
    }
  } else {
    const [word, ...rest] = spec.split(/\s+/);
    const kind = word.toLowerCase();
    if (!KINDS.includes(kind)) {
      throw new UsageError(
        `schedule ${JSON.stringify(spec)}: unknown kind ${JSON.stringify(word)} (one of ${KINDS.join(', ')})`,
      );
    }
    schedule = { kind };
    const numbers = [];
    for (const tok of rest) {
      const eq = tok.indexOf('=');
      if (eq < 0) {
        numbers.push(number(tok, `schedule ${JSON.stringify(spec)}`));
        continue;
      }
      const key = tok.slice(0, eq);
      if (key === 'size') size = number(tok.slice(eq + 1), `schedule ${JSON.stringify(spec)}: size`);
      else schedule[key] = specValue(key, tok.slice(eq + 1), spec);
    }
    // a field given both by position and by name is refused rather than one silently dropped
    const positional =
      kind === 'wsd' && numbers.length === 2 ? ['decayFraction', 'total'] : numbers.length === 1 ? ['total'] : [];
    for (const key of positional) {
      if (schedule[key] !== undefined)
        throw new UsageError(
          `schedule ${JSON.stringify(spec)}: ${key} given twice (by position and as ${key}=): give it once`,
        );
    }
    if (kind === 'wsd' && numbers.length === 2) [schedule.decayFraction, schedule.total] = numbers;
    else if (numbers.length === 1) schedule.total = numbers[0];
    else if (numbers.length > 1) {
      const form = kind === 'wsd' ? '"wsd FRACTION TOTAL"' : `"${kind} TOTAL"`;
      throw new UsageError(`schedule ${JSON.stringify(spec)}: too many numbers (the form is ${form})`);
    }
    if (schedule.total === undefined)
      throw new UsageError(`schedule ${JSON.stringify(spec)}: no total steps (such as "${kind} 60000")`);
  }
  if (schedule.peak === undefined && defaults.peak !== undefined) schedule.peak = defaults.peak;
  if (takesWarmupSetting(schedule) && defaults.warmup !== undefined) schedule.warmup = defaults.warmup;
  return size === undefined ? { schedule } : { schedule, size };
}

/** schedulePeak is the peak LR of a schedule description, when it says (null otherwise). */
export function schedulePeak(schedule) {
  if (!schedule) return null;
  if (typeof schedule.peak === 'number') return schedule.peak;
  if (schedule.kind === 'explicit' && schedule.lr && schedule.lr.length) return maxOf(schedule.lr);
  return null;
}

/** maxOf is the largest finite value of a list (null when it has none). */
export function maxOf(values) {
  let m = null;
  for (const v of values) if (Number.isFinite(v) && (m === null || v > m)) m = v;
  return m;
}
