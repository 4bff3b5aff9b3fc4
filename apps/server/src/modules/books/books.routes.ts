import { BatchBody, BookDetail, BookSummary, LibraryPage, LibraryQuery, UpdateBookBody } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { readSingleFile } from '../../http/multipart.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['books'];
const security = [{ bearer: [] }];

/** Libraries, book details, the user's copy and the public book, covers (uploads: upload.routes.ts). */
export const booksRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { books } = services;
  app.addHook('onRequest', guards.requireUser);

  // ---------- libraries ----------

  app.get(
    '/book/library',
    {
      schema: {
        tags,
        security,
        summary: 'The public library (sections new, popular, recommended)',
        querystring: LibraryQuery,
        response: { 200: envelopeOf(LibraryPage) },
      },
    },
    async (request) => ok(await books.publicLibrary(authOf(request).user, request.query)),
  );
  app.get(
    '/book/user/library',
    {
      schema: {
        tags,
        security,
        summary: 'The personal library',
        querystring: LibraryQuery,
        response: { 200: envelopeOf(LibraryPage) },
      },
    },
    async (request) => ok(await books.personalLibrary(authOf(request).user, request.query)),
  );
  app.get(
    '/book/:kind/library',
    {
      schema: {
        tags,
        security,
        summary: "Other library kinds: 'all' (public), 'user' (personal), 'uploaded' (the user's own uploads)",
        params: z.object({ kind: z.string().max(20) }),
        querystring: LibraryQuery,
        response: { 200: envelopeOf(LibraryPage) },
      },
    },
    async (request) => ok(await books.kindLibrary(authOf(request).user, request.params.kind, request.query)),
  );
  app.get(
    '/book/user/list',
    {
      schema: {
        tags,
        security,
        summary: 'Every book of the personal library, most recently read first',
        response: { 200: envelopeOf(z.array(BookSummary)) },
      },
    },
    async (request) => ok(await books.userList(authOf(request).user)),
  );
  app.get(
    '/book/user/getBookByCode',
    {
      schema: {
        tags,
        security,
        summary: 'A book with its table of contents',
        querystring: z.object({ bookCode: z.string().min(1).max(40), readLanguage: z.string().max(40).optional() }),
        response: { 200: envelopeOf(BookDetail) },
      },
    },
    async (request) => ok(await books.detail(authOf(request).user, request.query.bookCode, request.query.readLanguage)),
  );

  // ---------- the user's copy and the public book ----------

  const BookCodeBody = z.object({ bookCode: z.string().min(1).max(40) });
  app.post(
    '/book/user/add',
    {
      schema: {
        tags,
        security,
        summary: 'Add a public book to the personal library',
        body: BookCodeBody,
        response: { 200: envelopeOf(BookSummary) },
      },
    },
    async (request) => ok(await books.add(authOf(request).user, request.body.bookCode)),
  );
  app.post(
    '/book/user/updateBook',
    {
      schema: {
        tags,
        security,
        summary: "Update the user's copy (its owner may also change the visibility)",
        body: UpdateBookBody,
        response: { 200: envelopeOf(BookSummary) },
      },
    },
    async (request) => ok(await books.updateCopy(authOf(request).user, request.body)),
  );
  app.post(
    '/book/updateBook',
    {
      schema: {
        tags,
        security,
        summary: 'Update the public book (its uploader or an admin)',
        body: UpdateBookBody,
        response: { 200: envelopeOf(BookSummary) },
      },
    },
    async (request) => ok(await books.updatePublic(authOf(request).user, request.body)),
  );
  app.delete(
    '/book/user/:bookCode',
    {
      schema: {
        tags,
        security,
        summary:
          'Remove a book from the personal library; keepPublic=false (uploader or admin) also takes the public book down',
        params: BookCodeBody,
        querystring: z.object({ keepPublic: z.enum(['true', 'false']).default('true') }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await books.removeCopy(authOf(request).user, request.params.bookCode, request.query.keepPublic === 'true');
      return ok(null);
    },
  );
  app.delete(
    '/book/:bookCode',
    {
      schema: {
        tags,
        security,
        summary: 'Take the public book out of the public library (uploader or admin)',
        params: BookCodeBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await books.deletePublic(authOf(request).user, request.params.bookCode);
      return ok(null);
    },
  );
  app.post(
    '/book/user/sync',
    {
      schema: {
        tags,
        security,
        summary: "Sync book info: fromPublic refreshes the user's copy; toPublic publishes it (uploader or admin)",
        body: BookCodeBody.extend({ direction: z.enum(['fromPublic', 'toPublic']).default('fromPublic') }),
        response: { 200: envelopeOf(BookSummary) },
      },
    },
    async (request) => ok(await books.sync(authOf(request).user, request.body.bookCode, request.body.direction)),
  );
  app.post(
    '/book/user/batch',
    {
      schema: {
        tags,
        security,
        summary: 'Batch manage: delete many books or change their visibility',
        body: BatchBody,
        response: {
          200: envelopeOf(
            z.object({
              done: z.array(z.string()),
              failed: z.array(z.object({ bookCode: z.string(), key: z.string() })),
            }),
          ),
        },
      },
    },
    async (request) => ok(await books.batch(authOf(request).user, request.body)),
  );
  app.post(
    '/book/cover',
    {
      schema: {
        tags,
        security,
        summary:
          'Upload a cover (JPG or PNG, multipart field "file") for the user\'s copy or, scope=public, the public book',
        consumes: ['multipart/form-data'],
        querystring: BookCodeBody.extend({ scope: z.enum(['user', 'public']).default('user') }),
        response: { 200: envelopeOf(BookSummary) },
      },
    },
    async (request) => {
      const file = await readSingleFile(request);
      return ok(await books.setCover(authOf(request).user, request.query.bookCode, file.data, request.query.scope));
    },
  );
};
