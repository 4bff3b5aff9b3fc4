import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

export interface DayRow {
  day: string;
  seconds: number;
  lookups: number;
  pages: number;
}

export interface BookRow {
  book_code: string;
  book_title: string;
  seconds: number;
  lookups: number;
  pages: number;
  words: number;
  last_at: Date;
}

/** Reading activity: the heartbeat clock per user, and time, lookups and pages per day and book. */
export class ReadingStatsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Credits one heartbeat: the wall-clock seconds since the user's previous heartbeat (from any tab or
   * book), at most `capSeconds`, go to this book on `day`; the page is counted as read that day. The
   * user's heartbeat row is locked for the transaction, so beats that race are credited one after the
   * other and never count the same seconds twice. Returns the seconds credited.
   */
  async beat(
    userId: number,
    bookId: number,
    page: number,
    at: Date,
    day: string,
    timeZone: string,
    capSeconds: number,
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO reading_heartbeats (user_id, last_at, time_zone)
                VALUES (${userId}, ${new Date(at.getTime() - capSeconds * 1000)}, ${timeZone})
                ON CONFLICT (user_id) DO NOTHING`.execute(trx);
      const clock = await sql<{ since: number }>`
        SELECT extract(epoch FROM ${at}::timestamptz - last_at)::float8 AS since
          FROM reading_heartbeats WHERE user_id = ${userId} FOR UPDATE`.execute(trx);
      const credit = Math.round(Math.min(Math.max(0, clock.rows[0]?.since ?? 0), capSeconds));
      // The clock never goes back: a beat that waited for the lock behind a later one credits nothing.
      await sql`UPDATE reading_heartbeats SET last_at = greatest(last_at, ${at}::timestamptz), time_zone = ${timeZone}
                 WHERE user_id = ${userId}`.execute(trx);
      await sql`INSERT INTO reading_days (user_id, book_id, day, seconds, last_at)
                VALUES (${userId}, ${bookId}, ${day}::date, ${credit}, ${at})
                ON CONFLICT (user_id, day, book_id)
                DO UPDATE SET seconds = reading_days.seconds + excluded.seconds,
                              last_at = greatest(reading_days.last_at, excluded.last_at)`.execute(trx);
      await sql`INSERT INTO reading_pages (user_id, book_id, day, page) VALUES (${userId}, ${bookId}, ${day}::date, ${page})
                ON CONFLICT DO NOTHING`.execute(trx);
      return credit;
    });
  }

  /** The time zone of the user's last heartbeat (lookups are counted on that calendar). */
  async timeZone(userId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('reading_heartbeats')
      .select('time_zone')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.time_zone;
  }

  async countLookup(userId: number, bookId: number, day: string): Promise<void> {
    await sql`INSERT INTO reading_days (user_id, book_id, day, lookups, last_at)
              VALUES (${userId}, ${bookId}, ${day}::date, 1, now())
              ON CONFLICT (user_id, day, book_id)
              DO UPDATE SET lookups = reading_days.lookups + 1, last_at = now()`.execute(this.db);
  }

  /** Time, lookups and pages per day from `from` (a 'YYYY-MM-DD' date) on. */
  async days(userId: number, from: string): Promise<DayRow[]> {
    const rows = await sql<{ day: string; seconds: string; lookups: string; pages: string }>`
      SELECT to_char(d.day, 'YYYY-MM-DD') AS day, d.seconds, d.lookups, coalesce(p.pages, 0) AS pages
        FROM (SELECT day, sum(seconds) AS seconds, sum(lookups) AS lookups
                FROM reading_days WHERE user_id = ${userId} AND day >= ${from}::date GROUP BY day) d
        LEFT JOIN (SELECT day, count(*) AS pages
                     FROM reading_pages WHERE user_id = ${userId} AND day >= ${from}::date GROUP BY day) p
          ON p.day = d.day
       ORDER BY d.day`.execute(this.db);
    return rows.rows.map((r) => ({
      day: r.day,
      seconds: Number(r.seconds),
      lookups: Number(r.lookups),
      pages: Number(r.pages),
    }));
  }

  /** Every book the user read, most recent first: time, lookups, distinct pages, saved words. */
  async books(userId: number): Promise<BookRow[]> {
    const rows = await sql<{
      book_code: string;
      book_title: string;
      seconds: string;
      lookups: string;
      pages: string;
      words: string;
      last_at: Date;
    }>`
      SELECT b.code AS book_code, coalesce(ub.title, b.title) AS book_title, d.seconds, d.lookups, d.last_at,
             (SELECT count(DISTINCT page) FROM reading_pages p WHERE p.user_id = ${userId} AND p.book_id = d.book_id) AS pages,
             (SELECT count(*) FROM vocabulary_words w WHERE w.user_id = ${userId} AND w.book_id = d.book_id) AS words
        FROM (SELECT book_id, sum(seconds) AS seconds, sum(lookups) AS lookups, max(last_at) AS last_at
                FROM reading_days WHERE user_id = ${userId} GROUP BY book_id) d
        JOIN books b ON b.id = d.book_id
        LEFT JOIN user_books ub ON ub.book_id = d.book_id AND ub.user_id = ${userId}
       ORDER BY d.last_at DESC`.execute(this.db);
    return rows.rows.map((r) => ({
      ...r,
      seconds: Number(r.seconds),
      lookups: Number(r.lookups),
      pages: Number(r.pages),
      words: Number(r.words),
    }));
  }
}
