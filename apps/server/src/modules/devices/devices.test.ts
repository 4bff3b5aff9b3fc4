import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, STRONG_PASSWORD, type TestApp } from '../../../test/helpers.ts';
import { basic, kosyncHeaders, md5, newDevicePassword } from '../../../test/device-helpers.ts';

const FAILURES_PER_IP = 10;

describe('device passwords', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      RATE_LIMIT_PER_MINUTE: '100000',
      LOGIN_MAX_FAILURES_PER_IP: String(FAILURES_PER_IP),
    });
    alice = await registerUser(t, 'alice');
    bob = await registerUser(t, 'bob');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const opds = (headers: Record<string, string>, ip = '127.0.0.1') => t.call('GET', '/opds', { headers, ip });
  const kosyncAuth = (headers: Record<string, string>, ip = '127.0.0.1') =>
    t.call('GET', '/kosync/users/auth', { headers, ip });

  it('shows a new password once, lists it without it, and keeps only an HMAC of its md5', async () => {
    const made = await newDevicePassword(t, alice, 'Kobo Clara');
    expect(made).toMatchObject({ name: 'Kobo Clara', username: 'alice' });
    expect(made.password).toMatch(/^[a-hj-km-np-z2-9]{4}(-[a-hj-km-np-z2-9]{4}){4}$/);

    const list = await t.call('GET', '/api/user/devicePasswords', { token: alice });
    expect(list.data).toEqual([
      { id: made.id, name: 'Kobo Clara', createdAt: expect.any(String), lastUsedAt: null, lastUsedBy: null },
    ]);
    expect(JSON.stringify(list.data)).not.toContain(made.password);
    expect((await t.call('GET', '/api/user/devicePasswords', { token: bob })).data).toEqual([]);

    const stored = await t.running.infra.db.selectFrom('device_passwords').selectAll().execute();
    const dump = JSON.stringify(stored);
    for (const secret of [made.password, md5(made.password), made.password.replaceAll('-', '')])
      expect(dump).not.toContain(secret);
    expect(stored[0]!.key_hmac).toMatch(/^[0-9a-f]{64}$/);

    // Someone else's password is not theirs to revoke.
    expect((await t.call('DELETE', `/api/user/devicePasswords/${made.id}`, { token: bob })).status).toBe(404);
    expect((await t.call('GET', '/api/user/devicePasswords', { token: alice })).data).toHaveLength(1);
  });

  it('opens the catalogs and the progress sync, never the API; the account password opens neither', async () => {
    const { username, password } = await newDevicePassword(t, alice, 'KOReader');
    expect((await opds(basic(username, password))).status).toBe(200);
    const auth = await t.app.inject({ url: '/kosync/users/auth', headers: kosyncHeaders(username, password) });
    expect(auth.statusCode).toBe(200);
    expect(auth.json()).toEqual({ authorized: 'OK' });
    // The account's email is a name of it too.
    expect((await opds(basic('ALICE@example.com', password))).status).toBe(200);
    // Used: the list says when and by what.
    const list = await t.call('GET', '/api/user/devicePasswords', { token: alice });
    expect(list.data.find((d: { name: string }) => d.name === 'KOReader').lastUsedAt).not.toBeNull();

    // Never the API, however it is sent.
    for (const headers of [
      basic(username, password),
      { authorization: `Bearer ${password}` },
      { authorization: `Bearer ${md5(password)}` },
    ])
      expect((await t.call('GET', '/api/user/getUserinfo', { headers })).status).toBe(401);
    // The account password is not a device password; another user's name with it neither.
    const refused = await opds(basic('alice', STRONG_PASSWORD));
    expect(refused.status).toBe(401);
    expect(refused.headers['content-type']).toContain('application/opds-authentication+json');
    expect(refused.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect((await kosyncAuth(kosyncHeaders('alice', STRONG_PASSWORD))).status).toBe(401);
    expect((await opds(basic('bob', password))).status).toBe(401);
    expect((await kosyncAuth(kosyncHeaders('bob', password))).status).toBe(401);
  });

  it('stops working at once when revoked, in this process and in another one', async () => {
    const { id, username, password } = await newDevicePassword(t, alice, 'Boox');
    // A second process of the same deployment (same database, same app secret).
    const other = await startTestApp({
      DATABASE_URL: t.databaseUrl,
      APP_SECRET: t.running.config.appSecret,
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    try {
      // Both processes have checked it (and keep it in memory).
      expect((await opds(basic(username, password))).status).toBe(200);
      expect((await other.call('GET', '/opds', { headers: basic(username, password) })).status).toBe(200);
      expect((await t.call('DELETE', `/api/user/devicePasswords/${id}`, { token: alice })).status).toBe(200);
      expect((await opds(basic(username, password))).status).toBe(401);
      expect((await kosyncAuth(kosyncHeaders(username, password))).status).toBe(401);
      const deadline = Date.now() + 10_000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await other.call('GET', '/kosync/users/auth', { headers: kosyncHeaders(username, password) })).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(401);
      const list = await t.call('GET', '/api/user/devicePasswords', { token: alice });
      expect(list.data.map((d: { id: number }) => d.id)).not.toContain(id);
    } finally {
      await other.close();
    }
  });

  it('lets no more than the limit of guesses through from one address, even 50 at once', async () => {
    const { username, password } = await newDevicePassword(t, bob, 'Kindle');
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? opds(basic('bob', `wrong-${i}`), '10.9.0.1')
          : kosyncAuth(kosyncHeaders('bob', `wrong-${i}`), '10.9.0.1'),
      ),
    );
    const statuses = guesses.map((g) => g.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(FAILURES_PER_IP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50 - FAILURES_PER_IP);
    // The address is locked, even for the right password; other addresses are not.
    expect((await opds(basic(username, password), '10.9.0.1')).status).toBe(429);
    expect((await opds(basic(username, password), '10.9.0.2')).status).toBe(200);
  });

  it('does not count a revoked password as a guess', async () => {
    const { id, username, password } = await newDevicePassword(t, bob, 'Old Kobo');
    await t.call('DELETE', `/api/user/devicePasswords/${id}`, { token: bob });
    // One after the other, as a forgotten e-reader still syncing would: each is refused, none locks the address.
    const statuses: number[] = [];
    for (let i = 0; i < FAILURES_PER_IP * 2; i += 1)
      statuses.push((await kosyncAuth(kosyncHeaders(username, password), '10.9.1.1')).status);
    expect(statuses).toEqual(Array(FAILURES_PER_IP * 2).fill(401));
    expect((await kosyncAuth(kosyncHeaders(username, 'a guess'), '10.9.1.1')).status).toBe(401);
  });

  it('keeps at most 20 live passwords per account, even when 50 are asked for at once', async () => {
    const carol = await registerUser(t, 'carol');
    const made = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.call('POST', '/api/user/devicePasswords', { token: carol, body: { name: `d${i}` }, ip: `10.8.0.${i + 1}` }),
      ),
    );
    expect(made.filter((r) => r.status === 200)).toHaveLength(20);
    const refused = made.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(30);
    expect(refused.every((r) => r.status === 409 && r.data.key === 'tooManyDevicePasswords')).toBe(true);
    expect((await t.call('GET', '/api/user/devicePasswords', { token: carol })).data).toHaveLength(20);
  });
});
