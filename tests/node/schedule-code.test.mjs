// A schedule as training code (site/js/schedules/schedule-code.js): the PyTorch scheduler written (a
// LambdaLR, or PyTorch's own CyclicLR or MultiStepLR), run by Python, gives lawcore's learning
// rate at every step of every preset (and of variants: restarts, hard restarts, cyclic
// triangular2 and from its base, multi-step with transitions and milestones, WSD shapes,
// explicit points); the Hugging Face call is the transformers function of the same schedule,
// or none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import './schema-setup.mjs';
import { PRESETS } from '../../site/js/engine/schema.js';
import { fitPreset } from '../../site/js/schedules/schedule-kinds.js';
import { pytorchCode, pytorchScheduler, huggingFaceCode } from '../../site/js/schedules/schedule-code.js';
import { mergeColumns, startLawcore } from '../../scripts/cli/bridge.mjs';

/**
 * expand is lawcore's LR at every step of a description: its `schedule` answer as the command
 * line prints it (`node scripts/lawcore.mjs schedule`), from one lawcore in this process.
 */
const lawcore = await startLawcore();
const expand = async (s) => {
  const { result, columns } = await lawcore.call('schedule', s);
  return mergeColumns('schedule', result, columns);
};
const hasPython = spawnSync('python3', ['-c', 'import math, bisect'], { encoding: 'utf8' }).status === 0;

/**
 * TORCH_STUB stands in for torch.optim.lr_scheduler: each scheduler is a function of the step
 * giving the LR, by PyTorch's formulas (LambdaLR: the optimizer's lr times lr_lambda; MultiStepLR
 * in its closed form; CyclicLR as its get_lr), and the optimizer has the lr the code asks for.
 */
const TORCH_STUB = `import sys, types, math, bisect
m = types.ModuleType("torch.optim.lr_scheduler")
m.LambdaLR = lambda opt, f: lambda s: opt.lr * f(s)
m.MultiStepLR = lambda opt, milestones, gamma: lambda s: opt.lr * gamma ** bisect.bisect_right(sorted(milestones), s)
def CyclicLR(opt, base_lr, max_lr, step_size_up, mode="triangular", cycle_momentum=True):
    total_size = float(step_size_up + step_size_up)
    step_ratio = step_size_up / total_size
    def lr(s):
        cycle = math.floor(1 + s / total_size)
        x = 1. + s / total_size - cycle
        scale_factor = x / step_ratio if x <= step_ratio else (x - 1) / (step_ratio - 1)
        scale = 1. if mode == "triangular" else 1 / (2. ** (cycle - 1))
        return base_lr + (max_lr - base_lr) * scale_factor * scale
    return lr
m.CyclicLR = CyclicLR
for n in ["torch", "torch.optim"]: sys.modules[n] = types.ModuleType(n)
sys.modules["torch.optim.lr_scheduler"] = m
`;

/**
 * pythonLRs runs the generated code with the stand-in schedulers, the optimizer's lr peak,
 * and returns the LR at every step of steps.
 */
function pythonLRs(code, peak, steps) {
  const stub = `${TORCH_STUB}optimizer = types.SimpleNamespace(lr=${peak})\n`;
  const run = `${stub}${code}\nimport json\nprint(json.dumps([scheduler(s) for s in ${JSON.stringify(steps)}]))\n`;
  const out = spawnSync('python3', ['-'], { input: run, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout);
}

const run = { total: 10000, peak: 3e-4, warmup: 800 };
const cases = [
  ...PRESETS.map((p) => [p.id, fitPreset(p.schedule, run)]),
  [
    'cosine continue',
    { kind: 'cosine', total: 10000, peak: 3e-4, final: 3e-5, warmup: 300, cycle: 4000, after: 'continue' },
  ],
  [
    'cyclic triangular2',
    { kind: 'cyclic', total: 10000, peak: 3e-4, final: 3e-5, warmup: 300, stepSize: 1000, mode: 'triangular2' },
  ],
  [
    'multistep transition',
    {
      kind: 'multistep',
      total: 10000,
      peak: 3e-4,
      warmup: 300,
      stages: [0.5, 0.3, 0.2],
      levels: [1, 0.3, 0.1],
      transition: 400,
    },
  ],
  [
    'wsd half-life',
    {
      kind: 'wsd',
      total: 10000,
      peak: 3e-4,
      final: 1e-5,
      warmup: 300,
      decay: 'half-life',
      decaySteps: 2000,
      halfLife: 300,
    },
  ],
  [
    'wsd linear',
    { kind: 'wsd', total: 10000, peak: 3e-4, final: 0, warmup: 300, decay: 'linear', decayFraction: 0.25 },
  ],
  ['warmup from', { kind: 'linear', total: 10000, peak: 3e-4, final: 3e-5, warmup: 500, warmupFrom: 1e-5 }],
  ['explicit points', { kind: 'explicit', total: 10000, steps: [0, 800, 5000, 10000], lr: [0, 3e-4, 1e-4, 0] }],
  ['hard restarts to a floor', { kind: 'cosine', total: 10000, peak: 3e-4, final: 3e-5, warmup: 300, cycles: 3 }],
  // transformers' rounding: 22 * (1500/2200) is just below 15, so step 1500 is at the bottom
  ['hard restarts, rounding', { kind: 'cosine', total: 2200, peak: 3e-4, warmup: 0, cycles: 22 }],
  [
    'cyclic from its base',
    { kind: 'cyclic', total: 10000, peak: 3e-4, final: 3e-5, warmup: 0, stepSize: 1000, start: 'base' },
  ],
  [
    'cyclic from its base, triangular2, warmup',
    {
      kind: 'cyclic',
      total: 10000,
      peak: 3e-4,
      final: 3e-5,
      warmup: 300,
      stepSize: 1000,
      start: 'base',
      mode: 'triangular2',
    },
  ],
  [
    'multistep milestones',
    {
      kind: 'multistep',
      total: 10000,
      peak: 3e-4,
      warmup: 0,
      stages: [0.8, 0.1, 0.1],
      levels: [1, Math.sqrt(0.1), 0.1],
      drop: 'at',
    },
  ],
  [
    'multistep milestones, warmup',
    {
      kind: 'multistep',
      total: 10000,
      peak: 3e-4,
      warmup: 300,
      stages: [0.8, 0.1, 0.1],
      levels: [1, 0.316, 0.1],
      drop: 'at',
    },
  ],
  [
    'multistep milestones, transition',
    {
      kind: 'multistep',
      total: 10000,
      peak: 3e-4,
      warmup: 0,
      stages: [0.5, 0.3, 0.2],
      levels: [1, 0.3, 0.09],
      transition: 400,
      drop: 'at',
    },
  ],
];

test("the PyTorch scheduler gives lawcore's learning rate at every step of every preset", async () => {
  assert.ok(hasPython, 'python3 runs the code written here: scripts/install-deps.sh installs it');
  for (const [name, s] of cases) {
    const want = await expand(s);
    const code = pytorchCode(s, { name, expanded: want });
    assert.match(code, /scheduler = (LambdaLR\(optimizer, lr_lambda\)|CyclicLR\(|MultiStepLR\()/, name);
    const peak = Number(/lr=([^ ]+) \(the peak\)/.exec(code)[1]);
    const got = pythonLRs(code, peak, want.steps);
    let worst = 0;
    let at = 0;
    for (let k = 0; k < want.lr.length; k++) {
      const d = Math.abs(got[k] - want.lr[k]);
      if (d > worst) [worst, at] = [d, want.steps[k]];
    }
    // Concatenations are a table of points (at most 2000, joined linearly): close, not exact.
    const tolerance = s.kind === 'concat' ? 0.01 * want.peak : 1e-9 * want.peak;
    assert.ok(
      worst <= tolerance,
      `${name}: ${got[want.steps.indexOf(at)]} instead of ${want.lr[want.steps.indexOf(at)]} at step ${at}`,
    );
  }
});

test("PyTorch's own CyclicLR and MultiStepLR where the schedule is one, with its milestones", () => {
  const code = (s) => pytorchCode(s, { name: 'x' });
  const preset = (id) => fitPreset(PRESETS.find((p) => p.id === id).schedule, run);
  assert.match(
    code(preset('cyclic')),
    /^scheduler = CyclicLR\(optimizer, base_lr=0\.00003, max_lr=0\.0003, step_size_up=1250, mode="triangular", cycle_momentum=False\)$/m,
  );
  // the DeepSeek preset has a warmup (800 steps here): a LambdaLR on MultiStepLR's milestones, 800
  // + 0.8 * 9,200 and 800 + 0.9 * 9,200
  assert.match(code(preset('multistep-deepseek')), /milestones = \[8160, 9080\]/);
  const cyclic = { kind: 'cyclic', total: 10000, peak: 3e-4, final: 3e-5, warmup: 0, stepSize: 1000, start: 'base' };
  assert.match(
    code(cyclic),
    /^scheduler = CyclicLR\(optimizer, base_lr=0\.00003, max_lr=0\.0003, step_size_up=1000, mode="triangular", cycle_momentum=False\)$/m,
  );
  assert.match(code({ ...cyclic, mode: 'triangular2' }), /mode="triangular2"/);
  // from its peak (lawcore's default), or after a warmup, it is no CyclicLR
  assert.match(code({ ...cyclic, start: undefined }), /LambdaLR\(optimizer, lr_lambda\)/);
  assert.match(code({ ...cyclic, warmup: 300 }), /LambdaLR\(optimizer, lr_lambda\)/);
  assert.match(
    pytorchCode({ ...cyclic, warmup: undefined }, { warmup: 300 }),
    /LambdaLR/,
    "the fit setting's warmup counts",
  );
  assert.match(pytorchCode({ ...cyclic, warmup: undefined }, { warmup: 0 }), /CyclicLR\(/);
  // pytorchScheduler names the scheduler the code builds (the page's title says it)
  for (const [s, opts] of [
    [cyclic, {}],
    [{ ...cyclic, warmup: 300 }, {}],
    [{ ...cyclic, warmup: undefined }, { warmup: 300 }],
    [preset('multistep-deepseek'), {}],
    [
      {
        kind: 'multistep',
        total: 10000,
        peak: 3e-4,
        warmup: 0,
        stages: [0.8, 0.1, 0.1],
        levels: [1, 0.1, 0.01],
        drop: 'at',
      },
      {},
    ],
  ]) {
    assert.equal(pytorchScheduler(s, opts), /^scheduler = (\w+)\(/m.exec(pytorchCode(s, opts))[1]);
  }

  // 80% + 10% + 10% of 10,000 steps: the levels begin on steps 8,000 and 9,000
  const multistep = {
    kind: 'multistep',
    total: 10000,
    peak: 3e-4,
    warmup: 0,
    stages: [0.8, 0.1, 0.1],
    levels: [1, 0.5, 0.25],
    drop: 'at',
  };
  assert.match(code(multistep), /^scheduler = MultiStepLR\(optimizer, milestones=\[8000, 9000\], gamma=0\.5\)$/m);
  assert.match(code({ ...multistep, levels: [1, 0.316, 0.1] }), /LambdaLR/, 'no one factor: no MultiStepLR');
  assert.match(code({ ...multistep, transition: 100 }), /LambdaLR/);
  // lawcore's default: a level begins the step after its boundary
  const after = code({ ...multistep, drop: undefined });
  assert.match(after, /LambdaLR/);
  assert.match(after, /milestones = \[8001, 9001\]/);
  assert.match(
    code({ ...multistep, warmup: 500 }),
    /milestones = \[8100, 9050\]/,
    'after a warmup: a LambdaLR with the milestones of the whole run',
  );
});

test("the Hugging Face call is transformers' function of the same schedule, or none", () => {
  const preset = (id) => fitPreset(PRESETS.find((p) => p.id === id).schedule, run);
  assert.match(
    huggingFaceCode(preset('cosine')),
    /get_cosine_schedule_with_warmup\(optimizer, num_warmup_steps=800, num_training_steps=10000\)/,
  );
  assert.match(
    huggingFaceCode(preset('cosine-10pct')),
    /get_cosine_with_min_lr_schedule_with_warmup\(optimizer, num_warmup_steps=800, num_training_steps=10000, min_lr_rate=0\.1\)/,
  );
  assert.match(
    huggingFaceCode(preset('wsd-1-sqrt-20')),
    /get_wsd_schedule\(optimizer, num_warmup_steps=800, num_decay_steps=2000, num_training_steps=10000, decay_type="1-sqrt", min_lr_ratio=0\)/,
  );
  assert.match(huggingFaceCode(preset('linear')), /get_linear_schedule_with_warmup/);
  assert.match(
    huggingFaceCode(preset('polynomial')),
    /get_polynomial_decay_schedule_with_warmup\(optimizer, num_warmup_steps=800, num_training_steps=10000, lr_end=0, power=2\)/,
  );
  assert.match(
    huggingFaceCode(preset('constant')),
    /get_constant_schedule_with_warmup\(optimizer, num_warmup_steps=800\)/,
  );
  assert.match(
    huggingFaceCode(preset('cosine-restarts')),
    /get_cosine_with_hard_restarts_schedule_with_warmup\(optimizer, num_warmup_steps=800, num_training_steps=10000, num_cycles=4\)/,
  );
  assert.match(
    huggingFaceCode({ kind: 'cosine', total: 10000, peak: 3e-4, warmup: 800, cycles: 4 }),
    /get_cosine_with_hard_restarts_schedule_with_warmup\(optimizer, num_warmup_steps=800, num_training_steps=10000, num_cycles=4\)/,
  );
  assert.equal(
    huggingFaceCode({ kind: 'cosine', total: 10000, peak: 3e-4, final: 3e-5, warmup: 800, cycles: 4 }),
    null,
    "transformers' restarts go down to 0",
  );
  // a cycle with after "restart" is at final on steps 3,100, 5,400 and 7,700, where transformers restarts at the peak
  assert.equal(
    huggingFaceCode({ kind: 'cosine', total: 10000, peak: 3e-4, warmup: 800, cycle: 3100, after: 'restart' }),
    null,
  );
  assert.match(
    huggingFaceCode({ kind: 'cosine', total: 100, peak: 1e-3 }, { warmup: 7 }),
    /num_warmup_steps=7/,
    "a schedule without warmup takes the fit setting's",
  );
  for (const id of ['multistep-deepseek', 'cyclic', 'one-cycle', 'rewarmup', 'wsd-exponential-10'])
    assert.equal(huggingFaceCode(preset(id)), null, id);
});
