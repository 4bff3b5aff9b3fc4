import { ExportQuery } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../context.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

export const exportRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  app.get(
    '/book/export',
    {
      onRequest: guards.requireUser,
      // Each export reads the whole book: a few a minute is plenty for a person.
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['books'],
        security: [{ bearer: [] }],
        summary:
          'The book as an EPUB 3 file (application/epub+zip): each paragraph followed by its translation (bilingual) or the translation alone. Every page must be translated and paid for by the reader first, else bookNotTranslated with missingPages and missingParagraphs',
        querystring: ExportQuery,
      },
    },
    async (request, reply) => {
      const { bookCode, language, mode } = request.query;
      const { filename, body } = await services.exports.export(authOf(request).user, bookCode, language, mode);
      return reply
        .type('application/epub+zip')
        .header(
          'content-disposition',
          `attachment; filename="book.epub"; filename*=UTF-8''${encodeURIComponent(filename)}`,
        )
        .send(body);
    },
  );
};
