import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, STRONG_PASSWORD, type TestApp } from '../../../test/helpers.ts';

/** Names that could pass for someone else's are refused; usernames are unique (issue 23, item 7). */
describe('account and user names', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false', RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(async () => t?.close());

  const register = (account: string, email: string, nickname?: string) =>
    t.call('POST', '/api/auth/register', {
      body: { method: 'email', email, account, password: STRONG_PASSWORD, ...(nickname ? { nickname } : {}) },
    });
  const rename = (token: string, username: string) =>
    t.call('POST', '/api/user/updateUserinfo', { token, body: { username } });

  it('refuses accounts and nicknames with invisible, direction or look-alike characters, and reserved ones', async () => {
    expect((await register('admin\u200B', 'a1@example.com')).data.key).toBe('nameHasInvisibleCharacters');
    expect((await register('\u202Enimda', 'a2@example.com')).data.key).toBe('nameHasInvisibleCharacters');
    expect((await register('аdmin', 'a3@example.com')).data.key).toBe('nameMixesScripts');
    expect((await register('Admin', 'a4@example.com')).data.key).toBe('nameReserved');
    expect((await register('ａｄｍｉｎ', 'a5@example.com')).data.key).toBe('nameReserved');
    expect((await register('reader1', 'a6@example.com', 'ad.min')).data.key).toBe('nameReserved');
    const refused = await register('pаypal', 'a7@example.com');
    expect(refused.status).toBe(400);
    expect(refused.msg).toContain('alphabets');
  });

  it('keeps usernames unique without case: a taken one is refused, a derived one gets a number', async () => {
    const bob = await registerUser(t, 'bob');
    // The same local part at another domain, no nickname: the username is made unique.
    const other = await register('bob-at-work', 'bob@work.example', 'BOB');
    expect(other.code).toBe(0);
    expect(other.data.user.username).toBe('BOB2');
    expect((await rename(other.data.token, 'bob ')).data.key).toBe('usernameTaken');
    expect((await rename(other.data.token, '\u202Ebob')).data.key).toBe('nameHasInvisibleCharacters');
    expect((await rename(other.data.token, 'root')).data.key).toBe('nameReserved');
    expect((await rename(other.data.token, 'Ｒｏｂｅｒｔ  Smith')).data.username).toBe('Robert Smith');
    expect((await rename(bob, 'BOB')).data.username).toBe('BOB');
  });

  it('answers the same registration name raced ten times with ten different usernames, and one rename with one winner', async () => {
    const registered = await Promise.all(
      Array.from({ length: 10 }, (_, i) => register(`carol${i}`, `carol${i}@example.com`, 'Carol')),
    );
    expect(registered.map((r) => r.status)).toEqual(Array(10).fill(200));
    const names = registered.map((r) => r.data.user.username.toLowerCase());
    expect(new Set(names).size).toBe(10);

    const renamed = await Promise.all(registered.map((r) => rename(r.data.token, 'Dana')));
    expect(renamed.filter((r) => r.code === 0)).toHaveLength(1);
    expect(renamed.filter((r) => r.code !== 0).every((r) => r.status === 409 && r.data.key === 'usernameTaken')).toBe(
      true,
    );
  });

  it('logs in with the full-width form of an account, and lets the operators name their admin', async () => {
    await registerUser(t, 'erin');
    const login = await t.call('POST', '/api/auth/login', { body: { account: 'ｅｒｉｎ', password: STRONG_PASSWORD } });
    expect(login.code).toBe(0);
    // ADMIN_ACCOUNT on every replica at once (issue 28): one admin, every start goes on.
    const auth = t.running.services.auth;
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        auth.ensureAdmin({ account: 'admin', password: STRONG_PASSWORD, email: undefined }),
      ),
    );
    expect(results.filter((r) => r === 'created')).toHaveLength(1);
    const admin = await t.call('POST', '/api/auth/login', { body: { account: 'admin', password: STRONG_PASSWORD } });
    expect(admin.data.user).toMatchObject({ role: 'admin', username: 'admin' });
  });
});
