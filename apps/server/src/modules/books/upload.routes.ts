import { SaveBookBody, SaveNewBody, StageState, UnfinishedUpload, UploadCount, UploadedFile } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { fail } from '../../http/errors.ts';
import { hasUnsafeText, unsafeTextError } from '../../http/input-checks.ts';
import { readSingleFile } from '../../http/multipart.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['books'];
const security = [{ bearer: [] }];
const RequestQuery = z.object({ requestId: z.string().min(1).max(64) });
const uploadLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/** The upload pipeline (SPEC §7.6): Path B stage by stage, Path A in one go, the counts. */
export const uploadRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { uploads } = services;
  app.addHook('onRequest', guards.requireUser);

  // ---------- upload pipeline, Path B ----------

  app.post(
    '/book/upload',
    {
      config: uploadLimit,
      schema: {
        tags,
        security,
        summary:
          'Upload a book file (multipart field "file"); metadata: the title, author, description and cover the file declares',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeOf(UploadedFile) },
      },
    },
    async (request) => {
      const file = await readSingleFile(request);
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
    '/book/upload/unfinished',
    {
      schema: {
        tags,
        security,
        summary:
          "The caller's uploads that are not a book yet (running, between stages, or failed), newest first: to continue or discard",
        response: { 200: envelopeOf(z.array(UnfinishedUpload)) },
      },
    },
    async (request) => ok(await uploads.unfinished(authOf(request).user.id)),
  );

  app.post(
    '/book/upload/discard',
    {
      schema: {
        tags,
        security,
        summary: 'Give an unfinished upload up (not while a stage runs); the book it parsed goes with it',
        querystring: RequestQuery,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await uploads.discard(authOf(request).user.id, request.query.requestId);
      return ok(null);
    },
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
        response: { 200: envelopeOf(UploadedFile.extend({ id: z.string() })) },
      },
    },
    async (request) => {
      const file = await readSingleFile(request);
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
          'Save and process an uploaded file in one go (multipart field "data": the saveNew JSON without fileId; bookName may be left out for the title the file declares); each upload starts one request',
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
      const parsed = SaveBookBody.safeParse({ ...(data as object), fileId: request.params.id });
      if (!parsed.success)
        throw fail('badRequest', {
          issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        });
      return ok(await uploads.saveNew(authOf(request).user.id, parsed.data, { autoChain: true }));
    },
  );
};
