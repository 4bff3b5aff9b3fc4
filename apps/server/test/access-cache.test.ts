import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, seedChineseBook, startTestApp, type TestApp } from './helpers.ts';

/**
 * Reader pages are answered from memory: the session and the book's access are cached per process
 * (lib/access-events.ts). These tests hold that taking access away still acts at once in the process
 * that did it, and within a notification's delay in every other process — whatever made the change.
 */
describe('sessions and book access served from memory', () => {
  let a: TestApp;
  let b: TestApp;
  let code: string;
  let owner: string;
  const page = () => `/api/reader/getPageData?bookCode=${code}&language=zh&page=1`;

  /** Reads the page twice on `t`, so that the second answer came from memory. */
  async function readFromMemory(t: TestApp, token: string) {
    expect((await t.call('GET', page(), { token })).code).toBe(0);
    const again = await t.call('GET', page(), { token });
    expect(again.code).toBe(0);
    return again;
  }

  /** Polls until the call is refused; how long it took. */
  async function refusedWithin(t: TestApp, token: string, key: string): Promise<number> {
    const started = Date.now();
    for (;;) {
      const res = await t.call('GET', page(), { token });
      if (res.code !== 0) {
        expect(res.data.key).toBe(key);
        return Date.now() - started;
      }
      if (Date.now() - started > 5_000) throw new Error(`still allowed after 5 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async function sql(text: string, values: unknown[]) {
    const client = new pg.Client({ connectionString: a.databaseUrl });
    await client.connect();
    try {
      await client.query(text, values);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    const env = { REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' };
    a = await startTestApp(env);
    b = await startTestApp({ ...env, DATABASE_URL: a.databaseUrl });
    owner = await registerUser(a, 'owner');
    code = await seedChineseBook(a, 'owner');
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('answers a page from memory exactly as from the database', async () => {
    const reader = await registerUser(a, 'memo');
    const fromMemory = await readFromMemory(a, reader);
    // A retry list (of nothing) makes the call go past memory.
    const fromDatabase = await a.call('GET', `${page()}&retry=none`, { token: reader });
    expect(fromMemory.headers['content-type']).toMatch(/^application\/json/);
    expect(fromMemory.data).toEqual(fromDatabase.data);
    expect(fromMemory.data.blocks.length).toBe(4);
    expect(fromMemory.msg).toBe('ok');
  });

  it('refuses a logged-out session at once in the same process and soon in another', async () => {
    const token = await registerUser(a, 'leaver');
    await readFromMemory(a, token);
    await readFromMemory(b, token);
    expect((await a.call('POST', '/api/user/logout', { token })).code).toBe(0);
    const same = await a.call('GET', page(), { token });
    expect(same.status).toBe(401);
    expect(await refusedWithin(b, token, 'unauthorized')).toBeLessThan(2_000);
  });

  it('follows changes made outside the application (SQL by an operator): sessions, users', async () => {
    const revoked = await registerUser(a, 'revoked');
    const disabled = await registerUser(a, 'disabled');
    await readFromMemory(a, revoked);
    await readFromMemory(b, disabled);
    await sql(`UPDATE sessions SET revoked_at = now() WHERE user_id = (SELECT id FROM users WHERE account = $1)`, [
      'revoked',
    ]);
    await sql(`UPDATE users SET status = 'disabled' WHERE account = $1`, ['disabled']);
    expect(await refusedWithin(a, revoked, 'unauthorized')).toBeLessThan(2_000);
    expect(await refusedWithin(b, disabled, 'unauthorized')).toBeLessThan(2_000);
  });

  it('takes a book away from other readers when it stops being public', async () => {
    const here = await registerUser(a, 'here');
    const there = await registerUser(a, 'there');
    await readFromMemory(a, here);
    await readFromMemory(b, there);
    const privateNow = await a.call('POST', '/api/book/updateBook', {
      token: owner,
      body: { bookCode: code, bookStatus: 0 },
    });
    expect(privateNow.code).toBe(0);
    expect((await a.call('GET', page(), { token: here })).data.key).toBe('bookNotFound');
    expect(await refusedWithin(b, there, 'bookNotFound')).toBeLessThan(2_000);
    // The owner still reads it.
    expect((await b.call('GET', page(), { token: owner })).code).toBe(0);
  });
});
