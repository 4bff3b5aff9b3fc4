import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from './errors.ts';
import { createEngine } from './registry.ts';
import { splitBatches, TranslationChain } from './resilient.ts';
import type { TranslationChainOptions } from './resilient.ts';
import {
  startFakeDeepl,
  startFakeGoogle,
  startFakeLibreTranslate,
  startFakeMicrosoft,
} from './testing/fake-servers.ts';
import type { FakeMicrosoft, FakeServer } from './testing/fake-servers.ts';

const translateCalls = (fake: FakeServer) => fake.calls.filter((c) => c.path !== '/translate/auth');

describe('TranslationChain', () => {
  let ms: FakeMicrosoft;
  let google: FakeServer;
  let deepl: FakeServer;
  let libre: FakeServer;
  let warnings: { o: Record<string, unknown>; m: string }[];
  let sleeps: number[];
  let options: TranslationChainOptions;

  beforeEach(async () => {
    [ms, google, deepl, libre] = await Promise.all([
      startFakeMicrosoft(),
      startFakeGoogle(),
      startFakeDeepl({ key: 'good:fx' }),
      startFakeLibreTranslate(),
    ]);
    warnings = [];
    sleeps = [];
    options = {
      logger: { warn: (o, m) => warnings.push({ o: o as Record<string, unknown>, m }) },
      baseDelayMs: 10,
      random: () => 0.5,
      sleep: async (msDelay) => {
        sleeps.push(msDelay);
      },
    };
  });
  afterEach(async () => {
    await Promise.all([ms, google, deepl, libre].map((f) => f.close()));
  });

  const microsoft = (extra: object = {}) =>
    createEngine({ name: 'microsoft', enabled: true, endpoint: ms.url, ...extra });
  const googleEngine = (extra: object = {}) =>
    createEngine({ name: 'google', enabled: true, endpoint: google.url, ...extra });
  const deeplEngine = (apiKey = 'good:fx') =>
    createEngine({ name: 'deepl', enabled: true, endpoint: deepl.url, apiKey });
  const libreEngine = () => createEngine({ name: 'libretranslate', enabled: true, endpoint: libre.url });

  it('honours Retry-After on 429 and then succeeds on the same engine', async () => {
    ms.setBehaviour({ failNext: [{ status: 429, retryAfter: 0.25 }] });
    const chain = new TranslationChain([microsoft(), googleEngine()], options);
    const out = await chain.translate({ texts: ['a', 'b'], from: 'en', to: 'de' });
    expect(out).toMatchObject({
      texts: ['[de] a', '[de] b'],
      engine: 'microsoft',
      model: 'microsoft-v3',
      characters: 2,
    });
    expect(sleeps).toEqual([250]);
    expect(translateCalls(ms)).toHaveLength(2);
    expect(google.calls).toHaveLength(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.o).toMatchObject({ engine: 'microsoft', kind: 'rateLimited', status: 429, retry: true });
    expect(warnings[0]?.m).toContain('client has exceeded request limits');
  });

  it('retries a 500 with exponential backoff, then falls back to the next engine', async () => {
    ms.setBehaviour({ failNext: [{ status: 500 }, { status: 500 }, { status: 500 }] });
    const chain = new TranslationChain([microsoft(), deeplEngine()], { ...options, maxRetries: 2 });
    const out = await chain.translate({ texts: ['a', 'b'], from: 'en', to: 'zh' });
    expect(out.texts).toEqual(['[ZH-HANS] a', '[ZH-HANS] b']);
    expect(out.engine).toBe('deepl');
    expect(out.sources).toEqual([
      { engine: 'deepl', model: 'deepl-v2' },
      { engine: 'deepl', model: 'deepl-v2' },
    ]);
    expect(translateCalls(ms)).toHaveLength(3);
    expect(deepl.calls).toHaveLength(1);
    // Full jitter with random() = 0.5: 0.5·10·2^0, 0.5·10·2^1.
    expect(sleeps).toEqual([5, 10]);
    expect(warnings.map((w) => w.o.kind)).toEqual(['server', 'server', 'server', 'server']);
    expect(warnings.at(-1)?.m).toMatch(/falls back from microsoft to deepl/);
  });

  it('times out a hanging engine, retries it, then falls back', async () => {
    ms.setBehaviour({ hang: true });
    const chain = new TranslationChain([microsoft({ timeoutMs: 100 }), googleEngine()], { ...options, maxRetries: 1 });
    const out = await chain.translate({ texts: ['x'], from: 'en', to: 'fr' });
    expect(out).toMatchObject({ texts: ['[fr] x'], engine: 'google', model: 'google-gtx' });
    expect(translateCalls(ms)).toHaveLength(2);
    expect(warnings.slice(0, 2).map((w) => w.o.kind)).toEqual(['timeout', 'timeout']);
  });

  it('does not retry an auth failure', async () => {
    const chain = new TranslationChain([deeplEngine('wrong'), libreEngine()], options);
    const out = await chain.translate({ texts: ['x'], from: 'en', to: 'fr' });
    expect(out).toMatchObject({ texts: ['[fr] x'], engine: 'libretranslate' });
    expect(deepl.calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(warnings[0]?.o).toMatchObject({ engine: 'deepl', kind: 'auth', retry: false });
  });

  it('treats DeepL 456 as quota: no retry, straight to the next engine', async () => {
    deepl.setBehaviour({ failNext: [{ status: 456 }] });
    const chain = new TranslationChain([deeplEngine(), microsoft()], options);
    const out = await chain.translate({ texts: ['x'], from: 'en', to: 'jp' });
    expect(out).toMatchObject({ texts: ['[ja] x'], engine: 'microsoft' });
    expect(deepl.calls).toHaveLength(1);
    expect(warnings[0]?.o).toMatchObject({ kind: 'quota', status: 456, retry: false });
    expect(warnings[0]?.m).toContain('Quota exceeded');
  });

  it('does not wait for a Retry-After beyond maxRetryAfterMs', async () => {
    ms.setBehaviour({ failNext: [{ status: 429, retryAfter: 3600 }] });
    const chain = new TranslationChain([microsoft(), googleEngine()], options);
    const out = await chain.translate({ texts: ['x'], from: 'en', to: 'fr' });
    expect(out.engine).toBe('google');
    expect(sleeps).toEqual([]);
  });

  it('throws the last EngineError when every engine fails', async () => {
    ms.setBehaviour({ failNext: [{ status: 403, body: { error: { code: 403001, message: 'Free quota used up' } } }] });
    deepl.setBehaviour({ failNext: [{ status: 400, body: { message: 'Bad request. Reason: bad text' } }] });
    const chain = new TranslationChain([microsoft(), deeplEngine()], options);
    const err = (await chain.translate({ texts: ['x'], from: 'en', to: 'fr' }).catch((e: unknown) => e)) as EngineError;
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({
      engine: 'deepl',
      kind: 'badRequest',
      status: 400,
      message: 'Bad request. Reason: bad text',
    });
    expect(warnings[0]?.o).toMatchObject({ engine: 'microsoft', kind: 'quota' });
  });

  it('skips engines that lack the language and says so when none has it', async () => {
    const chain = new TranslationChain([deeplEngine(), microsoft()], options);
    const out = await chain.translate({ texts: ['x'], from: 'en', to: 'hi' });
    expect(out.engine).toBe('microsoft');
    expect(deepl.calls).toHaveLength(0);
    await expect(chain.translate({ texts: ['x'], from: 'en', to: 'jv' })).rejects.toMatchObject({
      kind: 'unsupportedLanguage',
    });
    await expect(new TranslationChain([]).translate({ texts: ['x'], from: 'en', to: 'de' })).rejects.toMatchObject({
      kind: 'badRequest',
    });
  });

  it('takes a source outside the 26 to the first engine of the target, which sends or detects it', async () => {
    const chain = new TranslationChain([deeplEngine(), microsoft()], options);
    expect(chain.enginesFor({ from: 'he', to: 'de' }).map((e) => e.name)).toEqual(['deepl', 'microsoft']);
    // Javanese is a reading language Microsoft does not have: an engine either has it or not.
    expect(chain.enginesFor({ from: 'jv', to: 'de' })).toEqual([]);
    const out = await chain.translate({ texts: ['שלום'], from: 'he', to: 'de' });
    expect(out.engine).toBe('deepl');
    expect(deepl.calls.at(-1)?.json).not.toHaveProperty('source_lang');
  });

  it('keeps every engine within its concurrency limit, across chains', async () => {
    google.setBehaviour({ latencyMs: 20 });
    const engine = googleEngine({ concurrency: 3 });
    const texts = Array.from({ length: 12 }, (_, i) => `paragraph ${i}`);
    const [a, b] = await Promise.all([
      new TranslationChain([engine], options).translate({ texts, from: 'en', to: 'de' }),
      new TranslationChain([engine], options).translate({ texts, from: 'en', to: 'it' }),
    ]);
    expect(a.texts).toEqual(texts.map((t) => `[de] ${t}`));
    expect(b.texts).toEqual(texts.map((t) => `[it] ${t}`));
    expect(google.calls).toHaveLength(24);
    expect(google.maxInFlight).toBeLessThanOrEqual(3);
    expect(google.maxInFlight).toBeGreaterThan(1);
  });

  it('splits by maxBatchItems and maxBatchChars, keeping order', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `text-${i}!!`); // 9 chars each
    const byItems = new TranslationChain([microsoft({ maxBatchItems: 3 })], options);
    expect((await byItems.translate({ texts, from: 'en', to: 'nl' })).texts).toEqual(texts.map((t) => `[nl] ${t}`));
    expect(translateCalls(ms).map((c) => c.items)).toEqual([3, 3, 1]);
    ms.resetStats();
    const byChars = new TranslationChain([microsoft({ maxBatchChars: 20 })], options);
    expect((await byChars.translate({ texts, from: 'en', to: 'nl' })).texts).toEqual(texts.map((t) => `[nl] ${t}`));
    expect(
      translateCalls(ms)
        .map((c) => c.items)
        .sort(),
    ).toEqual([1, 2, 2, 2]);
  });

  it('splitBatches sends an oversized text alone', () => {
    const texts = ['aaaa', 'b'.repeat(50), 'cc', 'dd', 'ee'];
    expect(splitBatches(texts, [0, 1, 2, 3, 4], 10, 10)).toEqual([[0], [1], [2, 3, 4]]);
    expect(splitBatches(texts, [0, 2, 3, 4], 2, 100)).toEqual([
      [0, 2],
      [3, 4],
    ]);
  });

  it('records which engine served each text when a fallback took part of a call', async () => {
    ms.setBehaviour({
      failNext: [
        { status: 400, body: { error: { code: 400000, message: 'One of the request inputs is not valid.' } } },
      ],
    });
    const chain = new TranslationChain([microsoft({ maxBatchItems: 2 }), googleEngine()], options);
    const out = await chain.translate({ texts: ['a', 'b', 'c', 'd'], from: 'en', to: 'es' });
    const engines = out.sources.map((s) => s.engine);
    expect([engines.slice(0, 2), engines.slice(2)]).toEqual(
      engines[0] === 'google'
        ? [
            ['google', 'google'],
            ['microsoft', 'microsoft'],
          ]
        : [
            ['microsoft', 'microsoft'],
            ['google', 'google'],
          ],
    );
    expect(out.engine).toBe(engines[0]);
    expect(out.texts).toEqual(['[es] a', '[es] b', '[es] c', '[es] d']);
  });

  it('passes blank texts through without a request', async () => {
    const chain = new TranslationChain([microsoft()], options);
    expect((await chain.translate({ texts: [], from: 'en', to: 'de' })).texts).toEqual([]);
    const out = await chain.translate({ texts: ['', 'x', ' '], from: 'en', to: 'de' });
    expect(out.texts).toEqual(['', '[de] x', ' ']);
    expect(translateCalls(ms)).toHaveLength(1);
  });

  it('stops on abort: no retry, no fallback', async () => {
    ms.setBehaviour({ hang: true });
    const chain = new TranslationChain([microsoft({ timeoutMs: 60_000 }), googleEngine()], options);
    const controller = new AbortController();
    const pending = chain.translate({ texts: ['x'], from: 'en', to: 'de', signal: controller.signal });
    while (ms.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', retryable: false });
    expect(google.calls).toHaveLength(0);
    expect(translateCalls(ms)).toHaveLength(1);

    const early = new AbortController();
    early.abort();
    await expect(chain.translate({ texts: ['x'], from: 'en', to: 'de', signal: early.signal })).rejects.toMatchObject({
      kind: 'aborted',
    });
  });

  it('paces requests to requestsPerMinute on the injected clock', async () => {
    let clock = 1_000_000;
    const engine = googleEngine({ requestsPerMinute: 2, concurrency: 1 });
    const chain = new TranslationChain([engine], {
      ...options,
      now: () => clock,
      sleep: async (msDelay) => {
        sleeps.push(msDelay);
        clock += msDelay;
      },
    });
    const out = await chain.translate({ texts: ['a', 'b', 'c'], from: 'en', to: 'de' });
    expect(out.texts).toEqual(['[de] a', '[de] b', '[de] c']);
    expect(google.calls).toHaveLength(3);
    expect(sleeps).toEqual([60_000]);
  });
});
