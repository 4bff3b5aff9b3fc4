import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { TRANSLATABLE } from '../reader/reader.repo.ts';

/**
 * A block with something to translate, in SQL: a translatable type and a character that JavaScript's
 * `trim` would keep (isTranslatable in page-translator.ts). The class lists JavaScript's white space
 * itself, so the two agree whatever the database's locale says white space is.
 */
export const HAS_TEXT_PATTERN =
  '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

export interface ExportBlockRow {
  seq: number;
  block_id: string;
  page: number;
  type: string;
  text: string;
  html: string | null;
  level: number | null;
  image_id: string | null;
  note_label: string | null;
  referenced_by: string[] | null;
  has_text: boolean;
  translation: string | null;
}

/** Per page: the blocks with text to translate, and how many of them have a finished translation. */
export interface PageTranslationState {
  page: number;
  wanted: number;
  done: number;
}

/** The only SQL of the export: a book's blocks with their finished translations, read page range by page range. */
export class ExportRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Where every footnote and every block that refers to one lies (for links across documents). */
  async linkEnds(bookId: number): Promise<{ block_id: string; chapter_idx: number; page: number }[]> {
    return this.db
      .selectFrom('book_blocks')
      .select(['block_id', 'chapter_idx', 'page'])
      .where('book_id', '=', bookId)
      .where((w) => w.or([w('type', '=', 'footnote'), w('note_refs', 'is not', null)]))
      .execute();
  }

  /** The blocks of pages `from`..`to` in reading order, each with its finished translation (or null). */
  async blocks(bookId: number, lang: string, from: number, to: number): Promise<ExportBlockRow[]> {
    const result = await sql<ExportBlockRow>`
      SELECT b.seq, b.block_id, b.page, b.type, b.text, b.html, b.level, b.image_id, b.note_label, b.referenced_by,
             (b.type = ANY(${[...TRANSLATABLE]}::text[]) AND b.text ~ ${HAS_TEXT_PATTERN}) AS has_text,
             t.translation
        FROM book_blocks b
        LEFT JOIN book_translations t
          ON t.book_id = b.book_id AND t.target_lang = ${lang} AND t.seq = b.seq AND t.status = 'done'
       WHERE b.book_id = ${bookId} AND b.page BETWEEN ${from} AND ${to}
       ORDER BY b.seq`.execute(this.db);
    return result.rows;
  }

  /** Pages with text to translate, with how much of it is translated (pages without any are left out). */
  async translationState(bookId: number, lang: string): Promise<PageTranslationState[]> {
    const result = await sql<{ page: number; wanted: string; done: string }>`
      SELECT b.page, count(*) AS wanted, count(t.seq) AS done
        FROM book_blocks b
        LEFT JOIN book_translations t
          ON t.book_id = b.book_id AND t.target_lang = ${lang} AND t.seq = b.seq AND t.status = 'done'
       WHERE b.book_id = ${bookId} AND b.type = ANY(${[...TRANSLATABLE]}::text[]) AND b.text ~ ${HAS_TEXT_PATTERN}
       GROUP BY b.page
       ORDER BY b.page`.execute(this.db);
    return result.rows.map((r) => ({ page: r.page, wanted: Number(r.wanted), done: Number(r.done) }));
  }

  /** When a finished translation of the book into `lang` last changed (null: none yet). */
  async translationsChangedAt(bookId: number, lang: string): Promise<Date | null> {
    const row = await sql<{ at: Date | null }>`
      SELECT max(updated_at) AS at FROM book_translations
       WHERE book_id = ${bookId} AND target_lang = ${lang} AND status = 'done'`.execute(this.db);
    return row.rows[0]?.at ?? null;
  }

  images(bookId: number): Promise<{ image_id: string; storage_key: string; media_type: string }[]> {
    return this.db
      .selectFrom('book_images')
      .select(['image_id', 'storage_key', 'media_type'])
      .where('book_id', '=', bookId)
      .orderBy('image_id')
      .execute();
  }
}
