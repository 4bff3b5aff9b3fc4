import { existsSync } from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Infrastructure, Services } from './context.ts';
import { registerErrorHandling, sendFrameworkError, sendNotFound } from './http/error-handler.ts';
import { registerInputChecks } from './http/input-checks.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { setupRoutes } from './modules/setup/setup.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { booksRoutes } from './modules/books/books.routes.ts';
import { uploadRoutes } from './modules/books/upload.routes.ts';
import { mediaRoutes } from './modules/books/media.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { pointsRoutes } from './modules/points/points.routes.ts';
import { readerRoutes } from './modules/reader/reader.routes.ts';
import { exportRoutes } from './modules/export/export.routes.ts';
import { bookTranslationRoutes } from './modules/book-translation/book-translation.routes.ts';
import { aiRoutes } from './modules/ai/ai.routes.ts';
import { translationRoutes } from './modules/translation/translation.routes.ts';
import { marksRoutes } from './modules/marks/marks.routes.ts';
import { sharingRoutes } from './modules/sharing/sharing.routes.ts';
import { feedbackRoutes } from './modules/feedback/feedback.routes.ts';
import { vocabularyRoutes } from './modules/vocabulary/vocabulary.routes.ts';
import { readingStatsRoutes } from './modules/reading-stats/reading-stats.routes.ts';
import type { Notifier } from './lib/notifier.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createGuards } from './plugins/auth.ts';
import { httpDuration } from './lib/metrics.ts';
import { metricsRoutes } from './modules/system/metrics.routes.ts';
import { devicesRoutes } from './modules/devices/devices.routes.ts';
import { opdsRoutes } from './modules/opds/opds.routes.ts';
import { kosyncRoutes } from './modules/kosync/kosync.routes.ts';

import { offlineRoutes } from './modules/offline/offline.routes.ts';
import { integrationsRoutes } from './modules/integrations/integrations.routes.ts';
import { originalPagesRoutes } from './modules/reader/original-pages.routes.ts';

/** Paths counted by the global rate limit: the API, and what e-readers call (the catalogs, the progress sync). */
const isLimitedPath = (url: string) => ['/api/', '/opds', '/kosync'].some((prefix) => url.startsWith(prefix));

/**
 * Builds the HTTP application without listening, so that tests drive it with `inject` or a real
 * socket alike. Everything the API does is under /api; the rest serves the built web app.
 */
export async function buildApp(
  infra: Infrastructure,
  services: Services,
  notifier?: Notifier,
): Promise<FastifyInstance> {
  const { config, logger } = infra;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    frameworkErrors: (error, _request, reply) => sendFrameworkError(error, reply),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerInputChecks(app);

  await registerSecurityHeaders(app, { publicUrl: config.publicUrl });
  // CORS stays closed: the web app is served from the same origin.
  await app.register(cors, { origin: false });
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: '1 minute',
    // Only API calls count: opening the app loads dozens of static files, which must never be refused.
    allowList: (request) => !isLimitedPath(request.url),
    errorResponseBuilder: (_request, context) => {
      const error = new Error('rate limited') as Error & { statusCode: number };
      error.statusCode = context.statusCode;
      return error;
    },
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Yidu API',
        version: config.version,
        description:
          'Every answer is the envelope {code, data, msg}; code 0 is success. Errors keep the envelope with a fitting HTTP status and data.key from the error catalogue.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(multipart, {
    limits: { fileSize: config.books.maxFileBytes, files: 1, fields: 20, fieldSize: 1024 * 1024, parts: 30 },
    throwFileSizeLimit: true,
  });

  const guards = createGuards(services.auth);
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { config, db: infra.db });
      await api.register(authRoutes, { services });
      await api.register(usersRoutes, { services, guards });
      await api.register(adminRoutes, { services, guards });
      await api.register(setupRoutes, { services, guards });
      await api.register(uploadRoutes, { services, guards });
      await api.register(booksRoutes, { services, guards });
      await api.register(pointsRoutes, { db: infra.db, guards });
      await api.register(readerRoutes, { services, guards, notifier });
      await api.register(exportRoutes, { services, guards });
      await api.register(bookTranslationRoutes, { services, guards });
      await api.register(aiRoutes, { services, guards });
      await api.register(translationRoutes, { services, guards });
      await api.register(marksRoutes, { services, guards });
      await api.register(sharingRoutes, { services, guards });
      await api.register(feedbackRoutes, { services, guards });
      await api.register(vocabularyRoutes, { services, guards });
      await api.register(readingStatsRoutes, { services, guards });
      await api.register(mediaRoutes, { media: services.media });
      await api.register(devicesRoutes, { services, guards });
      await api.register(offlineRoutes, { services, guards });
      await api.register(integrationsRoutes, { services, guards });
      await api.register(originalPagesRoutes, { services, guards });
    },
    { prefix: '/api' },
  );
  // E-readers: the OPDS catalogs and KOReader's progress sync, with device passwords (never the API's tokens).
  await app.register(opdsRoutes, { services });
  await app.register(kosyncRoutes, { services, prefix: '/kosync' });

  app.addHook('onResponse', async (request, reply) => {
    httpDuration(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  await app.register(metricsRoutes, { config, db: infra.db });

  registerWebApp(app, config.webDistDir);
  return app;
}

const isDevicePath = (url: string) => /^\/(opds|kosync)(\/|$)/.test(url);

/** Serves the built single-page app; unknown non-API paths get index.html (client-side routing). */
function registerWebApp(app: FastifyInstance, distDir: string): void {
  const hasWeb = existsSync(path.join(distDir, 'index.html'));
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: distDir,
      // wildcard: files are looked up per request, so a rebuilt dist is served without a restart.
      wildcard: true,
      index: false,
      setHeaders: (res, filePath) => {
        // Vite puts content hashes in asset names: they never change, so browsers may keep them.
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  // index.html must be revalidated so that a new deployment is picked up at once. The handlers below
  // send it without returning the reply: a returned reply is awaited by Fastify, which watches the
  // response's end once more on top of the file stream's own watchers: 11 'close' listeners for a
  // client route, over Node's limit (a MaxListenersExceededWarning each time).
  const sendIndex = (reply: FastifyReply) => {
    reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  };
  if (hasWeb) {
    app.get('/', { schema: { hide: true } }, (_request, reply) => {
      sendIndex(reply);
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]!;
    if (
      url === '/api' ||
      url.startsWith('/api/') ||
      isDevicePath(url) ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      return sendNotFound(reply);
    }
    if (!hasWeb) {
      return reply
        .type('text/plain; charset=utf-8')
        .send('The Yidu web app is not built yet. Run `npm run build` (or `npm start`, which builds it) and reload.');
    }
    if (path.extname(url)) return reply.status(404).type('text/plain').send('Not found');
    sendIndex(reply);
  });
}
