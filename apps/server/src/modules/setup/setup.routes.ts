import { AI_MODEL_USES, isHttpUrl } from '@yidu/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../context.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { authOf, callerOf, type Guards } from '../../plugins/auth.ts';

const tags = ['admin'];
const security = [{ bearer: [] }];

const Status = z.enum(['ok', 'warning', 'missing', 'failing', 'unknown']);
const SetupReport = z.object({
  attention: z.boolean(),
  items: z.array(
    z.object({
      id: z.string(),
      essential: z.boolean(),
      status: Status,
      detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    }),
  ),
  health: z.array(
    z.object({
      key: z.string(),
      kind: z.enum(['translation', 'ai']),
      name: z.string(),
      model: z.string().nullable(),
      status: z.enum(['ok', 'failing', 'unknown']),
      lastSuccessAt: z.string().nullable(),
      lastFailureAt: z.string().nullable(),
      lastError: z.string().nullable(),
      latencyMs: z.number().nullable(),
      checkedBy: z.string().nullable(),
    }),
  ),
  probeMinutes: z.number(),
});

const Use = z.enum(AI_MODEL_USES);
const AiModelView = z.object({
  use: Use,
  baseUrl: z.string().nullable(),
  model: z.string().nullable(),
  hasApiKey: z.boolean(),
  apiKeyHint: z.string().nullable(),
  source: z.enum(['admin', 'environment', 'inherited', 'none']),
  enabled: z.boolean(),
});
const HttpUrl = z
  .string()
  .trim()
  .max(500)
  // isHttpUrl never throws: zod runs a refinement even when .url() has failed.
  .refine(isHttpUrl, { message: 'must be an http(s) URL' });
const AiModelBody = z.object({
  baseUrl: HttpUrl,
  model: z.string().trim().min(1).max(200),
  apiKey: z.string().max(500).optional(),
  enabled: z.boolean().optional(),
});
const ModelTest = z.object({
  ok: z.boolean(),
  ms: z.number(),
  sample: z.string().nullable(),
  error: z.string().nullable(),
});

/**
 * Set-up from the browser, admins only: the checklist with engine health, and the AI models of each
 * use. Keys are accepted here and never answered (a masked hint only).
 */
export const setupRoutes: FastifyPluginAsyncZod<{ services: Services; guards: Guards }> = async (
  app,
  { services, guards },
) => {
  app.addHook('onRequest', guards.requireAdmin);

  app.get(
    '/admin/setup',
    {
      schema: {
        tags,
        security,
        summary:
          'The set-up checklist (translation engine, AI models, mail, SMS, invitation codes, public URL) and the health of every engine',
        response: { 200: envelopeOf(SetupReport) },
      },
    },
    async () => ok(await services.setup.report()),
  );

  app.post(
    '/admin/setup/check',
    {
      schema: {
        tags,
        security,
        summary: 'Check every enabled engine and AI model now (a light request each), then answer the checklist',
        response: { 200: envelopeOf(SetupReport) },
      },
    },
    async () => {
      await services.setup.probe({ force: true });
      return ok(await services.setup.report());
    },
  );

  app.get(
    '/admin/ai-models',
    {
      schema: {
        tags,
        security,
        summary: 'The AI model of each use (translation, explanation, annotation); keys are never shown',
        response: { 200: envelopeOf(z.array(AiModelView)) },
      },
    },
    async () => ok(await services.aiModels.view()),
  );

  app.put(
    '/admin/ai-models/:use',
    {
      schema: {
        tags,
        security,
        summary:
          'Set the AI model of a use, at once in every process. apiKey omitted keeps the key (for the same service only), "" removes it; keys are stored encrypted',
        params: z.object({ use: Use }),
        body: AiModelBody,
        response: { 200: envelopeOf(z.array(AiModelView)) },
      },
    },
    async (request) => {
      const { use } = request.params;
      const saved = await services.aiModels.save(authOf(request).user.id, use, request.body);
      await services.admin.audit(
        authOf(request).user,
        'aiModelSettings',
        use,
        { baseUrl: request.body.baseUrl, model: request.body.model, keyChanged: request.body.apiKey !== undefined },
        callerOf(request),
      );
      return ok(saved);
    },
  );

  app.delete(
    '/admin/ai-models/:use',
    {
      schema: {
        tags,
        security,
        summary: "Go back to the environment's model for a use (annotations: back to the explanation model)",
        params: z.object({ use: Use }),
        response: { 200: envelopeOf(z.array(AiModelView)) },
      },
    },
    async (request) => {
      const { use } = request.params;
      const saved = await services.aiModels.reset(authOf(request).user.id, use);
      await services.admin.audit(authOf(request).user, 'aiModelReset', use, null, callerOf(request));
      return ok(saved);
    },
  );

  app.post(
    '/admin/ai-models/test',
    {
      schema: {
        tags,
        security,
        summary:
          'Try a use: a one-sentence answer (translation: a short English sentence into Chinese). With baseUrl and model, the settings being edited are tried instead of the saved ones',
        body: z.object({
          use: Use,
          baseUrl: HttpUrl.optional(),
          model: z.string().trim().min(1).max(200).optional(),
          apiKey: z.string().max(500).optional(),
        }),
        response: { 200: envelopeOf(ModelTest) },
      },
    },
    async (request) => {
      const { use, baseUrl, model, apiKey } = request.body;
      const candidate = baseUrl && model ? { baseUrl, model, apiKey } : undefined;
      return ok(await services.aiModels.test(use, candidate));
    },
  );
};
