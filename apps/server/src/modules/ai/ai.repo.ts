import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookBlocksTable } from '../../db/schema.ts';

export type AiBlockRow = Selectable<BookBlocksTable>;

export interface SearchRow {
  block_id: string;
  page: number;
  text: string;
  translation: string | null;
  title: string;
  score: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => '\\' + c);

/** The only SQL of the AI reading aids: the text they read and the page notes they share. */
export class AiRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  block(bookId: number, blockId: string): Promise<AiBlockRow | undefined> {
    return this.db
      .selectFrom('book_blocks')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('block_id', '=', blockId)
      .executeTakeFirst();
  }

  /** The texts of blocks by sequence number (a block's neighbours). */
  texts(bookId: number, seqs: number[]): Promise<{ seq: number; text: string }[]> {
    return this.db
      .selectFrom('book_blocks')
      .select(['seq', 'text'])
      .where('book_id', '=', bookId)
      .where('seq', 'in', seqs)
      .execute();
  }

  async chapterTitle(bookId: number, index: number): Promise<string> {
    const row = await this.db
      .selectFrom('book_chapters')
      .select('title')
      .where('book_id', '=', bookId)
      .where('idx', '=', index)
      .executeTakeFirst();
    return row?.title ?? '';
  }

  /** A page's blocks that are read as text (what annotation looks at). */
  textBlocksOfPage(bookId: number, page: number): Promise<AiBlockRow[]> {
    return this.db
      .selectFrom('book_blocks')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('page', '=', page)
      .where('type', 'in', ['paragraph', 'quote', 'listItem', 'heading'])
      .orderBy('seq')
      .execute();
  }

  async annotations(bookId: number, page: number, lang: string, model: string): Promise<unknown> {
    const row = await this.db
      .selectFrom('ai_annotations')
      .select('notes')
      .where('book_id', '=', bookId)
      .where('page', '=', page)
      .where('lang', '=', lang)
      .where('model', '=', model)
      .executeTakeFirst();
    return row?.notes;
  }

  async saveAnnotations(bookId: number, page: number, lang: string, model: string, notes: unknown): Promise<void> {
    await this.db
      .insertInto('ai_annotations')
      .values({ book_id: bookId, page, lang, model, notes: JSON.stringify(notes) })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** Blocks matching any of the terms in the original or the translation, best first (at most 20). */
  async search(bookId: number, language: string, terms: string[]): Promise<SearchRow[]> {
    const patterns = terms.map((t) => `%${escapeLike(t.toLowerCase())}%`);
    const score = sql.join(
      patterns.map(
        (p) =>
          sql`(CASE WHEN lower(b.text) LIKE ${p} OR lower(coalesce(t.translation, '')) LIKE ${p} THEN 1 ELSE 0 END)`,
      ),
      sql` + `,
    );
    const rows = await sql<SearchRow>`
      SELECT b.block_id, b.page, b.text, t.translation, c.title, (${score}) AS score
      FROM book_blocks b
      JOIN book_chapters c ON c.book_id = b.book_id AND c.idx = b.chapter_idx
      LEFT JOIN book_translations t ON t.book_id = b.book_id AND t.seq = b.seq AND t.target_lang = ${language} AND t.status = 'done'
      WHERE b.book_id = ${bookId} AND (${score}) > 0
      ORDER BY score DESC, b.seq
      LIMIT 20`.execute(this.db);
    return rows.rows;
  }
}
