import { ERRORS, findLanguage, isUiLanguage, type UiLanguage } from '@yidu/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { md5Hex } from '../devices/device-keys.ts';
import { basicCredentials, deviceCaller } from '../devices/device-auth.ts';
import { EXPORT_MODES } from '@yidu/shared';
import { atomFeed, openSearchDescription } from './atom.ts';
import { ATOM_ACQUISITION, ATOM_NAVIGATION, OPDS2_FEED, OPDS_AUTHENTICATION, type FeedKey } from './catalog.ts';
import type { Download } from './catalog.service.ts';
import { authenticationDocument, opds2Feed } from './opds2.ts';
import { languageOfHeader, say } from './opds-strings.ts';

/** A refusal a device shows as it is: a status and a sentence in the reader's language. */
class Refusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const FeedQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  q: z.string().max(200).optional(),
  query: z.string().max(200).optional(),
});
const Section = z.enum(['continue', 'library', 'recent', 'public', 'search']);
const PublicSection = z.enum(['new', 'popular', 'recommended']);
const BookCode = z.string().min(1).max(40);

/**
 * The OPDS catalogs: 1.2 (Atom) at /opds, 2.0 (JSON) at /opds/v2, and the books' files. Devices log
 * in with HTTP Basic: the account name and a device password (never the account password). A 401
 * carries the Authentication for OPDS document. Everything but that document and the search
 * description is the reader's own, and never cached on the way.
 */
export const opdsRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { devices, catalog } = services;
  const users = new WeakMap<FastifyRequest, UserRow>();
  const baseOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
  const languageOf = (request: FastifyRequest): UiLanguage => {
    const preferred = users.get(request)?.ui_language;
    return preferred && isUiLanguage(preferred) ? preferred : languageOfHeader(request.headers['accept-language']);
  };
  const words = (request: FastifyRequest) => {
    const lang = languageOf(request);
    return {
      title: say(lang, 'catalog'),
      description: say(lang, 'authDescription'),
      login: say(lang, 'login'),
      password: say(lang, 'password'),
    };
  };
  const sendUnauthorized = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(401)
      .header('www-authenticate', 'Basic realm="Yidu", charset="UTF-8"')
      .type(OPDS_AUTHENTICATION)
      .send(JSON.stringify(authenticationDocument(baseOf(request), words(request))));
  const sendText = (reply: FastifyReply, status: number, text: string) =>
    reply.status(status).type('text/plain; charset=utf-8').send(text);

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const lang = languageOf(request);
    if (error instanceof Refusal) return sendText(reply, error.status, error.message);
    if (error instanceof AppError) {
      switch (error.key) {
        case 'unauthorized':
          return sendUnauthorized(request, reply);
        case 'tooManyRequests': {
          const retryAfter = Number(error.details.retryAfter) || 60;
          reply.header('retry-after', String(retryAfter));
          return sendText(reply, 429, say(lang, 'tooManyAttempts', { minutes: Math.ceil(retryAfter / 60) }));
        }
        case 'bookNotFound':
        case 'notFound':
        case 'noSuchLanguage':
          return sendText(reply, 404, say(lang, 'bookNotFound'));
        case 'fileMissing':
          return sendText(reply, 404, say(lang, 'fileMissing'));
        default:
          if (error.status < 500) return sendText(reply, error.status, ERRORS[error.key].message);
      }
    }
    if (hasZodFastifySchemaValidationErrors(error)) return sendText(reply, 400, ERRORS.badRequest.message);
    if (error.statusCode === 429) return sendText(reply, 429, ERRORS.tooManyRequests.message);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      return sendText(reply, error.statusCode, ERRORS.badRequest.message);
    request.log.error({ err: error }, 'catalog request failed');
    return sendText(reply, 500, ERRORS.internalError.message);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  /** Logs the device in (HTTP Basic with a device password); 401 with the authentication document otherwise. */
  const requireDevice = async (request: FastifyRequest) => {
    const credentials = basicCredentials(request);
    if (!credentials || credentials.username.length > 254 || credentials.password.length > 200)
      throw new AppError('unauthorized');
    const user = await devices.authenticate(
      credentials.username,
      md5Hex(credentials.password),
      deviceCaller(request, 'opds'),
    );
    if (!user) throw new AppError('unauthorized');
    users.set(request, user);
  };
  const userOf = (request: FastifyRequest): UserRow => {
    const user = users.get(request);
    if (!user) throw new AppError('unauthorized');
    return user;
  };
  const hide = { hide: true };

  const sendFeed = async (
    request: FastifyRequest,
    reply: FastifyReply,
    version: 1 | 2,
    key: FeedKey,
    query: z.infer<typeof FeedQuery>,
  ) => {
    const user = userOf(request);
    const words = key === 'search' ? (version === 1 ? query.q : query.query) : undefined;
    const feed = await catalog.feed(user, languageOf(request), key, { page: query.page, query: words ?? '' });
    if (key !== 'search') delete feed.query;
    if (version === 2)
      return reply.type(`${OPDS2_FEED}; charset=utf-8`).send(JSON.stringify(opds2Feed(feed, baseOf(request))));
    const kind = feed.navigation ? ATOM_NAVIGATION : ATOM_ACQUISITION;
    return reply
      .type(`${kind}; charset=utf-8`)
      .send(atomFeed(feed, baseOf(request), say(languageOf(request), 'catalog')));
  };

  for (const version of [1, 2] as const) {
    const root = version === 1 ? '/opds' : '/opds/v2';
    app.get(root, { schema: { ...hide, querystring: FeedQuery }, preHandler: requireDevice }, (request, reply) =>
      sendFeed(request, reply, version, 'root', request.query),
    );
    app.get(
      `${root}/:section`,
      {
        schema: { ...hide, params: z.object({ section: Section }), querystring: FeedQuery },
        preHandler: requireDevice,
      },
      (request, reply) => sendFeed(request, reply, version, request.params.section, request.query),
    );
    app.get(
      `${root}/public/:section`,
      {
        schema: { ...hide, params: z.object({ section: PublicSection }), querystring: FeedQuery },
        preHandler: requireDevice,
      },
      (request, reply) => sendFeed(request, reply, version, `public/${request.params.section}`, request.query),
    );
  }

  // What the catalogs need before a login: how to log in, and how to search.
  app.get('/opds/auth', { schema: hide }, async (request, reply) =>
    reply.type(OPDS_AUTHENTICATION).send(JSON.stringify(authenticationDocument(baseOf(request), words(request)))),
  );
  app.get('/opds/search.xml', { schema: hide }, async (request, reply) =>
    reply
      .type('application/opensearchdescription+xml; charset=utf-8')
      .send(openSearchDescription(baseOf(request), 'Yidu', say(languageOf(request), 'searchSummary'))),
  );

  // ---------- the books' files ----------

  const sendDownload = (reply: FastifyReply, download: Omit<Download, 'body'>, body?: Download['body']) => {
    const name = download.filename.replace(/["\\\r\n]/g, '_');
    reply
      .type(download.type)
      .header(
        'content-disposition',
        `attachment; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      );
    if (download.size !== undefined) reply.header('content-length', String(download.size));
    return body ? reply.send(body) : reply.send();
  };

  const OriginalParams = z.object({ code: BookCode });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/opds/books/:code/original',
    schema: { ...hide, params: OriginalParams },
    preHandler: requireDevice,
    handler: async (request, reply) => {
      const download = await catalog.original(userOf(request), request.params.code, request.method === 'HEAD');
      return sendDownload(reply, download, download.body);
    },
  });

  const TranslationParams = z.object({
    code: BookCode,
    mode: z.enum(EXPORT_MODES),
    language: z.string().min(1).max(40),
  });
  app.route({
    method: ['GET', 'HEAD'],
    url: '/opds/books/:code/:mode/:language',
    // Each download makes the whole EPUB: a few a minute is plenty for a person.
    config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    schema: { ...hide, params: TranslationParams },
    preHandler: requireDevice,
    handler: async (request, reply) => {
      const user = userOf(request);
      const { code, mode, language } = request.params;
      try {
        if (request.method === 'HEAD') {
          const { filename } = await services.exports.check(user, code, language, mode);
          return sendDownload(reply, { type: 'application/epub+zip', filename });
        }
        const download = await catalog.translation(user, code, mode, language);
        return sendDownload(reply, download, download.body);
      } catch (error) {
        throw await refusalOf(error, user, languageOf(request), code, language);
      }
    },
  });

  /** A translation that is not ready, said in words a device can show. */
  const refusalOf = async (
    error: unknown,
    user: UserRow,
    lang: UiLanguage,
    code: string,
    language: string,
  ): Promise<unknown> => {
    if (!(error instanceof AppError)) return error;
    const target = findLanguage(language)?.native ?? language;
    if (error.key === 'translationNotNeeded')
      return new Refusal(400, say(lang, 'translationNotNeeded', { language: target }));
    if (error.key !== 'bookNotTranslated') return error;
    const { book, copy } = await services.books.view(user, code);
    return new Refusal(
      409,
      say(lang, 'notTranslated', {
        title: copy?.title ?? book.title,
        language: target,
        pages: Number(error.details.missingPages),
      }),
    );
  };
};
