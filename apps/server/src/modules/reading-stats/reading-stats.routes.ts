import { ActivityBody, ReadingStats, ReadingStatsQuery } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const security = [{ bearer: [] }];

export const readingStatsRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { readingStats } = services;
  app.addHook('onRequest', guards.requireUser);

  app.post(
    '/reader/activity',
    {
      schema: {
        tags: ['reader'],
        security,
        summary:
          'Heartbeat of the reader while it is visible and in use: the time since the previous one (at most one interval) counts as read',
        body: ActivityBody,
        response: { 200: envelopeOf(z.object({ credited: z.number() })) },
      },
    },
    async (request) => ok(await readingStats.heartbeat(authOf(request).user, request.body)),
  );
  app.get(
    '/reading-stats',
    {
      schema: {
        tags: ['user'],
        security,
        summary: 'Reading statistics: time read, pages and lookups per book, and the days read (calendar)',
        querystring: ReadingStatsQuery,
        response: { 200: envelopeOf(ReadingStats) },
      },
    },
    async (request) => ok(await readingStats.stats(authOf(request).user, request.query)),
  );
};
