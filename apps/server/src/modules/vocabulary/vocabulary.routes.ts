import {
  AnkiSentBody,
  AnkiWord,
  AnkiWordsQuery,
  EditWordBody,
  VocabularyExportQuery,
  LookupBody,
  LookupResult,
  ReviewBody,
  SaveWordBody,
  VocabularyPage,
  VocabularyQuery,
  VocabularyWord,
  INT4_MAX,
} from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const security = [{ bearer: [] }];
const tags = ['vocabulary'];
const Id = z.object({ id: z.coerce.number().int().min(1).max(INT4_MAX) });

export const vocabularyRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { lookup, vocabulary } = services;
  app.addHook('onRequest', guards.requireUser);

  app.post(
    '/reader/lookup',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['reader'],
        security,
        summary:
          "Look up a word or phrase where it stands: its meaning in the reader's language for this sentence, pronunciation and a line of usage (priced like an explanation; cached answers at the cached price)",
        body: LookupBody,
        response: { 200: envelopeOf(LookupResult) },
      },
    },
    async (request) => ok(await lookup.lookup(authOf(request).user, request.body)),
  );

  app.get(
    '/vocabulary',
    {
      schema: {
        tags,
        security,
        summary:
          "The user's saved words (of one book, due ones only, or matching a search), with the books they come from",
        querystring: VocabularyQuery,
        response: { 200: envelopeOf(VocabularyPage) },
      },
    },
    async (request) => ok(await vocabulary.list(authOf(request).user, request.query)),
  );
  app.post(
    '/vocabulary',
    {
      schema: {
        tags,
        security,
        summary:
          'Save a word with its sentence and where it stands (saving it again from the same book keeps the first)',
        body: SaveWordBody,
        response: { 200: envelopeOf(VocabularyWord) },
      },
    },
    async (request) => ok(await vocabulary.save(authOf(request).user, request.body)),
  );
  app.get(
    '/vocabulary/export',
    {
      schema: {
        tags,
        security,
        summary: 'The saved words as a CSV or TSV file that Anki imports (Front, Back, Sentence, Book, Tags)',
        querystring: VocabularyExportQuery,
      },
    },
    async (request, reply) => {
      const file = await vocabulary.export(authOf(request).user, request.query.format, request.query.bookCode);
      return reply
        .type(file.contentType)
        .header(
          'content-disposition',
          `attachment; filename="vocabulary.${request.query.format}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        )
        .send(file.body);
    },
  );
  app.get(
    '/vocabulary/anki',
    {
      schema: {
        tags,
        security,
        summary:
          "Saved words as Anki notes take them (the browser sends them to AnkiConnect): the word's place in its sentence and the sentence's translation, where the reader has it",
        querystring: AnkiWordsQuery,
        response: { 200: envelopeOf(z.array(AnkiWord)) },
      },
    },
    async (request) => ok(await vocabulary.ankiWords(authOf(request).user, request.query)),
  );
  app.post(
    '/vocabulary/anki/sent',
    {
      schema: {
        tags,
        security,
        summary: 'Remember that these words were sent to Anki (every device of the reader then knows)',
        body: AnkiSentBody,
        response: { 200: envelopeOf(z.object({ marked: z.number() })) },
      },
    },
    async (request) => ok(await vocabulary.markSentToAnki(authOf(request).user, request.body.ids)),
  );
  app.put(
    '/vocabulary/:id',
    {
      schema: {
        tags,
        security,
        summary: "Change a saved word's meaning, pronunciation or note",
        params: Id,
        body: EditWordBody,
        response: { 200: envelopeOf(VocabularyWord) },
      },
    },
    async (request) => ok(await vocabulary.edit(authOf(request).user, request.params.id, request.body)),
  );
  app.delete(
    '/vocabulary/:id',
    { schema: { tags, security, summary: 'Delete a saved word', params: Id, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await vocabulary.remove(authOf(request).user, request.params.id);
      return ok(null);
    },
  );
  app.post(
    '/vocabulary/:id/review',
    {
      schema: {
        tags,
        security,
        summary: 'Record a review (known: the word comes back later; again: soon) and get its next due time',
        params: Id,
        body: ReviewBody,
        response: { 200: envelopeOf(VocabularyWord) },
      },
    },
    async (request) => ok(await vocabulary.review(authOf(request).user, request.params.id, request.body.result)),
  );
};
