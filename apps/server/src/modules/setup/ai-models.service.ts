import { AI_MODEL_USES, originOf, type AiModelUse } from '@yidu/shared';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { createLlmClient } from '../../engines/llm/openai-compatible.ts';
import type { LlmClient } from '../../engines/llm/types.ts';
import { createEngine } from '../../engines/translation/registry.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { notify } from '../../lib/notifier.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { EnginesService } from '../translation/engines.service.ts';
import { AiModelsRepo, type StoredUse } from './ai-models.repo.ts';
import { aiKey, describeError, observeLlm, redact, translationKey, type EngineHealth } from './health.ts';

/** Topic announcing that an admin changed the AI models: every process rebuilds its clients. */
export const AI_MODELS_TOPIC = 'aiModels';

/** Where a use's model comes from. */
export type ModelSource = 'admin' | 'environment' | 'inherited' | 'none';

export interface ModelSettings {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
}

/** What admins see of a model: everything but the key itself. */
export interface AiModelView {
  use: AiModelUse;
  baseUrl: string | null;
  model: string | null;
  hasApiKey: boolean;
  /** The key's last four characters, so that admins can tell which one is set. */
  apiKeyHint: string | null;
  source: ModelSource;
  /** translation: the LLM is one of the enabled translation engines; the others: a model is set. */
  enabled: boolean;
}

export interface AiModelUpdate {
  baseUrl: string;
  model: string;
  /** Omitted: keep the stored key (only for the same service). Empty string: remove it. */
  apiKey?: string | undefined;
  /** translation only: whether the LLM translates (as one of the engines, in their order). */
  enabled?: boolean | undefined;
}

export interface ModelTest {
  ok: boolean;
  ms: number;
  sample: string | null;
  error: string | null;
}

const TEST_TIMEOUT_MS = 30_000;
const TEST_SENTENCE = 'Hello, world. This is a test of the translation engine.';

export interface AiModelsDeps {
  db: Db;
  config: Config;
  box: SecretBox;
  logger: Logger;
  engines: EnginesService;
  health: EngineHealth;
}

/**
 * The OpenAI-compatible models behind the AI features, one per use: the LLM translation engine
 * (stored with the other engines), explanations (explanations, advanced explanations, restatements,
 * search answers, glossaries) and annotations (which use the explanation model unless given their
 * own). The environment's LLM_* variables are the defaults until an admin saves a model. Keys are
 * sealed with the app secret and never leave the server; a stored key is only ever sent to the
 * service it was saved for.
 */
export class AiModelsService {
  private readonly repo: AiModelsRepo;
  private readonly d: AiModelsDeps;
  private resolved: Record<StoredUse, { settings: ModelSettings | undefined; source: ModelSource }> = {
    explanation: { settings: undefined, source: 'none' },
    annotation: { settings: undefined, source: 'none' },
  };
  private clients: Record<StoredUse, LlmClient | undefined> = { explanation: undefined, annotation: undefined };

  constructor(deps: AiModelsDeps) {
    this.d = deps;
    this.repo = new AiModelsRepo(deps.db);
    this.build();
  }

  /** The client of a use, undefined when no model is set (the feature answers aiNotConfigured). */
  client(use: StoredUse): LlmClient | undefined {
    return this.clients[use];
  }

  /** Reads the settings again and rebuilds the clients (at start and when any process saved them). */
  async reload(): Promise<void> {
    const stored = new Map((await this.repo.all()).map((row) => [row.use, row]));
    const fromRow = (use: StoredUse): ModelSettings | undefined => {
      const row = stored.get(use);
      if (!row) return undefined;
      const apiKey = row.apiKeySealed ? this.d.box.open(row.apiKeySealed) : undefined;
      if (row.apiKeySealed && apiKey === undefined)
        this.d.logger.warn({ use }, 'an AI model key cannot be read (was APP_SECRET changed?)');
      return { baseUrl: row.baseUrl, model: row.model, apiKey };
    };
    this.build(fromRow('explanation'), fromRow('annotation'));
  }

  private build(explanation?: ModelSettings, annotation?: ModelSettings): void {
    const env = this.d.config.llm;
    const fromEnv: ModelSettings | undefined = env
      ? { baseUrl: env.baseUrl, model: env.model, apiKey: env.apiKey }
      : undefined;
    const ex = explanation
      ? { settings: explanation, source: 'admin' as const }
      : fromEnv
        ? { settings: fromEnv, source: 'environment' as const }
        : { settings: undefined, source: 'none' as const };
    const an = annotation
      ? { settings: annotation, source: 'admin' as const }
      : ex.settings
        ? { settings: ex.settings, source: 'inherited' as const }
        : { settings: undefined, source: 'none' as const };
    this.resolved = { explanation: ex, annotation: an };
    for (const use of ['explanation', 'annotation'] as const) {
      const settings = this.resolved[use].settings;
      this.clients[use] = settings
        ? observeLlm(this.newClient(settings, 60_000), settings.apiKey, aiKey(use), this.d.health)
        : undefined;
    }
  }

  private newClient(settings: ModelSettings, timeoutMs: number): LlmClient {
    return createLlmClient({
      baseUrl: settings.baseUrl,
      model: settings.model,
      timeoutMs,
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    });
  }

  /** The settings a use works with now (translation: the llm engine's). */
  async settingsOf(
    use: AiModelUse,
  ): Promise<{ settings: ModelSettings | undefined; source: ModelSource; enabled: boolean }> {
    if (use !== 'translation') {
      const { settings, source } = this.resolved[use];
      return { settings, source, enabled: settings !== undefined };
    }
    const llm = (await this.d.engines.load()).find((e) => e.name === 'llm');
    const settings =
      llm?.endpoint && llm.model ? { baseUrl: llm.endpoint, model: llm.model, apiKey: llm.apiKey } : undefined;
    const source: ModelSource = !settings ? 'none' : (await this.d.engines.savedByAdmin()) ? 'admin' : 'environment';
    return { settings, source, enabled: Boolean(llm?.enabled && settings) };
  }

  async view(): Promise<AiModelView[]> {
    return Promise.all(
      AI_MODEL_USES.map(async (use) => {
        const { settings, source, enabled } = await this.settingsOf(use);
        return {
          use,
          baseUrl: settings?.baseUrl ?? null,
          model: settings?.model ?? null,
          hasApiKey: Boolean(settings?.apiKey),
          apiKeyHint: settings?.apiKey ? `…${settings.apiKey.slice(-4)}` : null,
          source,
          enabled,
        };
      }),
    );
  }

  /** The key an update ends with: a new one, none, or the stored one if the service stayed the same. */
  private keyFor(update: Pick<AiModelUpdate, 'baseUrl' | 'apiKey'>, current: ModelSettings | undefined) {
    if (update.apiKey !== undefined) return update.apiKey.trim() || undefined;
    return current && originOf(current.baseUrl) === originOf(update.baseUrl) ? current.apiKey : undefined;
  }

  /** Saves a use's model and tells every process to use it from now on. */
  async save(adminId: number, use: AiModelUse, update: AiModelUpdate): Promise<AiModelView[]> {
    const current = await this.settingsOf(use);
    const apiKey = this.keyFor(update, current.source === 'inherited' ? undefined : current.settings);
    if (use === 'translation') {
      await this.saveTranslation(adminId, {
        endpoint: update.baseUrl,
        model: update.model,
        apiKey: apiKey ?? '',
        enabled: update.enabled ?? current.enabled,
      });
    } else {
      await this.repo.put(
        { use, baseUrl: update.baseUrl, model: update.model, apiKeySealed: apiKey ? this.d.box.seal(apiKey) : null },
        adminId,
      );
      await this.changed(use);
    }
    // What was seen of the previous model says nothing about this one.
    await this.d.health.forget(use === 'translation' ? translationKey('llm') : aiKey(use));
    this.d.logger.info({ adminId, use, model: update.model }, 'AI model settings changed');
    return this.view();
  }

  /** Back to the environment's defaults (annotations: back to the explanation model). */
  async reset(adminId: number, use: AiModelUse): Promise<AiModelView[]> {
    if (use === 'translation') {
      const env = this.d.config.translationEngines.find((e) => e.name === 'llm');
      await this.saveTranslation(adminId, {
        endpoint: env?.endpoint ?? null,
        model: env?.model ?? null,
        apiKey: env?.apiKey ?? '',
        enabled: env?.enabled ?? false,
      });
    } else {
      await this.repo.remove(use);
      await this.changed(use);
    }
    await this.d.health.forget(use === 'translation' ? translationKey('llm') : aiKey(use));
    return this.view();
  }

  /** The translation model is the llm engine: the engine list is saved again with its new settings. */
  private async saveTranslation(
    adminId: number,
    llm: { endpoint: string | null; model: string | null; apiKey: string; enabled: boolean },
  ): Promise<void> {
    const engines = await this.d.engines.load();
    await this.d.engines.save(
      adminId,
      engines.map((e) =>
        e.name === 'llm'
          ? { name: 'llm', enabled: llm.enabled, endpoint: llm.endpoint, model: llm.model, apiKey: llm.apiKey }
          : { name: e.name, enabled: e.enabled },
      ),
    );
  }

  private async changed(use: StoredUse): Promise<void> {
    await this.reload();
    await notify(this.d.db, AI_MODELS_TOPIC, { use, at: Date.now() });
  }

  /**
   * The Test button: one short real request, with the saved settings or with the ones being edited
   * (whose key, when left out, is the stored one only for the same service). Translation is tested
   * the way the engine translates, the others with a one-sentence answer.
   */
  async test(use: AiModelUse, candidate?: AiModelUpdate): Promise<ModelTest> {
    const current = await this.settingsOf(use);
    const settings: ModelSettings | undefined = candidate
      ? { baseUrl: candidate.baseUrl, model: candidate.model, apiKey: this.keyFor(candidate, current.settings) }
      : current.settings;
    if (!settings) throw fail('aiNotConfigured');
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(TEST_TIMEOUT_MS);
    let result: ModelTest;
    try {
      let sample: string;
      if (use === 'translation') {
        const engine = createEngine({
          name: 'llm',
          enabled: true,
          endpoint: settings.baseUrl,
          model: settings.model,
          timeoutMs: TEST_TIMEOUT_MS,
          ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        });
        sample = (await engine.translate({ texts: [TEST_SENTENCE], from: 'en', to: 'zh', signal })).texts[0] ?? '';
      } else {
        const answer = await this.newClient(settings, TEST_TIMEOUT_MS).complete(
          [
            { role: 'system', content: 'You help people read books. Answer in one short sentence.' },
            { role: 'user', content: 'Say hello to a new reader.' },
          ],
          { maxTokens: 60, temperature: 0, signal },
        );
        sample = answer.text;
      }
      result = {
        ok: sample.trim() !== '',
        ms: ms(),
        sample: sample.slice(0, 300),
        error: sample.trim() ? null : 'empty answer',
      };
    } catch (error) {
      result = { ok: false, ms: ms(), sample: null, error: describeError(error).slice(0, 500) };
    }
    // A test of what is saved is a measurement of it; a test of an edit is not (yet).
    if (!candidate) {
      await this.d.health.record(
        use === 'translation' ? translationKey('llm') : aiKey(use),
        { ok: result.ok, ms: result.ms, ...(result.error ? { error: result.error } : {}) },
        'test',
        [settings.apiKey],
      );
    }
    if (result.error) result.error = redact(result.error, [settings.apiKey]);
    return result;
  }
}
