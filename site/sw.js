// The service worker that makes the calculator work offline: on install it caches every file
// of this build (the list and the build's hash come from sw-manifest.js, written by `make
// build`), answers the site's requests from that cache, and on activation deletes the caches
// of older builds. A new build changes sw-manifest.js, so the browser installs the new worker.
/* global PRECACHE, BUILD */
'use strict';

importScripts('sw-manifest.js');

const CACHE = `annealing-calculator-${BUILD}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cached = await caches.match(event.request, { ignoreSearch: true });
    if (cached) return cached;
    return fetch(event.request);
  })());
});
