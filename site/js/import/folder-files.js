// Gathering the files of a run folder, picked (<input webkitdirectory>) or dropped (a
// directory's FileSystemDirectoryEntry, walked), as one folder: {name, files: [{path, file}]},
// each file with its path relative to the folder picked or dropped, as the browser gives it
// ("runs/cosine/events.out.tfevents..."): lawcore reads the paths' directories as runs. No
// reading of contents here (import-files.js does that, after checking the size), and no DOM
// beyond the entry and File objects, so that node tests it with stand-ins.

import { grouped } from '../common/format.js';

/**
 * MAX_FOLDER_FILES bounds the files one folder may hold: past it, a folder above the runs was
 * dropped (a home directory, a dataset).
 */
export const MAX_FOLDER_FILES = 10000;

/**
 * pickedFolder is the folder of a directory input's files (each with its webkitRelativePath,
 * "runs/a/metrics.csv"), named after its top directory. It throws when there is none (an
 * empty folder picked).
 */
export function pickedFolder(files) {
  const list = [...files];
  if (!list.length) throw new Error('The folder picked holds no files.');
  const paths = list.map((f) => f.webkitRelativePath || f.name);
  const name = paths[0].includes('/') ? paths[0].slice(0, paths[0].indexOf('/')) : 'folder';
  if (list.length > MAX_FOLDER_FILES) throw tooMany(name);
  return { name, files: list.map((file, i) => ({ path: paths[i], file })) };
}

/**
 * splitDrop sorts what was dropped into directories (FileSystemDirectoryEntry) and loose files.
 * It must run inside the drop event: the items are gone once it returns.
 */
export function splitDrop(dataTransfer) {
  const directories = [];
  const files = [];
  const items = [...(dataTransfer?.items || [])].filter((it) => it.kind === 'file');
  for (const item of items) {
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry && entry.isDirectory) directories.push(entry);
    else {
      const file = item.getAsFile();
      if (file) files.push(file);
    }
  }
  // Without items (an older browser, a synthetic event), the files list is all there is.
  if (!items.length) files.push(...(dataTransfer?.files || []));
  return { directories, files };
}

/**
 * walkDirectories lists every file under the directory entries dropped together, as one folder
 * named after them. Paths are the entries' fullPath without the leading slash ("runs/a/x.csv").
 * It rejects past MAX_FOLDER_FILES files, before reading any of them.
 */
export async function walkDirectories(directories) {
  const name = directories.map((d) => d.name).join(', ') || 'folder';
  const files = [];
  const queue = [...directories];
  while (queue.length) {
    const dir = queue.shift();
    for (const entry of await readAllEntries(dir)) {
      if (entry.isDirectory) queue.push(entry);
      else if (entry.isFile) {
        if (files.length === MAX_FOLDER_FILES) throw tooMany(name);
        files.push({ path: entry.fullPath.replace(/^\/+/, ''), file: await fileOf(entry) });
      }
    }
  }
  return { name, files };
}

/**
 * readAllEntries lists a directory's entries: readEntries gives them in batches (100 in Chromium)
 * until an empty one.
 */
async function readAllEntries(dir) {
  const reader = dir.createReader();
  const out = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return out;
    out.push(...batch);
  }
}

/** fileOf is the File of a file entry. */
function fileOf(entry) {
  return new Promise((resolve, reject) =>
    entry.file(resolve, (err) =>
      reject(new Error(`${entry.fullPath.replace(/^\/+/, '')}: cannot be read (${err?.message || err})`)),
    ),
  );
}

/** tooMany is the error of a folder past MAX_FOLDER_FILES files. */
function tooMany(name) {
  return new Error(
    `${name}: more than ${grouped(MAX_FOLDER_FILES)} files: give the run directories, not a folder above them`,
  );
}

/**
 * WEIGHTS_FILE matches files of model weights and checkpoints (PyTorch, Lightning, safetensors,
 * TensorFlow, Flax, NumPy, pickles): a run folder often holds some of hundreds of MB beside its
 * logs, and none is a log, so they are left unread rather than counted against the size limit.
 */
const WEIGHTS_FILE =
  /\.(ckpt|pt|pth|bin|safetensors|onnx|h5|hdf5|keras|msgpack|npy|npz|pkl|pickle|gguf|tflite)$|\.data-\d+-of-\d+$/i;

/**
 * withoutWeights splits a folder's files into those to read and the paths of model weights and
 * checkpoints left unread.
 */
export function withoutWeights(files) {
  const read = [];
  const unread = [];
  for (const f of files) (WEIGHTS_FILE.test(f.path) ? unread : read).push(f);
  return { read, unread: unread.map((f) => f.path) };
}
