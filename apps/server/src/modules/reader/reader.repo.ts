import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookBlocksTable, BookTranslationsTable } from '../../db/schema.ts';
import { RETRY_BASE_SECONDS, RETRY_MAX_SECONDS } from './retries.ts';

export type BlockRow = Selectable<BookBlocksTable>;
export type TranslationRow = Selectable<BookTranslationsTable>;

/** Block types that are read as text and so translated. */
export const TRANSLATABLE = ['heading', 'paragraph', 'quote', 'listItem', 'footnote', 'table'] as const;

/**
 * A claim not renewed for this long belongs to a worker that died: another may take the blocks. The
 * translating worker renews its claims every CLAIM_RENEW_MS while it waits on the engines.
 */
const STALE_CLAIM = sql`interval '30 seconds'`;
export const CLAIM_RENEW_MS = 10_000;

/** The only place with SQL about book pages and their translations. */
export class ReaderRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  pageBlocks(bookId: number, page: number): Promise<BlockRow[]> {
    return this.db
      .selectFrom('book_blocks')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('page', '=', page)
      .orderBy('seq')
      .execute();
  }

  /** One block by its id (the unique index on book and block id). */
  blockById(bookId: number, blockId: string): Promise<BlockRow | undefined> {
    return this.db
      .selectFrom('book_blocks')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('block_id', '=', blockId)
      .executeTakeFirst();
  }

  /** The pages of some blocks, by block id. */
  async pagesOf(bookId: number, blockIds: string[]): Promise<Map<string, number>> {
    if (blockIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('book_blocks')
      .select(['block_id', 'page'])
      .where('book_id', '=', bookId)
      .where('block_id', 'in', blockIds)
      .execute();
    return new Map(rows.map((r) => [r.block_id, r.page]));
  }

  async chapterOf(bookId: number, index: number): Promise<{ idx: number; title: string } | undefined> {
    return this.db
      .selectFrom('book_chapters')
      .select(['idx', 'title'])
      .where('book_id', '=', bookId)
      .where('idx', '=', index)
      .executeTakeFirst();
  }

  translations(bookId: number, lang: string, seqs: number[]): Promise<TranslationRow[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('book_translations')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .where('seq', 'in', seqs)
      .execute();
  }

  /** Marks blocks as wanted (pending) unless they already have a row. */
  async requestPending(bookId: number, lang: string, seqs: number[], userId: number): Promise<number> {
    if (seqs.length === 0) return 0;
    const result = await this.db
      .insertInto('book_translations')
      .values(
        seqs.map((seq) => ({
          book_id: bookId,
          target_lang: lang,
          seq,
          status: 'pending' as const,
          requested_by: userId,
        })),
      )
      .onConflict((oc) => oc.columns(['book_id', 'target_lang', 'seq']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  /** Puts failed blocks back to pending (the reader's Retry), whatever their wait. */
  async retryFailed(bookId: number, lang: string, seqs: number[], userId: number): Promise<number> {
    if (seqs.length === 0) return 0;
    const result = await this.db
      .updateTable('book_translations')
      .set({
        status: 'pending',
        error: null,
        attempts: 0,
        retry_at: null,
        requested_by: userId,
        updated_at: new Date(),
      })
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .where('seq', 'in', seqs)
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Puts failed blocks whose retry is due back to pending (see retries.ts): their `retry_at` has
   * passed, or they failed before `enginesChangedAt`. The condition is checked by the UPDATE itself,
   * so of many readers asking at once only one gets each block back: the seqs it returns.
   */
  async retryDue(
    bookId: number,
    lang: string,
    seqs: number[],
    enginesChangedAt: Date,
    userId: number,
  ): Promise<number[]> {
    if (seqs.length === 0) return [];
    const rows = await this.db
      .updateTable('book_translations')
      .set({
        status: 'pending',
        error: null,
        attempts: 0,
        retry_at: null,
        requested_by: userId,
        updated_at: new Date(),
      })
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .where('seq', 'in', seqs)
      .where('status', '=', 'failed')
      .where((eb) =>
        eb.or([
          eb('retry_at', 'is', null),
          eb('retry_at', '<=', sql<Date>`now()`),
          eb('updated_at', '<', enginesChangedAt),
        ]),
      )
      .returning('seq')
      .execute();
    return rows.map((r) => r.seq);
  }

  /**
   * Claims the page's pending blocks for one worker: unclaimed ones, or ones whose claim went stale.
   * Two workers on the same page split nothing twice.
   */
  async claimPending(
    bookId: number,
    lang: string,
    page: number,
  ): Promise<(BlockRow & { requested_by: number | null })[]> {
    const claimed = await sql<{ seq: number; requested_by: number | null }>`
      UPDATE book_translations t SET attempts = t.attempts + 1, updated_at = now()
      FROM book_blocks b
      WHERE t.book_id = ${bookId} AND t.target_lang = ${lang} AND t.status = 'pending'
        AND b.book_id = t.book_id AND b.seq = t.seq AND b.page = ${page}
        AND (t.attempts = 0 OR t.updated_at < now() - ${STALE_CLAIM})
      RETURNING t.seq, t.requested_by`.execute(this.db);
    if (claimed.rows.length === 0) return [];
    const by = new Map(claimed.rows.map((r) => [r.seq, r.requested_by]));
    const blocks = await this.db
      .selectFrom('book_blocks')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('seq', 'in', [...by.keys()])
      .orderBy('seq')
      .execute();
    return blocks.map((b) => ({ ...b, requested_by: by.get(b.seq) ?? null }));
  }

  /** The translation engine a reader prefers (null: the default order). */
  async preferredEngine(userId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('users')
      .select('translation_engine')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.translation_engine ?? null;
  }

  /** Keeps a worker's claim on blocks it is still translating (see STALE_CLAIM). */
  async renewClaims(bookId: number, lang: string, seqs: number[]): Promise<void> {
    if (seqs.length === 0) return;
    await this.db
      .updateTable('book_translations')
      .set({ updated_at: new Date() })
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .where('seq', 'in', seqs)
      .where('status', '=', 'pending')
      .execute();
  }

  async saveDone(
    bookId: number,
    lang: string,
    rows: {
      seq: number;
      translation: string;
      engine: string;
      model: string;
      fromMemory: boolean;
      glossaryKey: string;
    }[],
  ): Promise<void> {
    for (const row of rows) {
      await this.db
        .updateTable('book_translations')
        .set({
          status: 'done',
          translation: row.translation,
          engine: row.engine,
          model: row.model,
          from_memory: row.fromMemory,
          glossary_key: row.glossaryKey,
          error: null,
          failures: 0,
          retry_at: null,
          updated_at: new Date(),
        })
        .where('book_id', '=', bookId)
        .where('target_lang', '=', lang)
        .where('seq', '=', row.seq)
        .execute();
    }
  }

  /**
   * Marks blocks failed and sets when they are tried again: RETRY_BASE_SECONDS after a first failure,
   * twice as long after each further one, at most RETRY_MAX_SECONDS, spread by ±25 % (retries.ts).
   */
  async saveFailed(bookId: number, lang: string, seqs: number[], error: string): Promise<void> {
    if (seqs.length === 0) return;
    // `failures` on the right is the value before this statement: 0 for a first failure.
    const wait = sql<number>`least(${RETRY_MAX_SECONDS}, ${RETRY_BASE_SECONDS} * power(2, least(failures, 16)))
      * (0.75 + random() * 0.5)`;
    await this.db
      .updateTable('book_translations')
      .set({
        status: 'failed',
        error: error.slice(0, 500),
        updated_at: new Date(),
        failures: sql<number>`failures + 1`,
        retry_at: sql<Date>`now() + make_interval(secs => ${wait})`,
      })
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .where('seq', 'in', seqs)
      .where('status', '=', 'pending')
      .execute();
  }
}
