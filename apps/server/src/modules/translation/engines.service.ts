import { originOf } from '@yidu/shared';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import { createEngine, type EngineSettings } from '../../engines/translation/registry.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import { ENGINE_NAMES, type EngineName } from '../../engines/translation/types.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { notify } from '../../lib/notifier.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { EnginesRepo } from './engines.repo.ts';

/** Topic announcing that an admin changed the engine settings: every process reloads them. */
export const ENGINES_TOPIC = 'engines';

/** What admins see of an engine: everything but the key itself. */
export interface EngineView {
  name: EngineName;
  enabled: boolean;
  endpoint: string | null;
  region: string | null;
  model: string | null;
  timeoutMs: number | null;
  concurrency: number | null;
  requestsPerMinute: number | null;
  hasApiKey: boolean;
  /** The key's last four characters, so that admins can tell which one is set. */
  apiKeyHint: string | null;
}

export interface EngineUpdate {
  name: EngineName;
  enabled: boolean;
  endpoint?: string | null;
  region?: string | null;
  model?: string | null;
  timeoutMs?: number | null;
  concurrency?: number | null;
  requestsPerMinute?: number | null;
  /** Omitted: keep the current key (for the same service only, see keyFor). Empty string: remove it. */
  apiKey?: string;
}

/**
 * The key an engine ends with: a new one, none, or the stored one — only while the engine still
 * talks to the service the key was saved for. Pointing an engine at another address never sends the
 * stored key there (a key is re-entered for a new service).
 */
function keyFor(update: EngineUpdate, current: EngineSettings | undefined): string | undefined {
  if (update.apiKey !== undefined) return update.apiKey.trim() || undefined;
  if (!current?.apiKey) return undefined;
  const endpoint = update.endpoint === undefined ? current.endpoint : update.endpoint;
  return originOf(endpoint) === originOf(current.endpoint) ? current.apiKey : undefined;
}

const SETTING_KEYS = ['endpoint', 'region', 'model', 'timeoutMs', 'concurrency', 'requestsPerMinute'] as const;

/**
 * Engine settings: from the environment until an admin saves them, then from the database (keys
 * sealed with the app secret). The list order is the fallback order.
 */
export class EnginesService {
  private readonly db: Db;
  private readonly repo: EnginesRepo;
  private readonly config: Config;
  private readonly box: SecretBox;
  private readonly logger: Logger;
  constructor(deps: { db: Db; repo: EnginesRepo; config: Config; box: SecretBox; logger: Logger }) {
    this.db = deps.db;
    this.repo = deps.repo;
    this.config = deps.config;
    this.box = deps.box;
    this.logger = deps.logger;
  }

  /** All five engines in order: the configured ones first, then the others, disabled. */
  async load(): Promise<EngineSettings[]> {
    const rows = await this.repo.all();
    const configured: EngineSettings[] =
      rows.length > 0
        ? rows.map((row) => {
            const settings: EngineSettings = {
              name: row.name as EngineName,
              enabled: row.enabled,
              ...(row.settings as object),
            };
            const key = row.api_key_sealed ? this.box.open(row.api_key_sealed) : undefined;
            if (row.api_key_sealed && key === undefined)
              this.logger.warn({ engine: row.name }, 'an engine key cannot be read (was APP_SECRET changed?)');
            if (key) settings.apiKey = key;
            return settings;
          })
        : this.config.translationEngines.map((s) => ({ ...s }));
    const seen = new Set(configured.map((s) => s.name));
    return [...configured, ...ENGINE_NAMES.filter((n) => !seen.has(n)).map((name) => ({ name, enabled: false }))];
  }

  /** Whether an admin has saved the engine list (else it comes from the environment). */
  async savedByAdmin(): Promise<boolean> {
    return this.repo.anySaved();
  }

  async view(): Promise<EngineView[]> {
    return (await this.load()).map((s) => ({
      name: s.name,
      enabled: s.enabled,
      endpoint: s.endpoint ?? null,
      region: s.region ?? null,
      model: s.model ?? null,
      timeoutMs: s.timeoutMs ?? null,
      concurrency: s.concurrency ?? null,
      requestsPerMinute: s.requestsPerMinute ?? null,
      hasApiKey: Boolean(s.apiKey),
      apiKeyHint: s.apiKey ? `…${s.apiKey.slice(-4)}` : null,
    }));
  }

  /** Saves the whole list (its order is the fallback order) and tells every process to reload. */
  async save(adminId: number, updates: EngineUpdate[]): Promise<EngineView[]> {
    const names = updates.map((u) => u.name);
    if (new Set(names).size !== names.length) throw fail('badRequest', { reason: 'duplicateEngine' });
    const current = new Map((await this.load()).map((s) => [s.name, s]));
    const next: EngineSettings[] = updates.map((u) => {
      const settings: EngineSettings = { name: u.name, enabled: u.enabled };
      for (const key of SETTING_KEYS) {
        const value = u[key] === undefined ? current.get(u.name)?.[key] : u[key];
        if (value !== null && value !== undefined) (settings as unknown as Record<string, unknown>)[key] = value;
      }
      const apiKey = keyFor(u, current.get(u.name));
      if (apiKey) settings.apiKey = apiKey;
      return settings;
    });
    for (const settings of next.filter((s) => s.enabled)) {
      try {
        createEngine(settings);
      } catch (error) {
        throw fail('badRequest', { engine: settings.name, reason: (error as Error).message });
      }
    }
    await this.repo.replaceAll(
      next.map((s, position) => {
        const { name, enabled, apiKey, ...rest } = s;
        return {
          name,
          position,
          enabled,
          settings: JSON.stringify(rest),
          api_key_sealed: apiKey ? this.box.seal(apiKey) : null,
          updated_by: adminId,
        };
      }),
    );
    await notify(this.db, ENGINES_TOPIC, { at: Date.now() });
    this.logger.info(
      { adminId, order: next.filter((s) => s.enabled).map((s) => s.name) },
      'translation engine settings changed',
    );
    return this.view();
  }

  /** The admin's Test button: one short real translation through that engine alone. */
  async test(name: EngineName): Promise<{ ok: boolean; ms: number; sample: string | null; error: string | null }> {
    const settings = (await this.load()).find((s) => s.name === name);
    if (!settings) throw fail('notFound');
    const started = performance.now();
    try {
      const engine = createEngine(settings);
      const result = await engine.translate({
        texts: ['Hello, world. This is a test of the translation engine.'],
        from: 'en',
        to: 'zh',
        signal: AbortSignal.timeout(30_000),
      });
      return { ok: true, ms: Math.round(performance.now() - started), sample: result.texts[0] ?? '', error: null };
    } catch (error) {
      const message = error instanceof EngineError ? `${error.kind}: ${error.message}` : (error as Error).message;
      return { ok: false, ms: Math.round(performance.now() - started), sample: null, error: message.slice(0, 500) };
    }
  }
}
