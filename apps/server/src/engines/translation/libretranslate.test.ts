import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibreTranslateEngine } from './libretranslate.ts';
import { startFakeLibreTranslate } from './testing/fake-servers.ts';
import type { FakeServer } from './testing/fake-servers.ts';

describe('LibreTranslateEngine', () => {
  let fake: FakeServer;
  beforeEach(async () => {
    fake = await startFakeLibreTranslate({ key: 'lt-key' });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('translates a batch with format html and the api_key', async () => {
    const engine = new LibreTranslateEngine({ endpoint: fake.url, apiKey: 'lt-key' });
    const out = await engine.translate({ texts: ['<em>a</em>', 'b'], from: 'auto', to: 'zh-TW' });
    expect(out.texts).toEqual(['[zt] <em>a</em>', '[zt] b']);
    expect(out.detectedLanguage).toBe('en');
    expect(fake.calls[0]?.json).toEqual({
      q: ['<em>a</em>', 'b'],
      source: 'auto',
      target: 'zt',
      format: 'html',
      api_key: 'lt-key',
    });
  });

  it('maps errors: bad key is auth, a missing language pack is unsupportedLanguage', async () => {
    const wrong = new LibreTranslateEngine({ endpoint: fake.url, apiKey: 'x' });
    await expect(wrong.translate({ texts: ['a'], from: 'en', to: 'de' })).rejects.toMatchObject({
      kind: 'auth',
      message: 'Invalid API key',
    });
    await fake.close();
    fake = await startFakeLibreTranslate({ languages: ['en', 'de'] });
    const engine = new LibreTranslateEngine({ endpoint: fake.url });
    await expect(engine.translate({ texts: ['a'], from: 'en', to: 'jp' })).rejects.toMatchObject({
      kind: 'unsupportedLanguage',
      message: 'ja is not supported',
    });
    expect(engine.supports('sw')).toBe(false);
  });

  it('lets the instance detect a source outside the 26 (which ones it has depends on its models)', async () => {
    const engine = new LibreTranslateEngine({ endpoint: fake.url, apiKey: 'lt-key' });
    await engine.translate({ texts: ['שלום'], from: 'he', to: 'en' });
    expect(fake.calls.at(-1)?.json).toMatchObject({ source: 'auto', target: 'en' });
  });
});
