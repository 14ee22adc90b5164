// startWorker creates the Web Worker that hosts lawcore (site/worker.js). After the first view the
// worker warms the browser's code cache for the person's next visit (worker.js, warmup), about
// 1.7 s of CPU; a browser under automation (navigator.webdriver: a test or a crawler) has no next
// visit to serve, so its worker is told not to.

/** startWorker returns a new worker running url, told to skip the warm-up under automation. */
export function startWorker(url) {
  const worker = new Worker(url);
  if (globalThis.navigator?.webdriver) worker.postMessage({ warmup: false });
  return worker;
}
