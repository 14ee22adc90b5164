// A classic script, not a module (it imports nothing), so that it can run before the page's
// modules and styles have loaded (index.html loads it first, in the head, without async: an
// async script waited behind the first layout, 150-250 ms into the load): it creates the
// calculation worker, which starts downloading lawcore at once, so that the engine loads while
// the page's modules and styles do rather than after them. Messages the worker sends before
// the page takes it over (lawclient.js) are kept for it.
const worker = new Worker('worker.js');
const early = [];
worker.onmessage = (e) => early.push(e.data);
worker.onerror = (e) => {
  e.preventDefault();
  early.push({ fatal: `the worker failed: ${e.message || 'unknown error'}` });
};
globalThis.lawcoreBoot = { url: 'worker.js', worker, early };
