import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { type Guards } from '../../plugins/auth.ts';

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
};
