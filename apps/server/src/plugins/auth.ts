import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticated, AuthService, Caller } from '../modules/auth/auth.service.ts';
import { fail } from '../http/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: Authenticated;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token.trim() : undefined;
}

export const callerOf = (request: FastifyRequest): Caller => ({
  ip: request.ip ?? null,
  userAgent: request.headers['user-agent'] ?? null,
});

/**
 * preHandlers that put the caller's session on `request.auth`. A missing, unknown, revoked or
 * expired token is 401 `unauthorized`; a non-admin on an admin call is 403 `insufficientPermissions`.
 */
export function createGuards(auth: AuthService) {
  const guardWith =
    (authenticate: (token: string) => Promise<Authenticated | undefined>) =>
    async (request: FastifyRequest, _reply: FastifyReply) => {
      const token = bearerToken(request);
      const found = token ? await authenticate(token) : undefined;
      if (!found) throw fail('unauthorized');
      request.auth = found;
    };
  const requireUser = guardWith((token) => auth.authenticate(token));
  const requireAdmin = async (request: FastifyRequest, reply: FastifyReply) => {
    await requireUser(request, reply);
    if (request.auth!.user.role !== 'admin') throw fail('insufficientPermissions');
  };
  /**
   * requireUser for the hottest read-only calls (reader pages): the session may come from memory.
   * Revocation acts as at once as with requireUser; the user's balance and settings on request.auth
   * may lag a moment, so such calls must not decide anything on them.
   */
  const requireUserCached = guardWith((token) => auth.authenticateCached(token));
  return { requireUser, requireAdmin, requireUserCached };
}

export type Guards = ReturnType<typeof createGuards>;

/** The authenticated session of a guarded route. */
export function authOf(request: FastifyRequest): Authenticated {
  if (!request.auth) throw fail('unauthorized');
  return request.auth;
}
