import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, STRONG_PASSWORD, type TestApp } from '../../../test/helpers.ts';

describe('the current user', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
    const reg = await t.call('POST', '/api/auth/register', {
      body: { method: 'email', email: 'me@example.com', account: 'myself', password: STRONG_PASSWORD },
    });
    token = reg.data.token;
  });
  afterAll(async () => t?.close());

  it('requires a valid token on every user call (401 unauthorized)', async () => {
    for (const [method, url] of [
      ['GET', '/api/user/getUserinfo'],
      ['POST', '/api/user/updateUserinfo'],
      ['POST', '/api/user/changePassword'],
      ['POST', '/api/user/changeLanguage'],
      ['POST', '/api/user/logout'],
      ['GET', '/api/user/checkVeteranUser'],
    ] as const) {
      const missing = await t.call(method, url);
      expect(missing.status, url).toBe(401);
      expect(missing.data.key).toBe('unauthorized');
      expect((await t.call(method, url, { token: 'forged-token' })).status).toBe(401);
      expect((await t.call(method, url, { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    }
  });

  it('updates profile fields and preferences', async () => {
    const res = await t.call('POST', '/api/user/updateUserinfo', {
      token,
      body: {
        username: '读书人',
        nickname: 'Reader',
        commonLanguages: ['English', 'jp', 'English'],
        defaultSharePublic: true,
        deductMode: 'deductAfterConfirmation',
      },
    });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      username: '读书人',
      nickname: 'Reader',
      commonLanguages: ['English', 'Japanese'],
      defaultSharePublic: true,
      deductMode: 'deductAfterConfirmation',
    });
    const bad = await t.call('POST', '/api/user/updateUserinfo', { token, body: { commonLanguages: ['Elvish'] } });
    expect(bad.data.key).toBe('noSuchLanguage');
    const wrongMode = await t.call('POST', '/api/user/updateUserinfo', { token, body: { deductMode: 'never' } });
    expect(wrongMode.data.key).toBe('badRequest');
    // Fields outside the schema (role, points) cannot be set this way.
    await t.call('POST', '/api/user/updateUserinfo', { token, body: { role: 'admin', points: 1e9 } });
    const info = await t.call('GET', '/api/user/getUserinfo', { token });
    expect(info.data.role).toBe('user');
    expect(info.data.points).toBe(1000);
  });

  it('changes the reading language by name, defaulting to Chinese', async () => {
    expect(
      (await t.call('POST', '/api/user/changeLanguage', { token, body: { language: 'Japanese' } })).data.languageCode,
    ).toBe('jp');
    expect((await t.call('POST', '/api/user/changeLanguage', { token, body: {} })).data.language).toBe('Chinese');
    const bad = await t.call('POST', '/api/user/changeLanguage', { token, body: { language: 'Esperanto' } });
    expect(bad.status).toBe(400);
    expect(bad.data.key).toBe('noSuchLanguage');
    expect(bad.msg).toBe('Language not available');
  });

  it('tells whether the user is a veteran', async () => {
    const res = await t.call('GET', '/api/user/checkVeteranUser', { token });
    expect(res.data).toEqual({ veteran: false, registeredDays: 0 });
    const user = await t.running.infra.db
      .selectFrom('users')
      .select('id')
      .where('account', '=', 'myself')
      .executeTakeFirstOrThrow();
    await t.running.infra.db
      .insertInto('login_events')
      .values({
        user_id: user.id,
        account: 'myself',
        ip: null,
        success: true,
        reason: null,
        created_at: new Date(Date.now() - 3 * 86_400_000),
      })
      .execute();
    expect((await t.call('GET', '/api/user/checkVeteranUser', { token })).data.veteran).toBe(true);
  });

  it('changes the password with the current one and signs out the other sessions only', async () => {
    const other = (await t.call('POST', '/api/auth/login', { body: { account: 'myself', password: STRONG_PASSWORD } }))
      .data.token;
    const wrong = await t.call('POST', '/api/user/changePassword', {
      token,
      body: { oldPassword: 'Nope2026pass', password: 'Better2026pass' },
    });
    expect(wrong.data.key).toBe('wrongPassword');
    const weak = await t.call('POST', '/api/user/changePassword', {
      token,
      body: { oldPassword: STRONG_PASSWORD, password: 'weakweak' },
    });
    expect(weak.data.key).toBe('weakPassword');

    const ok = await t.call('POST', '/api/user/changePassword', {
      token,
      body: { oldPassword: STRONG_PASSWORD, password: 'Better2026pass' },
    });
    expect(ok.code).toBe(0);
    expect((await t.call('GET', '/api/user/getUserinfo', { token })).status).toBe(200);
    expect((await t.call('GET', '/api/user/getUserinfo', { token: other })).status).toBe(401);
    expect(
      (await t.call('POST', '/api/auth/login', { body: { account: 'myself', password: 'Better2026pass' } })).code,
    ).toBe(0);
  });

  it('revokes the token at logout and clears the open tabs', async () => {
    const login = () => t.call('POST', '/api/auth/login', { body: { account: 'myself', password: 'Better2026pass' } });
    const session = (await login()).data.token;
    const saved = await t.call('PUT', '/api/user/tabs', {
      token: session,
      body: { tabs: [{ bookCode: 'abc123', language: 'zh', bookName: 'A book' }], active: 'abc123' },
    });
    expect(saved.data.tabs).toHaveLength(1);
    expect((await t.call('POST', '/api/user/logout', { token: session })).code).toBe(0);
    expect((await t.call('GET', '/api/user/tabs', { token: (await login()).data.token })).data.tabs).toEqual([]);
    expect((await t.call('GET', '/api/user/getUserinfo', { token: session })).status).toBe(401);
    expect((await t.call('POST', '/api/user/logout', { token: session })).status).toBe(401);
  });
});
