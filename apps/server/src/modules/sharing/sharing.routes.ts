import { BookSummary, Share, ShareCreateBody, ShareInfo } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { EmptyEnvelope, envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';

const tags = ['sharing'];
const security = [{ bearer: [] }];
const Id = z.object({ id: z.string().min(6).max(40) });

export const sharingRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { sharing } = services;
  app.addHook('onRequest', guards.requireUser);

  app.post(
    '/book/share/create',
    {
      schema: {
        tags,
        security,
        summary:
          'Create a share link granting the chosen AI features (annotation, explanation, advancedExplanation, restatement, search)',
        body: ShareCreateBody,
        response: { 200: envelopeOf(Share) },
      },
    },
    async (request) => ok(await sharing.create(authOf(request).user, request.body)),
  );
  app.get(
    '/book/share/mine',
    {
      schema: {
        tags,
        security,
        summary: "The caller's share links, newest first",
        querystring: z.object({ bookCode: z.string().max(40).optional() }),
        response: { 200: envelopeOf(z.array(Share)) },
      },
    },
    async (request) => ok(await sharing.mine(authOf(request).user, request.query.bookCode)),
  );
  app.get(
    '/book/share/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A share link as its recipient sees it before accepting',
        params: Id,
        response: { 200: envelopeOf(ShareInfo) },
      },
    },
    async (request) => ok(await sharing.info(authOf(request).user, request.params.id)),
  );
  app.put(
    '/book/share/accept/:id',
    {
      schema: {
        tags,
        security,
        summary: "Accept a share: the book joins the caller's library with the granted features",
        params: Id,
        response: { 200: envelopeOf(BookSummary) },
      },
    },
    async (request) => ok(await sharing.accept(authOf(request).user, request.params.id)),
  );
  app.delete(
    '/book/share/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Revoke a share link; recipients who had the book only through it lose it',
        params: Id,
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await sharing.revoke(authOf(request).user, request.params.id);
      return ok(null);
    },
  );
};
