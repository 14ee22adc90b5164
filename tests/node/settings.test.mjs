// What the user types in the settings and parameters forms (site/js/state/settings.js) under node:
// each check names the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { parseSettings, parseManualParams, lawsOf } from '../../site/js/state/settings.js';

const fields = (over = {}) => ({
  lambda: { value: '0.999', badInput: false },
  fitLambda: false,
  warmupSteps: { value: '500', badInput: false },
  warmupConvention: 'peak',
  huberDelta: { value: '0.001', badInput: false },
  law: 'annealing',
  auto: false,
  mplSearch: 'optimum',
  priors: 'weak',
  ...over,
});

test('settings are read, or refused naming the field', () => {
  assert.deepEqual(parseSettings(fields(), 0.5), {
    lambda: 0.999,
    fitLambda: false,
    warmupSteps: 500,
    warmupConvention: 'peak',
    huberDelta: 0.001,
    law: 'annealing',
    auto: false,
    mplSearch: 'optimum',
    priors: 'weak',
  });
  assert.equal(
    parseSettings(fields({ fitLambda: true, lambda: { value: 'junk', badInput: true } }), 0.5).lambda,
    0.5,
    'a fitted λ keeps the previous one',
  );
  assert.throws(
    () => parseSettings(fields({ warmupSteps: { value: '1000000000000000', badInput: false } })),
    /Warmup steps \(a whole number from 0 to 10,000,000\): 1000000000000000 is out of range/,
  );
  assert.throws(
    () => parseSettings(fields({ huberDelta: { value: '', badInput: false } })),
    /Huber δ \(> 0\): the field is empty, or holds not a number/,
  );
  assert.throws(
    () => parseSettings(fields({ huberDelta: { value: '', badInput: true } })),
    /Huber δ \(> 0\): "" is not a number/,
  );
  assert.throws(
    () => parseSettings(fields({ lambda: { value: '1', badInput: false } })),
    /λ \(between 0 and 1\): 1 is out of range/,
  );
  assert.deepEqual(lawsOf({ law: 'both' }), ['annealing', 'multi-power']);
  assert.deepEqual(lawsOf({ law: 'multi-power' }), ['multi-power']);
});

test('parameters typed by hand are read, or refused naming the parameter', () => {
  const ok = { L0: '2.6', A: '0.4', alpha: '0.5', C: '0.4', lambda: '0.999' };
  assert.deepEqual(parseManualParams(ok), { L0: 2.6, A: 0.4, alpha: 0.5, C: 0.4, lambda: 0.999 });
  assert.throws(() => parseManualParams({ ...ok, L0: '-5' }), /Parameter L0: -5 is out of range \(zero or more\)/);
  assert.throws(
    () => parseManualParams({ ...ok, lambda: '2' }),
    /Parameter lambda: 2 is out of range \(between 0 and 1\)/,
  );
  assert.throws(() => parseManualParams({ ...ok, A: '0x10' }), /Parameter A: "0x10" is not a number/);
  assert.throws(() => parseManualParams({ ...ok, C: '1e400' }), /Parameter C: "1e400" is not a number/);
});
