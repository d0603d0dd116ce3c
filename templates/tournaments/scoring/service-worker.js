// The scoring pages' service worker, served at /table/service-worker.js (scope /table/) and only
// where the site runs over HTTPS: browsers allow none over plain HTTP. Plain JS, no build step;
// the server writes in the static files' addresses and the version (docs/scoring-offline.md).
//
// It keeps two things, so that a scoring page reloads without a connection:
// - the page itself (/table/<id>/), network first: the newest copy the phone saw;
// - the page's CSS and script (the entry module and every module it imports), fetched again in
//   the background after each use.
// It never touches anything else: no API answer, no hands fragment, no token probe, no event
// stream, no request that carries a scoring code (the code travels in the URL fragment, which
// no request ever contains, and in an Authorization header, which is never cached).
'use strict';

const VERSION = '__VERSION__';
const PREFIX = 'tricktable-scoring-';
const CACHE = PREFIX + VERSION;
const ASSETS = {{ assets|safe }};
const STATIC = {{ static_prefix|safe }};
const SCOPE = {{ scope|safe }};
const PAGE = /^\/table\/\d+\/$/;

self.addEventListener('install', event => {
  event.waitUntil(caches.open(CACHE).then(cache => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', event => {
  event.waitUntil(caches.keys()
    .then(names => Promise.all(names.filter(name => name.startsWith(PREFIX) && name !== CACHE)
      .map(name => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', event => {
  const request = event.request;
  if (request.method !== 'GET' || request.headers.has('Authorization')) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && PAGE.test(url.pathname) && url.pathname.startsWith(SCOPE)) {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith(STATIC) && ASSETS.includes(url.pathname)) {
    event.respondWith(asset(event, request));
  }
});

// The page asks to be kept as soon as the worker runs (its first load came before the worker).
self.addEventListener('message', event => {
  const wanted = event.data && typeof event.data.keep === 'string' ? event.data.keep : '';
  const url = new URL(wanted, self.location.origin);
  if (url.origin !== self.location.origin || !PAGE.test(url.pathname)) return;
  url.hash = '';
  event.waitUntil(caches.open(CACHE)
    .then(cache => fetch(url.href, { credentials: 'same-origin' }).then(response => keep(cache, url.href, response)))
    .catch(() => null));
});

async function keep(cache, url, response) {
  if (response.ok && response.type === 'basic' && !response.redirected) {
    await cache.put(url, response.clone());
  }
  return response;
}

/** The page from the network (kept for later), or the kept copy when there is no network. */
async function page(request) {
  const cache = await caches.open(CACHE);
  try {
    return await keep(cache, request.url, await fetch(request));
  } catch (error) {
    const kept = await cache.match(request.url, { ignoreVary: true })
      || await cache.match(request.url, { ignoreVary: true, ignoreSearch: true });
    if (kept) return kept;
    throw error;
  }
}

/** A static asset from the cache at once, refreshed from the network for the next load. */
async function asset(event, request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  const fresh = fetch(request).then(response => {
    if (response.ok) return cache.put(request, response.clone()).then(() => response);
    return response;
  });
  if (kept) {
    event.waitUntil(fresh.catch(() => null));
    return kept;
  }
  return fresh;
}
