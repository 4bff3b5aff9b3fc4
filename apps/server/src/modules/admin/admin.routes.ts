import { INT4_MAX } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, callerOf, type Guards } from '../../plugins/auth.ts';
import { AdminService } from './admin.service.ts';
import { DEFAULT_PRICES, type PricedAction } from '../points/points.service.ts';

/** Whether YYYY-MM-DD names a day that exists (2024-02-30 and 2024-13-01 do not). */
function isCalendarDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(day);
}

/** A calendar day, YYYY-MM-DD, that exists. */
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine(isCalendarDay, { message: 'no such day' })
  .optional()
  .transform((d) => d ?? AdminService.today());
const Days = z.coerce.number().int().min(1).max(366).default(30);

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
    async (request) => {
      const saved = await services.engines.save(authOf(request).user.id, request.body);
      await admin.audit(
        authOf(request).user,
        'engineSettings',
        null,
        {
          engines: request.body.map((e) => ({ name: e.name, enabled: e.enabled, keyChanged: e.apiKey !== undefined })),
        },
        callerOf(request),
      );
      return ok(saved);
    },
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
          z.enum(Object.keys(DEFAULT_PRICES) as [PricedAction, ...PricedAction[]]),
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

  // ---------- SPEC §7.7 ----------

  const statistic = (url: string, summary: string, querystring: z.ZodObject, run: (q: never) => Promise<unknown>) =>
    app.get(url, { schema: { tags, security, summary, querystring } }, async (request) =>
      ok(await run(request.query as never)),
    );

  statistic(
    '/admin/util/bookUploadStatistic',
    'Upload requests per day (total, completed, failed, running, public, private) for `days` days ending on `date`; bookStatus filters by visibility',
    z.object({ date: Day, days: Days, bookStatus: z.coerce.number().int().min(0).max(1).optional() }),
    (q: { date: string; days: number; bookStatus?: number }) => admin.stats.uploads(q.date, q.days, q.bookStatus),
  );
  statistic(
    '/admin/util/userRegStatistic',
    'Registrations per day for `days` days ending on `date`',
    z.object({ date: Day, days: Days }),
    (q: { date: string; days: number }) => admin.stats.registrations(q.date, q.days),
  );
  statistic(
    '/admin/util/userLoginStatistic',
    'Successful logins, distinct users and failed attempts per day for `days` days ending on `date`',
    z.object({ date: Day, days: Days }),
    (q: { date: string; days: number }) => admin.stats.logins(q.date, q.days),
  );
  statistic(
    '/admin/util/getLoginCount',
    'Logins and distinct users in the `days` days ending on `date`',
    z.object({ date: Day, days: Days }),
    (q: { date: string; days: number }) => admin.stats.loginCount(q.date, q.days),
  );
  statistic(
    '/admin/util/getUserRetentionRate',
    'Of the users registered on baseDate, the share who logged in on each of the next nDays days',
    z.object({ baseDate: Day, nDays: z.coerce.number().int().min(1).max(90).default(7) }),
    (q: { baseDate: string; nDays: number }) => admin.stats.retention(q.baseDate, q.nDays),
  );
  statistic(
    '/admin/util/findOldLoginUser',
    'Users registered more than regDay days ago whose last login is older than lastLoginDay days',
    z.object({
      regDay: z.coerce.number().int().min(0).max(3650).default(30),
      lastLoginDay: z.coerce.number().int().min(0).max(3650).default(30),
    }),
    async (q: { regDay: number; lastLoginDay: number }) =>
      (await admin.stats.oldLoginUsers(q.regDay, q.lastLoginDay)).map((u) => ({
        ...u,
        created_at: u.created_at.toISOString(),
        last_login_at: u.last_login_at?.toISOString() ?? null,
      })),
  );
  statistic(
    '/admin/util/findFrequentOperators',
    'Users with at least `count` operations (logins, uploads, paid actions) on `date`',
    z.object({ date: Day, count: z.coerce.number().int().min(1).max(100_000).default(50) }),
    (q: { date: string; count: number }) => admin.stats.frequentOperators(q.date, q.count),
  );
  statistic(
    '/admin/util/findUploadByUserName',
    'Upload requests of the users whose name contains `username`',
    z.object({ username: z.string().trim().min(1).max(100) }),
    (q: { username: string }) => admin.uploadsByUsername(q.username),
  );
  statistic(
    '/admin/util/checkErrorByUsername',
    'Failed pipeline stages and failed translations of a user, by username',
    z.object({ username: z.string().trim().min(1).max(100) }),
    (q: { username: string }) => admin.errorsBy('username', q.username),
  );
  statistic(
    '/admin/util/checkErrorByAccount',
    'Failed pipeline stages and failed translations of a user, by account',
    z.object({ account: z.string().trim().min(1).max(254) }),
    (q: { account: string }) => admin.errorsBy('account', q.account),
  );
  statistic(
    '/admin/util/monitorThreadPool',
    'The job queue: jobs per name and state, and the oldest waiting job',
    z.object({}),
    () => admin.stats.queue(),
  );
  statistic(
    '/admin/util/kafkaCheck',
    "The message queue's health: a job's round trip through a worker",
    z.object({}),
    () => admin.queueRoundTrip(),
  );
  statistic(
    '/admin/util/system-info',
    'Versions, uptime, memory, CPU, disk of DATA_DIR, database size, engines, queue',
    z.object({}),
    () => admin.systemInfo(),
  );
  statistic(
    '/admin/stats/usage',
    'Points spent per feature and characters translated per engine, per day',
    z.object({ date: Day, days: Days }),
    (q: { date: string; days: number }) => admin.stats.usage(q.date, q.days),
  );
  statistic('/admin/audit', 'The audit log of sensitive admin operations, newest first', z.object({}), () =>
    admin.auditLog(),
  );

  app.get(
    '/admin/util/getUserToken',
    {
      schema: {
        tags,
        security,
        summary: 'A 30-minute session as the user, for support (audited; the user sees it among their sessions)',
        querystring: z.object({ account: z.string().trim().min(1).max(254) }),
      },
    },
    async (request) => ok(await admin.userToken(authOf(request).user, request.query.account, callerOf(request))),
  );
  app.post(
    '/admin/util/addBook',
    {
      schema: {
        tags,
        security,
        summary: "Put a book in a user's personal library (audited)",
        querystring: z.object({
          bookCode: z.string().min(1).max(40),
          userId: z.coerce.number().int().min(1).max(INT4_MAX),
        }),
      },
    },
    async (request) =>
      ok(await admin.addBook(authOf(request).user, request.query.bookCode, request.query.userId, callerOf(request))),
  );
  app.get(
    '/admin/util/download',
    {
      schema: {
        tags,
        security,
        summary: 'Download an original book file by its file id or storage key (audited)',
        querystring: z.object({ bookFilePath: z.string().min(1).max(300) }),
      },
    },
    async (request, reply) => {
      const file = await admin.download(authOf(request).user, request.query.bookFilePath, callerOf(request));
      return reply
        .type('application/octet-stream')
        .header('content-length', String(file.size))
        .header(
          'content-disposition',
          `attachment; filename="book"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
        )
        .send(file.stream);
    },
  );
  app.post(
    '/admin/util/retryUpload',
    {
      schema: {
        tags,
        security,
        summary: "Retry someone's failed upload from its failed stage (audited)",
        querystring: z.object({ requestId: z.string().min(1).max(64) }),
      },
    },
    async (request) => {
      const state = await services.uploads.retry(authOf(request).user.id, request.query.requestId, { asAdmin: true });
      await admin.audit(authOf(request).user, 'retryUpload', request.query.requestId, null, callerOf(request));
      return ok(state);
    },
  );

  app.post(
    '/admin/users/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Disable or enable an account, or set its role (audited)',
        params: z.object({ id: z.coerce.number().int().min(1).max(INT4_MAX) }),
        body: z.object({
          status: z.enum(['active', 'disabled']).optional(),
          role: z.enum(['user', 'admin']).optional(),
        }),
        response: { 200: envelopeOf(AdminUser) },
      },
    },
    async (request) =>
      ok(await admin.setUser(authOf(request).user, request.params.id, request.body, callerOf(request))),
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
