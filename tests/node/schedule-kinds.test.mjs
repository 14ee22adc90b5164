// The schedule kinds the builder offers (site/js/schedules/schedule-kinds.js) under node: lawcore's kinds
// in its order, their fields, the steps a description runs and its one-line summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { kinds, COMMON_FIELDS, fieldsOf, scheduleSteps, summary } from '../../site/js/schedules/schedule-kinds.js';
import { SCHEDULE_KINDS, SCHEDULE_CHOICES } from '../../site/js/engine/schema.js';

test('every kind of lawcore, in its order, with a label and its own fields after the common ones', () => {
  assert.deepEqual(Object.keys(kinds()), SCHEDULE_KINDS);
  for (const kind of SCHEDULE_KINDS) {
    assert.ok(kinds()[kind].label, kind);
    assert.deepEqual(fieldsOf(kind).slice(0, COMMON_FIELDS.length), COMMON_FIELDS);
  }
  assert.deepEqual(fieldsOf('wsd').find((f) => f.key === 'decay').options, SCHEDULE_CHOICES.decay);
  assert.deepEqual(fieldsOf('nonsense'), COMMON_FIELDS);
});

test("the fields that follow the libraries: a cosine's cycles, a cyclic start, a multi-step drop", () => {
  const field = (kind, key) => fieldsOf(kind).find((f) => f.key === key);
  assert.equal(field('cosine', 'cycles').type, 'int');
  assert.match(field('cosine', 'cycles').hint, /num_cycles/);
  // lawcore's choices, its default first (the builder's "default (...)")
  assert.deepEqual(field('cyclic', 'start').options, ['peak', 'base']);
  assert.deepEqual(field('cyclic', 'start').options, SCHEDULE_CHOICES.start);
  assert.deepEqual(field('multistep', 'drop').options, ['after', 'at']);
  assert.deepEqual(field('multistep', 'drop').options, SCHEDULE_CHOICES.drop);
  assert.equal(field('cosine', 'start'), undefined);
});

test('the steps a schedule runs', () => {
  assert.equal(scheduleSteps(null), 0);
  assert.equal(scheduleSteps({ kind: 'cosine', total: 60000 }), 60000);
  assert.equal(
    scheduleSteps({
      kind: 'concat',
      segments: [
        { kind: 'constant', total: 10 },
        { kind: 'cosine', total: 20 },
      ],
    }),
    30,
  );
  assert.equal(scheduleSteps({ kind: 'explicit', lr: [1, 2, 3] }), 3);
  assert.equal(scheduleSteps({ kind: 'explicit', total: 5, steps: [0, 100], lr: [1, 2] }), 100);
});

test('a schedule in one line', () => {
  assert.equal(
    summary({ kind: 'cosine', total: 20000, peak: 2e-4, final: 0, warmup: 500 }),
    'cosine · 20,000 steps · 2e-4 → 0 · warmup 500',
  );
  assert.equal(
    summary({ kind: 'wsd', total: 60000, peak: 2e-4, decay: 'cosine', decayFraction: 0.2 }),
    'WSD cosine · 60,000 steps · peak 2e-4 · 20% decay',
  );
  assert.equal(summary({ kind: 'explicit', steps: [0, 10, 20], lr: [0, 1, 1] }), 'LR list · 3 points to step 20');
  assert.equal(summary(null), 'no schedule yet');
  assert.equal(
    summary({ kind: 'cosine', total: 60000, peak: 2e-4, warmup: 500, cycles: 4 }),
    'cosine × 4 cycles · 60,000 steps · peak 2e-4 · warmup 500',
  );
  assert.equal(
    summary({ kind: 'cyclic', total: 60000, peak: 2e-4, final: 2e-5, warmup: 0, stepSize: 7500, start: 'base' }),
    'cyclic from base · 60,000 steps · 2e-4 → 2e-5',
  );
  assert.equal(
    summary({ kind: 'multistep', total: 60000, peak: 2e-4, levels: [1, Math.sqrt(0.1), 0.1], drop: 'at' }),
    'multistep [1, 0.3162, 0.1] · 60,000 steps · peak 2e-4',
  );
});
