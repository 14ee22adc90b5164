// The Analyses panel's forms (site/js/analysis/analysis-forms.js) against lawcore's own defaults: every
// field is an option lawcore has, every default shows in its field and reads back unchanged, a
// field typed wrong is refused with its label and what is wrong, and lawcore's messages about an
// option name the field.
import './schema-setup.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FORMS,
  SETUP_KEYS,
  fieldsOf,
  defaultOptions,
  optionsInUse,
  fieldText,
  rangeText,
  parseField,
  withField,
  listText,
  optionsJSON,
  parseOptionsJSON,
  labelledError,
} from '../../site/js/analysis/analysis-forms.js';
import { MAX_SCHEDULE_STEPS } from '../../site/js/engine/schema.js';

const cli = fileURLToPath(new URL('../../scripts/lawcore.mjs', import.meta.url));
/** DEFAULTS are lawcore's options of every analysis, as `analyze` answers {analysis: 'defaults'}. */
const { analyses: ANALYSES, defaults: DEFAULTS } = JSON.parse(
  execFileSync(process.execPath, [cli, 'analyze', '--analysis', 'defaults'], { encoding: 'utf8' }),
);

const field = (analysis, key) => fieldsOf(analysis, DEFAULTS).find((f) => f.key === key);
/**
 * round10 drops float noise from numbers, however deep (0.12000000000000001 -> 0.12), as the form
 * and the JSON view do.
 */
const round10 = (v) => {
  if (Array.isArray(v)) return v.map(round10);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, round10(x)]));
  return typeof v === 'number' ? Number(v.toPrecision(10)) : v;
};

test("every analysis of lawcore has a form, and every field is one of its options (or the setup's peak)", () => {
  assert.deepEqual(Object.keys(FORMS).sort(), [...ANALYSES].sort());
  for (const analysis of ANALYSES) {
    for (const f of fieldsOf(analysis, DEFAULTS)) {
      assert.ok(f.key in DEFAULTS[analysis], `${analysis}: ${f.key} is not an option of lawcore's`);
      assert.ok(f.label && f.kind, `${analysis}: ${f.key} has no label or kind`);
      if (f.key === 'peak') assert.ok(SETUP_KEYS.includes('peak'));
    }
  }
});

test('every default shows in its field and reads back as lawcore gave it', () => {
  for (const analysis of ANALYSES) {
    const options = defaultOptions(DEFAULTS, analysis);
    for (const key of SETUP_KEYS) assert.ok(!(key in options), `${analysis}: the setup's ${key} is the page's`);
    for (const f of fieldsOf(analysis, DEFAULTS)) {
      const text = fieldText(f, options[f.key]);
      assert.deepEqual(parseField(f, text), round10(options[f.key]), `${analysis}.${f.key}: "${text}"`);
      assert.deepEqual(withField(options, f, text), {
        ...options,
        ...(options[f.key] === undefined ? {} : { [f.key]: round10(options[f.key]) }),
      });
    }
  }
  // The 40 ratios of the WSD sweep read as lawcore's range.
  assert.equal(fieldText(field('wsd-ratio', 'ratios'), DEFAULTS['wsd-ratio'].ratios), '0.02..0.8 by 0.02');
  assert.equal(
    fieldText(field('wsd-ratio', 'totals'), DEFAULTS['wsd-ratio'].totals),
    '10000, 20000, 50000, 100000, 200000',
  );
});

test("choices come from lawcore's defaults; ranges and units are stated", () => {
  assert.deepEqual(field('wsd-ratio', 'decay').choices, DEFAULTS['anneal-function'].shapes);
  assert.deepEqual(field('optimize', 'families').choices, DEFAULTS.optimize.families);
  assert.equal(
    rangeText(field('wsd-ratio', 'totals')),
    `steps, from 1 to ${(MAX_SCHEDULE_STEPS - 1).toLocaleString('en-US')}, up to 20 values`,
  );
  assert.equal(rangeText(field('wsd-ratio', 'floor')), '× peak, from 0 to 1');
  assert.equal(rangeText(field('lambda', 'lambdas')), 'from 0 to 1 (1 excluded), up to 10 values');
  assert.equal(rangeText(field('wsd-ratio', 'peak')), 'learning rate, blank: the peak of your curves');
});

test('numbers as researchers type them: 50K, 1.5M, 5e4, ranges and lists', () => {
  const totals = field('wsd-ratio', 'totals');
  assert.deepEqual(parseField(totals, '50K, 1.5M 5e4;200_000'), [50000, 1500000, 50000, 200000]);
  assert.deepEqual(parseField(totals, '10K..50K by 10K'), [10000, 20000, 30000, 40000, 50000]);
  assert.deepEqual(parseField(field('wsd-ratio', 'ratios'), '0.1..0.3 by 0.05'), [0.1, 0.15, 0.2, 0.25, 0.3]);
  assert.equal(parseField(field('decomposition', 'total'), '60k'), 60000);
  assert.equal(parseField(field('wsd-ratio', 'peak'), '3e-4'), 3e-4);
  assert.equal(parseField(field('wsd-ratio', 'peak'), '  '), undefined);
  assert.deepEqual(
    parseField(field('anneal-function', 'shapes'), 'linear, cosine'),
    ['cosine', 'linear'],
    "in lawcore's order",
  );
  assert.equal(listText([1, 2, 4, 8]), '1, 2, 4, 8');
  assert.equal(listText([0.1, 0.2, 0.30000000000000004, 0.4, 0.5]), '0.1..0.5 by 0.1');
});

test('a field typed wrong is refused with its label, the value at fault and the range', () => {
  const cases = [
    ['wsd-ratio', 'totals', '50000, abc', 'Total steps, value 2: “abc” is not a number'],
    ['wsd-ratio', 'totals', '50000, 2.5', 'Total steps, value 2: give a whole number of steps, not 2.5'],
    ['wsd-ratio', 'totals', '0', 'Total steps, value 1: must be from 1 to 9,999,999 (steps), got 0'],
    ['wsd-ratio', 'totals', ' , ', 'Total steps: give at least one value'],
    ['wsd-ratio', 'totals', '1..30 by 1', 'Total steps: at most 20 values, the range gives 30'],
    [
      'wsd-ratio',
      'ratios',
      '0.5..0.1 by 0.1',
      'Cooldown ratios: a range is “from..to by step” with from ≤ to and step > 0, got “0.5..0.1 by 0.1”',
    ],
    ['wsd-ratio', 'ratios', '0.2, 1.5', 'Cooldown ratios, value 2: must be from 0 to 1 (decay steps / total), got 1.5'],
    ['wsd-ratio', 'floor', '50K', 'Final LR: “50K” is not a number'],
    ['wsd-ratio', 'floor', '', 'Final LR: give a value'],
    ['wsd-ratio', 'peak', '-2e-4', 'Peak LR: must be above 0, at most 1000 (learning rate), got -0.0002'],
    ['wsd-ratio', 'peak', '3000', 'Peak LR: must be above 0, at most 1000 (learning rate), got 3000'],
    [
      'wsd-ratio',
      'decay',
      'step',
      'Decay shape: must be one of cosine, 1-sqrt, 1-square, linear, exponential, got “step”',
    ],
    ['lambda', 'lambdas', '0.99, 1', 'Decay factors λ, value 2: must be from 0 to 1 (1 excluded), got 1'],
    ['optimize', 'families', '', 'Schedule families: pick at least one'],
    ['optimize', 'knots', '2', 'Free-form knots: must be from 4 to 200 (knots), got 2'],
  ];
  for (const [analysis, key, text, message] of cases) {
    assert.throws(
      () => withField(DEFAULTS[analysis], field(analysis, key), text),
      { message },
      `${analysis}.${key} = "${text}"`,
    );
  }
});

test('the JSON view: options one a line, and what is wrong with typed JSON named', () => {
  const options = defaultOptions(DEFAULTS, 'wsd-ratio');
  const text = optionsJSON(options);
  assert.match(text, /^\{\n {2}"totals": \[10000,20000,50000,100000,200000\],\n/);
  assert.match(text, /"ratios": \[0\.02,0\.04,0\.06,0\.08,0\.1,0\.12,/, 'no float noise');
  assert.deepEqual(parseOptionsJSON(text), round10(options));
  assert.throws(() => parseOptionsJSON('{"totals": [50000,}'), /^Error: Options \(JSON\): not valid JSON: /);
  assert.throws(() => parseOptionsJSON('[1, 2]'), {
    message: 'Options (JSON): give an object, {"option": value, ...}',
  });
  // The options in use: as set, else lawcore's defaults.
  const state = { options: { optimize: { total: 1000 } }, defaults: DEFAULTS };
  assert.deepEqual(optionsInUse(state, 'optimize'), { total: 1000 });
  assert.deepEqual(optionsInUse(state, 'wsd-ratio'), options);
});

test("lawcore's own messages about an option name its field", () => {
  const refuse = (...args) => {
    const r = spawnSync(process.execPath, [cli, 'analyze', ...args], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    return r.stderr.trim().replace(/^lawcore analyze: /, '');
  };
  const total = refuse('--analysis', 'wsd-ratio', 'totals=50000,300');
  assert.equal(total, 'totals[1]: must be from 501 to 9999999 steps, got 300');
  assert.deepEqual(labelledError('wsd-ratio', total), {
    message: 'Total steps, value 2 (totals[1]): must be from 501 to 9999999 steps, got 300',
    key: 'totals',
  });
  const decay = refuse('--analysis', 'wsd-ratio', 'decay=exponential');
  assert.deepEqual(labelledError('wsd-ratio', decay), {
    message: `Final LR (floor): ${decay.replace(/^floor: /, '')}`,
    key: 'floor',
  });
  const unknown = refuse('--analysis', 'wsd-ratio', 'bogus=1');
  assert.deepEqual(
    labelledError('wsd-ratio', unknown),
    { message: unknown, key: '' },
    'a message naming no field stays as it is',
  );
});

test('the constant-vs-cosine defaults start past a warmup longer than their shortest total (the Multi-Power release has 2,160 steps)', () => {
  // lawcore refuses a total within the warmup; the page's defaults must never ask for one
  const warmup = 2160;
  const options = defaultOptions(DEFAULTS, 'constant-vs-cosine', null, warmup);
  assert.equal(options.minTotal, 5000, 'the next thousand above twice the warmup');
  assert.equal(
    defaultOptions(DEFAULTS, 'constant-vs-cosine', null, 500).minTotal,
    DEFAULTS['constant-vs-cosine'].minTotal,
    "the paper's own shortest total where its warmup allows it",
  );
  const dir = mkdtempSync(join(tmpdir(), 'cvc-'));
  const file = join(dir, 'request.json');
  writeFileSync(file, JSON.stringify({ analysis: 'constant-vs-cosine', ...options, warmup }));
  const r = spawnSync(process.execPath, [cli, 'analyze', file], { encoding: 'utf8' });
  rmSync(dir, { recursive: true });
  assert.equal(r.status, 0, r.stderr);
});
