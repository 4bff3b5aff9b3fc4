import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, seedChineseBook, startTestApp, STRONG_PASSWORD, type TestApp } from './helpers.ts';

/** A double click sends a save twice: identical saves at once are all answered, with the saved state. */
describe('identical saves at once', () => {
  let t: TestApp;
  let owner: string;
  let admin: string;
  let code: string;
  beforeAll(async () => {
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      RATE_LIMIT_PER_MINUTE: '100000',
      ADMIN_ACCOUNT: 'root-admin',
      ADMIN_PASSWORD: STRONG_PASSWORD,
    });
    owner = await registerUser(t, 'owner');
    code = await seedChineseBook(t, 'owner');
    admin = (await t.call('POST', '/api/auth/login', { body: { account: 'root-admin', password: STRONG_PASSWORD } }))
      .data.token;
  }, 60_000);
  afterAll(async () => t?.close());

  it('saves a glossary eight times at once, five rounds: every answer 200, the glossary as sent', async () => {
    for (let round = 0; round < 5; round += 1) {
      const entries = [
        { source: '贾宝玉', target: `Jia Baoyu ${round}` },
        { source: '林黛玉', target: 'Lin Daiyu' },
      ];
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          t.call('PUT', '/api/book/glossary', { token: owner, body: { bookCode: code, language: 'en', entries } }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      const saved = await t.call('GET', `/api/book/glossary?bookCode=${code}&language=en`, { token: owner });
      expect(
        saved.data.entries.map((e: { source: string; target: string }) => `${e.source}=${e.target}`).sort(),
      ).toEqual(entries.map((e) => `${e.source}=${e.target}`).sort());
    }
  });

  it("saves the admin's engine list eight times at once, five rounds: every answer 200", async () => {
    for (let round = 0; round < 5; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          t.call('PUT', '/api/admin/engines', { token: admin, body: [{ name: 'microsoft', enabled: true }] }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    }
    const saved = await t.call('GET', '/api/admin/engines', { token: admin });
    expect(saved.code).toBe(0);
  });
});
