import {
  AiAnswer,
  AnnotateBody,
  AnnotateResult,
  ExplainBody,
  RestateBody,
  SearchBody,
  SearchResult,
} from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { streamEvents } from '../../http/sse.ts';
import { authOf, type Guards } from '../../plugins/auth.ts';
import type { AiEvent } from './ai.service.ts';

const tags = ['ai'];
const security = [{ bearer: [] }];
const aiLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
const eventName = (e: AiEvent): [string, unknown] => ('delta' in e ? ['delta', { text: e.delta }] : ['done', e.done]);

/** Drains a stream of AI events into the final answer (stream=false). */
async function collect(events: AsyncGenerator<AiEvent>) {
  for await (const event of events) if ('done' in event) return event.done;
  throw new Error('the AI stream ended without an answer');
}

export const aiRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  const { ai } = services;
  app.addHook('onRequest', guards.requireUser);

  app.post(
    '/reader/ai/explain',
    {
      config: aiLimit,
      schema: {
        tags,
        security,
        summary:
          "Explanation (advanced=true: advanced explanation) of a selection, in the reader's language. stream=true (default): server-sent events `delta` {text} then `done` {text, charge}; stream=false: the JSON answer",
        body: ExplainBody,
        response: { 200: envelopeOf(AiAnswer) },
      },
    },
    async (request, reply) => {
      const events = ai.explain(authOf(request).user, request.body);
      if (!request.body.stream) return ok(await collect(events));
      await streamEvents(reply, events, eventName);
    },
  );

  app.post(
    '/reader/ai/restate',
    {
      config: aiLimit,
      schema: {
        tags,
        security,
        summary: 'A simpler rewording of a selection at a level (same streaming as explain)',
        body: RestateBody,
        response: { 200: envelopeOf(AiAnswer) },
      },
    },
    async (request, reply) => {
      const events = ai.restate(authOf(request).user, request.body);
      if (!request.body.stream) return ok(await collect(events));
      await streamEvents(reply, events, eventName);
    },
  );

  app.post(
    '/reader/ai/annotate',
    {
      config: aiLimit,
      schema: {
        tags,
        security,
        summary: 'AI notes for the hard words, names, idioms and allusions of a page, anchored to its blocks',
        body: AnnotateBody,
        response: { 200: envelopeOf(AnnotateResult) },
      },
    },
    async (request) => ok(await ai.annotate(authOf(request).user, request.body)),
  );

  app.post(
    '/reader/search',
    {
      config: aiLimit,
      schema: {
        tags,
        security,
        summary:
          'Intelligent search: keyword hits over the original and the translation (CJK included) and, with ai=true, an answer citing the passages',
        body: SearchBody,
        response: { 200: envelopeOf(SearchResult) },
      },
    },
    async (request) => ok(await ai.search(authOf(request).user, request.body)),
  );
};
