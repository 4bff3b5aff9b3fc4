import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from './errors.ts';
import { MicrosoftEngine } from './microsoft.ts';
import { startFakeMicrosoft } from './testing/fake-servers.ts';
import type { FakeMicrosoft } from './testing/fake-servers.ts';

describe('MicrosoftEngine', () => {
  let fake: FakeMicrosoft;
  beforeEach(async () => {
    fake = await startFakeMicrosoft();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('translates keyless with an Edge token, maps codes and keeps inline tags', async () => {
    const engine = new MicrosoftEngine({ endpoint: fake.url });
    const out = await engine.translate({
      texts: ['Hello <em>world</em>.', 'Second <a href="#n1"><sup>1</sup></a>'],
      from: 'auto',
      to: 'zh',
    });
    expect(out.texts).toEqual(['[zh-Hans] Hello <em>world</em>.', '[zh-Hans] Second <a href="#n1"><sup>1</sup></a>']);
    expect(out.characters).toBe('Hello <em>world</em>.'.length + 'Second <a href="#n1"><sup>1</sup></a>'.length);
    expect(out.detectedLanguage).toBe('en');

    const translate = fake.calls.filter((c) => c.path === '/translate');
    expect(translate).toHaveLength(1);
    expect(translate[0]?.query).toMatchObject({ 'api-version': '3.0', to: 'zh-Hans', textType: 'html' });
    expect(translate[0]?.query.from).toBeUndefined();
    expect(translate[0]?.json).toEqual([
      { Text: 'Hello <em>world</em>.' },
      { Text: 'Second <a href="#n1"><sup>1</sup></a>' },
    ]);
    expect(translate[0]?.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\./);
  });

  it('maps jp to ja, zh-TW to zh-Hant and sends from when known', async () => {
    const engine = new MicrosoftEngine({ endpoint: fake.url });
    expect((await engine.translate({ texts: ['a'], from: 'zh-TW', to: 'jp' })).texts).toEqual(['[ja] a']);
    expect(fake.calls.at(-1)?.query).toMatchObject({ from: 'zh-Hant', to: 'ja' });
    expect(engine.supports('jv')).toBe(false);
    expect(engine.supports('pa')).toBe(true);
    await expect(engine.translate({ texts: ['a'], from: 'auto', to: 'jv' })).rejects.toMatchObject({
      kind: 'unsupportedLanguage',
    });
  });

  it('caches the token across calls and refreshes it once on 401', async () => {
    const engine = new MicrosoftEngine({ endpoint: fake.url });
    await engine.translate({ texts: ['one'], from: 'en', to: 'de' });
    await engine.translate({ texts: ['two'], from: 'en', to: 'de' });
    expect(fake.tokensIssued).toBe(1);

    fake.expireTokens();
    const out = await engine.translate({ texts: ['three'], from: 'en', to: 'de' });
    expect(out.texts).toEqual(['[de] three']);
    expect(fake.tokensIssued).toBe(2);
    expect(fake.calls.map((c) => c.path)).toEqual([
      '/translate/auth',
      '/translate',
      '/translate',
      '/translate', // 401 with the revoked token
      '/translate/auth',
      '/translate',
    ]);
  });

  it('shares one token fetch between concurrent calls', async () => {
    const engine = new MicrosoftEngine({ endpoint: fake.url });
    await Promise.all(['a', 'b', 'c'].map((t) => engine.translate({ texts: [t], from: 'en', to: 'fr' })));
    expect(fake.tokensIssued).toBe(1);
  });

  it('refetches a token that is within a minute of its exp', async () => {
    await fake.close();
    fake = await startFakeMicrosoft({ tokenTtlSeconds: 30 });
    const engine = new MicrosoftEngine({ endpoint: fake.url });
    await engine.translate({ texts: ['a'], from: 'en', to: 'fr' });
    await engine.translate({ texts: ['b'], from: 'en', to: 'fr' });
    expect(fake.tokensIssued).toBe(2);
  });

  it('reports a 401 that survives a token refresh as auth (not retryable)', async () => {
    const engine = new MicrosoftEngine({ endpoint: fake.url });
    fake.setBehaviour({ failNext: [{ status: 401 }, { status: 401 }] });
    const err = (await engine
      .translate({ texts: ['a'], from: 'en', to: 'fr' })
      .catch((e: unknown) => e)) as EngineError;
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ engine: 'microsoft', kind: 'auth', status: 401, retryable: false });
    expect(err.message).toContain('credentials are missing or invalid');
    expect(fake.tokensIssued).toBe(2);
  });

  it('uses the subscription key and region in key mode, and reports 429 with Retry-After', async () => {
    await fake.close();
    fake = await startFakeMicrosoft({ key: 'azure-key' });
    const engine = new MicrosoftEngine({ endpoint: fake.url, apiKey: 'azure-key', region: 'eastasia' });
    expect((await engine.translate({ texts: ['x'], from: 'en', to: 'ko' })).texts).toEqual(['[ko] x']);
    expect(fake.calls.some((c) => c.path === '/translate/auth')).toBe(false);
    expect(fake.calls[0]?.headers).toMatchObject({
      'ocp-apim-subscription-key': 'azure-key',
      'ocp-apim-subscription-region': 'eastasia',
    });

    fake.setBehaviour({ failNext: [{ status: 429, retryAfter: 2 }] });
    await expect(engine.translate({ texts: ['x'], from: 'en', to: 'ko' })).rejects.toMatchObject({
      kind: 'rateLimited',
      status: 429,
      retryAfterMs: 2000,
      retryable: true,
    });

    const wrong = new MicrosoftEngine({ endpoint: fake.url, apiKey: 'nope' });
    await expect(wrong.translate({ texts: ['x'], from: 'en', to: 'ko' })).rejects.toMatchObject({ kind: 'auth' });
  });

  it('does not call the service for blank texts', async () => {
    const engine = new MicrosoftEngine({ endpoint: fake.url });
    const out = await engine.translate({ texts: ['', '  ', 'x'], from: 'en', to: 'it' });
    expect(out.texts).toEqual(['', '  ', '[it] x']);
    expect(out.characters).toBe(1);
    expect(fake.calls.at(-1)?.json).toEqual([{ Text: 'x' }]);
  });

  it('sends a source detected outside the 26 when Microsoft knows it, else lets it detect the source', async () => {
    const engine = new MicrosoftEngine({ endpoint: fake.url });
    expect((await engine.translate({ texts: ['שלום'], from: 'he', to: 'zh' })).texts).toEqual(['[zh-Hans] שלום']);
    expect(fake.calls.at(-1)?.query).toMatchObject({ from: 'he', to: 'zh-Hans' });
    await engine.translate({ texts: ['Norsk'], from: 'no', to: 'en' });
    expect(fake.calls.at(-1)?.query.from).toBe('nb');
    // Microsoft has no Latin: the service detects the source.
    await engine.translate({ texts: ['In principio erat verbum'], from: 'la', to: 'en' });
    expect(fake.calls.at(-1)?.query.from).toBeUndefined();
  });
});
