// Keeping the work (site/js/controllers/workspace.js) under node, with a store of the page and a
// database whose reading ends when the test says: a share link's view changed while the saved
// work is still being read; leaving the page saves what waits at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { createStore } from '../../site/js/state/store.js';
import { createWorkspace } from '../../site/js/controllers/workspace.js';
import { packWorkspace, ArrayIds } from '../../site/js/persistence/persist.js';
import { DEFAULT_SETTINGS } from '../../site/js/state/settings.js';

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
const plan = (name) => ({ name, schedule: { kind: 'cosine', total: 10000, peak: 2e-4, final: 0 } });

/** slowDB holds a saved workspace of one schedule; read() answers when release() is called. */
function slowDB() {
  const saved = createStore();
  saved.loadView({ settings: DEFAULT_SETTINGS, predictions: [plan('my plan')] });
  const { record, arrays } = packWorkspace(saved.state, new ArrayIds(), {
    savedAt: Date.parse('2026-11-20T10:00:00Z'),
  });
  let release;
  const reading = new Promise((resolve) => {
    release = () => resolve({ record, arrays });
  });
  const db = {
    writes: [],
    read: () => reading,
    async write(r) {
      db.writes.push(r);
    },
    async clear() {},
  };
  return { db, release };
}

test("a link's view changed while the saved work is read: it is saved, and the page says the saved work was replaced, not kept", async () => {
  const store = createStore();
  const { db, release } = slowDB();
  const workspace = createWorkspace({ store, open: async () => db, delayMs: 0, channel: null });
  store.loadView({ settings: DEFAULT_SETTINGS, predictions: [plan('linked plan')] }); // the link's view
  workspace.watch();
  const opened = workspace.linkOpened();
  store.setSettings({ ...store.state.settings, warmupSteps: 100 }); // the user changes it at once
  await tick(10);
  release();
  await opened;
  await tick(10);
  assert.ok(db.writes.length >= 1, 'the change is saved');
  assert.equal(db.writes.at(-1).settings.warmupSteps, 100);
  const line = store.state.workspace.line;
  assert.match(line.text[0], /^Your earlier saved work \(1 schedule to predict, saved .*\) was replaced by this view/);
  assert.deepEqual(line.actions, ['back']);
});

test('a change of the Analyses panel’s choices alone is saved with the work; its progress and answers are not a change', async () => {
  const store = createStore();
  const { db, release } = slowDB();
  const workspace = createWorkspace({ store, open: async () => db, delayMs: 0, channel: null });
  release();
  assert.equal(await workspace.restore(), true);
  workspace.watch(store.state);
  store.analysisChanged({ computing: true, progress: 0.5, status: 'Computing…' });
  await tick(10);
  assert.equal(db.writes.length, 0, 'an analysis running is no change of the work');
  store.analysisChanged({ open: true, view: 'lambda' });
  await tick(10);
  assert.equal(db.writes.length, 1);
  assert.deepEqual([db.writes[0].analysis.open, db.writes[0].analysis.view], [true, 'lambda']);
});

test('leaving the page saves a change waiting for its delay at once, committed at once, even while another save is under way; nothing waiting, nothing saved', async () => {
  const store = createStore();
  const { db, release } = slowDB();
  // each write stays under way until the test ends it
  const ends = [];
  db.write = (record, _arrays, options) => {
    db.writes.push({ record, options });
    return new Promise((resolve) => ends.push(resolve));
  };
  const workspace = createWorkspace({ store, open: async () => db, delayMs: 60000, channel: null });
  release();
  assert.equal(await workspace.restore(), true);
  workspace.watch(store.state);
  store.setSettings({ ...store.state.settings, warmupSteps: 100 });
  workspace.flush({ leaving: true });
  assert.equal(db.writes.length, 1, 'saved at once, not after the delay');
  assert.deepEqual(db.writes[0].options, { commitNow: true });
  store.setSettings({ ...store.state.settings, warmupSteps: 200 });
  workspace.flush({ leaving: true });
  assert.equal(db.writes.length, 2, 'the save under way does not hold back the change waiting');
  assert.equal(db.writes[1].record.settings.warmupSteps, 200);
  for (const end of ends) end();
  await tick(10);
  workspace.flush({ leaving: true });
  assert.equal(db.writes.length, 2, 'nothing waiting: nothing saved');
  // Not leaving, a change waits for the save under way, then is saved (not committed at once).
  store.setSettings({ ...store.state.settings, warmupSteps: 300 });
  workspace.flush();
  assert.equal(db.writes.length, 3);
  store.setSettings({ ...store.state.settings, warmupSteps: 400 });
  workspace.flush();
  assert.equal(db.writes.length, 3, 'waits for the save under way');
  ends.at(-1)();
  await tick(10);
  assert.equal(db.writes.length, 4);
  assert.deepEqual([db.writes[3].record.settings.warmupSteps, db.writes[3].options], [400, { commitNow: false }]);
  ends.at(-1)();
});

// ---- the start-up example, kept as fitted for the build that fitted it ----------------------

const EXAMPLE = { title: 'the test example', about: 'two curves and a schedule' };
const exampleRange = (n, f) => Float64Array.from({ length: n }, (_, i) => f(i));

/**
 * showExample puts an example of two fitted curves and a schedule in store, as examples.js does:
 * the view it shows before its answers.
 */
function showExample(store) {
  const curve = (name, loss0) => ({
    name,
    role: 'fit',
    steps: exampleRange(50, (i) => (i + 1) * 200),
    loss: exampleRange(50, (i) => loss0 - i / 100),
    schedule: { kind: 'constant', total: 10000, peak: 2e-4, warmup: 500 },
  });
  store.loadView({
    settings: DEFAULT_SETTINGS,
    curves: [curve('constant', 4), curve('again', 3.9)],
    predictions: [plan('cosine 60K')],
    example: EXAMPLE,
  });
  return store.state;
}

/** answerExample gives the example its fit and predicted line, as fitting.js and predicting.js do. */
function answerExample(store) {
  const { curves, predictions, settings } = store.state;
  const params = { L0: 2.6, A: 0.43, alpha: 0.55, C: 0.41, lambda: 0.999 };
  const line = (n) => ({
    steps: exampleRange(n, (i) => i * 50),
    lr: exampleRange(n, () => 2e-4),
    loss: exampleRange(n, (i) => 4 - i / 1000),
    s1Term: exampleRange(n, () => 1),
    s2Term: exampleRange(n, () => 0.1),
  });
  const fit = {
    law: 'annealing',
    params,
    settings: { ...settings },
    response: {
      law: 'annealing',
      params,
      held: ['lambda'],
      objective: 1e-5,
      elapsedMs: 9,
      curves: curves.map((c) => ({
        name: c.name,
        role: c.role,
        metrics: { points: 50 },
        predicted: Array.from(c.loss),
      })),
      fitMetrics: { points: 100 },
      validateMetrics: null,
      search: { strategy: 'optimum', starts: 1, evaluations: 5 },
      settings: { lambda: 0.999, warmupSteps: 500, warmupConvention: 'peak', huberDelta: 0.001 },
    },
    lines: new Map(curves.map((c) => [c.name, line(200)])),
    curves: new Map(curves.map((c) => [c.name, c])),
  };
  const predicted = new Map([
    [predictions[0].name, { schedule: predictions[0].schedule, ...line(100), finalLoss: 3.2 }],
  ]);
  store.fitted({ annealing: fit }, { stale: false, status: 'Fitted 2 curve(s) in 9 ms.' }, [
    { law: 'annealing', source: fit, byName: predicted },
  ]);
}

/**
 * exampleDB is a database of the kept example: what it was last written, read back as IndexedDB
 * would (structured clones).
 */
function exampleDB() {
  const db = {
    kept: null,
    writes: 0,
    async read() {
      return db.kept
        ? { record: structuredClone(db.kept.record), arrays: new Map(db.kept.arrays) }
        : { record: null, arrays: new Map() };
    },
    async write(record, arrays) {
      db.writes++;
      db.kept = {
        record: structuredClone(record),
        arrays: new Map([...arrays].map(([id, get]) => [id, structuredClone(get())])),
      };
    },
    async clear() {
      db.kept = null;
    },
  };
  return db;
}

/** visit is a page of build: its store, and its workspace over the work's database (empty) and the example's. */
function visit(build, example) {
  const store = createStore();
  const work = {
    read: async () => ({ record: null, arrays: new Map() }),
    write: async () => {},
    clear: async () => {},
  };
  const workspace = createWorkspace({
    store,
    open: async () => work,
    channel: null,
    build,
    openExample: async () => example,
    removeExample: async () => {
      example.kept = null;
    },
  });
  return { store, workspace };
}

const IDLE = 700; // saveFittedExample writes when the page is idle: under node, after 500 ms

test('the start-up example, fitted and predicted, is kept for its build: a visit of that build shows it without computing it, another build computes it', async () => {
  const db = exampleDB();
  const first = visit('build-1', db);
  const shown = showExample(first.store);
  first.workspace.saveFittedExample(shown);
  await tick(10);
  assert.equal(db.writes, 0, 'nothing is kept before the answers');
  answerExample(first.store);
  await tick(IDLE);
  assert.equal(db.writes, 1);
  assert.equal(db.kept.record.build, 'build-1');

  const again = visit('build-1', db);
  assert.equal(await again.workspace.restore(), false, "no work of the user's");
  assert.equal(await again.workspace.restoreFittedExample({ examples: { test: EXAMPLE } }), true);
  const state = again.store.state;
  assert.equal(state.example, EXAMPLE, "labelled as the example, so that the user's first curves replace it");
  assert.deepEqual(state.fits.annealing.params, first.store.state.fits.annealing.params);
  assert.deepEqual(
    [...state.lines.annealing.byName.get('cosine 60K').loss],
    [...first.store.state.lines.annealing.byName.get('cosine 60K').loss],
  );
  assert.deepEqual(
    state.curves.map((c) => [...c.loss]),
    first.store.state.curves.map((c) => [...c.loss]),
  );
  assert.match(state.status, /^Fitted 2 curve\(s\) on an earlier visit, by this same version of the calculator/);

  const other = visit('build-2', db);
  assert.equal(
    await other.workspace.restoreFittedExample({ examples: { test: EXAMPLE } }),
    false,
    'another build computes the example again',
  );
  const unbuilt = visit('', db);
  assert.equal(
    await unbuilt.workspace.restoreFittedExample({ examples: { test: EXAMPLE } }),
    false,
    'an unbuilt site keeps nothing',
  );
});

test('an example changed before its answers came is not kept, nor one of another title, nor one without its lines; Forget clears it', async () => {
  const db = exampleDB();
  const changed = visit('b', db);
  changed.workspace.saveFittedExample(showExample(changed.store));
  changed.store.setSettings({ ...changed.store.state.settings, warmupSteps: 100 });
  answerExample(changed.store);
  await tick(IDLE);
  assert.equal(db.writes, 0, "a changed example is the user's work, saved as such");

  const kept = visit('b', db);
  kept.workspace.saveFittedExample(showExample(kept.store));
  answerExample(kept.store);
  await tick(IDLE);
  assert.equal(db.writes, 1);
  assert.equal(
    await visit('b', db).workspace.restoreFittedExample({ examples: { other: { title: 'another example' } } }),
    false,
    'an example the page no longer has',
  );

  // a record whose predicted line was lost: computed again rather than shown in part
  const partial = structuredClone(db.kept.record);
  partial.lines = [];
  const lossy = exampleDB();
  lossy.kept = { record: partial, arrays: db.kept.arrays };
  assert.equal(await visit('b', lossy).workspace.restoreFittedExample({ examples: { test: EXAMPLE } }), false);

  const forgetting = visit('b', db);
  await forgetting.workspace.restore();
  await forgetting.workspace.forget();
  assert.equal(db.kept, null, 'Forget my data deletes the kept example too');
});
