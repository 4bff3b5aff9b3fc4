import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { deviceCaller } from '../devices/device-auth.ts';

/**
 * The error codes and messages of KOReader's sync server (koreader-sync-server, config/errors.lua):
 * KOReader shows `message` when a login or a registration fails, and keeps a push to try again
 * unless the answer is 401.
 */
const KOSYNC_ERRORS = {
  internal: { status: 502, code: 2000, message: 'Unknown server error.' },
  unauthorized: { status: 401, code: 2001, message: 'Unauthorized' },
  invalidFields: { status: 403, code: 2003, message: 'Invalid request' },
  documentMissing: { status: 403, code: 2004, message: "Field 'document' not provided." },
  registrationDisabled: {
    status: 402,
    code: 2005,
    message:
      'Accounts are not made from KOReader. Log in with your Yidu account name and a device password made in Yidu (Personal center → E-readers).',
  },
  tooManyAttempts: { status: 429, code: 2006, message: 'Too many failed attempts; try again later.' },
  tooManyDocuments: { status: 403, code: 2003, message: 'Progress is kept for too many documents on this account.' },
} as const;

type KosyncError = keyof typeof KOSYNC_ERRORS;

class KosyncFailure extends Error {
  readonly error: KosyncError;
  constructor(error: KosyncError) {
    super(KOSYNC_ERRORS[error].message);
    this.error = error;
  }
}

function sendError(reply: FastifyReply, error: KosyncError, retryAfter?: number) {
  const { status, code, message } = KOSYNC_ERRORS[error];
  if (retryAfter) reply.header('retry-after', String(retryAfter));
  return reply.status(status).type('application/json').send({ code, message });
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what a document id must not hold
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]+$/;
/** A document id: KOReader's MD5s, or any other client's id, without control characters. */
const DocumentId = z.string().min(1).max(128).regex(NO_CONTROL_CHARACTERS);
/** A number, or a number in a string (the reference server reads it with tonumber). */
const Percentage = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?(e-?\d+)?$/i)
      .transform(Number),
  ])
  .pipe(z.number().finite().min(0).max(100));

const ProgressBody = z.object({
  document: DocumentId,
  progress: z.union([z.string(), z.number().transform(String)]).pipe(z.string().min(1).max(2000)),
  percentage: Percentage,
  device: z.string().trim().min(1).max(200),
  device_id: z.string().max(200).optional(),
  // Sent by KOReader when "send document metadata" is on; not used.
  metadata: z.unknown().optional(),
  identifiers: z.unknown().optional(),
});

/**
 * KOReader's progress sync server (its kosync plugin's "custom sync server"), at `/kosync`. Login is
 * the account name and a device password, which KOReader sends as `x-auth-user` and `x-auth-key`
 * (md5 of the password). Accounts are not made here: POST /users/create answers as the reference
 * server does when registration is disabled.
 */
export const kosyncRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { devices, kosync } = services;

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (error instanceof KosyncFailure) return sendError(reply, error.error);
    if (error instanceof AppError && error.key === 'tooManyRequests')
      return sendError(reply, 'tooManyAttempts', Number(error.details.retryAfter) || 60);
    if (error instanceof AppError && error.key === 'unauthorized') return sendError(reply, 'unauthorized');
    if (hasZodFastifySchemaValidationErrors(error)) {
      const documentMissing = error.validation.some(
        (v) => v.instancePath === '/document' || v.params?.missingProperty === 'document',
      );
      return sendError(reply, documentMissing ? 'documentMissing' : 'invalidFields');
    }
    if (error instanceof AppError && error.status < 500) return sendError(reply, 'invalidFields');
    if (error.statusCode === 429)
      return sendError(reply, 'tooManyAttempts', Number(reply.getHeader('retry-after')) || 60);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return sendError(reply, 'invalidFields');
    request.log.error({ err: error }, 'progress sync failed');
    return sendError(reply, 'internal');
  });
  // Progress is personal: never kept by a cache on the way.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  /** The user of the device password in x-auth-user / x-auth-key; 401 otherwise. */
  const deviceUser = async (request: FastifyRequest, deviceName?: string): Promise<UserRow> => {
    const username = request.headers['x-auth-user'];
    const key = request.headers['x-auth-key'];
    if (typeof username !== 'string' || typeof key !== 'string' || !username.trim() || username.length > 254)
      throw new KosyncFailure('unauthorized');
    const user = await devices.authenticate(username, key, deviceCaller(request, 'kosync', deviceName));
    if (!user) throw new KosyncFailure('unauthorized');
    return user;
  };

  // Authentication comes before validation, as in the reference server: a stranger learns nothing
  // about what a body should hold.
  const users = new WeakMap<FastifyRequest, UserRow>();
  const authenticate = async (request: FastifyRequest) => {
    const device = (request.body as { device?: unknown } | undefined)?.device;
    users.set(request, await deviceUser(request, typeof device === 'string' ? device.slice(0, 200) : undefined));
  };
  const userOf = (request: FastifyRequest): UserRow => {
    const user = users.get(request);
    if (!user) throw new KosyncFailure('unauthorized');
    return user;
  };
  const hide = { hide: true };

  app.get('/healthcheck', { schema: hide }, async () => ({ state: 'OK' }));

  app.post('/users/create', { schema: hide, bodyLimit: 4096 }, async (_request, reply) =>
    sendError(reply, 'registrationDisabled'),
  );

  app.get('/users/auth', { schema: hide, preValidation: authenticate }, async (request) => {
    userOf(request);
    return { authorized: 'OK' };
  });

  app.put(
    '/syncs/progress',
    {
      bodyLimit: 16 * 1024,
      preValidation: authenticate,
      schema: { ...hide, body: ProgressBody },
    },
    async (request) => {
      const saved = await kosync.push(userOf(request), request.body);
      if (!saved) throw new KosyncFailure('tooManyDocuments');
      return saved;
    },
  );

  app.get(
    '/syncs/progress/:document',
    { schema: { ...hide, params: z.object({ document: DocumentId }) }, preValidation: authenticate },
    async (request) => kosync.progress(userOf(request), request.params.document),
  );
};
