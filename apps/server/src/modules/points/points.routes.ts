import { PointsRecordPage, PointsRecordQuery } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';
import { pointsHistory } from './points.service.ts';

export const pointsRoutes: FastifyPluginAsyncZod<{ db: Db; guards: Guards }> = async (app, { db, guards }) => {
  app.addHook('onRequest', guards.requireUser);

  app.get(
    '/integral/record/list',
    {
      schema: {
        tags: ['points'],
        security: [{ bearer: [] }],
        summary:
          'Points income and expenditure of the last 30 days, newest first; detail says what was bought (bookTitle, page, language...)',
        querystring: PointsRecordQuery,
        response: { 200: envelopeOf(PointsRecordPage) },
      },
    },
    async (request) => ok(await pointsHistory(db, authOf(request).user, request.query)),
  );
};
