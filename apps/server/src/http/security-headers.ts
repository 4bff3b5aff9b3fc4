import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers with a content security policy, and the caching rule of the API.
 *
 * `upgrade-insecure-requests` and HSTS only when Yidu is served over HTTPS: its PUBLIC_URL is https,
 * or the request came over TLS (or, with TRUST_PROXY, says so in X-Forwarded-Proto). Sent over
 * plain HTTP at any name but localhost (http://192.168.1.20:3000, http://yidu.lan) they would send
 * every script and style to an https:// that does not exist: a blank page.
 *
 * Every /api answer says `Cache-Control: no-store` unless its route chose its own policy (media):
 * answers depend on who asks, and the login answer carries a session token.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { publicUrl: string }): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Ant Design injects its CSS-in-JS styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // The reader's own Anki (AnkiConnect, `http://127.0.0.1:8765` by default, any port — the address is
        // a per-device setting a static header cannot follow): only the loopback of the reader's machine,
        // which no one else can listen on, and which answers nothing but what AnkiConnect's own CORS
        // list allows. No other host is reachable, so the policy still keeps data from leaving for
        // anywhere but Yidu. (Chrome and Firefox leave loopback out of upgrade-insecure-requests.)
        connectSrc: ["'self'", 'http://127.0.0.1:*', 'http://localhost:*'],
        // The service worker (the app shell offline) and the web app manifest come from Yidu itself.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Added per request below, only over HTTPS.
        upgradeInsecureRequests: null,
      },
    },
    hsts: false,
    crossOriginEmbedderPolicy: false,
  });

  const alwaysHttps = new URL(options.publicUrl).protocol === 'https:';
  const overHttps = (request: FastifyRequest) => alwaysHttps || request.protocol === 'https';

  // Helmet has set its headers on the raw response by now (its onRequest hooks were added first).
  app.addHook('onRequest', async (request, reply) => {
    if (!overHttps(request)) return;
    const raw = reply.raw;
    const policy = raw.getHeader('content-security-policy');
    if (typeof policy === 'string') raw.setHeader('content-security-policy', `${policy};upgrade-insecure-requests`);
    raw.setHeader('strict-transport-security', HSTS);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (isApi(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
