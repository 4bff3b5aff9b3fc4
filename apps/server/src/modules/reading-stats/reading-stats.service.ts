import { HEARTBEAT_SECONDS, type ReadingStats } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { BooksService } from '../books/books.service.ts';
import { ReadingStatsRepo } from './reading-stats.repo.ts';

const DAY_MS = 86_400_000;

/** A time zone Intl knows, else UTC: days are counted on the reader's own calendar. */
export function validTimeZone(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** The calendar date ('YYYY-MM-DD') of an instant in a time zone. */
export function dateIn(timeZone: string, at: Date): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The date `days` days before a 'YYYY-MM-DD' date. */
export function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Reading statistics. Time read comes from the reader's heartbeats: the web app sends one every
 * HEARTBEAT_SECONDS while the reader is visible and in use (an idle or hidden tab sends none), and
 * each is credited with the wall-clock time since the user's previous one, at most one interval, so
 * several open tabs count each minute once and a heartbeat after a pause counts one interval, not the
 * pause. Pages are the distinct pages of a book a heartbeat came from each day; lookups are counted
 * as they are made. Days are the reader's own calendar days (their time zone).
 */
export class ReadingStatsService {
  private readonly repo: ReadingStatsRepo;
  private readonly books: BooksService;
  private readonly now: () => Date;
  constructor(deps: { db: Db; books: BooksService; now?: () => Date }) {
    this.repo = new ReadingStatsRepo(deps.db);
    this.books = deps.books;
    this.now = deps.now ?? (() => new Date());
  }

  async heartbeat(
    user: UserRow,
    body: { bookCode: string; page: number; timeZone?: string | undefined },
  ): Promise<{ credited: number }> {
    const { book } = await this.books.view(user, body.bookCode);
    const page = Math.min(body.page, Math.max(1, book.page_count));
    // A beat that does not say its time zone is on the reader's calendar of the last one that did.
    const timeZone = validTimeZone(body.timeZone ?? (await this.repo.timeZone(user.id)));
    const at = this.now();
    const credited = await this.repo.beat(
      user.id,
      book.id,
      page,
      at,
      dateIn(timeZone, at),
      timeZone,
      HEARTBEAT_SECONDS,
    );
    return { credited };
  }

  /** Counts a lookup on today's date of the reader's calendar. */
  async lookedUp(userId: number, bookId: number): Promise<void> {
    const timeZone = validTimeZone(await this.repo.timeZone(userId));
    await this.repo.countLookup(userId, bookId, dateIn(timeZone, this.now()));
  }

  async stats(user: UserRow, query: { days: number; timeZone?: string | undefined }): Promise<ReadingStats> {
    const timeZone = validTimeZone(query.timeZone ?? (await this.repo.timeZone(user.id)));
    const today = dateIn(timeZone, this.now());
    const from = daysBefore(today, query.days - 1);
    const [days, books] = await Promise.all([this.repo.days(user.id, from), this.repo.books(user.id)]);
    const read = new Set(days.filter((d) => d.seconds > 0 || d.pages > 0).map((d) => d.day));
    // A streak still counts when today has nothing yet: it is broken only by a whole day missed.
    let streak = 0;
    for (let day = read.has(today) ? today : daysBefore(today, 1); read.has(day); day = daysBefore(day, 1)) streak++;
    return {
      from,
      to: today,
      totalSeconds: books.reduce((n, b) => n + b.seconds, 0),
      totalPages: books.reduce((n, b) => n + b.pages, 0),
      totalLookups: books.reduce((n, b) => n + b.lookups, 0),
      daysRead: read.size,
      streak,
      days: days.map((d) => ({ date: d.day, seconds: d.seconds, pages: d.pages, lookups: d.lookups })),
      books: books.map((b) => ({
        bookCode: b.book_code,
        bookTitle: b.book_title,
        seconds: b.seconds,
        pages: b.pages,
        lookups: b.lookups,
        words: b.words,
        lastReadAt: b.last_at.toISOString(),
      })),
    };
  }
}
