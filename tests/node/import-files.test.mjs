// The page's bound on the points of all its curves together (site/js/import/import-files.js): curves
// that would pass it are not added, each with a message naming it and saying why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import {
  withinPointBudget,
  MAX_PAGE_POINTS,
  importText,
  curveName,
  explicitSchedule,
} from '../../site/js/import/import-files.js';

const curve = (name, n) => ({ name, steps: { length: n } });

test('curves are added while the page stays within its points; the others are refused by name', () => {
  const { kept, refused } = withinPointBudget(MAX_PAGE_POINTS - 3_000_000, [
    curve('a', 2_000_000),
    curve('b', 2_000_000),
    curve('c', 1_000_000),
  ]);
  assert.deepEqual(
    kept.map((c) => c.name),
    ['a', 'c'],
    'in order, each that still fits',
  );
  assert.equal(refused.length, 1);
  assert.match(
    refused[0],
    /^b: not added: its 2,000,000 points would bring the page to 9,000,000, past the 8,000,000 it can fit and draw within 4 GB of memory\. Remove curves, or thin this one first/,
  );
  assert.deepEqual(withinPointBudget(0, [curve('exactly', MAX_PAGE_POINTS)]).refused, []);
  assert.equal(withinPointBudget(1, [curve('one too many', MAX_PAGE_POINTS)]).refused.length, 1);
});

test('the curves of one folder in an archive keep their files in their names; runs of their own keep the run', async () => {
  const answer = (curves) => ({
    importFile: async () => ({
      result: { curves: curves.map(([run, name]) => ({ run, name, metric: 'loss', hasLoss: true })) },
      columns: curves.map(() => ({ steps: Float64Array.of(1, 2), loss: Float64Array.of(3, 2.9) })),
    }),
  });
  // runs.zip holding runs/wsd_20k.csv and runs/const_20k.csv: lawcore calls both run "runs"
  const zip = await importText(
    answer([
      ['runs', 'runs loss (runs.zip/runs/wsd_20k.csv)'],
      ['runs', 'runs loss (runs.zip/runs/const_20k.csv)'],
    ]),
    'runs.zip',
    new Uint8Array(1),
  );
  assert.deepEqual(
    zip.curves.map((c) => c.name),
    ['runs loss (runs.zip/runs/wsd_20k.csv)', 'runs loss (runs.zip/runs/const_20k.csv)'],
  );
  const wandb = await importText(
    answer([
      ['cosine', 'cosine loss'],
      ['wsd', 'wsd loss'],
    ]),
    'wandb.csv',
    'text',
  );
  assert.deepEqual(
    wandb.curves.map((c) => c.name),
    ['cosine', 'wsd'],
  );
});

test('a run past the longest schedule lawcore takes is left out at import, saying so', async () => {
  const engine = {
    importFile: async () => ({
      result: {
        curves: [
          { run: 'long', name: 'long loss', metric: 'loss', hasLoss: true },
          { run: 'short', name: 'short loss', metric: 'loss', hasLoss: true },
        ],
      },
      columns: [
        { steps: Float64Array.of(1e6, 2e7), loss: Float64Array.of(3, 2.9) },
        { steps: Float64Array.of(1e6, 9999999), loss: Float64Array.of(3, 2.9) },
      ],
    }),
  };
  const out = await importText(engine, 'huge.csv', 'text');
  assert.deepEqual(
    out.curves.map((c) => c.name),
    ['short'],
  );
  assert.deepEqual(out.notes, [
    'huge.csv: long runs to step 20,000,000, past the 9,999,999 steps a schedule may have; left out.',
  ]);
});

test('a curve is named by its file without extensions, a gzipped one included', () => {
  assert.equal(curveName('runs/sparse_cosine.csv.gz'), 'sparse_cosine');
  assert.equal(curveName('history.jsonl'), 'history');
  assert.equal(curveName('run-cosine-tag-loss.csv'), 'cosine loss');
  assert.equal(curveName('weird.name.csv'), 'weird.name');
});

test("learning rates logged at steps of their own make the schedule, not their values at the loss's steps", async () => {
  // an eval loss every 1,000 steps; the LR every 500, dropping tenfold at 1,500
  const engine = {
    importFile: async () => ({
      result: { curves: [{ name: 'eval', metric: 'eval/loss', hasLoss: true, hasLR: true }] },
      columns: [
        {
          steps: Float64Array.of(1000, 2000),
          loss: Float64Array.of(3, 2.9),
          lr: Float64Array.of(1e-3, 1e-4),
          lrSteps: Float64Array.of(0, 500, 1000, 1500, 2000),
          lrLogged: Float64Array.of(1e-3, 1e-3, 1e-3, 1e-4, 1e-4),
        },
      ],
    }),
  };
  const {
    curves: [c],
  } = await importText(engine, 'eval.csv', 'text');
  assert.deepEqual(Array.from(c.lrSteps), [0, 500, 1000, 1500, 2000]);
  assert.deepEqual(c.schedule.steps, [0, 500, 1000, 1500, 2000]);
  assert.deepEqual(c.schedule.lr, [1e-3, 1e-3, 1e-3, 1e-4, 1e-4]);
  assert.equal(c.scheduleSource, 'file');
});

test('a schedule from an LR column carries the warmup that column shows, each run its own', () => {
  // a linear warmup to 3e-4 at step 2,000 (logged every 500 steps), then a decay
  assert.deepEqual(explicitSchedule([0, 500, 1000, 1500, 2000, 2500], [0, 7.5e-5, 1.5e-4, 2.25e-4, 3e-4, 2e-4]), {
    kind: 'explicit',
    total: 2500,
    steps: [0, 500, 1000, 1500, 2000, 2500],
    lr: [0, 7.5e-5, 1.5e-4, 2.25e-4, 3e-4, 2e-4],
    warmup: 2000,
  });
  // at its peak from step 0, or from its first step logged (the MultiPowerLaw release's logs
  // start at step 2,176 after a 2,160-step warmup): no warmup of its own (the setting's applies)
  assert.equal(explicitSchedule([0, 100], [3e-4, 1e-4]).warmup, undefined);
  assert.equal(explicitSchedule([2176, 2304], [3e-4, 3e-4]).warmup, undefined);
});
