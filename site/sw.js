// The service worker that makes the calculator work offline: on install it caches every file
// of this build (the list and the build's hash come from sw-manifest.js, written by `make
// build`), answers the site's requests from that cache, and on activation deletes the caches
// of older builds. A new build changes sw-manifest.js, so the browser installs the new worker.
/* global PRECACHE, BUILD */
'use strict';

importScripts('sw-manifest.js');

const CACHE = `annealing-calculator-${BUILD}`;

self.addEventListener('install', (event) => {
  // Where the browser has the static routing API (Chrome 123 on), it answers the site's GETs
  // from this build's cache itself, without starting this worker first: a repeat visit's page,
  // scripts and core then come without the worker's start-up on the way. A file not in the
  // cache goes to the network. A URL with a query (a link with tracking parameters) is left to
  // the fetch handler below, which ignores the query; elsewhere the handler does it all.
  event.waitUntil(
    Promise.all([routeToCache(event), caches.open(CACHE).then((cache) => cache.addAll(PRECACHE))]).then(() =>
      self.skipWaiting(),
    ),
  );
});

/** routeToCache adds the static route where the browser has the API; a failure only leaves it out. */
async function routeToCache(event) {
  if (typeof event.addRoutes !== 'function' || typeof URLPattern !== 'function') return;
  const { protocol, hostname, port } = self.location;
  try {
    await event.addRoutes({
      condition: {
        requestMethod: 'GET',
        urlPattern: new URLPattern({ protocol: protocol.slice(0, -1), hostname, port, search: '' }),
      },
      source: { cacheName: CACHE },
    });
  } catch {
    // the fetch handler answers as the route would
  }
}

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith(
    (async () => {
      const cached = await caches.match(event.request, { ignoreSearch: true });
      if (cached) return cached;
      return fetch(event.request);
    })(),
  );
});
