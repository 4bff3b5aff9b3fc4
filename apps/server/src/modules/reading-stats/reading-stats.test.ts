import { HEARTBEAT_SECONDS } from '@yidu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeServer } from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, seedChineseBook, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { ReadingStatsService, dateIn, daysBefore } from './reading-stats.service.ts';

/** Reading statistics: heartbeats make time read, pages are counted per day, lookups per book, days on a calendar. */
describe('reading statistics', () => {
  let t: TestApp;
  let microsoft: FakeServer;
  let dream: string;

  const idOf = async (account: string) =>
    (await t.running.infra.db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirstOrThrow())
      .id;
  /** Moves a user's heartbeat clock back, as if their last heartbeat was `seconds` ago. */
  const lastBeatAgo = async (account: string, seconds: number) =>
    t.running.infra.db
      .updateTable('reading_heartbeats')
      .set({ last_at: new Date(Date.now() - seconds * 1000) })
      .where('user_id', '=', await idOf(account))
      .execute();
  const beat = (token: string, body: Record<string, unknown>) =>
    t.call('POST', '/api/reader/activity', { token, body: { bookCode: dream, page: 1, ...body } });

  beforeAll(async () => {
    microsoft = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: microsoft.url,
    });
    await registerUser(t, 'owner');
    dream = await seedChineseBook(t, 'owner');
    // Two pages: its last two paragraphs make page 2.
    const db = t.running.infra.db;
    const book = await db.selectFrom('books').select('id').where('code', '=', dream).executeTakeFirstOrThrow();
    await db.updateTable('books').set({ page_count: 2 }).where('id', '=', book.id).execute();
    await db
      .updateTable('book_blocks')
      .set({ page: 2 })
      .where('book_id', '=', book.id)
      .where('block_id', 'in', ['c1-b3', 'c1-b4'])
      .execute();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await microsoft?.close();
  });

  it('credits a heartbeat with the time since the last one, at most one interval: an idle hour counts one', async () => {
    const token = await registerUser(t, 'steady');
    const first = await beat(token, { timeZone: 'Asia/Shanghai' });
    // The first heartbeat says the reader read during the interval before it.
    expect(first.data).toEqual({ credited: HEARTBEAT_SECONDS });
    await lastBeatAgo('steady', 3600);
    expect((await beat(token, { page: 2 })).data).toEqual({ credited: HEARTBEAT_SECONDS });
    await lastBeatAgo('steady', 3600);
    expect((await beat(token, { page: 2 })).data).toEqual({ credited: HEARTBEAT_SECONDS });

    const stats = (await t.call('GET', '/api/reading-stats?timeZone=Asia/Shanghai', { token })).data;
    const today = dateIn('Asia/Shanghai', new Date());
    expect(stats).toMatchObject({
      to: today,
      from: daysBefore(today, 181),
      totalSeconds: 3 * HEARTBEAT_SECONDS,
      totalPages: 2,
      daysRead: 1,
      streak: 1,
      days: [{ date: today, seconds: 3 * HEARTBEAT_SECONDS, pages: 2, lookups: 0 }],
      books: [{ bookCode: dream, bookTitle: '红楼梦', seconds: 3 * HEARTBEAT_SECONDS, pages: 2, lookups: 0, words: 0 }],
    });
  });

  it('counts each minute once when two tabs beat at once, and never a page the book does not have', async () => {
    // The clock of the service is the test's: the two tabs beat at the same instant, then 10 s later.
    let now = new Date('2026-05-04T03:00:00Z');
    const service = new ReadingStatsService({
      db: t.running.infra.db,
      books: t.running.services.books,
      now: () => now,
    });
    await registerUser(t, 'tabs');
    const user = await t.running.infra.db
      .selectFrom('users')
      .selectAll()
      .where('account', '=', 'tabs')
      .executeTakeFirstOrThrow();
    const both = await Promise.all([
      service.heartbeat(user, { bookCode: dream, page: 1, timeZone: 'Europe/Paris' }),
      service.heartbeat(user, { bookCode: dream, page: 999, timeZone: 'Europe/Paris' }),
    ]);
    expect(both.map((b) => b.credited).sort()).toEqual([0, HEARTBEAT_SECONDS]);
    now = new Date(now.getTime() + 10_000);
    const again = await Promise.all([
      service.heartbeat(user, { bookCode: dream, page: 1, timeZone: 'Europe/Paris' }),
      service.heartbeat(user, { bookCode: dream, page: 1, timeZone: 'Europe/Paris' }),
    ]);
    expect(again.map((b) => b.credited).sort()).toEqual([0, 10]);
    const stats = await service.stats(user, { days: 7 });
    // 05:00 in Paris on 4 May; the page past the end of the book counts as its last page (2).
    expect(stats.days).toEqual([{ date: '2026-05-04', seconds: HEARTBEAT_SECONDS + 10, pages: 2, lookups: 0 }]);
    expect(stats).toMatchObject({ from: '2026-04-28', to: '2026-05-04', totalSeconds: 40, totalPages: 2 });
  });

  it('keeps a calendar of the days read with the streak up to today, lookups and saved words per book', async () => {
    const token = await registerUser(t, 'daily');
    const id = await idOf('daily');
    const db = t.running.infra.db;
    const book = await db.selectFrom('books').select('id').where('code', '=', dream).executeTakeFirstOrThrow();
    const today = dateIn('UTC', new Date());
    // Read yesterday and the day before, and a week ago: the streak is 2 until today is read.
    for (const [ago, seconds] of [
      [1, 600],
      [2, 300],
      [7, 60],
    ] as const) {
      await db
        .insertInto('reading_days')
        .values({ user_id: id, book_id: book.id, day: daysBefore(today, ago), seconds, last_at: new Date() })
        .execute();
    }
    await db
      .insertInto('reading_pages')
      .values([
        { user_id: id, book_id: book.id, day: daysBefore(today, 1), page: 1 },
        { user_id: id, book_id: book.id, day: daysBefore(today, 2), page: 1 },
      ])
      .execute();
    let stats = (await t.call('GET', '/api/reading-stats?days=30&timeZone=UTC', { token })).data;
    expect(stats).toMatchObject({ daysRead: 3, streak: 2, totalSeconds: 960, totalPages: 1 });
    expect(stats.days.map((d: { date: string; seconds: number }) => [d.date, d.seconds])).toEqual([
      [daysBefore(today, 7), 60],
      [daysBefore(today, 2), 300],
      [daysBefore(today, 1), 600],
    ]);

    // A heartbeat today makes the streak 3; a saved word shows on the book.
    await beat(token, { timeZone: 'UTC' });
    await t.call('POST', '/api/vocabulary', {
      token,
      body: { bookCode: dream, language: 'en', blockId: 'c1-b2', text: '通灵' },
    });
    stats = (await t.call('GET', '/api/reading-stats?days=30&timeZone=UTC', { token })).data;
    expect(stats).toMatchObject({ daysRead: 4, streak: 3, totalSeconds: 960 + HEARTBEAT_SECONDS });
    expect(stats.books).toMatchObject([{ bookCode: dream, words: 1, pages: 1 }]);

    // Another user sees none of it.
    const stranger = await registerUser(t, 'stranger');
    expect((await t.call('GET', '/api/reading-stats', { token: stranger })).data).toMatchObject({
      totalSeconds: 0,
      daysRead: 0,
      days: [],
      books: [],
    });
  });

  it('counts lookups on the book, on the reader’s own calendar day', async () => {
    await registerUser(t, 'curious');
    const id = await idOf('curious');
    const book = await t.running.infra.db
      .selectFrom('books')
      .select('id')
      .where('code', '=', dream)
      .executeTakeFirstOrThrow();
    // 23:30 UTC on 1 March is already 2 March in Shanghai, the reader's time zone (from their heartbeat).
    let now = new Date('2026-03-01T23:30:00Z');
    const service = new ReadingStatsService({
      db: t.running.infra.db,
      books: t.running.services.books,
      now: () => now,
    });
    const user = await t.running.infra.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await service.heartbeat(user, { bookCode: dream, page: 1, timeZone: 'Asia/Shanghai' });
    // A beat that leaves its time zone out stays on the same calendar (2 March), not UTC's 1 March.
    now = new Date(now.getTime() + 30_000);
    expect(await service.heartbeat(user, { bookCode: dream, page: 1 })).toEqual({ credited: 30 });
    await service.lookedUp(id, book.id);
    await service.lookedUp(id, book.id);
    const stats = await service.stats(user, { days: 7 });
    expect(stats.days).toEqual([{ date: '2026-03-02', seconds: HEARTBEAT_SECONDS + 30, pages: 1, lookups: 2 }]);
    expect(stats).toMatchObject({ totalLookups: 2, books: [{ bookCode: dream, lookups: 2 }] });
  });
});
