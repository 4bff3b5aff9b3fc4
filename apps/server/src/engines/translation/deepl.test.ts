import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeeplEngine } from './deepl.ts';
import { startFakeDeepl } from './testing/fake-servers.ts';

describe('DeeplEngine', () => {
  let fake: Awaited<ReturnType<typeof startFakeDeepl>>;
  beforeEach(async () => {
    fake = await startFakeDeepl({ key: 'k:fx' });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('translates a batch with the auth header, html tag handling and DeepL codes', async () => {
    const engine = new DeeplEngine({ apiKey: 'k:fx', endpoint: fake.url });
    const out = await engine.translate({ texts: ['a <strong>b</strong>', 'c'], from: 'en', to: 'zh' });
    expect(out.texts).toEqual(['[ZH-HANS] a <strong>b</strong>', '[ZH-HANS] c']);
    expect(out.detectedLanguage).toBe('en');
    expect(fake.calls[0]?.headers.authorization).toBe('DeepL-Auth-Key k:fx');
    expect(fake.calls[0]?.path).toBe('/v2/translate');
    expect(fake.calls[0]?.json).toEqual({
      text: ['a <strong>b</strong>', 'c'],
      target_lang: 'ZH-HANS',
      source_lang: 'EN',
      tag_handling: 'html',
    });
    await engine.translate({ texts: ['x'], from: 'zh-TW', to: 'zh-TW' });
    expect(fake.calls.at(-1)?.json).toMatchObject({ target_lang: 'ZH-HANT', source_lang: 'ZH' });
    await engine.translate({ texts: ['x'], from: 'auto', to: 'jp' });
    expect(fake.calls.at(-1)?.json).not.toHaveProperty('source_lang');
    expect(fake.calls.at(-1)?.json).toMatchObject({ target_lang: 'JA' });
  });

  it('lacks the languages DeepL does not offer', () => {
    const engine = new DeeplEngine({ apiKey: 'k:fx', endpoint: fake.url });
    for (const code of ['hi', 'bn', 'ur', 'pa', 'mr', 'jv', 'ta', 'sw', 'fa'] as const)
      expect(engine.supports(code)).toBe(false);
    for (const code of ['en', 'zh', 'zh-TW', 'jp', 'ko', 'da', 'vi'] as const) expect(engine.supports(code)).toBe(true);
  });

  it('456 is quota, not retryable; 429 is retryable; 403 is auth', async () => {
    await fake.close();
    fake = await startFakeDeepl({ quotaCharacters: 5 });
    const engine = new DeeplEngine({ apiKey: 'k', endpoint: fake.url });
    await engine.translate({ texts: ['abc'], from: 'en', to: 'de' });
    await expect(engine.translate({ texts: ['abcdef'], from: 'en', to: 'de' })).rejects.toMatchObject({
      engine: 'deepl',
      kind: 'quota',
      status: 456,
      retryable: false,
      message: 'Quota exceeded',
    });
    fake.setBehaviour({ failNext: [{ status: 429 }] });
    await expect(engine.translate({ texts: ['a'], from: 'en', to: 'de' })).rejects.toMatchObject({
      kind: 'rateLimited',
      retryable: true,
    });
    await fake.close();
    fake = await startFakeDeepl({ key: 'right' });
    const wrong = new DeeplEngine({ apiKey: 'wrong', endpoint: fake.url });
    await expect(wrong.translate({ texts: ['a'], from: 'en', to: 'de' })).rejects.toMatchObject({
      kind: 'auth',
      status: 403,
    });
  });

  it('sends a source detected outside the 26 when DeepL knows it, else none', async () => {
    const engine = new DeeplEngine({ apiKey: 'k:fx', endpoint: fake.url });
    await engine.translate({ texts: ['Dobrý den'], from: 'cs', to: 'de' });
    expect(fake.calls.at(-1)?.json).toMatchObject({ source_lang: 'CS', target_lang: 'DE' });
    await engine.translate({ texts: ['שלום'], from: 'he', to: 'de' });
    expect(fake.calls.at(-1)?.json).not.toHaveProperty('source_lang');
  });
});
