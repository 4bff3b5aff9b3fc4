import { Glossary, GlossaryEntry } from '@yidu/shared';
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
        summary: "A book's glossary for a target language (names and terms kept consistent by the LLM engine)",
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
        summary: 'Replace the glossary (uploader or admin); later translations use it',
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
        summary: "Let the AI propose the book's names and terms; existing entries are kept",
        body: Target,
        response: { 200: envelopeOf(Glossary) },
      },
    },
    async (request) =>
      ok(await services.glossary.extract(authOf(request).user, request.body.bookCode, request.body.language)),
  );
};
