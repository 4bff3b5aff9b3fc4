import { createLlmClient } from '../../engines/llm/openai-compatible.ts';
import { errorFromResponse, errorFromThrown } from '../../engines/translation/http.ts';
import { createEngine, type EngineSettings } from '../../engines/translation/registry.ts';
import type { ModelSettings } from './ai-models.service.ts';
import { describeError, type Outcome } from './health.ts';

/**
 * Light checks that an engine answers, for the periodic probe and "Check now". They cost next to
 * nothing: a translation engine translates one word; an OpenAI-compatible service lists its models
 * (free, and it checks the key), and only a service without that list answers a one-token chat.
 * Keys go only to the URL the admin configured for them.
 */
const PROBE_TIMEOUT_MS = 15_000;

async function measured(run: () => Promise<void>): Promise<Outcome> {
  const started = performance.now();
  try {
    await run();
    return { ok: true, ms: performance.now() - started };
  } catch (error) {
    // A probe's own time-out is the engine being too slow, not a cancelled request.
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    const described = errorFromThrown('probe', error, { timedOut }, PROBE_TIMEOUT_MS);
    return { ok: false, ms: performance.now() - started, error: describeError(described) };
  }
}

export function probeLlm(settings: ModelSettings): Promise<Outcome> {
  return measured(async () => {
    const url = `${settings.baseUrl.replace(/\/+$/, '')}/models`;
    const response = await fetch(url, {
      headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const body = await response.text();
    if (response.ok) return;
    // No model list here (some gateways): one token of a real answer tells as much.
    if (response.status === 404 || response.status === 405) {
      await createLlmClient({ ...settings, apiKey: settings.apiKey ?? '', timeoutMs: PROBE_TIMEOUT_MS }).complete(
        [{ role: 'user', content: 'Hi' }],
        { maxTokens: 1 },
      );
      return;
    }
    throw errorFromResponse({ engine: 'llm', url }, response.status, response.headers, body);
  });
}

export function probeTranslationEngine(settings: EngineSettings): Promise<Outcome> {
  if (settings.name === 'llm') {
    if (!settings.endpoint || !settings.model) {
      return Promise.resolve({ ok: false, ms: 0, error: 'badRequest: no base URL or model' });
    }
    return probeLlm({ baseUrl: settings.endpoint, model: settings.model, apiKey: settings.apiKey });
  }
  return measured(async () => {
    await createEngine({ ...settings, timeoutMs: PROBE_TIMEOUT_MS }).translate({
      texts: ['Hello'],
      from: 'en',
      to: 'zh',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  });
}
