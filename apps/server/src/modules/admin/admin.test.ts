import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, STRONG_PASSWORD, type TestApp } from '../../../test/helpers.ts';

describe('admin calls', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  beforeAll(async () => {
    t = await startTestApp({
      ADMIN_ACCOUNT: 'boss',
      ADMIN_PASSWORD: 'Admin2026pass',
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
    });
    admin = (await t.call('POST', '/api/auth/login', { body: { account: 'boss', password: 'Admin2026pass' } })).data
      .token;
    user = (
      await t.call('POST', '/api/auth/register', {
        body: { method: 'email', email: 'plain@example.com', account: 'plainreader', password: STRONG_PASSWORD },
      })
    ).data.token;
  });
  afterAll(async () => t?.close());

  const calls = [
    ['GET', '/api/admin/util/findUserByName?username=plain'],
    ['POST', '/api/admin/invite-codes'],
    ['GET', '/api/admin/invite-codes'],
  ] as const;

  it('refuses non-admins with 403 insufficientPermissions and guests with 401', async () => {
    for (const [method, url] of calls) {
      const asUser = await t.call(method, url, { token: user, body: method === 'POST' ? {} : undefined });
      expect(asUser.status, url).toBe(403);
      expect(asUser.data.key).toBe('insufficientPermissions');
      expect(asUser.msg).toBe('Insufficient permissions');
      expect((await t.call(method, url)).status).toBe(401);
    }
  });

  it('creates the first admin from ADMIN_ACCOUNT, who can find users and mint codes', async () => {
    const me = await t.call('GET', '/api/user/getUserinfo', { token: admin });
    expect(me.data.role).toBe('admin');

    const found = await t.call('GET', '/api/admin/util/findUserByName?username=PLAIN', { token: admin });
    expect(found.data).toHaveLength(1);
    expect(found.data[0]).toMatchObject({ account: 'plainreader', role: 'user', status: 'active', points: 1000 });
    expect(found.data[0]).not.toHaveProperty('password_hash');

    const minted = await t.call('POST', '/api/admin/invite-codes', {
      token: admin,
      body: { count: 3, maxUses: 5, note: 'book club' },
    });
    expect(minted.data.codes).toHaveLength(3);
    const list = await t.call('GET', '/api/admin/invite-codes', { token: admin });
    expect(list.data.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(minted.data.codes));
    expect(list.data[0]).toMatchObject({ maxUses: 5, usedCount: 0, note: 'book club' });
  });
});
