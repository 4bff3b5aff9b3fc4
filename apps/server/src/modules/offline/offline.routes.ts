import { OfflinePages, OfflinePagesQuery } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

export const offlineRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  app.get(
    '/offline/pages',
    {
      onRequest: guards.requireUser,
      schema: {
        tags: ['reader'],
        security: [{ bearer: [] }],
        summary:
          'Up to 20 pages of a book to keep for reading offline, with the translations the reader has already paid for; pages not translated or not paid for are listed as missing. Nothing is charged or translated',
        querystring: OfflinePagesQuery,
        response: { 200: envelopeOf(OfflinePages) },
      },
    },
    async (request) => {
      const { bookCode, language, from, to } = request.query;
      return ok(await services.offline.pages(authOf(request).user, bookCode, language, from, to));
    },
  );
};
