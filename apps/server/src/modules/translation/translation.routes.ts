import {
  AdminTranslationReportPage,
  Glossary,
  GlossaryEntry,
  RetranslationQuote,
  TranslationReport,
  INT4_MAX,
} from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

/** What the translator settings of the personal center offer. */
export const translationRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  app.addHook('onRequest', guards.requireUser);
  app.get(
    '/translation/engines',
    {
      schema: {
        tags: ['translation'],
        security: [{ bearer: [] }],
        summary: 'The translation engines users may choose from (enabled by the admin), in fallback order',
        response: { 200: envelopeOf(z.object({ engines: z.array(z.string()) })) },
      },
    },
    async () => ok({ engines: services.translation.enabledEngines() }),
  );

  const tags = ['translation'];
  const security = [{ bearer: [] }];
  const Target = z.object({ bookCode: z.string().min(1).max(40), language: z.string().min(1).max(40) });
  app.get(
    '/book/glossary',
    {
      schema: {
        tags,
        security,
        summary:
          "A book's glossary for a target language (names and terms kept consistent by every engine); for the owner also the readers' pending suggestions and the retranslation quote, for a reader their own suggestions",
        querystring: Target,
        response: { 200: envelopeOf(Glossary) },
      },
    },
    async (request) =>
      ok(await services.glossary.get(authOf(request).user, request.query.bookCode, request.query.language)),
  );
  app.put(
    '/book/glossary',
    {
      schema: {
        tags,
        security,
        summary:
          'Replace the glossary (uploader or admin); later translations use it, paragraphs already translated wait for a confirmed retranslation (see retranslation in the answer)',
        body: Target.extend({ entries: z.array(GlossaryEntry).max(500) }),
        response: { 200: envelopeOf(Glossary) },
      },
    },
    async (request) =>
      ok(
        await services.glossary.save(
          authOf(request).user,
          request.body.bookCode,
          request.body.language,
          request.body.entries,
        ),
      ),
  );
  app.post(
    '/book/glossary/extract',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary:
          "Propose the book's names and terms (the AI model, else the most frequent capitalised names rendered by the engines); existing entries are kept",
        body: Target,
        response: { 200: envelopeOf(Glossary) },
      },
    },
    async (request) =>
      ok(
        await services.glossaryExtraction.extractFor(
          authOf(request).user,
          request.body.bookCode,
          request.body.language,
        ),
      ),
  );
  app.post(
    '/book/glossary/suggest',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary: "A reader suggests an entry for the book's glossary; its owner accepts or rejects it",
        body: Target.extend({ entry: GlossaryEntry }),
        response: { 200: envelopeOf(Glossary) },
      },
    },
    async (request) =>
      ok(
        await services.glossary.suggest(
          authOf(request).user,
          request.body.bookCode,
          request.body.language,
          request.body.entry,
        ),
      ),
  );
  app.post(
    '/book/glossary/decide',
    {
      schema: {
        tags,
        security,
        summary: "The book's owner accepts (the entry is set) or rejects a reader's suggestion",
        body: z.object({ bookCode: z.string().min(1).max(40), id: z.number().int().positive(), accept: z.boolean() }),
        response: { 200: envelopeOf(Glossary) },
      },
    },
    async (request) =>
      ok(
        await services.glossary.decide(
          authOf(request).user,
          request.body.bookCode,
          request.body.id,
          request.body.accept,
        ),
      ),
  );
  app.post(
    '/book/glossary/retranslate',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary:
          'The owner confirms the retranslation quote (its points): the price is held, the out-of-date paragraphs are translated again with the glossary of now and charged for what was delivered; quoteChanged when the quote is no longer that',
        body: Target.extend({ points: z.number().int().min(0) }),
        response: { 200: envelopeOf(z.object({ quote: RetranslationQuote, held: z.number() })) },
      },
    },
    async (request) =>
      ok(
        await services.retranslation.confirm(
          authOf(request).user,
          request.body.bookCode,
          request.body.language,
          request.body.points,
        ),
      ),
  );

  app.post(
    '/reader/translation/report',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary:
          'This translation is wrong: the paragraph is translated again by another engine or model, and both are answered',
        body: Target.extend({ blockId: z.string().min(1).max(40) }),
        response: { 200: envelopeOf(TranslationReport) },
      },
    },
    async (request) =>
      ok(
        await services.translationReports.report(
          authOf(request).user,
          request.body.bookCode,
          request.body.language,
          request.body.blockId,
        ),
      ),
  );
  app.post(
    '/reader/translation/choose',
    {
      schema: {
        tags,
        security,
        summary:
          'The reader who reported keeps the original or the alternative; the alternative becomes the translation for every reader',
        body: z.object({ id: z.number().int().positive(), choice: z.enum(['original', 'alternative']) }),
        response: { 200: envelopeOf(TranslationReport) },
      },
    },
    async (request) =>
      ok(await services.translationReports.choose(authOf(request).user, request.body.id, request.body.choice)),
  );
  app.get(
    '/admin/translation-reports',
    {
      onRequest: guards.requireAdmin,
      schema: {
        tags: ['admin'],
        security,
        summary: 'Reports of wrong translations, newest first, with both translations and what the reader kept',
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
          pageSize: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: { 200: envelopeOf(AdminTranslationReportPage) },
      },
    },
    async (request) => ok(await services.translationReports.list(request.query.page, request.query.pageSize)),
  );
};
