import {
  ChangeEmailBody,
  ChangeLanguageBody,
  ChangePasswordBody,
  CodeSentResult,
  DeleteAccountBody,
  UpdateUserinfoBody,
  UserInfo,
  VeteranResult,
  INT4_MAX,
} from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { fail } from '../../http/errors.ts';
import { authOf, callerOf, type Guards } from '../../plugins/auth.ts';

const tags = ['user'];
const security = [{ bearer: [] }];

export const usersRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { users, auth, verification } = services;
  // onRequest: the token is checked before the body is even parsed.
  app.addHook('onRequest', guards.requireUser);

  app.get(
    '/user/getUserinfo',
    { schema: { tags, security, summary: 'The current user', response: { 200: envelopeOf(UserInfo) } } },
    async (request) => ok(users.getInfo(authOf(request))),
  );

  app.post(
    '/user/updateUserinfo',
    {
      schema: {
        tags,
        security,
        summary: 'Change profile fields and preferences',
        body: UpdateUserinfoBody,
        response: { 200: envelopeOf(UserInfo) },
      },
    },
    async (request) => ok(await users.update(authOf(request), request.body)),
  );

  app.post(
    '/user/changePassword',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary: 'Change the password; other sessions are signed out',
        body: ChangePasswordBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await users.changePassword(authOf(request), request.body.oldPassword, request.body.password);
      return ok(null);
    },
  );

  app.post(
    '/user/changeLanguage',
    {
      schema: {
        tags,
        security,
        summary: 'Set the reading language by name (SPEC §3.12)',
        body: ChangeLanguageBody,
        response: { 200: envelopeOf(UserInfo) },
      },
    },
    async (request) => ok(await users.changeLanguage(authOf(request), request.body.language)),
  );

  app.post(
    '/user/logout',
    { schema: { tags, security, summary: 'Revoke the current session token', response: { 200: EmptyEnvelope } } },
    async (request) => {
      await auth.logout(authOf(request));
      return ok(null);
    },
  );

  app.post(
    '/user/avatar',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary: 'Upload an avatar (multipart image; cropped to a square, resized, metadata removed)',
        consumes: ['multipart/form-data'],
        response: { 200: envelopeOf(UserInfo) },
      },
    },
    async (request) => {
      const file = request.isMultipart() ? await request.file() : undefined;
      if (!file) throw fail('fileMissing');
      return ok(await users.setAvatar(authOf(request), await file.toBuffer()));
    },
  );

  app.post(
    '/user/changeEmail',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary: 'Change the email address: a confirmation link goes to the new address',
        body: ChangeEmailBody,
        response: { 200: envelopeOf(CodeSentResult) },
      },
    },
    async (request) =>
      ok(
        await verification.requestEmailChange(
          authOf(request),
          request.body.email,
          request.body.password,
          callerOf(request),
          request.body.uiLanguage,
        ),
      ),
  );

  app.post(
    '/user/deleteAccount',
    {
      config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary: 'Delete the account and its data (the current password is required)',
        body: DeleteAccountBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await users.deleteAccount(authOf(request), request.body.password);
      return ok(null);
    },
  );

  const Session = z.object({
    id: z.number(),
    kind: z.enum(['login', 'impersonation']),
    current: z.boolean(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    createdAt: z.string(),
    lastSeenAt: z.string(),
    expiresAt: z.string(),
  });
  app.get(
    '/user/sessions',
    {
      schema: {
        tags,
        security,
        summary: "The user's signed-in sessions, including support sessions opened by admins",
        response: { 200: envelopeOf(z.array(Session)) },
      },
    },
    async (request) => ok(await auth.sessions(authOf(request))),
  );
  app.delete(
    '/user/sessions/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Sign one session out',
        params: z.object({ id: z.coerce.number().int().min(1).max(INT4_MAX) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await auth.revokeSession(authOf(request), request.params.id);
      return ok(null);
    },
  );

  app.get(
    '/user/checkVeteranUser',
    {
      schema: {
        tags,
        security,
        summary: 'Whether the user has used Yidu on an earlier day',
        response: { 200: envelopeOf(VeteranResult) },
      },
    },
    async (request) => ok(await users.checkVeteran(authOf(request))),
  );
};
