// A schedule as training code: a PyTorch LambdaLR whose lr_lambda computes, step by step, the
// learning rate lawcore computes for the description (the formulas of lawcore/schedule_fill.go,
// written again in Python: a multiplier of the optimizer's lr, set to the peak), and, where
// Hugging Face transformers has the same schedule, its get_*_schedule call. Explicit and
// concatenated schedules become a table of points joined linearly (lawcore's expansion, thinned).
// Pure: no DOM.
import { summary, takesWarmupSetting } from './schedule-kinds.js';
import { drawnIndices } from './series.js';

/** MAX_TABLE_POINTS: a schedule written as a table keeps at most this many points. */
export const MAX_TABLE_POINTS = 2000;

/** py writes a number as Python reads it back exactly. */
const py = (x) => (Number.isInteger(x) ? String(x) : String(x));

/** peakOf is the LR the multipliers are relative to: the peak, else the largest LR of the table. */
function peakOf(s, table) {
  if (Number.isFinite(s.peak) && s.peak > 0) return s.peak;
  return table ? Math.max(...table.lr) : 1;
}

/** lrBody is the Python body of lr_at(step) for a description's kind (no warmup), or null when it has no formula here. */
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
      return [...head, `    tau = ${py(tau)}`, '    if x < w:', '        return peak', '    return peak / math.sqrt((x + tau - w) / tau)'];
    }
    case 'cosine': {
      const cycle = s.cycle || total;
      const lines = [...head, `    cycle = ${py(cycle)}`, '    period = cycle - w', '    amp = peak - final',
        '    half = lambda u: min(1.0, max(0.0, 0.5 * (1 + math.cos(math.pi * u))))', '    if x < w:', '        return peak'];
      if (s.after === 'continue') return [...lines, '    return final + amp * half((x - w) / period)'];
      if (s.after === 'restart') {
        return [...lines, '    if x <= w + period:', '        return final + amp * half((x - w) / period)',
          '    j = (x - (w + period + 1)) % period', '    return final + amp * half((j + 1) / period)'];
      }
      return [...lines, '    if x > cycle:', '        return final', '    return final + amp * half((x - w) / period)'];
    }
    case 'wsd': {
      const d = s.decaySteps > 0 ? s.decaySteps : Math.round((s.decayFraction || 0) * total);
      const decay = {
        linear: 'final + (peak - final) * (1 - t)',
        '1-sqrt': 'final + (peak - final) * (1 - math.sqrt(t))',
        '1-square': 'final + (peak - final) * (1 - t * t)',
        exponential: 'peak * math.exp(math.log(final / peak) / d * (x - start))',
        'half-life': `max(final, peak * math.exp(-math.log(2) / ${py(s.halfLife || 1)} * (x - start)))`,
      }[s.decay] || 'final + (peak - final) * 0.5 * (1 + math.cos(math.pi * t))';
      return [...head, `    d = ${py(d)}`, '    start = total - d', '    if d == 0 or x <= start:', '        return peak',
        '    t = (x - start) / d', `    return ${decay}`];
    }
    case 'multistep': {
      const levels = s.levels || [1];
      const stages = s.stages || [];
      const bounds = [0];
      let boundary = w;
      for (let k = 1; k < levels.length; k++) {
        boundary += stages[k - 1] * (total - w);
        bounds.push(Math.round(boundary));
      }
      return [...head, `    levels = [${levels.map(py).join(', ')}]`, `    bounds = [${bounds.map(py).join(', ')}]`, `    tr = ${py(s.transition || 0)}`,
        '    k = 1', '    while k < len(levels) and x > bounds[k] and not (tr > 0 and x < bounds[k] + tr):', '        k += 1',
        '    level = levels[k - 1]', '    if k < len(levels) and x > bounds[k]:',
        '        level = levels[k] + (levels[k - 1] - levels[k]) * 0.5 * (1 + math.cos(math.pi * (x - bounds[k]) / tr))',
        '    return peak * level'];
    }
    case 'cyclic':
      return [...head, `    h = ${py(s.stepSize)}`, '    pos = max(0.0, x - w)', '    cycle = math.floor(pos / (2 * h))',
        '    down = (pos - cycle * 2 * h) / h', '    if down > 1:', '        down = 2 - down',
        `    amp = ${s.mode === 'triangular2' ? '2.0 ** -cycle' : '1.0'}`, '    return final + (peak - final) * amp * (1 - down)'];
    case 'one-cycle': {
      const pct = s.pctStart || 0.3;
      const div = s.divFactor || 25;
      const finalDiv = s.finalDivFactor || 1e4;
      const anneal = s.anneal === 'linear' ? 'a + (b - a) * t' : 'b + (a - b) * 0.5 * (1 + math.cos(math.pi * t))';
      return [...head, `    initial = peak / ${py(div)}`, `    minimum = initial / ${py(finalDiv)}`,
        `    end1 = ${py(pct)} * (total + 1) - 1`, `    anneal = lambda a, b, t: ${anneal}`,
        '    if x <= end1:', '        return anneal(initial, peak, x / end1)', '    return anneal(peak, minimum, (x - end1) / (total - end1))'];
    }
    default:
      return null;
  }
}

/** tableOf is a schedule's LR as a table of at most MAX_TABLE_POINTS points: {steps, lr} (expanded: lawcore's LR at every step). */
function tableOf(s, expanded) {
  if (s.kind === 'explicit' && s.steps && s.lr) {
    const keep = drawnIndices(s.lr, MAX_TABLE_POINTS);
    return keep ? { steps: keep.map((k) => s.steps[k]), lr: keep.map((k) => s.lr[k]) } : { steps: Array.from(s.steps), lr: Array.from(s.lr) };
  }
  if (!expanded) return null;
  const keep = drawnIndices(expanded.lr, MAX_TABLE_POINTS);
  const steps = expanded.steps || expanded.lr.map((_, k) => k);
  return keep ? { steps: keep.map((k) => steps[k]), lr: keep.map((k) => expanded.lr[k]) } : { steps: Array.from(steps), lr: Array.from(expanded.lr) };
}

/**
 * pytorchCode is Python that builds a LambdaLR for schedule s (with name, a comment): the
 * optimizer's lr must be the peak, which the code says. expanded ({steps?, lr}: lawcore's LR at
 * every step) is needed for concatenated schedules and explicit ones without points. warmup
 * is the fit setting's, for a description without one (as lawcore fills it in).
 */
export function pytorchCode(s, { name = '', expanded = null, warmup = 0 } = {}) {
  const desc = takesWarmupSetting(s) ? { ...s, warmup } : s;
  const body = lrBody(desc);
  const table = body ? null : tableOf(desc, expanded);
  if (!body && !table) throw new Error(`a ${s.kind} schedule needs its expansion to be written as code`);
  const peak = peakOf(desc, table);
  const out = ['import bisect', 'import math', 'from torch.optim.lr_scheduler import LambdaLR', '',
    `# ${name ? `${name}: ` : ''}${summary(s)}, as the annealing-law calculator defines it.`,
    `# Create the optimizer with lr=${py(peak)} (the peak): lr_lambda is a multiple of it.`, ''];
  if (body) {
    const w = desc.warmup || 0;
    out.push('def lr_at(step):', ...body, '', 'def lr_lambda(step):');
    if (w > 0 && desc.kind !== 'one-cycle') {
      out.push(`    if step < ${py(w)}:  # linear warmup from ${py(desc.warmupFrom || 0)} to the schedule's LR at step ${py(w)}`,
        `        return (${py(desc.warmupFrom || 0)} + (lr_at(${py(w)}) - ${py(desc.warmupFrom || 0)}) * step / ${py(w)}) / ${py(peak)}`);
    }
    out.push(`    return lr_at(step) / ${py(peak)}`);
  } else {
    out.push(`# The learning rates as a table of ${table.steps.length} points, joined linearly.`,
      `STEPS = [${table.steps.map(py).join(', ')}]`, `LRS = [${table.lr.map(py).join(', ')}]`, '',
      'def lr_lambda(step):', '    k = bisect.bisect_right(STEPS, step)', '    if k == 0:',
      `        return LRS[0] * step / STEPS[0] / ${py(peak)} if STEPS[0] > 0 else LRS[0] / ${py(peak)}`,
      '    if k == len(STEPS):', `        return LRS[-1] / ${py(peak)}`,
      '    t = (step - STEPS[k - 1]) / (STEPS[k] - STEPS[k - 1])',
      `    return (LRS[k - 1] + (LRS[k] - LRS[k - 1]) * t) / ${py(peak)}`);
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
  const call = (fn, extra = '') => `from transformers import ${fn}\n\n# Create the optimizer with lr=${py(s.peak)} (the peak).\nscheduler = ${fn}(${args(extra)})\n`;
  switch (s.kind) {
    case 'constant':
      return call('get_constant_schedule_with_warmup');
    case 'linear':
      return final === 0 ? call('get_linear_schedule_with_warmup', `, num_training_steps=${s.total}`)
        : call('get_polynomial_decay_schedule_with_warmup', `, num_training_steps=${s.total}, lr_end=${py(final)}, power=1.0`);
    case 'polynomial':
      return call('get_polynomial_decay_schedule_with_warmup', `, num_training_steps=${s.total}, lr_end=${py(final)}, power=${py(s.power || 1)}`);
    case 'inverse-sqrt':
      return call('get_inverse_sqrt_schedule', s.timescale ? `, timescale=${s.timescale}` : '');
    case 'cosine': {
      const cycle = s.cycle || s.total;
      if (s.after === 'restart') {
        const n = (s.total - w) / (cycle - w);
        if (final !== 0 || !Number.isInteger(n)) return null;
        return call('get_cosine_with_hard_restarts_schedule_with_warmup', `, num_training_steps=${s.total}, num_cycles=${n}`);
      }
      if (cycle !== s.total) return null;
      return final === 0 ? call('get_cosine_schedule_with_warmup', `, num_training_steps=${s.total}`)
        : call('get_cosine_with_min_lr_schedule_with_warmup', `, num_training_steps=${s.total}, min_lr_rate=${py(Number((final / s.peak).toPrecision(6)))}`);
    }
    case 'wsd': {
      if (!['cosine', 'linear', '1-sqrt', undefined].includes(s.decay)) return null;
      const d = s.decaySteps > 0 ? s.decaySteps : Math.round((s.decayFraction || 0) * s.total);
      return call('get_wsd_schedule', `, num_decay_steps=${d}, num_training_steps=${s.total}, decay_type="${s.decay || 'cosine'}", min_lr_ratio=${py(Number((final / s.peak).toPrecision(6)))}`);
    }
    default:
      return null;
  }
}
