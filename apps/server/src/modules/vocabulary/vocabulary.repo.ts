import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { VocabularyWordsTable } from '../../db/schema.ts';

export type WordRow = Selectable<VocabularyWordsTable> & { book_code: string | null };
export type NewWord = Insertable<VocabularyWordsTable>;

export interface WordFilter {
  /** Words saved from this book (by its code). */
  bookCode?: string | undefined;
  /** Only words due at or before this time. */
  dueBy?: Date | undefined;
  /** Words whose text, meaning or note contains this. */
  search?: string | undefined;
}

/** A user's vocabulary book: every query is bound to the user, so nobody reads or changes another's words. */
export class VocabularyRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  private selectWords(userId: number) {
    return this.db
      .selectFrom('vocabulary_words as w')
      .leftJoin('books as b', 'b.id', 'w.book_id')
      .selectAll('w')
      .select('b.code as book_code')
      .where('w.user_id', '=', userId);
  }

  private filtered(userId: number, filter: WordFilter) {
    let query = this.selectWords(userId);
    if (filter.bookCode !== undefined) query = query.where('b.code', '=', filter.bookCode);
    if (filter.dueBy) query = query.where('w.due_at', '<=', filter.dueBy);
    if (filter.search) {
      const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([eb('w.text', 'ilike', like), eb('w.meaning', 'ilike', like), eb('w.note', 'ilike', like)]),
      );
    }
    return query;
  }

  /** A page of words: due ones by due time, the others newest first. */
  async list(
    userId: number,
    filter: WordFilter,
    page: { limit: number; offset: number },
  ): Promise<{ rows: WordRow[]; total: number }> {
    const base = this.filtered(userId, filter);
    const [rows, count] = await Promise.all([
      (filter.dueBy
        ? base.orderBy('w.due_at').orderBy('w.id')
        : base.orderBy('w.created_at', 'desc').orderBy('w.id', 'desc')
      )
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      this.filtered(userId, filter)
        .clearSelect()
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Every word matching the filter, in the order they were saved (the export). */
  all(userId: number, filter: WordFilter): Promise<WordRow[]> {
    return this.filtered(userId, filter).orderBy('w.created_at').orderBy('w.id').execute();
  }

  async countDue(userId: number, now: Date, bookCode?: string): Promise<number> {
    const row = await this.filtered(userId, { dueBy: now, bookCode })
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The books the user saved words from, with how many; a deleted book is listed by its kept title. */
  async books(userId: number): Promise<{ book_code: string | null; book_title: string; words: number }[]> {
    const rows = await sql<{ book_code: string | null; book_title: string; words: string }>`
      SELECT b.code AS book_code, min(w.book_title) AS book_title, count(*) AS words, max(w.created_at) AS last
        FROM vocabulary_words w LEFT JOIN books b ON b.id = w.book_id
       WHERE w.user_id = ${userId}
       GROUP BY w.book_id, b.code
       ORDER BY last DESC`.execute(this.db);
    return rows.rows.map((r) => ({ ...r, words: Number(r.words) }));
  }

  async find(userId: number, id: number): Promise<WordRow | undefined> {
    return this.selectWords(userId).where('w.id', '=', String(id)).executeTakeFirst();
  }

  /** Saves a word; when the user already has it from this book, the first one is kept and returned. */
  async insertOnce(word: NewWord): Promise<{ id: string; created: boolean }> {
    const inserted = await this.db
      .insertInto('vocabulary_words')
      .values(word)
      .onConflict((oc) => oc.columns(['user_id', 'book_id', 'text_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { id: inserted.id, created: true };
    const existing = await this.db
      .selectFrom('vocabulary_words')
      .select('id')
      .where('user_id', '=', word.user_id)
      .where('book_id', '=', word.book_id ?? null)
      .where('text_key', '=', word.text_key)
      .executeTakeFirstOrThrow();
    return { id: existing.id, created: false };
  }

  async update(
    userId: number,
    id: number,
    values: Partial<
      Pick<NewWord, 'meaning' | 'pronunciation' | 'note' | 'box' | 'due_at' | 'reviews' | 'lapses' | 'last_reviewed_at'>
    >,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('vocabulary_words')
      .set({ ...values, updated_at: new Date() })
      .where('id', '=', String(id))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('vocabulary_words')
      .where('id', '=', String(id))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Words with their paragraph and its finished translation into the word's language (Anki cards). */
  async withParagraphs(
    userId: number,
    filter: { bookCode?: string | undefined; unsent?: boolean | undefined; limit: number },
  ): Promise<(WordRow & { paragraph: string | null; translation: string | null })[]> {
    let query = this.selectWords(userId)
      .leftJoin('book_blocks as bb', (j) =>
        j.onRef('bb.book_id', '=', 'w.book_id').onRef('bb.block_id', '=', 'w.block_id'),
      )
      .leftJoin('book_translations as t', (j) =>
        j
          .onRef('t.book_id', '=', 'bb.book_id')
          .onRef('t.seq', '=', 'bb.seq')
          .onRef('t.target_lang', '=', 'w.target_lang')
          .on('t.status', '=', 'done'),
      )
      .select(['bb.text as paragraph', 't.translation']);
    if (filter.bookCode !== undefined) query = query.where('b.code', '=', filter.bookCode);
    if (filter.unsent) query = query.where('w.anki_sent_at', 'is', null);
    return query.orderBy('w.created_at').orderBy('w.id').limit(filter.limit).execute();
  }

  /** Records that these words went to Anki (the first time only); answers how many were new. */
  async markSentToAnki(userId: number, ids: number[]): Promise<number> {
    const result = await this.db
      .updateTable('vocabulary_words')
      .set({ anki_sent_at: new Date() })
      .where('user_id', '=', userId)
      .where('id', 'in', ids.map(String))
      .where('anki_sent_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The page of a block and the title of its chapter, or undefined when the book has no such block. */
  async blockPlace(bookId: number, blockId: string): Promise<{ page: number; chapterTitle: string } | undefined> {
    const row = await this.db
      .selectFrom('book_blocks as b')
      .leftJoin('book_chapters as c', (j) =>
        j.onRef('c.book_id', '=', 'b.book_id').onRef('c.idx', '=', 'b.chapter_idx'),
      )
      .select(['b.page', 'c.title'])
      .where('b.book_id', '=', bookId)
      .where('b.block_id', '=', blockId)
      .executeTakeFirst();
    return row ? { page: row.page, chapterTitle: row.title ?? '' } : undefined;
  }
}
