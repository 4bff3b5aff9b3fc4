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
