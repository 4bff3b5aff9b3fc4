/// <reference lib="webworker" />
/**
 * Yidu's service worker: the app shell, so that the web app starts without a network. Built by
 * scripts/service-worker-plugin.ts, which fills in the build's files and their id.
 *
 * - Install: every file of this build is cached (bypassing the HTTP cache) under this build's name;
 *   the new worker takes over at once (skipWaiting, clients.claim) and drops older builds' caches.
 *   Open pages learn of it (controllerchange) and reload once if they run another build
 *   (features/offline/serviceWorker.ts): no page is left on an old version, none reloads in a loop.
 * - Pages (navigations): the network first, so that a new deployment is seen at once; the cached
 *   index.html when the network fails or takes longer than NAVIGATION_TIMEOUT_MS.
 * - The build's files: from the cache (their names carry content hashes).
 * - /api: never touched. Answers are never cached here; what is kept for reading offline is kept by
 *   the web app itself, deliberately, in IndexedDB.
 */
declare const self: ServiceWorkerGlobalScope;
declare const __YIDU_BUILD__: string;
declare const __YIDU_FILES__: string[];

const BUILD = __YIDU_BUILD__;
const FILES = __YIDU_FILES__;
const CACHE = `yidu-shell-${BUILD}`;
const SHELL = '/index.html';
const NAVIGATION_TIMEOUT_MS = 4000;
const precached = new Set(FILES);

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(FILES.map((file) => new Request(file, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith('yidu-shell-') && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'version') event.ports[0]?.postMessage({ build: BUILD, files: FILES });
});

async function shell(request: Request): Promise<Response> {
  const cached = () => caches.open(CACHE).then((cache) => cache.match(SHELL));
  try {
    const response = await fetch(request, { signal: AbortSignal.timeout(NAVIGATION_TIMEOUT_MS) });
    if (response.status < 500) return response;
    return (await cached()) ?? response;
  } catch (error) {
    const fallback = await cached();
    if (fallback) return fallback;
    throw error;
  }
}

async function fromCache(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  return (await cache.match(request)) ?? fetch(request);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') event.respondWith(shell(request));
  else if (precached.has(url.pathname)) event.respondWith(fromCache(request));
});

// A module for the type checker (its own `self`); the build removes this line: the worker is a classic script.
export {};
