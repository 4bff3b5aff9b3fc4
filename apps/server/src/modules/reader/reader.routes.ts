import { BlockLocation, BlockQuery, findLanguage, PageData, PageQuery } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { AppError, fail } from '../../http/errors.ts';
import { OpenStreams } from '../../http/open-streams.ts';
import type { Notifier } from '../../lib/notifier.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';
import { translationTopic } from './reader.service.ts';

const tags = ['reader'];
const security = [{ bearer: [] }];
const HEARTBEAT_MS = 15_000;
/** A safety net under LISTEN/NOTIFY: the stream also looks at the database this often. */
const POLL_MS = 3_000;
const STREAM_LIMIT_MS = 5 * 60_000;
/** Page streams one reader may hold open in this process (all devices), and one session (see OpenStreams). */
const STREAMS_PER_USER = 12;
const STREAMS_PER_SESSION = 6;

export const readerRoutes: FastifyPluginAsyncZod<{
  services: Services;
  guards: Guards;
  notifier: Notifier | undefined;
}> = async (app, { services, guards, notifier }) => {
  const { reader } = services;
  const openStreams = new OpenStreams({ perUser: STREAMS_PER_USER, perSession: STREAMS_PER_SESSION });

  app.get(
    '/reader/getPageData',
    {
      // The hottest call of all: a page a reader turns to is usually answered from memory entirely.
      onRequest: guards.requireUserCached,
      schema: {
        tags,
        security,
        summary:
          'A reader page (from 1) with its blocks and their translations; starts translating what is missing and prepares the next page. Poll again, or subscribe to /reader/events, for the rest.',
        querystring: PageQuery,
        response: { 200: envelopeOf(PageData) },
      },
    },
    async (request, reply) => {
      const { bookCode, language, page, confirm, retry } = request.query;
      const answer = await reader.pageResponse(authOf(request).user, bookCode, language, page, {
        confirm,
        retry: retry?.split(',').filter(Boolean),
      });
      // From memory it is the envelope already encoded: Fastify sends bytes as they are, past the
      // response serializer (the typed reply only knows the object form, hence the cast).
      if (Buffer.isBuffer(answer)) return reply.type('application/json; charset=utf-8').send(answer as never);
      return ok(answer);
    },
  );

  app.get(
    '/reader/block',
    {
      onRequest: guards.requireUserCached,
      schema: {
        tags,
        security,
        summary:
          'A block of the book wherever it is (a note opened from its marker on another page), in its original, with its page and the pages of the blocks that refer to it. Its translation comes with its page (getPageData).',
        querystring: BlockQuery,
        response: { 200: envelopeOf(BlockLocation) },
      },
    },
    async (request) => {
      const { bookCode, language, blockId } = request.query;
      return ok(await reader.block(authOf(request).user, bookCode, language, blockId));
    },
  );

  app.get(
    '/reader/events',
    {
      onRequest: guards.requireUser,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary:
          'Server-sent events for a page: `block` {id, status, translation} as a block changes (finished, failed, or retried: pending again), then `complete` {charge} once every block is translated; `error` {key} when a retry that came due needs the reader (confirmation, points). Read it with fetch() streaming (it needs the Authorization header)',
        querystring: PageQuery,
      },
    },
    async (request, reply) => {
      const { user, session } = authOf(request);
      const { bookCode, language, page, confirm } = request.query;
      const release = openStreams.open(user.id, session.id);
      if (!release) throw fail('tooManyStreams', { retryAfter: 30 });
      let initial;
      try {
        // Validates access and starts any missing work exactly like getPageData.
        initial = await reader.pageData(user, bookCode, language, page, { confirm });
      } catch (error) {
        release();
        throw error;
      }
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      // Sent now: a page whose blocks are all pending writes nothing until its first event, and the
      // client would not know the stream is open until then.
      raw.flushHeaders();
      const send = (event: string, data: unknown) => raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      // The status each block has as the client knows it from this stream. A failed block is not the
      // end: its automatic retry (or one after an engine change) sends it again as pending, then done.
      const known = new Map<string, string>();
      const sendBlock = (block: { id: string; status: string; translation: string | null }) => {
        known.set(block.id, block.status);
        send('block', { id: block.id, status: block.status, translation: block.translation });
      };

      // Blocks that finished before the stream opened (perhaps after the client's own getPageData) come
      // first: the client merges block events by id, so nothing between its snapshot and this one is lost.
      for (const block of initial.blocks) {
        if (block.status !== 'pending') sendBlock(block);
        else known.set(block.id, block.status);
      }
      const finished = () => [...known.values()].every((status) => status === 'done');
      let closed = false;
      let checking: Promise<void> | undefined;
      const cleanup: (() => void)[] = [release];
      const finish = () => {
        if (closed) return;
        closed = true;
        cleanup.forEach((f) => f());
        raw.end();
      };
      const check = () =>
        (checking ??= (async () => {
          try {
            // The page was paid for (or its price held) when the stream opened; a retry that has come
            // due is paid for the same way (held at its price, or refused with the reason).
            const now = await reader.pageData(user, bookCode, language, page, { confirm });
            for (const block of now.blocks) if (known.get(block.id) !== block.status) sendBlock(block);
            if (finished()) {
              send('complete', { charge: now.charge });
              finish();
            }
          } catch (error) {
            // A retry the reader must confirm or cannot pay for: the client asks for the page and shows why.
            if (error instanceof AppError) {
              send('error', { key: error.key });
              finish();
            } else request.log.warn({ err: error }, 'page stream check failed');
          } finally {
            checking = undefined;
          }
        })());

      // Whatever happens from here on, a closed connection gives its place back.
      raw.on('close', finish);
      if (finished()) {
        send('complete', { charge: initial.charge });
        finish();
        return;
      }
      const book = await services.books.view(user, bookCode);
      const code = findLanguage(language)!.code;
      if (notifier) cleanup.push(notifier.subscribe(translationTopic(book.book.id, code), () => void check()));
      cleanup.push(reader.onEnginesChanged(() => void check()));
      const poll = setInterval(() => void check(), POLL_MS);
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
      const limit = setTimeout(finish, STREAM_LIMIT_MS);
      cleanup.push(
        () => clearInterval(poll),
        () => clearInterval(heartbeat),
        () => clearTimeout(limit),
      );
      void check();
    },
  );
};
