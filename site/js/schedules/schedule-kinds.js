// The schedule kinds of docs/api.md#schedule-descriptions, as data the builder renders
// fields from (labels and hints; the kinds and their choices are lawcore's, from schema.js),
// the steps a description runs, and a one-line summary of a description for lists.
import * as fmt from '../common/format.js';
import { SCHEDULE_KINDS, SCHEDULE_CHOICES } from '../engine/schema.js';

/**
 * takesWarmupSetting says whether a description takes the fit's warmup setting, as lawcore
 * gives it (Schedule.WithDefaultWarmup): it gives no warmup of its own ("warmup": 0 is a run
 * without one), and is neither a one-cycle (which rises by its own rule) nor a concatenation
 * (whose segments have their own).
 */
export function takesWarmupSetting(desc) {
  return desc.warmup == null && desc.kind !== 'concat' && desc.kind !== 'one-cycle';
}

/** COMMON_FIELDS belong to every kind. */
export const COMMON_FIELDS = [
  {
    key: 'total',
    label: 'Total steps',
    type: 'int',
    required: true,
    hint: 'the last step; the schedule covers 0..total',
  },
  { key: 'peak', label: 'Peak LR', type: 'number', required: true, hint: 'raw units, e.g. 3e-4' },
  { key: 'warmup', label: 'Warmup steps', type: 'int', hint: 'linear warmup; empty: the fit setting' },
  { key: 'warmupFrom', label: 'Warmup from LR', type: 'number', hint: 'LR at step 0 (default 0)' },
];

const final = {
  key: 'final',
  label: 'Final LR',
  type: 'number',
  hint: 'the LR reached at the end, in raw units (default 0); Hugging Face’s min_lr_rate is this ÷ the peak',
};

/** KIND_FIELDS maps each kind to its label and its own fields. */
const KIND_FIELDS = {
  constant: { label: 'Constant', fields: [] },
  linear: { label: 'Linear decay', fields: [final] },
  cosine: {
    label: 'Cosine',
    fields: [
      final,
      {
        key: 'cycle',
        label: 'Cycle length T',
        type: 'int',
        hint: 'step at which the cosine reaches final (default total)',
      },
      {
        key: 'after',
        label: 'After the cycle',
        type: 'select',
        get options() {
          return SCHEDULE_CHOICES.after;
        },
      },
      {
        key: 'cycles',
        label: 'Hard restarts (cycles)',
        type: 'int',
        hint: 'that many cosines after warmup, each from the peak (Hugging Face’s num_cycles); instead of cycle and after',
      },
    ],
  },
  wsd: {
    label: 'Warmup-stable-decay (WSD)',
    fields: [
      final,
      {
        key: 'decay',
        label: 'Decay shape',
        type: 'select',
        get options() {
          return SCHEDULE_CHOICES.decay;
        },
      },
      { key: 'decayFraction', label: 'Decay fraction', type: 'number', hint: 'of total, e.g. 0.2' },
      { key: 'decaySteps', label: 'Decay steps', type: 'int', hint: 'instead of the fraction' },
      { key: 'halfLife', label: 'Half-life steps', type: 'number', hint: 'for half-life decay' },
    ],
  },
  multistep: {
    label: 'Multi-step',
    fields: [
      { key: 'stages', label: 'Stages', type: 'list', hint: 'fractions of the run after warmup, e.g. 0.8, 0.1, 0.1' },
      {
        key: 'levels',
        label: 'Levels',
        type: 'list',
        hint: 'LR of each stage as a fraction of peak, e.g. 1, 0.316, 0.1',
      },
      {
        key: 'transition',
        label: 'Transition steps',
        type: 'int',
        hint: 'cosine-shaped change between levels (default 0)',
      },
      {
        key: 'drop',
        label: 'Level changes',
        type: 'select',
        hint: 'after: the step after each boundary; at: on it (PyTorch MultiStepLR’s milestones)',
        get options() {
          return SCHEDULE_CHOICES.drop;
        },
      },
    ],
  },
  cyclic: {
    label: 'Cyclic (triangular)',
    fields: [
      { ...final, label: 'Base LR' },
      { key: 'stepSize', label: 'Step size', type: 'int', hint: 'steps from base to peak' },
      {
        key: 'mode',
        label: 'Mode',
        type: 'select',
        get options() {
          return SCHEDULE_CHOICES.mode;
        },
      },
      {
        key: 'start',
        label: 'Starts at',
        type: 'select',
        hint: 'peak: down first; base: up first (PyTorch CyclicLR, with warmup 0)',
        get options() {
          return SCHEDULE_CHOICES.start;
        },
      },
    ],
  },
  'inverse-sqrt': {
    label: 'Inverse square root',
    fields: [{ key: 'timescale', label: 'Timescale', type: 'number', hint: 'default: warmup' }],
  },
  polynomial: {
    label: 'Polynomial decay',
    fields: [final, { key: 'power', label: 'Power', type: 'number', hint: 'default 1' }],
  },
  'one-cycle': {
    label: 'One-cycle (PyTorch OneCycleLR)',
    fields: [
      { key: 'pctStart', label: 'pct_start', type: 'number', hint: 'default 0.3' },
      { key: 'divFactor', label: 'div_factor', type: 'number', hint: 'default 25' },
      { key: 'finalDivFactor', label: 'final_div_factor', type: 'number', hint: 'default 1e4' },
      {
        key: 'anneal',
        label: 'Anneal',
        type: 'select',
        get options() {
          return SCHEDULE_CHOICES.anneal;
        },
      },
    ],
  },
  concat: {
    label: 'Concatenation (re-warmup)',
    fields: [
      {
        key: 'segments',
        label: 'Segments (JSON list of schedules)',
        type: 'json',
        hint: 'each segment follows the previous one',
      },
    ],
  },
  explicit: {
    label: 'Explicit LR list',
    fields: [
      { key: 'lr', label: 'LR values', type: 'list', hint: 'per step from step 0, or at the steps below' },
      { key: 'steps', label: 'At steps', type: 'list', hint: 'optional: points joined linearly' },
    ],
  },
};

/** kinds maps each of lawcore's kinds, in its order (from the engine's schema), to its label and its own fields. */
export function kinds() {
  return Object.fromEntries(SCHEDULE_KINDS.map((kind) => [kind, KIND_FIELDS[kind] || { label: kind, fields: [] }]));
}

/** scheduleSteps is about how many steps a schedule description runs (0 when it does not say). */
export function scheduleSteps(s) {
  if (!s) return 0;
  if (s.kind === 'concat') return (s.segments || []).reduce((n, seg) => n + scheduleSteps(seg), 0);
  const last = s.steps && s.steps.length ? s.steps[s.steps.length - 1] : s.lr ? s.lr.length : 0;
  return Math.max(Number.isFinite(s.total) ? s.total : 0, last);
}

/** fieldsOf returns every field of a kind, the common ones first. */
export function fieldsOf(kind) {
  return [...COMMON_FIELDS, ...((KIND_FIELDS[kind] && KIND_FIELDS[kind].fields) || [])];
}

/** summary describes a schedule in one line: "cosine · 60,000 steps · 2e-4 → 2e-5 · warmup 500". */
export function summary(s) {
  if (!s) return 'no schedule yet';
  if (s.kind === 'explicit' && s.steps) {
    return `LR list · ${s.steps.length} points to step ${fmt.steps(s.total ?? s.steps[s.steps.length - 1])}`;
  }
  const parts = [s.kind === 'wsd' ? `WSD ${s.decay || ''}`.trim() : s.kind];
  if (s.kind === 'multistep' && s.levels) parts[0] += ` [${s.levels.map((l) => Number(l.toPrecision(4))).join(', ')}]`;
  if (s.kind === 'cosine' && s.cycles > 0) parts[0] += ` × ${s.cycles} cycles`;
  if (s.kind === 'cyclic' && s.start === 'base') parts[0] += ' from base';
  if (s.total !== undefined) parts.push(`${fmt.steps(s.total)} steps`);
  if (s.peak !== undefined)
    parts.push(s.final !== undefined ? `${fmt.lr(s.peak)} → ${fmt.lr(s.final)}` : `peak ${fmt.lr(s.peak)}`);
  if (s.kind === 'wsd' && s.decayFraction !== undefined) parts.push(`${Math.round(s.decayFraction * 100)}% decay`);
  if (s.warmup) parts.push(`warmup ${fmt.steps(s.warmup)}`);
  return parts.join(' · ');
}

/** STEP_FIELDS are the fields that count steps within a run: they scale with its total. */
const STEP_FIELDS = ['cycle', 'stepSize', 'decaySteps', 'halfLife'];

/**
 * fitPreset is a preset's shape on the run at hand: its total, peak and warmup replaced by
 * run's ({total, peak, warmup}, each used when it is a number), the preset's other step counts
 * (a cosine cycle, a cyclic step size) scaled with the total and its final LR with the peak,
 * so that "cosine to 0.1 x peak" stays at a tenth of the peak. A preset without a warmup (the
 * one-cycle, whose pctStart is its warmup) gets none, nor does one whose warmup is 0 (the
 * CyclicLR's: a run without one); a concatenation's segments share the total in the preset's
 * proportions.
 */
export function fitPreset(preset, run) {
  const num = (x) => typeof x === 'number' && Number.isFinite(x);
  if (preset.kind === 'concat') {
    const segments = preset.segments || [];
    const sum = segments.reduce((n, seg) => n + (seg.total || 0), 0);
    let left = num(run.total) ? run.total : sum;
    return {
      ...preset,
      segments: segments.map((seg, i) => {
        const total =
          i === segments.length - 1
            ? left
            : Math.round(((seg.total || 0) / (sum || 1)) * (num(run.total) ? run.total : sum));
        left -= total;
        return fitPreset(seg, { ...run, total });
      }),
    };
  }
  const out = { ...preset };
  const scale = num(run.total) && num(preset.total) && preset.total > 0 ? run.total / preset.total : 1;
  if (num(run.total)) out.total = Math.round(run.total);
  for (const k of STEP_FIELDS) if (num(out[k])) out[k] = Math.max(1, Math.round(out[k] * scale));
  if (num(run.peak)) {
    if (num(preset.final) && num(preset.peak) && preset.peak > 0)
      out.final = Number((preset.final * (run.peak / preset.peak)).toPrecision(6));
    out.peak = run.peak;
  }
  if (num(run.warmup) && preset.warmup !== undefined && preset.warmup !== 0) out.warmup = Math.round(run.warmup);
  return out;
}
