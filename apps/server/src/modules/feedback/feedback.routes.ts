import { Feedback, FeedbackPage, FeedbackQuery, FeedbackStatusBody, INT4_MAX } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { hasUnsafeText, unsafeTextError } from '../../http/input-checks.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['feedback'];
const security = [{ bearer: [] }];
const Id = z.object({ id: z.coerce.number().int().min(1).max(INT4_MAX) });

export const feedbackRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { feedback } = services;
  app.addHook('onRequest', guards.requireUser);

  app.post(
    '/feedback/add',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary:
          'Send feedback: multipart fields title, type (systemBug | uiIssue | optimizationSuggestion), description, and an optional image (at most 10 MB)',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeOf(Feedback) },
      },
    },
    async (request) => {
      const fields: Record<string, string> = {};
      let image: Buffer | undefined;
      if (request.isMultipart()) {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const data = await part.toBuffer();
            // The one file part is the image, whatever the client named its field.
            if (data.length > 0) image = data;
          } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        }
      } else Object.assign(fields, request.body as Record<string, string>);
      if (hasUnsafeText(fields)) throw unsafeTextError('body');
      return ok(
        await feedback.add(authOf(request).user, {
          title: fields.title ?? '',
          type: fields.type ?? '',
          description: fields.description ?? '',
          image,
        }),
      );
    },
  );
  app.get(
    '/feedback/search',
    {
      schema: {
        tags,
        security,
        summary: "Feedback list (admins: everyone's; users: their own), newest first",
        querystring: FeedbackQuery,
        response: { 200: envelopeOf(FeedbackPage) },
      },
    },
    async (request) => ok(await feedback.search(authOf(request).user, request.query)),
  );
  app.get(
    '/feedback/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One feedback entry with its image and reply',
        params: Id,
        response: { 200: envelopeOf(Feedback) },
      },
    },
    async (request) => ok(await feedback.detail(authOf(request).user, request.params.id)),
  );
  app.post(
    '/feedback/:id/status',
    {
      preHandler: guards.requireAdmin,
      schema: {
        tags,
        security,
        summary: 'Set the status (unresolved → inProgress → resolved / closed) with a reply the user sees (admins)',
        params: Id,
        body: FeedbackStatusBody,
        response: { 200: envelopeOf(Feedback) },
      },
    },
    async (request) =>
      ok(await feedback.setStatus(authOf(request).user, request.params.id, request.body.status, request.body.reply)),
  );
};
