// Registers the service worker (sw.js) that lets the page load and fit with the network off
// after one visit. Nothing here is needed for the page to work online.
if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('sw.js').catch((err) => {
    console.info(`offline use unavailable: ${err && err.message ? err.message : err}`);
  });
}
