import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookTranslationJobStatus, BookTranslationJobsTable } from '../../db/schema.ts';
import { TRANSLATABLE } from '../reader/reader.repo.ts';
import { lockUntilCommit } from '../../db/locks.ts';

export type JobRow = Selectable<BookTranslationJobsTable>;
/** A job with what is left of its reservation (the hold's points; null without a hold). */
export type JobWithHold = JobRow & { held_points: string | null };

/**
 * A worker's lease on a job: renewed every LEASE_RENEW_MS while it works; a lease not renewed for
 * this long belongs to a worker that died, and the job is started again (like a page's block claims).
 */
const LEASE = sql`interval '30 seconds'`;
export const LEASE_RENEW_MS = 10_000;
/** A job handed to the queue but not started by any worker for this long is handed over again. */
const QUEUE_GRACE = sql`interval '2 minutes'`;

/** A block as the quote counts it: its text and what its translation row says. */
export interface QuoteBlockRow {
  seq: number;
  page: number;
  type: string;
  text: string;
  html: string | null;
  status: 'pending' | 'done' | 'failed' | null;
  from_memory: boolean | null;
  requested_by: number | null;
}

/** The only SQL of whole-book translations. */
export class BookTranslationRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * Runs `work` in one transaction holding a lock of the reader's translation of this book into this
   * language: starts of the same translation run one after the other, whatever process they are in.
   */
  exclusively<T>(
    userId: number,
    bookId: number,
    lang: string,
    work: (repo: BookTranslationRepo, trx: Db) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await lockUntilCommit(trx, `bookTranslation:${userId}:${bookId}:${lang}`);
      return work(new BookTranslationRepo(trx), trx);
    });
  }

  async insert(job: Insertable<BookTranslationJobsTable>): Promise<JobRow> {
    return this.db.insertInto('book_translation_jobs').values(job).returningAll().executeTakeFirstOrThrow();
  }

  private withHold() {
    return this.db
      .selectFrom('book_translation_jobs as j')
      .leftJoin('points_holds as h', 'h.id', 'j.hold_id')
      .selectAll('j')
      .select(sql<string | null>`h.points::text`.as('held_points'));
  }

  find(id: string): Promise<JobWithHold | undefined> {
    return this.withHold().where('j.id', '=', id).executeTakeFirst();
  }

  /** The reader's latest whole-book translation of a book into a language. */
  latest(userId: number, bookId: number, lang: string): Promise<JobWithHold | undefined> {
    return this.withHold()
      .where('j.user_id', '=', userId)
      .where('j.book_id', '=', bookId)
      .where('j.target_lang', '=', lang)
      .orderBy('j.id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Takes the job for one pg-boss job (`runId`): only the run the job names, and only when no live
   * worker holds its lease. Progress restarts at the first unfinished chunk.
   */
  claim(id: string, runId: string): Promise<JobRow | undefined> {
    return this.db
      .updateTable('book_translation_jobs')
      .set({
        lease_until: sql`now() + ${LEASE}`,
        pages_done: sql`next_page - 1`,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('run_id', '=', runId)
      .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', sql<Date>`now()`)]))
      .returningAll()
      .executeTakeFirst();
  }

  /** Keeps the lease; false when the job is no longer this run's (stopped, or handed to another). */
  async renew(id: string, runId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('book_translation_jobs')
      .set({ lease_until: sql`now() + ${LEASE}`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('run_id', '=', runId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Lets the lease lapse at once (a run that failed, so that its retry may claim the job). */
  async dropLease(id: string, runId: string): Promise<void> {
    await this.db
      .updateTable('book_translation_jobs')
      .set({ lease_until: sql`now() - interval '1 second'` })
      .where('id', '=', id)
      .where('run_id', '=', runId)
      .execute();
  }

  async pageDone(id: string, runId: string): Promise<void> {
    await this.db
      .updateTable('book_translation_jobs')
      .set({ pages_done: sql`pages_done + 1`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('run_id', '=', runId)
      .where('status', '=', 'running')
      .execute();
  }

  /** Whether this run may still work on the job (not cancelled, not handed to another run). */
  async stillOurs(id: string, runId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('book_translation_jobs')
      .select('id')
      .where('id', '=', id)
      .where('run_id', '=', runId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Records a finished chunk and names the run that does the next one, in one statement. */
  async handOver(id: string, runId: string, nextPage: number, nextRunId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('book_translation_jobs')
      .set({
        next_page: nextPage,
        pages_done: nextPage - 1,
        run_id: nextRunId,
        lease_until: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('run_id', '=', runId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Ends a running job (done, cancelled or failed); `runId` limits it to that run. Undefined when it
   * was no longer running: it ends once, and only the caller that ended it releases its reservation.
   */
  finish(
    id: string,
    status: Exclude<BookTranslationJobStatus, 'running'>,
    extra: { runId?: string; errorKey?: string; failedBlocks?: number; pagesDone?: number } = {},
  ): Promise<JobRow | undefined> {
    let query = this.db
      .updateTable('book_translation_jobs')
      .set({
        status,
        error_key: extra.errorKey ?? null,
        ...(extra.failedBlocks !== undefined ? { failed_blocks: extra.failedBlocks } : {}),
        ...(extra.pagesDone !== undefined ? { pages_done: extra.pagesDone, next_page: extra.pagesDone + 1 } : {}),
        lease_until: null,
        updated_at: sql`now()`,
        finished_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', '=', 'running');
    if (extra.runId) query = query.where('run_id', '=', extra.runId);
    return query.returningAll().executeTakeFirst();
  }

  /**
   * Names a new run for a job whose worker is gone: its lease lapsed, or it was handed to the queue
   * and never started. Only one caller wins (the run id it saw must still be the job's).
   */
  async restart(id: string, seenRunId: string | null, nextRunId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('book_translation_jobs')
      .set({ run_id: nextRunId, lease_until: null, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where(sql<boolean>`run_id IS NOT DISTINCT FROM ${seenRunId}`)
      .where((w) =>
        w.or([
          w('lease_until', '<', sql<Date>`now()`),
          w.and([w('lease_until', 'is', null), w('updated_at', '<', sql<Date>`now() - ${QUEUE_GRACE}`)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Running jobs whose worker is gone (see restart), oldest first. */
  lapsed(limit: number): Promise<JobRow[]> {
    return this.db
      .selectFrom('book_translation_jobs')
      .selectAll()
      .where('status', '=', 'running')
      .where((w) =>
        w.or([
          w('lease_until', '<', sql<Date>`now()`),
          w.and([w('lease_until', 'is', null), w('updated_at', '<', sql<Date>`now() - ${QUEUE_GRACE}`)]),
        ]),
      )
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  }

  /** Whether a job's reservation still holds its points (not released, not settled). */
  async holdIsHeld(holdId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('points_holds')
      .select('id')
      .where('id', '=', holdId)
      .where('status', '=', 'held')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The text blocks of pages `from`..`to` with their translation state, for a quote. */
  async quoteBlocks(bookId: number, lang: string, from: number, to: number): Promise<QuoteBlockRow[]> {
    const result = await sql<QuoteBlockRow>`
      SELECT b.seq, b.page, b.type, b.text, b.html, t.status, t.from_memory, t.requested_by
        FROM book_blocks b
        LEFT JOIN book_translations t ON t.book_id = b.book_id AND t.target_lang = ${lang} AND t.seq = b.seq
       WHERE b.book_id = ${bookId} AND b.page BETWEEN ${from} AND ${to} AND b.type = ANY(${[...TRANSLATABLE]}::text[])
       ORDER BY b.seq`.execute(this.db);
    return result.rows;
  }

  /** How many of the book's blocks failed to translate into the language. */
  async failedBlocks(bookId: number, lang: string): Promise<number> {
    const row = await this.db
      .selectFrom('book_translations')
      .select(sql<string>`count(*)`.as('n'))
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .where('status', '=', 'failed')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
