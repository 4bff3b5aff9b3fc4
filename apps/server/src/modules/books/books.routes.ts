import {
  BatchBody,
  BookDetail,
  BookSummary,
  LibraryPage,
  LibraryQuery,
  SaveNewBody,
  StageState,
  UpdateBookBody,
  UploadCount,
} from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { fail } from '../../http/errors.ts';
import { hasUnsafeText, unsafeTextError } from '../../http/input-checks.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['books'];
const security = [{ bearer: [] }];
const RequestQuery = z.object({ requestId: z.string().min(1).max(64) });
const uploadLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/** Reads the single file part of a multipart request, with the server's size limit. */
async function readFile(
  request: FastifyRequest,
  field = 'file',
): Promise<{ filename: string; data: Buffer; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw fail('fileMissing');
  let file: { filename: string; data: Buffer } | undefined;
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname === field && !file) file = { filename: part.filename, data: await part.toBuffer() };
      else await part.toBuffer();
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  if (!file) throw fail('fileMissing');
  if (hasUnsafeText(fields) || hasUnsafeText(file.filename)) throw unsafeTextError('body');
  return { ...file, fields };
}

export const booksRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { books, uploads } = services;
  app.addHook('onRequest', guards.requireUser);

  // ---------- upload pipeline, Path B ----------

  app.post(
    '/book/upload',
    {
      config: uploadLimit,
      schema: {
        tags,
        security,
        summary: 'Upload a book file (multipart field "file")',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeOf(z.object({ fileId: z.string(), format: z.string() })) },
      },
    },
    async (request) => {
      const file = await readFile(request);
      return ok(await uploads.upload(authOf(request).user.id, request.ip, file));
    },
  );

  app.post(
    '/book/saveNew',
    {
      schema: {
        tags,
        security,
        summary:
          'Save the book information of an uploaded file; starts a request (each upload of the file by the caller starts one)',
        body: SaveNewBody,
        response: { 200: envelopeOf(z.object({ requestId: z.string() })) },
      },
    },
    async (request) => ok(await uploads.saveNew(authOf(request).user.id, request.body)),
  );

  const stageRoute = (
    path: string,
    stage: 'parsingFile' | 'detectingLanguage' | 'translatingTitle' | 'saving',
    summary: string,
    extra: z.ZodRawShape = {},
  ) =>
    app.get(
      path,
      {
        schema: {
          tags,
          security,
          summary,
          querystring: RequestQuery.extend(extra),
          response: { 200: envelopeOf(StageState) },
        },
      },
      async (request) => {
        const query = request.query as { requestId: string; userLanguage?: string; bookName?: string };
        return ok(
          await uploads.stage(authOf(request).user.id, query.requestId, stage, {
            userLanguage: query.userLanguage,
            bookName: query.bookName,
          }),
        );
      },
    );
  stageRoute('/book/analysis', 'parsingFile', 'Parse the file (starts the stage once; poll until done or failed)');
  stageRoute('/book/languageDetection', 'detectingLanguage', "Detect the book's language; result.language");
  stageRoute(
    '/book/translationBookName',
    'translatingTitle',
    'Translate the title into userLanguage; result.translatedName',
    {
      userLanguage: z.string().max(40).optional(),
    },
  );
  stageRoute('/book/saveBookById', 'saving', 'Save the book under bookName; result.bookCode', {
    bookName: z.string().max(300).optional(),
  });

  app.get(
    '/book/upload/status',
    {
      schema: {
        tags,
        security,
        summary: "The current stage of a request (Path A's progress)",
        querystring: RequestQuery,
        response: { 200: envelopeOf(StageState) },
      },
    },
    async (request) => ok(await uploads.status(authOf(request).user.id, request.query.requestId)),
  );

  app.post(
    '/book/upload/retry',
    {
      schema: {
        tags,
        security,
        summary: 'Retry a request from its failed stage',
        querystring: RequestQuery,
        response: { 200: envelopeOf(StageState) },
      },
    },
    async (request) => ok(await uploads.retry(authOf(request).user.id, request.query.requestId)),
  );

  app.get(
    '/book/upload/count',
    {
      schema: {
        tags,
        security,
        summary: "Today's and this month's uploads from the caller's IP address, and the limits",
        response: { 200: envelopeOf(UploadCount) },
      },
    },
    async (request) => ok(await uploads.counts(request.ip)),
  );

  // ---------- Path A ----------

  app.post(
    '/book/upload2',
    {
      config: uploadLimit,
      schema: {
        tags,
        security,
        summary: 'Upload a book file (Path A)',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeOf(z.object({ id: z.string(), fileId: z.string(), format: z.string() })) },
      },
    },
    async (request) => {
      const file = await readFile(request);
      const stored = await uploads.upload(authOf(request).user.id, request.ip, file);
      return ok({ id: stored.fileId, ...stored });
    },
  );

  app.post(
    '/book/save/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'Save and process an uploaded file in one go (multipart field "data": the saveNew JSON without fileId); each upload starts one request',
        consumes: ['multipart/form-data'],
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: envelopeOf(z.object({ requestId: z.string() })) },
      },
    },
    async (request) => {
      const fields: Record<string, string> = {};
      if (request.isMultipart()) {
        for await (const part of request.parts()) {
          if (part.type === 'field' && typeof part.value === 'string') fields[part.fieldname] = part.value;
          else if (part.type === 'file') await part.toBuffer();
        }
      }
      let data: unknown;
      try {
        data = JSON.parse(fields.data ?? '{}');
      } catch {
        throw fail('badRequest', { field: 'data' });
      }
      if (hasUnsafeText(data)) throw unsafeTextError('body');
      const parsed = SaveNewBody.safeParse({ ...(data as object), fileId: request.params.id });
      if (!parsed.success)
        throw fail('badRequest', {
          issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        });
      return ok(await uploads.saveNew(authOf(request).user.id, parsed.data, { autoChain: true }));
    },
  );

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
      const file = await readFile(request);
      return ok(await books.setCover(authOf(request).user, request.query.bookCode, file.data, request.query.scope));
    },
  );
};
