import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '@yidu/shared';
import { DeeplEngine } from './deepl.ts';
import { GoogleEngine } from './google.ts';
import { LibreTranslateEngine } from './libretranslate.ts';
import { LlmTranslationEngine } from './llm.ts';
import { MicrosoftEngine } from './microsoft.ts';
import { createEngine, createTranslationChain, engineSettingsFromEnv } from './registry.ts';

describe('engine registry', () => {
  it('defaults to keyless Microsoft', () => {
    expect(engineSettingsFromEnv({})).toEqual([{ name: 'microsoft', enabled: true }]);
  });

  it('reads the ordered list and each engine’s variables', () => {
    const settings = engineSettingsFromEnv({
      TRANSLATION_ENGINES: ' deepl, microsoft ,llm,google,libretranslate,microsoft',
      MICROSOFT_TRANSLATOR_KEY: 'ms-key',
      MICROSOFT_TRANSLATOR_REGION: 'eastasia',
      DEEPL_API_KEY: 'dk:fx',
      GOOGLE_TRANSLATE_KEY: '',
      LIBRETRANSLATE_URL: 'http://lt:5000',
      LIBRETRANSLATE_API_KEY: 'lk',
      LLM_BASE_URL: 'http://localhost:11434/v1',
      LLM_MODEL: 'qwen2.5:7b',
    });
    expect(settings).toEqual([
      { name: 'deepl', enabled: true, apiKey: 'dk:fx' },
      { name: 'microsoft', enabled: true, apiKey: 'ms-key', region: 'eastasia' },
      { name: 'llm', enabled: true, endpoint: 'http://localhost:11434/v1', model: 'qwen2.5:7b' },
      { name: 'google', enabled: true },
      { name: 'libretranslate', enabled: true, endpoint: 'http://lt:5000', apiKey: 'lk' },
    ]);
  });

  it('disables engines that miss what they need and rejects unknown names', () => {
    expect(engineSettingsFromEnv({ TRANSLATION_ENGINES: 'deepl,llm,libretranslate' })).toEqual([
      { name: 'deepl', enabled: false },
      { name: 'llm', enabled: false },
      { name: 'libretranslate', enabled: false },
    ]);
    expect(() => engineSettingsFromEnv({ TRANSLATION_ENGINES: 'microsoft,bing' })).toThrow(
      /Unknown translation engine 'bing'/,
    );
  });

  it('creates each engine with its limits', () => {
    const ms = createEngine({ name: 'microsoft', enabled: true, concurrency: 7, requestsPerMinute: 100, timeoutMs: 5 });
    expect(ms).toBeInstanceOf(MicrosoftEngine);
    expect(ms.limits).toEqual({ concurrency: 7, requestsPerMinute: 100, timeoutMs: 5 });
    expect((ms as MicrosoftEngine).keyless).toBe(true);
    expect((createEngine({ name: 'microsoft', enabled: true, apiKey: 'k' }) as MicrosoftEngine).keyless).toBe(false);
    expect(createEngine({ name: 'google', enabled: true })).toBeInstanceOf(GoogleEngine);
    expect(createEngine({ name: 'deepl', enabled: true, apiKey: 'k' })).toBeInstanceOf(DeeplEngine);
    expect(() => createEngine({ name: 'deepl', enabled: true })).toThrow(/DeepL needs an API key/);
    expect(createEngine({ name: 'libretranslate', enabled: true, endpoint: 'http://x' })).toBeInstanceOf(
      LibreTranslateEngine,
    );
    const llm = createEngine({ name: 'llm', enabled: true, endpoint: 'http://x/v1', model: 'gpt-4o-mini' });
    expect(llm).toBeInstanceOf(LlmTranslationEngine);
    expect(llm.model).toBe('gpt-4o-mini');
    expect(llm.limits?.concurrency).toBe(3);
    expect(() => createEngine({ name: 'llm', enabled: true })).toThrow(/base URL and a model/);
  });

  it('every engine supports most reading languages, and Google and the LLM all 26', () => {
    const engines = [
      createEngine({ name: 'microsoft', enabled: true }),
      createEngine({ name: 'google', enabled: true }),
      createEngine({ name: 'deepl', enabled: true, apiKey: 'k' }),
      createEngine({ name: 'libretranslate', enabled: true, endpoint: 'http://x' }),
      createEngine({ name: 'llm', enabled: true, endpoint: 'http://x/v1', model: 'm' }),
    ];
    const counts = engines.map((e) => LANGUAGE_CODES.filter((c) => e.supports(c)).length);
    expect(counts).toEqual([25, 26, 17, 21, 26]);
  });

  it('chains only the enabled engines, in order', () => {
    const chain = createTranslationChain([
      { name: 'deepl', enabled: false },
      { name: 'google', enabled: true },
      { name: 'microsoft', enabled: true },
    ]);
    expect(chain.engines.map((e) => e.name)).toEqual(['google', 'microsoft']);
  });
});
