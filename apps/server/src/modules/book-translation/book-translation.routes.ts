import {
  BookTranslationQuery,
  BookTranslationQuote,
  BookTranslationStatus,
  StartBookTranslationBody,
} from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['books'];
const security = [{ bearer: [] }];

export const bookTranslationRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { bookTranslations } = services;
  app.addHook('onRequest', guards.requireUser);

  app.get(
    '/book/translation/quote',
    {
      // A quote reads the whole book.
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary:
          'What translating the whole book into a language costs this reader: pages they paid for are left out, text already translated or in the shared memory is priced as cached',
        querystring: BookTranslationQuery,
        response: { 200: envelopeOf(BookTranslationQuote) },
      },
    },
    async (request) => {
      const { bookCode, language } = request.query;
      return ok(await bookTranslations.quote(authOf(request).user, bookCode, language));
    },
  );

  app.post(
    '/book/translation/start',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary:
          'Translates the whole book at the confirmed price (the quote’s points): the price is held and charged page by page; a higher price now answers pointsConfirmationRequired with the new quote',
        body: StartBookTranslationBody,
        response: { 200: envelopeOf(BookTranslationStatus) },
      },
    },
    async (request) => ok(await bookTranslations.start(authOf(request).user, request.body)),
  );

  app.get(
    '/book/translation/status',
    {
      schema: {
        tags,
        security,
        summary: 'Progress of the reader’s latest whole-book translation of the book into the language (null: none)',
        querystring: BookTranslationQuery,
        response: { 200: envelopeOf(BookTranslationStatus.nullable()) },
      },
    },
    async (request) => {
      const { bookCode, language } = request.query;
      return ok(await bookTranslations.status(authOf(request).user, bookCode, language));
    },
  );

  app.post(
    '/book/translation/cancel',
    {
      schema: {
        tags,
        security,
        summary:
          'Stops a running whole-book translation: finished pages stay charged, the rest of the price is released',
        body: BookTranslationQuery,
        response: { 200: envelopeOf(BookTranslationStatus.nullable()) },
      },
    },
    async (request) => {
      const { bookCode, language } = request.body;
      return ok(await bookTranslations.cancel(authOf(request).user, bookCode, language));
    },
  );
};
