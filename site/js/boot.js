// The page's first script (index.html loads it in the head, without async: an async script
// waited behind the first layout, 150-250 ms into the load), bundled on its own as a classic
// script so that it runs before the page's modules and styles have loaded. It creates the
// calculation worker, which starts downloading lawcore at once, so that the engine loads while
// the page's modules and styles do rather than after them; messages the worker sends before the
// page takes it over (lawclient.js) are kept for it. And it begins reading the user's stored
// work and the example kept as fitted (workspace-db.js), so that on a return visit what they
// hold is there as soon as the page's script runs (controllers/workspace.js takes the reads).
import { openWorkspaceDB, DB_NAME, EXAMPLE_DB_NAME } from './persistence/workspace-db.js';
import { arrayRefs } from './persistence/array-refs.js';
import { startWorker } from './engine/worker-start.js';

const worker = startWorker('worker.js');
const early = [];
worker.onmessage = (e) => early.push(e.data);
worker.onerror = (e) => {
  e.preventDefault();
  early.push({ fatal: `the worker failed: ${e.message || 'unknown error'}` });
};
globalThis.lawcoreBoot = { url: 'worker.js', worker, early };

/** opened opens a database and begins reading it; its failure is the page's to report. */
const opened = (name) => {
  const db = openWorkspaceDB({ name }).then((d) => {
    d.prefetch(arrayRefs);
    return d;
  });
  db.catch(() => {});
  return db;
};
// the site's build, under which the example is kept as fitted (scripts/build-id.sh)
const build = document.querySelector('meta[name="build"]')?.content || '';
globalThis.lawcoreStorage = { build, work: opened(DB_NAME), example: build ? opened(EXAMPLE_DB_NAME) : null };
