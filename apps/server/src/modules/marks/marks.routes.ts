import {
  AnnotationBody,
  BookmarkBody,
  HighlightBody,
  Mark,
  MARK_KINDS,
  Position,
  PositionBody,
  ReaderSettings,
  TabsState,
  INT4_MAX,
} from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['reader'];
const security = [{ bearer: [] }];
const Id = z.object({ id: z.coerce.number().int().min(1).max(INT4_MAX) });
const BookCode = z.object({ bookCode: z.string().min(1).max(40) });
const Recent = Position.extend({ bookName: z.string(), pageCount: z.number() });

export const marksRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { marks, users } = services;
  app.addHook('onRequest', guards.requireUser);

  app.post(
    '/reader/annotation',
    {
      schema: {
        tags,
        security,
        summary: 'Add an annotation to a selection (empty content: annotationEmpty)',
        body: AnnotationBody,
        response: { 200: envelopeOf(Mark) },
      },
    },
    async (request) => ok(await marks.addAnnotation(authOf(request).user, request.body)),
  );
  app.put(
    '/reader/annotation/:id',
    {
      schema: {
        tags,
        security,
        summary: "Edit an annotation's text",
        params: Id,
        body: z.object({ content: z.string().max(10_000) }),
        response: { 200: envelopeOf(Mark) },
      },
    },
    async (request) => ok(await marks.editAnnotation(authOf(request).user, request.params.id, request.body.content)),
  );
  app.delete(
    '/reader/annotation/:id',
    { schema: { tags, security, summary: 'Delete an annotation', params: Id, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await marks.remove(authOf(request).user, request.params.id, ['annotation']);
      return ok(null);
    },
  );

  app.post(
    '/reader/highlight',
    {
      schema: {
        tags,
        security,
        summary: 'Highlight (in a colour) or underline a selection',
        body: HighlightBody,
        response: { 200: envelopeOf(Mark) },
      },
    },
    async (request) => ok(await marks.addHighlight(authOf(request).user, request.body)),
  );
  app.delete(
    '/reader/highlight/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a highlight or an underline',
        params: Id,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await marks.remove(authOf(request).user, request.params.id, ['highlight', 'underline']);
      return ok(null);
    },
  );

  app.post(
    '/reader/bookmark',
    {
      schema: {
        tags,
        security,
        summary: 'Bookmark a page (at a block, with an optional note)',
        body: BookmarkBody,
        response: { 200: envelopeOf(Mark) },
      },
    },
    async (request) => ok(await marks.addBookmark(authOf(request).user, request.body)),
  );
  app.delete(
    '/reader/bookmark/:id',
    { schema: { tags, security, summary: 'Delete a bookmark', params: Id, response: { 200: EmptyEnvelope } } },
    async (request) => {
      await marks.remove(authOf(request).user, request.params.id, ['bookmark']);
      return ok(null);
    },
  );

  app.get(
    '/reader/marks',
    {
      schema: {
        tags,
        security,
        summary: "The user's annotations, highlights, underlines and bookmarks in a book, in reading order",
        querystring: BookCode.extend({ kind: z.enum(MARK_KINDS).optional() }),
        response: { 200: envelopeOf(z.array(Mark)) },
      },
    },
    async (request) => ok(await marks.list(authOf(request).user, request.query.bookCode, request.query.kind)),
  );

  app.get(
    '/reader/notes/export',
    {
      schema: {
        tags,
        security,
        summary:
          "All notes of a book as a Markdown file, labelled in uiLanguage (else the account's interface language)",
        querystring: BookCode.extend({ uiLanguage: z.string().max(8).optional() }),
      },
    },
    async (request, reply) => {
      const { bookCode, uiLanguage } = request.query;
      const { filename, markdown } = await marks.exportMarkdown(authOf(request).user, bookCode, uiLanguage);
      return reply
        .type('text/markdown; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="notes.md"; filename*=UTF-8''${encodeURIComponent(filename)}`,
        )
        .send(markdown);
    },
  );

  app.get(
    '/reader/position',
    {
      schema: {
        tags,
        security,
        summary: 'Where the user stopped reading a book (null when never opened)',
        querystring: BookCode,
        response: { 200: envelopeOf(Position.nullable()) },
      },
    },
    async (request) => ok(await marks.position(authOf(request).user, request.query.bookCode)),
  );
  app.put(
    '/reader/position',
    {
      schema: {
        tags,
        security,
        summary: 'Save the reading position',
        body: PositionBody,
        response: { 200: envelopeOf(Position) },
      },
    },
    async (request) => ok(await marks.savePosition(authOf(request).user, request.body)),
  );
  app.get(
    '/reader/recent',
    {
      schema: {
        tags,
        security,
        summary: 'Recently read books with their positions (continue reading)',
        response: { 200: envelopeOf(z.array(Recent)) },
      },
    },
    async (request) => ok(await marks.recent(authOf(request).user)),
  );

  app.get(
    '/user/reader-settings',
    {
      schema: {
        tags: ['user'],
        security,
        summary: 'Reader settings (mode, font size, line height, paragraph margin, colours)',
        response: { 200: envelopeOf(ReaderSettings) },
      },
    },
    async (request) => ok(users.readerSettings(authOf(request))),
  );
  app.put(
    '/user/reader-settings',
    {
      schema: {
        tags: ['user'],
        security,
        summary: 'Save reader settings (fields left out keep their value)',
        body: ReaderSettings.partial(),
        response: { 200: envelopeOf(ReaderSettings) },
      },
    },
    async (request) => ok(await users.saveReaderSettings(authOf(request), request.body)),
  );
  app.get(
    '/user/tabs',
    { schema: { tags: ['user'], security, summary: 'The open book tabs', response: { 200: envelopeOf(TabsState) } } },
    async (request) => ok(users.tabs(authOf(request))),
  );
  app.put(
    '/user/tabs',
    {
      schema: {
        tags: ['user'],
        security,
        summary: 'Save the open book tabs (they follow the user across devices)',
        body: TabsState,
        response: { 200: envelopeOf(TabsState) },
      },
    },
    async (request) => ok(await users.saveTabs(authOf(request), request.body)),
  );
};
