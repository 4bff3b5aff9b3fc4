import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeDeepl,
  startFakeMicrosoft,
  type FakeMicrosoft,
  type FakeServer,
} from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';

describe('translation engine settings at run time', () => {
  let t: TestApp;
  let microsoft: FakeMicrosoft;
  let deepl: FakeServer;
  let admin: string;
  let user: string;
  beforeAll(async () => {
    microsoft = await startFakeMicrosoft();
    deepl = await startFakeDeepl({ key: 'secret-deepl-key:fx' });
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      ADMIN_ACCOUNT: 'ops',
      ADMIN_PASSWORD: 'Ops2026pass',
      MICROSOFT_TRANSLATOR_ENDPOINT: microsoft.url,
    });
    admin = (await t.call('POST', '/api/auth/login', { body: { account: 'ops', password: 'Ops2026pass' } })).data.token;
    user = await registerUser(t, 'reader');
  });
  afterAll(async () => {
    await t?.close();
    await microsoft?.close();
    await deepl?.close();
  });

  it('starts from the environment and lists every engine', async () => {
    const res = await t.call('GET', '/api/admin/engines', { token: admin });
    expect(res.data.map((e: { name: string; enabled: boolean }) => [e.name, e.enabled])).toEqual([
      ['microsoft', true],
      ['google', false],
      ['deepl', false],
      ['llm', false],
      ['libretranslate', false],
    ]);
    expect(res.data[0].endpoint).toBe(microsoft.url);
    expect((await t.call('GET', '/api/translation/engines', { token: user })).data.engines).toEqual(['microsoft']);
  });

  it('saves engines with their keys encrypted, reorders them, and every process follows', async () => {
    const saved = await t.call('PUT', '/api/admin/engines', {
      token: admin,
      body: [
        { name: 'deepl', enabled: true, endpoint: deepl.url, apiKey: 'secret-deepl-key:fx' },
        { name: 'microsoft', enabled: true },
        { name: 'google', enabled: false },
      ],
    });
    expect(saved.code).toBe(0);
    const deeplView = saved.data.find((e: { name: string }) => e.name === 'deepl');
    expect(deeplView).toMatchObject({ enabled: true, hasApiKey: true, apiKeyHint: '…y:fx' });
    expect(JSON.stringify(saved.data)).not.toContain('secret-deepl-key');
    const row = await t.running.infra.db
      .selectFrom('engine_settings')
      .selectAll()
      .where('name', '=', 'deepl')
      .executeTakeFirstOrThrow();
    expect(row.api_key_sealed).toMatch(/^v1:/);
    expect(row.api_key_sealed).not.toContain('secret');
    // Microsoft kept its endpoint from the environment.
    expect(saved.data.find((e: { name: string }) => e.name === 'microsoft').endpoint).toBe(microsoft.url);

    const deadline = Date.now() + 5000;
    let engines: string[] = [];
    while (Date.now() < deadline) {
      engines = (await t.call('GET', '/api/translation/engines', { token: user })).data.engines;
      if (engines[0] === 'deepl') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(engines).toEqual(['deepl', 'microsoft']);
    const out = await t.running.services.translation.translate(['Good morning'], 'en', 'de');
    expect(out[0]).toMatchObject({ engine: 'deepl', fromMemory: false });
    expect(out[0]!.translation).toContain('Good morning');
  });

  it('keeps a key that is not sent again and removes one sent empty', async () => {
    await t.call('PUT', '/api/admin/engines', {
      token: admin,
      body: [
        { name: 'deepl', enabled: true, endpoint: deepl.url },
        { name: 'microsoft', enabled: true },
      ],
    });
    expect((await t.call('GET', '/api/admin/engines', { token: admin })).data[0].hasApiKey).toBe(true);
    const cleared = await t.call('PUT', '/api/admin/engines', {
      token: admin,
      body: [{ name: 'deepl', enabled: true, endpoint: deepl.url, apiKey: '' }],
    });
    expect(cleared.data.key).toBe('badRequest');
    expect(cleared.data.reason).toContain('API key');
  });

  it('never sends a stored key to another service: a new address needs the key again', async () => {
    const put = (body: unknown) => t.call('PUT', '/api/admin/engines', { token: admin, body });
    const deeplView = async () =>
      (await t.call('GET', '/api/admin/engines', { token: admin })).data.find(
        (e: { name: string }) => e.name === 'deepl',
      );
    expect(
      (await put([{ name: 'deepl', enabled: true, endpoint: deepl.url, apiKey: 'secret-deepl-key:fx' }])).code,
    ).toBe(0);
    // Same service, another path: the key stays.
    expect((await put([{ name: 'deepl', enabled: true, endpoint: `${deepl.url}/v2/` }])).code).toBe(0);
    expect((await deeplView()).hasApiKey).toBe(true);
    // Another host: saved without the key (an enabled engine that needs one is refused).
    const moved = await put([{ name: 'deepl', enabled: true, endpoint: 'https://collector.example/' }]);
    expect(moved.data).toMatchObject({ key: 'badRequest' });
    expect((await put([{ name: 'deepl', enabled: false, endpoint: 'https://collector.example/' }])).code).toBe(0);
    expect((await deeplView()).hasApiKey).toBe(false);
    // Back where it was, the key does not come back by itself either.
    expect((await put([{ name: 'deepl', enabled: false, endpoint: deepl.url }])).code).toBe(0);
    expect((await deeplView()).hasApiKey).toBe(false);
    const restored = await put([
      { name: 'deepl', enabled: true, endpoint: deepl.url, apiKey: 'secret-deepl-key:fx' },
      { name: 'microsoft', enabled: true },
    ]);
    expect(restored.code).toBe(0);
  });

  it('tests one engine with a real request', async () => {
    const good = await t.call('POST', '/api/admin/engines/test', { token: admin, body: { name: 'deepl' } });
    expect(good.data).toMatchObject({ ok: true, error: null });
    expect(good.data.sample).toContain('Hello, world');
    deepl.setBehaviour({ failNext: [{ status: 403, body: { message: 'Wrong key' } }] });
    const bad = await t.call('POST', '/api/admin/engines/test', { token: admin, body: { name: 'deepl' } });
    expect(bad.data.ok).toBe(false);
    expect(bad.data.error).toMatch(/auth/);
  });

  it('lets a user prefer an enabled engine, and only an enabled one', async () => {
    const ok = await t.call('POST', '/api/user/updateUserinfo', {
      token: user,
      body: { translationEngine: 'microsoft' },
    });
    expect(ok.data.translationEngine).toBe('microsoft');
    const bad = await t.call('POST', '/api/user/updateUserinfo', {
      token: user,
      body: { translationEngine: 'google' },
    });
    expect(bad.data).toMatchObject({ key: 'badRequest', reason: 'engineNotEnabled' });
  });

  it('edits prices and grants points, admins only', async () => {
    expect((await t.call('GET', '/api/admin/prices', { token: user })).status).toBe(403);
    const prices = await t.call('PUT', '/api/admin/prices', { token: admin, body: { explanation: 4, translation: 3 } });
    expect(prices.data).toMatchObject({ explanation: 4, translation: 3, translationCached: 1 });
    const me = (await t.call('GET', '/api/user/getUserinfo', { token: user })).data;
    const grant = await t.call('POST', '/api/admin/points/grant', {
      token: admin,
      body: { userId: me.id, points: 250, requestId: 'grant-request-1' },
    });
    expect(grant.data.balance).toBe(me.points + 250);
    await t.call('POST', '/api/admin/points/grant', {
      token: admin,
      body: { userId: me.id, points: 250, requestId: 'grant-request-1' },
    });
    const history = await t.call('GET', '/api/integral/record/list?type=income', { token: user });
    expect(history.data.items.filter((r: { reason: string }) => r.reason === 'adminGrant')).toHaveLength(1);
    expect((await t.call('PUT', '/api/admin/engines', { token: user, body: [] })).status).toBe(403);
  });
});
