// A schedule as training code: a PyTorch LambdaLR whose lr_lambda computes, step by step, the
// learning rate lawcore computes for the description (the formulas of lawcore/schedule_fill.go,
// written again in Python: a multiplier of the optimizer's lr, set to the peak), or PyTorch's
// own CyclicLR or MultiStepLR where the description is exactly one (no warmup: a cyclic
// schedule from its base, a multi-step one whose levels change on their boundary steps by a
// constant factor), and, where Hugging Face transformers has the same schedule, its
// get_*_schedule call. Explicit and concatenated schedules become a table of points joined
// linearly (lawcore's expansion, thinned). Pure: no DOM.
import { summary, takesWarmupSetting } from './schedule-kinds.js';
import { drawnIndices } from '../common/series.js';

/** MAX_TABLE_POINTS: a schedule written as a table keeps at most this many points. */
export const MAX_TABLE_POINTS = 2000;

/** py writes a number as Python reads it back exactly. */
const py = (x) => (Number.isInteger(x) ? String(x) : String(x));

/** peakOf is the LR the multipliers are relative to: the peak, else the largest LR of the table. */
function peakOf(s, table) {
  if (Number.isFinite(s.peak) && s.peak > 0) return s.peak;
  return table ? Math.max(...table.lr) : 1;
}

/**
 * levelStarts are the first steps of a multi-step schedule's levels after the first, as
 * lawcore places them: its boundaries are the steps nearest warmup plus the stages' shares of
 * the steps after it; a level begins the step after its boundary, or on it with drop "at"
 * (PyTorch MultiStepLR's milestones).
 */
function levelStarts(s) {
  const w = s.warmup || 0;
  const levels = s.levels || [1];
  const stages = s.stages || [];
  const starts = [];
  let boundary = w;
  for (let k = 1; k < levels.length; k++) {
    boundary += stages[k - 1] * (s.total - w);
    starts.push(Math.round(boundary) + (s.drop === 'at' ? 0 : 1));
  }
  return starts;
}

/** geometricGamma is gamma when levels are 1, gamma, gamma², ... (to rounding), else null. */
function geometricGamma(levels) {
  if (!levels || levels.length < 2 || levels[0] !== 1 || !(levels[1] > 0)) return null;
  const gamma = levels[1];
  return levels.every((l, k) => Math.abs(l - gamma ** k) <= 1e-12 * gamma ** k) ? gamma : null;
}

/**
 * torchScheduler is PyTorch's own scheduler for a description it computes exactly (its warmup
 * given), {name, call, note}, or null: CyclicLR for a cyclic schedule from its base, MultiStepLR
 * for a multi-step one whose levels begin on their boundary steps (drop "at") and fall by one
 * factor, neither with a warmup (neither class has one) nor the multi-step with a transition.
 */
function torchScheduler(s) {
  if ((s.warmup || 0) !== 0) return null;
  if (s.kind === 'cyclic' && s.start === 'base' && s.stepSize > 0) {
    return {
      name: 'CyclicLR',
      call: `CyclicLR(optimizer, base_lr=${py(s.final || 0)}, max_lr=${py(s.peak)}, step_size_up=${py(s.stepSize)}, mode="${s.mode || 'triangular'}", cycle_momentum=False)`,
      note: 'CyclicLR sets it to base_lr at the start; cycle_momentum=False leaves the momentum as it is.',
    };
  }
  if (s.kind === 'multistep' && s.drop === 'at' && !(s.transition > 1)) {
    const gamma = geometricGamma(s.levels);
    if (gamma === null) return null;
    return {
      name: 'MultiStepLR',
      call: `MultiStepLR(optimizer, milestones=[${levelStarts(s).map(py).join(', ')}], gamma=${py(gamma)})`,
      note: 'MultiStepLR multiplies it by gamma at each milestone.',
    };
  }
  return null;
}

/**
 * lrBody is the Python body of lr_at(step) for a description's kind (no warmup), or null when it
 * has no formula here.
 */
function lrBody(s) {
  const total = s.total;
  const w = s.warmup || 0;
  const peak = s.peak;
  const final = s.final || 0;
  const head = [`    x = float(step)`, `    w, total, peak, final = ${py(w)}, ${py(total)}, ${py(peak)}, ${py(final)}`];
  const progress = '    progress = max(0.0, (x - w) / (total - w)) if total > w else 0.0';
  switch (s.kind) {
    case 'constant':
      return [...head, '    return peak'];
    case 'linear':
      return [...head, progress, '    return peak + (final - peak) * progress'];
    case 'polynomial':
      return [...head, progress, `    return (peak - final) * (1 - progress) ** ${py(s.power || 1)} + final`];
    case 'inverse-sqrt': {
      const tau = s.timescale > 0 ? s.timescale : w > 0 ? w : 10000;
      return [
        ...head,
        `    tau = ${py(tau)}`,
        '    if x < w:',
        '        return peak',
        '    return peak / math.sqrt((x + tau - w) / tau)',
      ];
    }
    case 'cosine': {
      if (s.cycles > 0) {
        // transformers' get_cosine_with_hard_restarts_schedule_with_warmup, in its order of operations
        return [
          ...head,
          `    cycles = ${py(s.cycles)}`,
          '    if x < w:',
          '        return peak',
          '    progress = (x - w) / max(1, total - w)',
          '    if progress >= 1.0:',
          '        return final',
          '    return final + (peak - final) * max(0.0, 0.5 * (1.0 + math.cos(math.pi * ((float(cycles) * progress) % 1.0))))',
        ];
      }
      const cycle = s.cycle || total;
      const lines = [
        ...head,
        `    cycle = ${py(cycle)}`,
        '    period = cycle - w',
        '    amp = peak - final',
        '    half = lambda u: min(1.0, max(0.0, 0.5 * (1 + math.cos(math.pi * u))))',
        '    if x < w:',
        '        return peak',
      ];
      if (s.after === 'continue') return [...lines, '    return final + amp * half((x - w) / period)'];
      if (s.after === 'restart') {
        return [
          ...lines,
          '    if x <= w + period:',
          '        return final + amp * half((x - w) / period)',
          '    j = (x - (w + period + 1)) % period',
          '    return final + amp * half((j + 1) / period)',
        ];
      }
      return [...lines, '    if x > cycle:', '        return final', '    return final + amp * half((x - w) / period)'];
    }
    case 'wsd': {
      const d = s.decaySteps > 0 ? s.decaySteps : Math.round((s.decayFraction || 0) * total);
      const decay =
        {
          linear: 'final + (peak - final) * (1 - t)',
          '1-sqrt': 'final + (peak - final) * (1 - math.sqrt(t))',
          '1-square': 'final + (peak - final) * (1 - t * t)',
          exponential: 'peak * math.exp(math.log(final / peak) / d * (x - start))',
          'half-life': `max(final, peak * math.exp(-math.log(2) / ${py(s.halfLife || 1)} * (x - start)))`,
        }[s.decay] || 'final + (peak - final) * 0.5 * (1 + math.cos(math.pi * t))';
      return [
        ...head,
        `    d = ${py(d)}`,
        '    start = total - d',
        '    if d == 0 or x <= start:',
        '        return peak',
        '    t = (x - start) / d',
        `    return ${decay}`,
      ];
    }
    case 'multistep': {
      const levels = s.levels || [1];
      const starts = levelStarts(s);
      if (!(s.transition > 1)) {
        return [
          ...head,
          `    levels = [${levels.map(py).join(', ')}]`,
          `    milestones = [${starts.map(py).join(', ')}]  # the first step of each next level, as MultiStepLR's milestones`,
          '    return peak * levels[bisect.bisect_right(milestones, x)]',
        ];
      }
      // bounds[k]: the last step before level k begins to change
      const bounds = [0, ...starts.map((m) => m - 1)];
      return [
        ...head,
        `    levels = [${levels.map(py).join(', ')}]`,
        `    bounds = [${bounds.map(py).join(', ')}]`,
        `    tr = ${py(s.transition || 0)}`,
        '    k = 1',
        '    while k < len(levels) and x > bounds[k] and not (tr > 0 and x < bounds[k] + tr):',
        '        k += 1',
        '    level = levels[k - 1]',
        '    if k < len(levels) and x > bounds[k]:',
        '        level = levels[k] + (levels[k - 1] - levels[k]) * 0.5 * (1 + math.cos(math.pi * (x - bounds[k]) / tr))',
        '    return peak * level',
      ];
    }
    case 'cyclic':
      if (s.start === 'base') {
        // torch CyclicLR (step_size_down = step_size_up), in its order of operations, from step w
        return [
          ...head,
          `    h = ${py(s.stepSize)}`,
          '    size = 2.0 * h',
          '    ratio = h / size',
          '    n = max(0.0, x - w)',
          '    cycle = math.floor(1 + n / size)',
          '    f = 1.0 + n / size - cycle',
          '    scale = f / ratio if f <= ratio else (f - 1) / (ratio - 1)',
          `    amp = ${s.mode === 'triangular2' ? '1 / (2.0 ** (cycle - 1))' : '1.0'}`,
          '    return final + (peak - final) * scale * amp',
        ];
      }
      return [
        ...head,
        `    h = ${py(s.stepSize)}`,
        '    pos = max(0.0, x - w)',
        '    cycle = math.floor(pos / (2 * h))',
        '    down = (pos - cycle * 2 * h) / h',
        '    if down > 1:',
        '        down = 2 - down',
        `    amp = ${s.mode === 'triangular2' ? '2.0 ** -cycle' : '1.0'}`,
        '    return final + (peak - final) * amp * (1 - down)',
      ];
    case 'one-cycle': {
      const pct = s.pctStart || 0.3;
      const div = s.divFactor || 25;
      const finalDiv = s.finalDivFactor || 1e4;
      const anneal = s.anneal === 'linear' ? 'a + (b - a) * t' : 'b + (a - b) * 0.5 * (1 + math.cos(math.pi * t))';
      return [
        ...head,
        `    initial = peak / ${py(div)}`,
        `    minimum = initial / ${py(finalDiv)}`,
        `    end1 = ${py(pct)} * (total + 1) - 1`,
        `    anneal = lambda a, b, t: ${anneal}`,
        '    if x <= end1:',
        '        return anneal(initial, peak, x / end1)',
        '    return anneal(peak, minimum, (x - end1) / (total - end1))',
      ];
    }
    default:
      return null;
  }
}

/**
 * tableOf is a schedule's LR as a table of at most MAX_TABLE_POINTS points: {steps, lr} (expanded:
 * lawcore's LR at every step).
 */
function tableOf(s, expanded) {
  if (s.kind === 'explicit' && s.steps && s.lr) {
    const keep = drawnIndices(s.lr, MAX_TABLE_POINTS);
    return keep
      ? { steps: keep.map((k) => s.steps[k]), lr: keep.map((k) => s.lr[k]) }
      : { steps: Array.from(s.steps), lr: Array.from(s.lr) };
  }
  if (!expanded) return null;
  const keep = drawnIndices(expanded.lr, MAX_TABLE_POINTS);
  const steps = expanded.steps || expanded.lr.map((_, k) => k);
  return keep
    ? { steps: keep.map((k) => steps[k]), lr: keep.map((k) => expanded.lr[k]) }
    : { steps: Array.from(steps), lr: Array.from(expanded.lr) };
}

/** withWarmup is the description with the fit's warmup setting, where it takes it. */
const withWarmup = (s, warmup) => (takesWarmupSetting(s) ? { ...s, warmup } : s);

/**
 * pytorchScheduler names the scheduler pytorchCode writes for a description (with the fit's
 * warmup setting): PyTorch's own CyclicLR or MultiStepLR where the description is one, else
 * 'LambdaLR'.
 */
export function pytorchScheduler(s, { warmup = 0 } = {}) {
  return torchScheduler(withWarmup(s, warmup))?.name ?? 'LambdaLR';
}

/**
 * pytorchCode is Python that builds a PyTorch scheduler for schedule s (with name, a comment):
 * PyTorch's own CyclicLR or MultiStepLR where it is one of those (torchScheduler), else a
 * LambdaLR. The optimizer's lr must be the peak, which the code says. expanded ({steps?, lr}:
 * lawcore's LR at every step) is needed for concatenated schedules and explicit ones without
 * points. warmup is the fit setting's, for a description without one (as lawcore fills it in).
 */
export function pytorchCode(s, { name = '', expanded = null, warmup = 0 } = {}) {
  const desc = withWarmup(s, warmup);
  const own = torchScheduler(desc);
  if (own) {
    return [
      `from torch.optim.lr_scheduler import ${own.name}`,
      '',
      `# ${name ? `${name}: ` : ''}${summary(s)}, as the annealing-law calculator defines it: PyTorch's ${own.name} gives the same LR at every step.`,
      `# Create the optimizer with lr=${py(desc.peak)} (the peak): ${own.note}`,
      '',
      `scheduler = ${own.call}`,
      '',
    ].join('\n');
  }
  const body = lrBody(desc);
  const table = body ? null : tableOf(desc, expanded);
  if (!body && !table) throw new Error(`a ${s.kind} schedule needs its expansion to be written as code`);
  const peak = peakOf(desc, table);
  const out = [
    'import bisect',
    'import math',
    'from torch.optim.lr_scheduler import LambdaLR',
    '',
    `# ${name ? `${name}: ` : ''}${summary(s)}, as the annealing-law calculator defines it.`,
    `# Create the optimizer with lr=${py(peak)} (the peak): lr_lambda is a multiple of it.`,
    '',
  ];
  if (body) {
    const w = desc.warmup || 0;
    out.push('def lr_at(step):', ...body, '', 'def lr_lambda(step):');
    if (w > 0 && desc.kind !== 'one-cycle') {
      out.push(
        `    if step < ${py(w)}:  # linear warmup from ${py(desc.warmupFrom || 0)} to the schedule's LR at step ${py(w)}`,
        `        return (${py(desc.warmupFrom || 0)} + (lr_at(${py(w)}) - ${py(desc.warmupFrom || 0)}) * step / ${py(w)}) / ${py(peak)}`,
      );
    }
    out.push(`    return lr_at(step) / ${py(peak)}`);
  } else {
    out.push(
      `# The learning rates as a table of ${table.steps.length} points, joined linearly.`,
      `STEPS = [${table.steps.map(py).join(', ')}]`,
      `LRS = [${table.lr.map(py).join(', ')}]`,
      '',
      'def lr_lambda(step):',
      '    k = bisect.bisect_right(STEPS, step)',
      '    if k == 0:',
      `        return LRS[0] * step / STEPS[0] / ${py(peak)} if STEPS[0] > 0 else LRS[0] / ${py(peak)}`,
      '    if k == len(STEPS):',
      `        return LRS[-1] / ${py(peak)}`,
      '    t = (step - STEPS[k - 1]) / (STEPS[k] - STEPS[k - 1])',
      `    return (LRS[k - 1] + (LRS[k] - LRS[k - 1]) * t) / ${py(peak)}`,
    );
  }
  out.push('', 'scheduler = LambdaLR(optimizer, lr_lambda)', '');
  return out.join('\n');
}

/**
 * huggingFaceCode is the transformers call that builds the same schedule, or null when
 * transformers has none (multi-step, cyclic, one-cycle, concatenated, explicit, or a shape it
 * cannot take). Its final LR is a ratio of the peak where transformers takes one (min_lr_rate,
 * min_lr_ratio) and absolute where it takes one (lr_end).
 */
export function huggingFaceCode(s, { warmup = 0 } = {}) {
  const w = s.warmup ?? warmup;
  const final = s.final || 0;
  const from = s.warmupFrom || 0;
  if (from !== 0) return null; // transformers warms up from 0
  const args = (extra) => `optimizer, num_warmup_steps=${w}${extra}`;
  const call = (fn, extra = '') =>
    `from transformers import ${fn}\n\n# Create the optimizer with lr=${py(s.peak)} (the peak).\nscheduler = ${fn}(${args(extra)})\n`;
  switch (s.kind) {
    case 'constant':
      return call('get_constant_schedule_with_warmup');
    case 'linear':
      return final === 0
        ? call('get_linear_schedule_with_warmup', `, num_training_steps=${s.total}`)
        : call(
            'get_polynomial_decay_schedule_with_warmup',
            `, num_training_steps=${s.total}, lr_end=${py(final)}, power=1.0`,
          );
    case 'polynomial':
      return call(
        'get_polynomial_decay_schedule_with_warmup',
        `, num_training_steps=${s.total}, lr_end=${py(final)}, power=${py(s.power || 1)}`,
      );
    case 'inverse-sqrt':
      return call('get_inverse_sqrt_schedule', s.timescale ? `, timescale=${s.timescale}` : '');
    case 'cosine': {
      // transformers' hard restarts are cycles (down to 0), not a cycle with after "restart": that
      // ends each cycle at final on the step where transformers restarts at the peak
      if (s.cycles > 0)
        return final === 0
          ? call(
              'get_cosine_with_hard_restarts_schedule_with_warmup',
              `, num_training_steps=${s.total}, num_cycles=${s.cycles}`,
            )
          : null;
      const cycle = s.cycle || s.total;
      if (cycle !== s.total) return null;
      return final === 0
        ? call('get_cosine_schedule_with_warmup', `, num_training_steps=${s.total}`)
        : call(
            'get_cosine_with_min_lr_schedule_with_warmup',
            `, num_training_steps=${s.total}, min_lr_rate=${py(Number((final / s.peak).toPrecision(6)))}`,
          );
    }
    case 'wsd': {
      if (!['cosine', 'linear', '1-sqrt', undefined].includes(s.decay)) return null;
      const d = s.decaySteps > 0 ? s.decaySteps : Math.round((s.decayFraction || 0) * s.total);
      return call(
        'get_wsd_schedule',
        `, num_decay_steps=${d}, num_training_steps=${s.total}, decay_type="${s.decay || 'cosine'}", min_lr_ratio=${py(Number((final / s.peak).toPrecision(6)))}`,
      );
    }
    default:
      return null;
  }
}
