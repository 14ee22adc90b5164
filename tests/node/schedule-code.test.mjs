// A schedule as training code (site/js/schedule-code.js): the PyTorch LambdaLR's lr_lambda,
// run by Python, gives lawcore's learning rate at every step of every preset (and of variants:
// restarts, cyclic triangular2, multi-step with transitions, WSD shapes, explicit points); the
// Hugging Face call is the transformers function of the same schedule, or none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import './schema-setup.mjs';
import { PRESETS } from '../../site/js/schema.js';
import { fitPreset } from '../../site/js/schedule-kinds.js';
import { pytorchCode, huggingFaceCode } from '../../site/js/schedule-code.js';

const cli = fileURLToPath(new URL('../../scripts/lawcore.mjs', import.meta.url));
/** expand is lawcore's LR at every step of a description. */
const expand = (s) => JSON.parse(execFileSync(process.execPath, [cli, 'schedule'], { input: JSON.stringify(s), encoding: 'utf8', maxBuffer: 1 << 28 }));
const hasPython = spawnSync('python3', ['-c', 'import math, bisect'], { encoding: 'utf8' }).status === 0;

/**
 * pythonLRs runs the generated code with a stand-in LambdaLR and returns lr_lambda(step) * peak
 * for every step of steps.
 */
function pythonLRs(code, peak, steps) {
  const stub = 'import sys, types\nm = types.ModuleType("torch.optim.lr_scheduler")\nm.LambdaLR = lambda opt, f: f\n'
    + 'for n in ["torch", "torch.optim"]: sys.modules[n] = types.ModuleType(n)\nsys.modules["torch.optim.lr_scheduler"] = m\noptimizer = None\n';
  const run = `${stub}${code}\nimport json\nprint(json.dumps([scheduler(s) * ${peak} for s in ${JSON.stringify(steps)}]))\n`;
  const out = spawnSync('python3', ['-'], { input: run, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout);
}

const run = { total: 10000, peak: 3e-4, warmup: 800 };
const cases = [
  ...PRESETS.map((p) => [p.id, fitPreset(p.schedule, run)]),
  ['cosine continue', { kind: 'cosine', total: 10000, peak: 3e-4, final: 3e-5, warmup: 300, cycle: 4000, after: 'continue' }],
  ['cyclic triangular2', { kind: 'cyclic', total: 10000, peak: 3e-4, final: 3e-5, warmup: 300, stepSize: 1000, mode: 'triangular2' }],
  ['multistep transition', { kind: 'multistep', total: 10000, peak: 3e-4, warmup: 300, stages: [0.5, 0.3, 0.2], levels: [1, 0.3, 0.1], transition: 400 }],
  ['wsd half-life', { kind: 'wsd', total: 10000, peak: 3e-4, final: 1e-5, warmup: 300, decay: 'half-life', decaySteps: 2000, halfLife: 300 }],
  ['wsd linear', { kind: 'wsd', total: 10000, peak: 3e-4, final: 0, warmup: 300, decay: 'linear', decayFraction: 0.25 }],
  ['warmup from', { kind: 'linear', total: 10000, peak: 3e-4, final: 3e-5, warmup: 500, warmupFrom: 1e-5 }],
  ['explicit points', { kind: 'explicit', total: 10000, steps: [0, 800, 5000, 10000], lr: [0, 3e-4, 1e-4, 0] }],
];

test('the PyTorch LambdaLR gives lawcore\'s learning rate at every step of every preset', () => {
  assert.ok(hasPython, 'python3 runs the code written here: scripts/install-deps.sh installs it');
  for (const [name, s] of cases) {
    const want = expand(s);
    const code = pytorchCode(s, { name, expanded: want });
    assert.match(code, /scheduler = LambdaLR\(optimizer, lr_lambda\)/, name);
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
    assert.ok(worst <= tolerance, `${name}: ${got[want.steps.indexOf(at)]} instead of ${want.lr[want.steps.indexOf(at)]} at step ${at}`);
  }
});

test('the Hugging Face call is transformers\' function of the same schedule, or none', () => {
  const preset = (id) => fitPreset(PRESETS.find((p) => p.id === id).schedule, run);
  assert.match(huggingFaceCode(preset('cosine')), /get_cosine_schedule_with_warmup\(optimizer, num_warmup_steps=800, num_training_steps=10000\)/);
  assert.match(huggingFaceCode(preset('cosine-10pct')), /get_cosine_with_min_lr_schedule_with_warmup\(optimizer, num_warmup_steps=800, num_training_steps=10000, min_lr_rate=0\.1\)/);
  assert.match(huggingFaceCode(preset('wsd-1-sqrt-20')), /get_wsd_schedule\(optimizer, num_warmup_steps=800, num_decay_steps=2000, num_training_steps=10000, decay_type="1-sqrt", min_lr_ratio=0\)/);
  assert.match(huggingFaceCode(preset('linear')), /get_linear_schedule_with_warmup/);
  assert.match(huggingFaceCode(preset('polynomial')), /get_polynomial_decay_schedule_with_warmup\(optimizer, num_warmup_steps=800, num_training_steps=10000, lr_end=0, power=2\)/);
  assert.match(huggingFaceCode(preset('constant')), /get_constant_schedule_with_warmup\(optimizer, num_warmup_steps=800\)/);
  assert.match(huggingFaceCode({ kind: 'cosine', total: 10000, peak: 3e-4, warmup: 800, cycle: 3100, after: 'restart' }), /get_cosine_with_hard_restarts_schedule_with_warmup\(.*num_cycles=4\)/);
  assert.equal(huggingFaceCode(preset('cosine-restarts')), null, 'cycles that do not divide the run: no transformers equivalent');
  assert.match(huggingFaceCode({ kind: 'cosine', total: 100, peak: 1e-3 }, { warmup: 7 }), /num_warmup_steps=7/, 'a schedule without warmup takes the fit setting\'s');
  for (const id of ['multistep-deepseek', 'cyclic', 'one-cycle', 'rewarmup', 'wsd-exponential-10']) assert.equal(huggingFaceCode(preset(id)), null, id);
});
