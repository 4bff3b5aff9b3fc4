import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { MarkKind, ReaderMarksTable, ReadingPositionsTable } from '../../db/schema.ts';

export type MarkRow = Selectable<ReaderMarksTable>;
export type NewMark = Insertable<ReaderMarksTable>;
export type PositionRow = Selectable<ReadingPositionsTable>;

/** A mark with the chapter and reading order of its block, as the Markdown export lists them. */
export type ExportedMarkRow = MarkRow & { chapter_title: string; seq: number };

/**
 * The only SQL about marks (annotations, highlights, underlines, bookmarks) and reading positions.
 * Every query about a user's marks or position is bound to that user.
 */
export class MarksRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  // ---------- blocks marks are anchored to ----------

  /** A block of a book with its page and text (to check offsets against). */
  block(bookId: number, blockId: string) {
    return this.db
      .selectFrom('book_blocks')
      .select(['page', 'text'])
      .where('book_id', '=', bookId)
      .where('block_id', '=', blockId)
      .executeTakeFirst();
  }

  /** The first block of a page, where a bookmark without a block is anchored. */
  async firstBlockOfPage(bookId: number, page: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('book_blocks')
      .select('block_id')
      .where('book_id', '=', bookId)
      .where('page', '=', page)
      .orderBy('seq')
      .executeTakeFirst();
    return row?.block_id;
  }

  /** A mark's book is returned to the client by its code, never by its id. */
  async bookCode(bookId: number): Promise<string> {
    return (await this.db.selectFrom('books').select('code').where('id', '=', bookId).executeTakeFirstOrThrow()).code;
  }

  // ---------- marks ----------

  /** One of the user's marks; undefined when the user has no such mark (or it was deleted). */
  find(userId: number, id: number): Promise<MarkRow | undefined> {
    return this.db
      .selectFrom('reader_marks')
      .selectAll()
      .where('id', '=', String(id))
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  insert(mark: NewMark): Promise<MarkRow> {
    return this.db.insertInto('reader_marks').values(mark).returningAll().executeTakeFirstOrThrow();
  }

  /** Changes the text of one of the user's annotations; undefined when the user has no such annotation. */
  editAnnotation(userId: number, id: number, content: string): Promise<MarkRow | undefined> {
    return this.db
      .updateTable('reader_marks')
      .set({ content, updated_at: new Date() })
      .where('id', '=', String(id))
      .where('user_id', '=', userId)
      .where('kind', '=', 'annotation')
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes one of the user's marks of the given kinds; false when there was none. */
  async remove(userId: number, id: number, kinds: MarkKind[]): Promise<boolean> {
    const result = await this.db
      .deleteFrom('reader_marks')
      .where('id', '=', String(id))
      .where('user_id', '=', userId)
      .where('kind', 'in', kinds)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The user's marks in a book (of one kind, if given), in reading order. */
  list(userId: number, bookId: number, kind?: MarkKind): Promise<MarkRow[]> {
    let query = this.db
      .selectFrom('reader_marks')
      .selectAll()
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId);
    if (kind) query = query.where('kind', '=', kind);
    return query.orderBy('page').orderBy('block_id').orderBy('start_offset').orderBy('id').execute();
  }

  /** The user's marks in a book with their chapters, in the order of the text (the Markdown export). */
  async forExport(userId: number, bookId: number): Promise<ExportedMarkRow[]> {
    const rows = await sql<ExportedMarkRow>`
      SELECT m.*, c.title AS chapter_title, b.seq
      FROM reader_marks m
      JOIN book_blocks b ON b.book_id = m.book_id AND b.block_id = m.block_id
      JOIN book_chapters c ON c.book_id = b.book_id AND c.idx = b.chapter_idx
      WHERE m.user_id = ${userId} AND m.book_id = ${bookId}
      ORDER BY b.seq, m.start_offset NULLS FIRST, m.id`.execute(this.db);
    return rows.rows;
  }

  // ---------- reading positions ----------

  /** Where the user is in a book: one position per user and book, replaced on each save. */
  savePosition(
    userId: number,
    bookId: number,
    position: { page: number; blockId: string | null; blockOffset: number | null; language: string },
  ): Promise<PositionRow> {
    const { page, blockId, blockOffset, language } = position;
    const values = { page, block_id: blockId, block_offset: blockOffset, language };
    return this.db
      .insertInto('reading_positions')
      .values({ user_id: userId, book_id: bookId, ...values })
      .onConflict((oc) => oc.columns(['user_id', 'book_id']).doUpdateSet({ ...values, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The user's copy was read now (it orders the library by last reading). */
  async touchCopy(copyId: number): Promise<void> {
    await this.db.updateTable('user_books').set({ last_read_at: new Date() }).where('id', '=', copyId).execute();
  }

  position(userId: number, bookId: number): Promise<PositionRow | undefined> {
    return this.db
      .selectFrom('reading_positions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('book_id', '=', bookId)
      .executeTakeFirst();
  }

  /** The books in the user's library read last, with where the user stopped. */
  recent(userId: number, limit: number) {
    return this.db
      .selectFrom('reading_positions as p')
      .innerJoin('books as b', 'b.id', 'p.book_id')
      .leftJoin('user_books as ub', (j) => j.onRef('ub.book_id', '=', 'p.book_id').on('ub.user_id', '=', userId))
      .select([
        'b.code',
        'b.title',
        'b.page_count',
        'ub.title as copy_title',
        'p.page',
        'p.block_id',
        'p.block_offset',
        'p.language',
        'p.updated_at',
      ])
      .where('p.user_id', '=', userId)
      .where('ub.id', 'is not', null)
      .orderBy('p.updated_at', 'desc')
      .limit(limit)
      .execute();
  }
}
