import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoogleEngine } from './google.ts';
import { startFakeGoogle } from './testing/fake-servers.ts';
import type { FakeServer } from './testing/fake-servers.ts';

describe('GoogleEngine', () => {
  let fake: FakeServer;
  beforeEach(async () => {
    fake = await startFakeGoogle({ key: 'g-key' });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('keyless: one request per text, sentences joined, codes mapped', async () => {
    const engine = new GoogleEngine({ endpoint: fake.url, concurrency: 2 });
    expect(engine.maxBatchItems).toBe(1);
    expect(engine.model).toBe('google-gtx');
    const out = await engine.translate({
      texts: ['First sentence. Second one! Third?', 'Plain <b>bold</b>', 'x'],
      from: 'auto',
      to: 'zh',
    });
    expect(out.texts).toEqual(['[zh-CN] First sentence. Second one! Third?', '[zh-CN] Plain <b>bold</b>', '[zh-CN] x']);
    expect(out.detectedLanguage).toBe('en');
    expect(fake.calls).toHaveLength(3);
    expect(fake.calls[0]?.query).toMatchObject({ client: 'gtx', sl: 'auto', tl: 'zh-CN', dt: 't' });
    expect(fake.maxInFlight).toBeLessThanOrEqual(2);
  });

  it('keyless: maps jp→ja, zh-TW→zh-TW, jv→jw and posts long texts as a form', async () => {
    const engine = new GoogleEngine({ endpoint: fake.url });
    await engine.translate({ texts: ['a'], from: 'jp', to: 'jv' });
    expect(fake.calls.at(-1)?.query).toMatchObject({ sl: 'ja', tl: 'jw' });
    const long = 'word '.repeat(1500).trim();
    const out = await engine.translate({ texts: [long], from: 'en', to: 'zh-TW' });
    expect(out.texts).toEqual([`[zh-TW] ${long}`]);
    expect(fake.calls.at(-1)?.method).toBe('POST');
    expect(fake.calls.at(-1)?.query.q).toBeUndefined();
  });

  it('key mode: Cloud Translation v2 with a batch, html format, key in the query', async () => {
    const engine = new GoogleEngine({ endpoint: fake.url, apiKey: 'g-key' });
    expect(engine.model).toBe('google-v2');
    const out = await engine.translate({ texts: ['<i>a</i>', 'b'], from: 'en', to: 'jp' });
    expect(out.texts).toEqual(['[ja] <i>a</i>', '[ja] b']);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]?.path).toBe('/language/translate/v2');
    expect(fake.calls[0]?.query.key).toBe('g-key');
    expect(fake.calls[0]?.json).toEqual({ q: ['<i>a</i>', 'b'], target: 'ja', source: 'en', format: 'html' });
  });

  it('key mode: an invalid key is auth, not retryable', async () => {
    const engine = new GoogleEngine({ endpoint: fake.url, apiKey: 'bad' });
    await expect(engine.translate({ texts: ['a'], from: 'en', to: 'de' })).rejects.toMatchObject({
      engine: 'google',
      kind: 'auth',
      retryable: false,
      message: 'API key not valid. Please pass a valid API key.',
    });
  });

  it('keyless: a 429 HTML page is rateLimited', async () => {
    const engine = new GoogleEngine({ endpoint: fake.url });
    fake.setBehaviour({ failNext: [{ status: 429, retryAfter: 1 }] });
    await expect(engine.translate({ texts: ['a'], from: 'en', to: 'de' })).rejects.toMatchObject({
      kind: 'rateLimited',
      retryAfterMs: 1000,
    });
  });

  it('sends a source detected outside the 26 when Google knows it, else auto', async () => {
    const engine = new GoogleEngine({ endpoint: fake.url });
    await engine.translate({ texts: ['In principio erat verbum'], from: 'la', to: 'en' });
    expect(fake.calls.at(-1)?.query).toMatchObject({ sl: 'la', tl: 'en' });
    await engine.translate({ texts: ['x'], from: 'tlh', to: 'en' });
    expect(fake.calls.at(-1)?.query).toMatchObject({ sl: 'auto' });
  });
});
