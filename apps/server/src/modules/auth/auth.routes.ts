import {
  CodeSentResult,
  ConfirmAccountQuery,
  ConfirmResult,
  ForgotPasswordCodeBody,
  LoginBody,
  LoginResult,
  RegisterBody,
  RegisterResult,
  ResetPasswordBody,
  VerificationCodeQuery,
} from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { callerOf } from '../../plugins/auth.ts';

const tags = ['auth'];
// Credential and code calls get a tighter per-IP limit on top of the per-account ones in the service.
const strict = { rateLimit: { max: 30, timeWindow: '1 minute' } };

export const authRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  const { auth, verification } = services;

  app.post(
    '/auth/register',
    {
      config: strict,
      schema: {
        tags,
        summary: 'Register by email or phone',
        body: RegisterBody,
        response: { 200: envelopeOf(RegisterResult) },
      },
    },
    async (request) => ok(await auth.register(request.body, callerOf(request))),
  );

  app.post(
    '/auth/login',
    {
      config: strict,
      schema: {
        tags,
        summary: 'Log in; envelope code 1 = wrong password, 2 = no such account (SPEC §8.2)',
        body: LoginBody,
        response: { 200: envelopeOf(LoginResult) },
      },
    },
    async (request) => ok(await auth.login(request.body.account, request.body.password, callerOf(request))),
  );

  app.post(
    '/auth/getVerificationCode',
    {
      config: strict,
      schema: {
        tags,
        summary: 'Send an SMS code: type 0 = registration, 1 = password reset',
        querystring: VerificationCodeQuery.extend({ uiLanguage: z.string().max(8).optional() }),
        response: { 200: envelopeOf(CodeSentResult) },
      },
    },
    async (request) => {
      const { type, phone, uiLanguage } = request.query;
      return ok(await verification.sendPhoneCode(type, phone, callerOf(request), uiLanguage));
    },
  );

  app.post(
    '/auth/confirmAccount',
    {
      config: strict,
      schema: {
        tags,
        summary: 'Confirm an emailed link: activate an account, or confirm a new email address (kind tells which)',
        querystring: ConfirmAccountQuery,
        response: { 200: envelopeOf(ConfirmResult) },
      },
    },
    async (request) => ok(await verification.confirmAccount(request.query.code)),
  );

  app.post(
    '/auth/resendActivation',
    {
      config: strict,
      schema: {
        tags,
        summary: 'Send a new activation link to a pending account',
        body: z.object({ account: z.string().trim().min(1).max(254) }),
        response: { 200: envelopeOf(CodeSentResult) },
      },
    },
    async (request) => ok(await verification.resendActivation(request.body.account, callerOf(request))),
  );

  app.post(
    '/auth/forgot-password-code',
    {
      config: strict,
      schema: {
        tags,
        summary: "Send a password reset code to the account's email (or phone)",
        body: ForgotPasswordCodeBody,
        response: { 200: envelopeOf(CodeSentResult) },
      },
    },
    async (request) =>
      ok(await verification.sendResetCode(request.body.account, callerOf(request), request.body.uiLanguage)),
  );

  app.post(
    '/auth/resetPassword',
    {
      config: strict,
      schema: {
        tags,
        summary: 'Set a new password with a reset code',
        body: ResetPasswordBody,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await verification.resetPassword(request.body.account, request.body.code, request.body.password);
      return ok(null);
    },
  );
};
