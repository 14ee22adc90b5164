// Gathering a run folder's files (folder-files.js) and reading them as one import
// (import-files.js's importFolder): picked files keep their relative paths, a dropped
// directory is walked through every batch of entries, weights and checkpoints are left unread,
// and a folder past lawcore's size limit is refused before any file is read.
import './schema-setup.mjs';
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  pickedFolder,
  splitDrop,
  walkDirectories,
  withoutWeights,
  MAX_FOLDER_FILES,
} from '../../site/js/import/folder-files.js';
import { importFolder } from '../../site/js/import/import-files.js';
import { MAX_IMPORT_BYTES } from '../../site/js/engine/schema.js';

/** fakeFile stands in for a File: its size, and its bytes unless reading it is to fail the test. */
const fakeFile = (size, text = 'x'.repeat(size)) => ({
  size,
  arrayBuffer: async () => new TextEncoder().encode(text).buffer,
});
const unreadable = (size) => ({ size, arrayBuffer: async () => assert.fail('a file was read') });

/**
 * fakeTree stands in for a dropped directory's FileSystemDirectoryEntry: tree maps names to
 * subtrees or file contents; readEntries hands out at most batch entries at a time, as
 * Chromium hands out 100.
 */
function fakeTree(name, tree, batch = 2, parent = '') {
  const fullPath = `${parent}/${name}`;
  return {
    name,
    fullPath,
    isDirectory: true,
    isFile: false,
    createReader() {
      const entries = Object.entries(tree).map(([n, v]) =>
        typeof v === 'string'
          ? {
              name: n,
              fullPath: `${fullPath}/${n}`,
              isFile: true,
              isDirectory: false,
              file: (ok) => ok({ name: n, size: v.length, text: v }),
            }
          : fakeTree(n, v, batch, fullPath),
      );
      let at = 0;
      return {
        readEntries(ok) {
          setTimeout(() => {
            ok(entries.slice(at, at + batch));
            at += batch;
          });
        },
      };
    },
  };
}

test('a picked folder keeps the paths the browser gives, named after its top directory', () => {
  const files = [
    { name: 'metrics.csv', webkitRelativePath: 'runs/a/metrics.csv' },
    { name: 'x.tfevents', webkitRelativePath: 'runs/b/x.tfevents' },
  ];
  const folder = pickedFolder(files);
  assert.equal(folder.name, 'runs');
  assert.deepEqual(
    folder.files.map((f) => f.path),
    ['runs/a/metrics.csv', 'runs/b/x.tfevents'],
  );
  assert.equal(folder.files[1].file, files[1]);
  assert.throws(() => pickedFolder([]), /holds no files/);
});

test('a dropped directory is walked through every batch of entries, paths without the leading slash', async () => {
  const runs = fakeTree('runs', {
    cosine: { 'events.out.tfevents.1': 'e', 'config.yaml': 'c' },
    lightning_logs: { version_0: { 'metrics.csv': 'm', 'hparams.yaml': 'h', checkpoints: { 'last.ckpt': 'w' } } },
    'README.md': 'r',
  });
  const folder = await walkDirectories([runs]);
  assert.equal(folder.name, 'runs');
  assert.deepEqual(folder.files.map((f) => f.path).sort(), [
    'runs/README.md',
    'runs/cosine/config.yaml',
    'runs/cosine/events.out.tfevents.1',
    'runs/lightning_logs/version_0/checkpoints/last.ckpt',
    'runs/lightning_logs/version_0/hparams.yaml',
    'runs/lightning_logs/version_0/metrics.csv',
  ]);
  assert.equal(folder.files.find((f) => f.path.endsWith('metrics.csv')).file.text, 'm');
  // Two directories dropped together are one folder named after both.
  const two = await walkDirectories([fakeTree('a', { 'x.csv': '1' }), fakeTree('b', { 'y.csv': '2' })]);
  assert.equal(two.name, 'a, b');
  assert.deepEqual(
    two.files.map((f) => f.path),
    ['a/x.csv', 'b/y.csv'],
  );
});

test('a directory past MAX_FOLDER_FILES files is refused with a message saying what to drop instead', async () => {
  const many = Object.fromEntries(Array.from({ length: MAX_FOLDER_FILES + 1 }, (_, i) => [`f${i}.csv`, '']));
  await assert.rejects(
    walkDirectories([fakeTree('home', many, 1000)]),
    /^Error: home: more than 10,000 files: give the run directories, not a folder above them$/,
  );
});

test('a drop is split into directories and loose files; without items the files list is used', () => {
  const dir = { isDirectory: true, name: 'runs' };
  const file = { name: 'a.csv' };
  const items = [
    { kind: 'file', webkitGetAsEntry: () => dir, getAsFile: () => ({ name: 'runs' }) },
    { kind: 'file', webkitGetAsEntry: () => ({ isDirectory: false, isFile: true }), getAsFile: () => file },
    { kind: 'string', getAsFile: () => null },
  ];
  assert.deepEqual(splitDrop({ items, files: [] }), { directories: [dir], files: [file] });
  assert.deepEqual(splitDrop({ items: [], files: [file] }), { directories: [], files: [file] });
});

test('weights and checkpoints are left unread; logs, gzip and zip files are read', () => {
  const paths = [
    'r/a/events.out.tfevents.1.host.0',
    'r/a/metrics.csv.gz',
    'r/logs.zip',
    'r/v0/checkpoints/epoch=3.ckpt',
    'r/model.safetensors',
    'r/pytorch_model.bin',
    'r/opt.pt',
    'r/tf/model.ckpt-100.data-00000-of-00001',
    'r/flax/params.msgpack',
    'r/mlruns/0/abc/metrics/loss',
  ];
  const { read, unread } = withoutWeights(paths.map((path) => ({ path })));
  assert.deepEqual(
    read.map((f) => f.path),
    ['r/a/events.out.tfevents.1.host.0', 'r/a/metrics.csv.gz', 'r/logs.zip', 'r/mlruns/0/abc/metrics/loss'],
  );
  assert.equal(unread.length, 6);
});

test('importFolder sends every file in one import with its path, and names curves and notes as lawcore does', async () => {
  const calls = [];
  const engine = {
    importFolder: async (paths, bytes, choice) => {
      calls.push({ paths, texts: bytes.map((b) => new TextDecoder().decode(b)), choice });
      return {
        result: {
          curves: [
            { name: 'a loss', run: 'a', metric: 'loss', hasLoss: true, hasLR: true, files: ['runs/a/metrics.csv'] },
          ],
          notes: ['skipped 1 file (not a log format I know): runs/a/notes.txt'],
        },
        columns: [
          { steps: Float64Array.of(0, 100, 200), loss: Float64Array.of(9, 4, 3.5), lr: Float64Array.of(0, 1e-4, 2e-4) },
        ],
      };
    },
  };
  const folder = {
    name: 'runs',
    files: [
      { path: 'runs/a/metrics.csv', file: fakeFile(3, 'csv') },
      { path: 'runs/a/notes.txt', file: fakeFile(2, 'hi') },
      { path: 'runs/a/last.ckpt', file: unreadable(10) },
    ],
  };
  const { curves, lrCurves, notes } = await importFolder(engine, folder);
  assert.equal(calls.length, 1);
  assert.deepEqual(calls[0], { paths: ['runs/a/metrics.csv', 'runs/a/notes.txt'], texts: ['csv', 'hi'], choice: {} });
  assert.equal(lrCurves.length, 0);
  assert.equal(curves.length, 1);
  const [c] = curves;
  assert.equal(c.name, 'a loss');
  assert.deepEqual([...c.steps], [100, 200], 'step 0 is dropped: the fit needs steps >= 1');
  assert.equal(c.scheduleSource, 'file');
  assert.deepEqual(c.schedule.steps, [0, 100, 200]);
  assert.deepEqual(c.schedule.lr, [0, 1e-4, 2e-4]);
  assert.equal(c.file, 'runs/a/metrics.csv');
  assert.deepEqual(notes, [
    'runs: skipped 1 file (not a log format I know): runs/a/notes.txt',
    'runs: the point at step 0 (or without a loss) dropped from a loss; the fit needs steps ≥ 1.',
    'runs: 1 file(s) of model weights or checkpoints left unread: runs/a/last.ckpt.',
  ]);
});

test('importFolder asks its question once for the folder, and refuses a folder past the size limit unread', async () => {
  const choices = [];
  const engine = {
    importFolder: async (_paths, _bytes, choice) => {
      choices.push(choice);
      if (!choice.column)
        return {
          result: {
            curves: [],
            notes: [],
            ambiguity: {
              message: '2 columns may be the loss',
              columns: [{ name: 'train_loss' }, { name: 'val_loss' }],
            },
          },
          columns: [],
        };
      return {
        result: {
          curves: [{ name: 'v val_loss', run: 'v', metric: 'val_loss', hasLoss: true, hasLR: false }],
          notes: [],
        },
        columns: [{ steps: Float64Array.of(1, 2), loss: Float64Array.of(4, 3) }],
      };
    },
  };
  const asked = [];
  const got = await importFolder(
    engine,
    { name: 'lightning_logs', files: [{ path: 'lightning_logs/v/metrics.csv', file: fakeFile(1) }] },
    async (ambiguity, label) => {
      asked.push([ambiguity.message, label]);
      return { column: 'val_loss' };
    },
  );
  assert.deepEqual(asked, [['2 columns may be the loss', 'lightning_logs']]);
  assert.deepEqual(choices, [{}, { column: 'val_loss' }]);
  assert.deepEqual(
    got.curves.map((c) => [c.name, c.schedule]),
    [['v val_loss', null]],
  );

  const big = {
    name: 'runs',
    files: [
      { path: 'runs/a/x.csv', file: unreadable(MAX_IMPORT_BYTES) },
      { path: 'runs/b/y.csv', file: unreadable(1) },
    ],
  };
  const never = { importFolder: () => assert.fail('lawcore was called') };
  await assert.rejects(
    importFolder(never, big),
    /^Error: runs: its 2 files hold 513 MB, more than 512 MB in all: give its run directories one at a time$/,
  );
  await assert.rejects(
    importFolder(never, { name: 'w', files: [{ path: 'w/a.pt', file: unreadable(5) }] }),
    /^Error: w: holds only model weights and checkpoints, no log$/,
  );
});
