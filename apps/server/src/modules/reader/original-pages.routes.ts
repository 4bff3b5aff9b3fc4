import { OriginalFile, OriginalFileQuery, PdfLocateQuery, PdfPlace } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['reader'];
const security = [{ bearer: [] }];

/** The page view of a PDF book: its original file, and places of its pages in the reflowed book. */
export const originalPagesRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { originalPages } = services;

  app.get(
    '/reader/original',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        summary:
          "A signed URL of a PDF book's original file, served with byte ranges (206) so that pages are read without the whole file; it expires like other media URLs and stops when the reader loses the book",
        querystring: OriginalFileQuery,
        response: { 200: envelopeOf(OriginalFile) },
      },
    },
    async (request) => ok(await originalPages.file(authOf(request).user, request.query.bookCode)),
  );

  app.get(
    '/reader/pdfLocate',
    {
      // Asked as the reader scrolls the page view: sessions from memory, as for the pages themselves.
      onRequest: guards.requireUserCached,
      schema: {
        tags,
        security,
        summary:
          'The reader page and block where a page of the original PDF begins (for a page without text, the last block before it)',
        querystring: PdfLocateQuery,
        response: { 200: envelopeOf(PdfPlace) },
      },
    },
    async (request) => ok(await originalPages.locate(authOf(request).user, request.query)),
  );
};
