import { PublicConfig } from '@yidu/shared';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';

/** Liveness with a database round trip, and the settings the web app needs before login. */
export const healthRoutes: FastifyPluginAsyncZod<{ config: Config; db: Db }> = async (app, { config, db }) => {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Health check: 200 when the API and its database answer',
        response: {
          200: envelopeOf(
            z.object({ status: z.literal('ok'), version: z.string(), uptime: z.number(), dbMs: z.number() }),
          ),
        },
      },
    },
    async () => {
      const started = performance.now();
      await sql`SELECT 1`.execute(db);
      return ok({
        status: 'ok' as const,
        version: config.version,
        uptime: Math.round(process.uptime()),
        dbMs: Math.round((performance.now() - started) * 10) / 10,
      });
    },
  );

  app.get(
    '/config/public',
    {
      schema: {
        tags: ['system'],
        summary: 'Public settings for the web app',
        response: { 200: envelopeOf(PublicConfig) },
      },
    },
    async () =>
      ok({
        requireInvite: config.accounts.requireInvite,
        emailActivation: config.accounts.emailActivation,
        phoneRegistration: config.accounts.phoneRegistration,
        codeResendSeconds: config.codes.resendSeconds,
        contactEmail: config.accounts.contactEmail,
        version: config.version,
      }),
  );
};
