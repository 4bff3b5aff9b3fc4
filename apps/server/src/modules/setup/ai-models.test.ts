import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeServer } from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, seedChineseBook, startTestApp, type TestApp } from '../../../test/helpers.ts';

/**
 * AI models set by admins in the browser: stored encrypted, applied at once in the process that saved
 * them and, without a restart, in another process of the same deployment (two Yidu instances on one
 * database); the environment stays the default.
 */
describe('AI model settings at run time', () => {
  let a: TestApp;
  let b: TestApp;
  let first: FakeServer;
  let second: FakeServer;
  let admin: string;
  let reader: string;
  let code: string;
  const KEY = 'sk-admin-secret-key-1234';

  beforeAll(async () => {
    first = await startFakeOpenAi();
    second = await startFakeOpenAi({ key: KEY });
    first.setBehaviour({ reply: () => 'Answer from the environment model.' });
    second.setBehaviour({ reply: () => 'Answer from the admin model.' });
    const env = {
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      ADMIN_ACCOUNT: 'ops',
      ADMIN_PASSWORD: 'Ops2026pass',
      // One deployment shares its secret (it seals the keys).
      APP_SECRET: 'a-secret-shared-by-every-process-of-this-test',
    };
    // Instance a has no model in its environment; b (same database) has one: the environment is a default per process.
    a = await startTestApp(env);
    b = await startTestApp({ ...env, DATABASE_URL: a.databaseUrl, LLM_BASE_URL: first.url, LLM_MODEL: 'env-model' });
    admin = (await a.call('POST', '/api/auth/login', { body: { account: 'ops', password: 'Ops2026pass' } })).data.token;
    reader = await registerUser(a, 'reader');
    code = await seedChineseBook(a, 'reader');
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await first?.close();
    await second?.close();
  });

  const explain = (t: TestApp, requestId: string) =>
    t.call('POST', '/api/reader/ai/explain', {
      token: reader,
      body: { bookCode: code, blockId: 'c1-b2', selection: '将真事隐去', language: 'en', stream: false, requestId },
    });

  /** Polls until `check` passes on `t` (another process follows within a notification's delay). */
  async function eventually<T>(run: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const value = await run();
      if (check(value) || Date.now() > deadline) return value;
      // Not faster: AI calls are rate limited (30 a minute).
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('starts from the environment of each process', async () => {
    const view = (await a.call('GET', '/api/admin/ai-models', { token: admin })).data;
    expect(view.map((m: { use: string; source: string }) => [m.use, m.source])).toEqual([
      ['translation', 'none'],
      ['explanation', 'none'],
      ['annotation', 'none'],
    ]);
    expect((await explain(a, 'env-a-0001')).data.key).toBe('aiNotConfigured');
    const fromB = await explain(b, 'env-b-0001');
    expect(fromB.data.text).toBe('Answer from the environment model.');
    const viewB = (await b.call('GET', '/api/admin/ai-models', { token: admin })).data;
    expect(viewB[1]).toMatchObject({ source: 'environment', model: 'env-model', baseUrl: first.url });
    expect(viewB[2]).toMatchObject({ source: 'inherited', model: 'env-model' });
  });

  it('saves a model with its key sealed, and both processes use it without a restart', async () => {
    const saved = await a.call('PUT', '/api/admin/ai-models/explanation', {
      token: admin,
      body: { baseUrl: second.url, model: 'admin-model', apiKey: KEY },
    });
    expect(saved.code).toBe(0);
    const explanation = saved.data.find((m: { use: string }) => m.use === 'explanation');
    expect(explanation).toMatchObject({ source: 'admin', model: 'admin-model', hasApiKey: true, apiKeyHint: '…1234' });
    expect(JSON.stringify(saved.data)).not.toContain(KEY);
    const row = await a.running.infra.db
      .selectFrom('ai_model_settings')
      .selectAll()
      .where('use', '=', 'explanation')
      .executeTakeFirstOrThrow();
    expect(row.api_key_sealed).toMatch(/^v1:/);
    expect(row.api_key_sealed).not.toContain('secret');

    // The process that saved it, at once.
    expect((await explain(a, 'admin-a-0001')).data.text).toBe('Answer from the admin model.');
    // The other process, within a notification's delay: no restart.
    let n = 0;
    const fromB = await eventually(
      () => explain(b, `admin-b-${String(++n).padStart(4, '0')}`),
      (res) => res.data.text === 'Answer from the admin model.',
    );
    expect(fromB.data, JSON.stringify(fromB)).toMatchObject({ text: 'Answer from the admin model.' });
    expect(second.calls.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    // Annotations follow the explanation model until they get their own.
    const annotation = (await b.call('GET', '/api/admin/ai-models', { token: admin })).data[2];
    expect(annotation).toMatchObject({ source: 'inherited', model: 'admin-model', hasApiKey: true });
  });

  it('keeps a stored key only for the service it was saved for', async () => {
    const same = await a.call('PUT', '/api/admin/ai-models/explanation', {
      token: admin,
      body: { baseUrl: second.url, model: 'admin-model-2' },
    });
    expect(same.data[1]).toMatchObject({ model: 'admin-model-2', hasApiKey: true });
    // Another service: the stored key is not sent there, to a test or after a save.
    const elsewhere = first.url.replace('127.0.0.1', 'localhost');
    const calls = first.calls.length;
    const tried = await a.call('POST', '/api/admin/ai-models/test', {
      token: admin,
      body: { use: 'explanation', baseUrl: elsewhere, model: 'm' },
    });
    expect(tried.data.ok).toBe(true);
    expect(first.calls.slice(calls).every((c) => c.headers.authorization === undefined)).toBe(true);
    const moved = await a.call('PUT', '/api/admin/ai-models/explanation', {
      token: admin,
      body: { baseUrl: elsewhere, model: 'm' },
    });
    expect(moved.data[1]).toMatchObject({ baseUrl: elsewhere, hasApiKey: false });
    // Back to the admin's model for the next tests.
    await a.call('PUT', '/api/admin/ai-models/explanation', {
      token: admin,
      body: { baseUrl: second.url, model: 'admin-model', apiKey: KEY },
    });
  });

  it('tests saved and edited settings, with the key never in the answer', async () => {
    const good = await a.call('POST', '/api/admin/ai-models/test', { token: admin, body: { use: 'explanation' } });
    expect(good.data).toMatchObject({ ok: true, error: null, sample: 'Answer from the admin model.' });
    const wrongKey = await a.call('POST', '/api/admin/ai-models/test', {
      token: admin,
      body: { use: 'explanation', baseUrl: second.url, model: 'admin-model', apiKey: 'sk-wrong-key-9999' },
    });
    expect(wrongKey.data.ok).toBe(false);
    expect(wrongKey.data.error).toMatch(/^auth/);
    expect(wrongKey.data.error).not.toContain('sk-wrong-key-9999');
  });

  it('sets the LLM translation engine through the engine settings', async () => {
    const saved = await a.call('PUT', '/api/admin/ai-models/translation', {
      token: admin,
      body: { baseUrl: second.url, model: 'translator', apiKey: KEY, enabled: true },
    });
    expect(saved.data[0]).toMatchObject({ use: 'translation', source: 'admin', enabled: true, hasApiKey: true });
    const engines = (await a.call('GET', '/api/admin/engines', { token: admin })).data;
    expect(engines.find((e: { name: string }) => e.name === 'llm')).toMatchObject({
      enabled: true,
      endpoint: second.url,
      model: 'translator',
      hasApiKey: true,
    });
    second.setBehaviour({ reply: () => undefined });
    const tested = await a.call('POST', '/api/admin/ai-models/test', { token: admin, body: { use: 'translation' } });
    expect(tested.data.sample).toContain('Hello, world');
    second.setBehaviour({ reply: () => 'Answer from the admin model.' });
  });

  it('goes back to the environment when reset', async () => {
    await a.call('DELETE', '/api/admin/ai-models/explanation', { token: admin });
    expect((await explain(a, 'reset-a-0001')).data.key).toBe('aiNotConfigured');
    let n = 0;
    const fromB = await eventually(
      () => explain(b, `reset-b-${String(++n).padStart(4, '0')}`),
      (res) => res.data.text === 'Answer from the environment model.',
    );
    expect(fromB.data.text).toBe('Answer from the environment model.');
    const audit = (await a.call('GET', '/api/admin/audit', { token: admin })).data;
    expect(audit.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['aiModelSettings', 'aiModelReset']),
    );
    expect(JSON.stringify(audit)).not.toContain(KEY);
  });

  it('refuses non-admins', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/ai-models'],
      ['PUT', '/api/admin/ai-models/explanation'],
      ['DELETE', '/api/admin/ai-models/explanation'],
      ['POST', '/api/admin/ai-models/test'],
    ] as const) {
      const res = await a.call(method, url, { token: reader, body: { baseUrl: 'http://x.test/v1', model: 'm' } });
      expect(res.status, url).toBe(403);
    }
  });
});
