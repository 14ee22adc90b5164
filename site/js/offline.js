// Registers the service worker (sw.js) that lets the page load and fit with the network off
// after one visit. Nothing here is needed for the page to work online.
//
// It registers once the first view is on screen (main.js fires "lawcore-first-view"), not
// before: installing the worker downloads the whole build (lawcore.wasm included) into its
// cache, which must not compete with the first view's download. If the page never gets there
// (the engine failed to start), it registers after a while anyway.
const FALLBACK_MS = 15000;

if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  let done = false;
  const register = () => {
    if (done) return;
    done = true;
    navigator.serviceWorker.register('sw.js').catch((err) => {
      console.info(`offline use unavailable: ${err && err.message ? err.message : err}`);
    });
  };
  if (performance.getEntriesByName('example-shown').length) register();
  else {
    addEventListener('lawcore-first-view', register, { once: true });
    setTimeout(register, FALLBACK_MS);
  }
}
