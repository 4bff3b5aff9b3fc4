import { NotesExportQuery, ReadwisePushBody, ReadwiseSettingsBody, ReadwiseStatus } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const security = [{ bearer: [] }];
const tags = ['integrations'];

export const integrationsRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { integrations } = services;
  app.addHook('onRequest', guards.requireUser);

  app.get(
    '/integrations/readwise',
    {
      schema: {
        tags,
        security,
        summary:
          'The Readwise connection: whether a token is kept (its last characters), auto-push, last push, what waits',
        response: { 200: envelopeOf(ReadwiseStatus) },
      },
    },
    async (request) => ok(await integrations.readwiseStatus(authOf(request).user)),
  );
  app.put(
    '/integrations/readwise',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary:
          'Keep a Readwise access token (checked with Readwise first: readwiseTokenRejected) and/or choose whether highlights are pushed as they are made',
        body: ReadwiseSettingsBody,
        response: { 200: envelopeOf(ReadwiseStatus) },
      },
    },
    async (request) => ok(await integrations.saveReadwise(authOf(request).user, request.body)),
  );
  app.delete(
    '/integrations/readwise',
    { schema: { tags, security, summary: 'Forget the Readwise token', response: { 200: EmptyEnvelope } } },
    async (request) => {
      await integrations.disconnectReadwise(authOf(request).user);
      return ok(null);
    },
  );
  app.post(
    '/integrations/readwise/push',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary: 'Send every highlight and note Readwise does not have yet (in the background)',
        body: ReadwisePushBody,
        response: { 200: envelopeOf(ReadwiseStatus) },
      },
    },
    async (request) => ok(await integrations.pushNow(authOf(request).user)),
  );

  app.get(
    '/reader/notes/obsidian',
    {
      schema: {
        tags: ['reader'],
        security,
        summary:
          "A book's highlights and notes as one Markdown file for Obsidian: YAML front matter, quotes with their translation, links back to each paragraph",
        querystring: NotesExportQuery,
      },
    },
    async (request, reply) => {
      const { filename, markdown } = await integrations.obsidian(authOf(request).user, request.query.bookCode);
      return reply
        .type('text/markdown; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="notes.md"; filename*=UTF-8''${encodeURIComponent(filename)}`,
        )
        .send(markdown);
    },
  );
};
