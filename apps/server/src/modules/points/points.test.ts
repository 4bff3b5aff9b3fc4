import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, seedChineseBook, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { PointsRepo } from './points.repo.ts';

describe('points history', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false', STARTING_POINTS: '500' });
    token = await registerUser(t, 'saver');
  });
  afterAll(async () => t?.close());

  it('lists the last 30 days with points before and after, newest first', async () => {
    const db = t.running.infra.db;
    const user = await db.selectFrom('users').select('id').where('account', '=', 'saver').executeTakeFirstOrThrow();
    await db
      .transaction()
      .execute((trx) => new PointsRepo().credit(trx, { userId: user.id, points: 120, reason: 'adminGrant' }));
    // An entry older than 30 days is not shown.
    await db
      .transaction()
      .execute((trx) => new PointsRepo().credit(trx, { userId: user.id, points: 7, reason: 'old' }));
    await sql`UPDATE points_ledger SET created_at = now() - interval '31 days' WHERE reason = 'old'`.execute(db);

    const res = await t.call('GET', '/api/integral/record/list', { token });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ total: 2, balance: 627, income: 620, expenditure: 0, page: 1 });
    expect(res.data.items[0]).toMatchObject({
      type: 'income',
      points: 120,
      pointsBefore: 500,
      pointsAfter: 620,
      reason: 'adminGrant',
    });
    expect(res.data.items[1]).toMatchObject({ type: 'income', points: 500, pointsBefore: 0, reason: 'signupBonus' });

    expect((await t.call('GET', '/api/integral/record/list?type=expenditure', { token })).data.items).toEqual([]);
    expect((await t.call('GET', '/api/integral/record/list')).status).toBe(401);
  });

  it('names the book of every purchase: the title kept in the row, else the one the user sees now', async () => {
    const db = t.running.infra.db;
    const points = t.running.services.points;
    const user = await db.selectFrom('users').select('id').where('account', '=', 'saver').executeTakeFirstOrThrow();
    const code = await seedChineseBook(t, 'saver');
    // A row written before rows kept the title: only the book's code.
    await points.spend(user.id, {
      points: 2,
      reason: 'explanation',
      idempotencyKey: 'legacy-1',
      detail: { bookCode: code, blockId: 'c1-b2' },
    });
    await points.spend(user.id, {
      points: 3,
      reason: 'translation',
      idempotencyKey: 'kept-1',
      detail: { bookCode: code, bookTitle: 'The Story of the Stone', page: 1 },
    });
    await db.updateTable('user_books').set({ title: '石头记' }).where('user_id', '=', user.id).execute();

    const items = (await t.call('GET', '/api/integral/record/list?type=expenditure', { token })).data.items;
    expect(items.map((r: { detail: { bookTitle: string } }) => r.detail.bookTitle)).toEqual([
      'The Story of the Stone',
      '石头记',
    ]);
  });

  it('shares or remakes a hold whose key is made and released by others at once, never failing on the key', async () => {
    const db = t.running.infra.db;
    const points = t.running.services.points;
    const user = await db.selectFrom('users').select('id').where('account', '=', 'saver').executeTakeFirstOrThrow();
    const reservation = { action: 'test', key: 'race:1', content: { n: 1 }, points: 1, detail: {} };
    // Twenty requests with one key, each holding and at once giving back: between one's look for a
    // live hold and its insert, another's hold comes and goes.
    const failures: unknown[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 25; i += 1) {
          try {
            const { hold } = await points.reserve(user.id, reservation);
            await points.release(hold);
          } catch (error) {
            failures.push(error);
          }
        }
      }),
    );
    expect(failures.map((e) => String(e))).toEqual([]);
    const held = await db.selectFrom('users').select('points_held').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(held.points_held)).toBe(0);
  });
});
