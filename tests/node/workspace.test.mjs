// Keeping the work (site/js/controllers/workspace.js) under node, with a store of the page and a
// database whose reading ends when the test says: a share link's view changed while the saved
// work is still being read; leaving the page saves what waits at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './schema-setup.mjs';
import { createStore } from '../../site/js/store.js';
import { createWorkspace } from '../../site/js/controllers/workspace.js';
import { packWorkspace, ArrayIds } from '../../site/js/persist.js';
import { DEFAULT_SETTINGS } from '../../site/js/settings.js';

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
const plan = (name) => ({ name, schedule: { kind: 'cosine', total: 10000, peak: 2e-4, final: 0 } });

/** slowDB holds a saved workspace of one schedule; read() answers when release() is called. */
function slowDB() {
  const saved = createStore();
  saved.loadView({ settings: DEFAULT_SETTINGS, predictions: [plan('my plan')] });
  const { record, arrays } = packWorkspace(saved.state, new ArrayIds(), { savedAt: Date.parse('2026-11-20T10:00:00Z') });
  let release;
  const reading = new Promise((resolve) => { release = () => resolve({ record, arrays }); });
  const db = {
    writes: [],
    read: () => reading,
    async write(r) { db.writes.push(r); },
    async clear() {},
  };
  return { db, release };
}

test('a link\'s view changed while the saved work is read: it is saved, and the page says the saved work was replaced, not kept', async () => {
  const store = createStore();
  const { db, release } = slowDB();
  const workspace = createWorkspace({ store, predicting: { update() {} }, analyses: { refresh() {} }, open: async () => db, delayMs: 0, channel: null });
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
  const workspace = createWorkspace({ store, predicting: { update() {} }, analyses: { refresh() {} }, open: async () => db, delayMs: 0, channel: null });
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
  db.write = (record, arrays, options) => {
    db.writes.push({ record, options });
    return new Promise((resolve) => ends.push(resolve));
  };
  const workspace = createWorkspace({ store, predicting: { update() {} }, analyses: { refresh() {} }, open: async () => db, delayMs: 60000, channel: null });
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
