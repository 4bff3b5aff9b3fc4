import { DeeplEngine } from './deepl.ts';
import { GoogleEngine } from './google.ts';
import { LibreTranslateEngine } from './libretranslate.ts';
import { LlmTranslationEngine } from './llm.ts';
import { MicrosoftEngine } from './microsoft.ts';
import { TranslationChain } from './resilient.ts';
import type { TranslationChainOptions } from './resilient.ts';
import { ENGINE_NAMES } from './types.ts';
import type { EngineLimits, EngineName, TranslationEngine } from './types.ts';

/** One per engine, stored (encrypted) by the admin later. */
export interface EngineSettings {
  name: EngineName;
  enabled: boolean;
  /** Base URL override (tests point it at a fake server; self-hosters at proxies). */
  endpoint?: string;
  apiKey?: string;
  /** Azure region for microsoft key mode. */
  region?: string;
  /** llm: the chat model. */
  model?: string;
  timeoutMs?: number;
  concurrency?: number;
  requestsPerMinute?: number;
  /** Optional request-size overrides (e.g. a LibreTranslate server started with a higher --char-limit). */
  maxBatchItems?: number;
  maxBatchChars?: number;
}

/**
 * Defaults per engine: the keyless endpoints are shared with every browser in the world, so they get
 * a modest pace; local LLMs serve one or two requests at a time.
 */
const DEFAULT_LIMITS: Record<EngineName, Required<Pick<EngineLimits, 'concurrency' | 'timeoutMs'>>> = {
  microsoft: { concurrency: 4, timeoutMs: 20_000 },
  google: { concurrency: 4, timeoutMs: 20_000 },
  deepl: { concurrency: 4, timeoutMs: 30_000 },
  // Three requests at a time: hosted APIs take many more; a local server queues them without harm.
  llm: { concurrency: 3, timeoutMs: 120_000 },
  libretranslate: { concurrency: 2, timeoutMs: 60_000 },
};

function limitsOf(settings: EngineSettings): EngineLimits {
  const defaults = DEFAULT_LIMITS[settings.name];
  return {
    concurrency: settings.concurrency ?? defaults.concurrency,
    timeoutMs: settings.timeoutMs ?? defaults.timeoutMs,
    ...(settings.requestsPerMinute ? { requestsPerMinute: settings.requestsPerMinute } : {}),
  };
}

/** Builds an engine from its settings (whether or not it is enabled: the admin's Test button uses this too). */
export function createEngine(settings: EngineSettings): TranslationEngine {
  const limits = limitsOf(settings);
  const common = {
    limits,
    timeoutMs: limits.timeoutMs,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.maxBatchItems ? { maxBatchItems: settings.maxBatchItems } : {}),
    ...(settings.maxBatchChars ? { maxBatchChars: settings.maxBatchChars } : {}),
  };
  switch (settings.name) {
    case 'microsoft':
      return new MicrosoftEngine({
        ...common,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        ...(settings.region ? { region: settings.region } : {}),
      });
    case 'google':
      return new GoogleEngine({ ...common, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) });
    case 'deepl':
      if (!settings.apiKey) throw new Error('DeepL needs an API key (DEEPL_API_KEY)');
      return new DeeplEngine({ ...common, apiKey: settings.apiKey });
    case 'libretranslate':
      return new LibreTranslateEngine({ ...common, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) });
    case 'llm': {
      if (!settings.endpoint || !settings.model) {
        throw new Error('The llm engine needs a base URL and a model (LLM_BASE_URL, LLM_MODEL)');
      }
      const { endpoint: _endpoint, ...rest } = common;
      return new LlmTranslationEngine({
        ...rest,
        baseUrl: settings.endpoint,
        model: settings.model,
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      });
    }
    default: {
      const name: never = settings.name;
      throw new Error(`Unknown translation engine '${String(name)}'`);
    }
  }
}

function clean(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/**
 * Settings from the environment: TRANSLATION_ENGINES (ordered, comma-separated, default 'microsoft'),
 * MICROSOFT_TRANSLATOR_KEY, MICROSOFT_TRANSLATOR_REGION, DEEPL_API_KEY, GOOGLE_TRANSLATE_KEY,
 * LIBRETRANSLATE_URL, LIBRETRANSLATE_API_KEY, LLM_BASE_URL, LLM_API_KEY, LLM_MODEL, and the endpoint
 * overrides MICROSOFT_TRANSLATOR_ENDPOINT, GOOGLE_TRANSLATE_ENDPOINT, DEEPL_ENDPOINT (a proxy or
 * mirror where the public endpoint cannot be reached; tests point them at fake servers).
 * An engine listed without what it cannot work without (DeepL key, LLM URL and model, LibreTranslate
 * URL) comes back with enabled: false. An unknown name throws: a typo should stop the boot, not
 * silently drop a paid engine.
 */
export function engineSettingsFromEnv(env: NodeJS.ProcessEnv): EngineSettings[] {
  const names = (clean(env.TRANSLATION_ENGINES) ?? 'microsoft')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  const seen = new Set<string>();
  const out: EngineSettings[] = [];
  for (const raw of names) {
    if (seen.has(raw)) continue;
    seen.add(raw);
    if (!(ENGINE_NAMES as readonly string[]).includes(raw)) {
      throw new Error(`Unknown translation engine '${raw}' in TRANSLATION_ENGINES (known: ${ENGINE_NAMES.join(', ')})`);
    }
    const name = raw as EngineName;
    const settings: EngineSettings = { name, enabled: true };
    const set = (key: 'endpoint' | 'apiKey' | 'region' | 'model', value: string | undefined) => {
      if (value !== undefined) settings[key] = value;
    };
    switch (name) {
      case 'microsoft':
        set('apiKey', clean(env.MICROSOFT_TRANSLATOR_KEY));
        set('region', clean(env.MICROSOFT_TRANSLATOR_REGION));
        set('endpoint', clean(env.MICROSOFT_TRANSLATOR_ENDPOINT));
        break;
      case 'google':
        set('apiKey', clean(env.GOOGLE_TRANSLATE_KEY));
        set('endpoint', clean(env.GOOGLE_TRANSLATE_ENDPOINT));
        break;
      case 'deepl':
        set('apiKey', clean(env.DEEPL_API_KEY));
        set('endpoint', clean(env.DEEPL_ENDPOINT));
        settings.enabled = settings.apiKey !== undefined;
        break;
      case 'libretranslate':
        set('endpoint', clean(env.LIBRETRANSLATE_URL));
        set('apiKey', clean(env.LIBRETRANSLATE_API_KEY));
        settings.enabled = settings.endpoint !== undefined;
        break;
      case 'llm':
        set('endpoint', clean(env.LLM_BASE_URL));
        set('apiKey', clean(env.LLM_API_KEY));
        set('model', clean(env.LLM_MODEL));
        settings.enabled = settings.endpoint !== undefined && settings.model !== undefined;
        break;
    }
    out.push(settings);
  }
  return out;
}

/** The enabled engines, in order, wrapped in one TranslationChain. */
export function createTranslationChain(
  settings: EngineSettings[],
  options?: TranslationChainOptions,
): TranslationChain {
  return new TranslationChain(settings.filter((s) => s.enabled).map(createEngine), options);
}
