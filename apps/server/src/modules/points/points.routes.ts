import { PointsRecordPage, PointsRecordQuery } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';
import { recentLedger } from './points.repo.ts';

/** SPEC §3.11: only the last 30 days are shown. */
export const POINTS_HISTORY_DAYS = 30;

export const pointsRoutes: FastifyPluginAsyncZod<{ db: Db; guards: Guards }> = async (app, { db, guards }) => {
  app.addHook('onRequest', guards.requireUser);

  app.get(
    '/integral/record/list',
    {
      schema: {
        tags: ['points'],
        security: [{ bearer: [] }],
        summary: 'Points income and expenditure of the last 30 days, newest first',
        querystring: PointsRecordQuery,
        response: { 200: envelopeOf(PointsRecordPage) },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const { page, pageSize, type } = request.query;
      const ledger = await recentLedger(db, user.id, {
        days: POINTS_HISTORY_DAYS,
        type,
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
      return ok({
        items: ledger.rows.map((r) => {
          const before = Number(r.balance_before);
          const points = Number(r.points);
          return {
            id: Number(r.id),
            type: r.type,
            points,
            pointsBefore: before,
            pointsAfter: r.type === 'income' ? before + points : before - points,
            reason: r.reason,
            detail: r.detail,
            createdAt: r.created_at.toISOString(),
          };
        }),
        total: ledger.total,
        page,
        pageSize,
        balance: Number(user.points_balance),
        income: ledger.income,
        expenditure: ledger.expenditure,
      });
    },
  );
};
