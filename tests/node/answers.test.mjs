// The answers table's numbers (site/js/results/answers.js): final loss with the band, the difference
// from a baseline, the loss at a step and the step a loss is reached, from predicted lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { answerTable, lossAt, stepToReach, parseAnswerStep, parseAnswerLoss } from '../../site/js/results/answers.js';
import { createStore } from '../../site/js/state/store.js';
import { DEFAULT_SETTINGS } from '../../site/js/state/settings.js';

test('a line read at a step and where it reaches a loss, joined linearly', () => {
  const line = { steps: [100, 200, 400], loss: [4, 3, 2] };
  assert.equal(lossAt(line, 100), 4);
  assert.equal(lossAt(line, 150), 3.5);
  assert.equal(lossAt(line, 300), 2.5);
  assert.equal(lossAt(line, 400), 2);
  assert.equal(lossAt(line, 401), null, 'past the end');
  assert.equal(stepToReach(line, 3.5), 150);
  assert.equal(stepToReach(line, 2.5), 300);
  assert.equal(stepToReach(line, 5), 100, 'reached at once');
  assert.equal(stepToReach(line, 1.9), null, 'never');
});

test('the table: finals, the difference from the baseline, defaults from the schedules; no band with parameters by hand', () => {
  const store = createStore();
  const a = { kind: 'constant', total: 400, peak: 1e-4 };
  const b = { kind: 'cosine', total: 800, peak: 1e-4 };
  store.loadView({
    settings: DEFAULT_SETTINGS,
    predictions: [
      { name: 'a', schedule: a },
      { name: 'b', schedule: b },
    ],
  });
  const manual = { params: { annealing: { L0: 2 } }, settings: DEFAULT_SETTINGS, from: 'hand' };
  store.useManual(manual, [
    {
      law: 'annealing',
      source: manual,
      byName: new Map([
        ['a', { schedule: a, steps: [100, 200, 400], loss: [4, 3, 2.5], finalLoss: 2.5 }],
        ['b', { schedule: b, steps: [100, 400, 800], loss: [4, 2.8, 2.2], finalLoss: 2.2 }],
      ]),
    },
  ]);
  const t = answerTable(store.state, store.state.answers);
  assert.equal(t.baseline, 'a', 'the first schedule by default');
  assert.equal(t.atStep, 400, "the shortest schedule's last step by default");
  assert.equal(t.reachLoss, 2.5, "the baseline's final loss by default");
  const [{ law, rows }] = t.laws;
  assert.equal(law, 'annealing');
  assert.deepEqual(
    rows.map((r) => [r.name, r.final, r.diff, r.atStep]),
    [
      ['a', 2.5, 0, 2.5],
      ['b', 2.2, 2.2 - 2.5, 2.8],
    ],
  );
  assert.equal(rows[0].reach, 400);

  assert.ok(Math.abs(rows[1].reach - 600) < 1e-9, `b reaches 2.5 halfway from 400 to 800: ${rows[1].reach}`);
  assert.equal(rows[1].spacing, 400);
  assert.equal(rows[0].band, null, 'no band before a validation');
  store.validated({ rows: [], summaries: [{ law: 'annealing', bandHalfWidth: 0.01, bandLevel: 0.9 }] }, '');
  assert.equal(
    answerTable(store.state, {}).laws[0].rows[0].band,
    null,
    'a band calibrates fits, not parameters typed by hand',
  );

  const chosen = answerTable(store.state, { baseline: 'b', atStep: '200', reachLoss: '3' });
  const close = (got, want) =>
    got.flat().forEach((x, i) => {
      assert.ok(Math.abs(x - want.flat()[i]) < 1e-12, `${got} instead of ${want}`);
    });
  close(
    chosen.laws[0].rows.map((r) => [r.diff, r.atStep, r.reach]),
    [
      [2.5 - 2.2, 3, 200],
      [0, 4 - 1.2 / 3, 100 + (1 / 1.2) * 300],
    ],
  );
  assert.equal(answerTable(store.state, { atStep: 'soon' }).atStep, 400, 'a field that is not a number: the default');
});

test('the baseline reaches its own final loss at its last step, whatever its decimals', () => {
  // rounded to the 4 decimals shown, 2.50004 became 2.5000, and 2.50006 became 2.5001: reached before the end
  const store = createStore();
  const a = { kind: 'constant', total: 400, peak: 1e-4 };
  store.loadView({ settings: DEFAULT_SETTINGS, predictions: [{ name: 'a', schedule: a }] });
  for (const final of [2.50004, 2.50006]) {
    const manual = { params: { annealing: { L0: 2 } }, settings: DEFAULT_SETTINGS, from: 'hand' };
    store.useManual(manual, [
      {
        law: 'annealing',
        source: manual,
        byName: new Map([
          ['a', { schedule: a, steps: [100, 200, 300, 400], loss: [4, 2.5002, 2.50008, final], finalLoss: final }],
        ]),
      },
    ]);
    const t = answerTable(store.state, {});
    assert.equal(t.laws[0].rows[0].reach, 400, String(final));
  }
});

test('a step is read as researchers write it, and text that is not one is refused, not taken for the default', () => {
  for (const [text, step] of [
    ['', null],
    ['20000', 20000],
    ['20,000', 20000],
    ['20 000', 20000],
    ['1,200,000', 1.2e6],
    ['30k', 30000],
    ['30K', 30000],
    ['1.5M', 1.5e6],
    ['2e4', 20000],
    ['0', 0],
  ]) {
    assert.equal(parseAnswerStep(text), step, JSON.stringify(text));
  }
  for (const text of ['abc', '2,7', '20,0000', '-5', 'k', '30x', '1.5', '20000.5', '1.00001k']) {
    assert.throws(
      () => parseAnswerStep(text),
      new RegExp(`^Error: Loss at step: "${text}" is not a step`),
      JSON.stringify(text),
    );
  }
  assert.throws(() => parseAnswerStep('1.5'), /give a whole number of steps, not 1\.5\./);
  assert.equal(parseAnswerLoss(''), null);
  assert.equal(parseAnswerLoss('2.7'), 2.7);
  for (const text of ['2,7', 'abc', '0', '-1']) {
    assert.throws(
      () => parseAnswerLoss(text),
      new RegExp(`^Error: Steps to reach loss: "${text}" is not a loss`),
      JSON.stringify(text),
    );
  }
});
