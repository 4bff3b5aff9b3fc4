import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { sendNotFound } from '../../http/error-handler.ts';
import { safeEqual } from '../../lib/crypto.ts';
import { metrics } from '../../lib/metrics.ts';
import { bearerToken } from '../../plugins/auth.ts';

/**
 * GET /metrics for Prometheus: this process's request latency, errors and engine use, plus figures read
 * from the database (queue depth by job and state, points spent by feature, users, books). Off unless
 * METRICS_TOKEN is set; the scraper sends it as a bearer token.
 */
export const metricsRoutes: FastifyPluginAsync<{ config: Config; db: Db }> = async (app, { config, db }) => {
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    const token = bearerToken(request);
    if (!config.metricsToken || !token || !safeEqual(token, config.metricsToken)) return sendNotFound(reply);
    const [queue, points, users, books] = await Promise.all([
      sql<{
        name: string;
        state: string;
        n: string;
      }>`SELECT name, state, count(*) AS n FROM pgboss.job GROUP BY name, state`.execute(db),
      sql<{
        reason: string;
        points: string;
      }>`SELECT reason, sum(points) AS points FROM points_ledger WHERE type = 'expenditure' GROUP BY reason`.execute(
        db,
      ),
      sql<{ n: string }>`SELECT count(*) AS n FROM users`.execute(db),
      sql<{ status: string; n: string }>`SELECT status, count(*) AS n FROM books GROUP BY status`.execute(db),
    ]);
    const body = metrics.render([
      {
        name: 'yidu_queue_jobs',
        help: 'Jobs in the queue by name and state',
        values: queue.rows.map((r) => ({ labels: { name: r.name, state: r.state }, value: +r.n })),
      },
      {
        name: 'yidu_points_spent',
        help: 'Points spent since the start, by feature',
        values: points.rows.map((r) => ({ labels: { feature: r.reason }, value: +r.points })),
      },
      { name: 'yidu_users', help: 'Registered users', values: [{ labels: {}, value: +users.rows[0]!.n }] },
      {
        name: 'yidu_books',
        help: 'Books by processing status',
        values: books.rows.map((r) => ({ labels: { status: r.status }, value: +r.n })),
      },
    ]);
    return reply.type('text/plain; version=0.0.4; charset=utf-8').send(body);
  });
};
