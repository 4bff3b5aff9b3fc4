import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

const AdminUser = z.object({
  id: z.number(),
  account: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.string(),
  status: z.string(),
  points: z.number(),
  loginCount: z.number(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});

const InviteCode = z.object({
  code: z.string(),
  maxUses: z.number().nullable(),
  usedCount: z.number(),
  expiresAt: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});

/** Admin-only calls. Every route here passes the admin guard, whatever the client shows. */
export const adminRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { admin } = services;
  app.addHook('onRequest', guards.requireAdmin);

  app.get(
    '/admin/util/findUserByName',
    {
      schema: {
        tags,
        security,
        summary: 'Users whose username or account contains the text',
        querystring: z.object({ username: z.string().trim().min(1).max(100) }),
        response: { 200: envelopeOf(z.array(AdminUser)) },
      },
    },
    async (request) => ok(await admin.findUsersByName(request.query.username)),
  );

  app.post(
    '/admin/invite-codes',
    {
      schema: {
        tags,
        security,
        summary: 'Mint invitation codes',
        body: z.object({
          count: z.number().int().min(1).max(100).default(1),
          maxUses: z.number().int().min(1).max(100_000).nullable().default(1),
          expiresInDays: z.number().int().min(1).max(3650).nullable().default(null),
          note: z.string().trim().max(200).nullable().default(null),
        }),
        response: { 200: envelopeOf(z.object({ codes: z.array(z.string()) })) },
      },
    },
    async (request) => ok({ codes: await admin.mintInviteCodes(authOf(request).user.id, request.body) }),
  );

  const Engine = z.object({
    name: z.enum(['microsoft', 'google', 'deepl', 'llm', 'libretranslate']),
    enabled: z.boolean(),
    endpoint: z.string().url().max(500).nullable().optional(),
    region: z.string().max(60).nullable().optional(),
    model: z.string().max(200).nullable().optional(),
    timeoutMs: z.number().int().min(1000).max(600_000).nullable().optional(),
    concurrency: z.number().int().min(1).max(64).nullable().optional(),
    requestsPerMinute: z.number().int().min(1).max(100_000).nullable().optional(),
  });
  const EngineView = Engine.extend({
    endpoint: z.string().nullable(),
    region: z.string().nullable(),
    model: z.string().nullable(),
    timeoutMs: z.number().nullable(),
    concurrency: z.number().nullable(),
    requestsPerMinute: z.number().nullable(),
    hasApiKey: z.boolean(),
    apiKeyHint: z.string().nullable(),
  });

  app.get(
    '/admin/engines',
    {
      schema: {
        tags,
        security,
        summary: 'Translation engines in fallback order, with their settings (keys are never shown)',
        response: { 200: envelopeOf(z.array(EngineView)) },
      },
    },
    async () => ok(await services.engines.view()),
  );

  app.put(
    '/admin/engines',
    {
      schema: {
        tags,
        security,
        summary:
          'Save the engines (list order = fallback order). apiKey omitted keeps the key, "" removes it; keys are stored encrypted',
        body: z
          .array(Engine.extend({ apiKey: z.string().max(500).optional() }))
          .min(1)
          .max(5),
        response: { 200: envelopeOf(z.array(EngineView)) },
      },
    },
    async (request) => ok(await services.engines.save(authOf(request).user.id, request.body)),
  );

  app.post(
    '/admin/engines/test',
    {
      schema: {
        tags,
        security,
        summary: 'Translate a short English sentence into Chinese through one engine',
        body: z.object({ name: Engine.shape.name }),
        response: {
          200: envelopeOf(
            z.object({ ok: z.boolean(), ms: z.number(), sample: z.string().nullable(), error: z.string().nullable() }),
          ),
        },
      },
    },
    async (request) => ok(await services.engines.test(request.body.name)),
  );

  const Prices = z.record(z.string(), z.number());
  app.get(
    '/admin/prices',
    {
      schema: {
        tags,
        security,
        summary: 'Points per action (translation and translationCached per 1,000 characters)',
        response: { 200: envelopeOf(Prices) },
      },
    },
    async () => ok(await services.points.prices()),
  );
  app.put(
    '/admin/prices',
    {
      schema: {
        tags,
        security,
        summary: 'Change prices (points per action)',
        body: z.partialRecord(
          z.enum([
            'translation',
            'translationCached',
            'annotation',
            'explanation',
            'advancedExplanation',
            'restatement',
            'search',
            'ocrPage',
            'footnoteSplit',
          ]),
          z.number().int().min(0).max(100_000),
        ),
        response: { 200: envelopeOf(Prices) },
      },
    },
    async (request) => {
      for (const [action, points] of Object.entries(request.body)) {
        await services.points.setPrice(
          action as Parameters<typeof services.points.setPrice>[0],
          points,
          authOf(request).user.id,
        );
      }
      return ok(await services.points.prices());
    },
  );

  app.post(
    '/admin/points/grant',
    {
      schema: {
        tags,
        security,
        summary: 'Grant points to a user (recorded as income)',
        body: z.object({
          userId: z.number().int(),
          points: z.number().int().min(1).max(10_000_000),
          reason: z.string().trim().max(200).default('adminGrant'),
          requestId: z.string().min(8).max(64),
        }),
        response: { 200: envelopeOf(z.object({ balance: z.number() })) },
      },
    },
    async (request) => {
      const { userId, points, reason, requestId } = request.body;
      const balance = await services.points.grantTo(userId, points, requestId, {
        by: authOf(request).user.id,
        note: reason,
      });
      return ok({ balance });
    },
  );

  app.get(
    '/admin/invite-codes',
    {
      schema: {
        tags,
        security,
        summary: 'Minted invitation codes, newest first',
        response: { 200: envelopeOf(z.array(InviteCode)) },
      },
    },
    async () => ok(await admin.listInviteCodes()),
  );
};
