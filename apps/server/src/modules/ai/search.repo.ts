import type { GeneratedTitle } from '@yidu/shared/contents';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

export interface SearchCandidateRow {
  seq: number;
  block_id: string;
  page: number;
  text: string;
  translation: string | null;
  chapter_title: string;
  chapter_generated: GeneratedTitle | null;
}

/**
 * The SQL of passage search. The expressions match the indexes of migration 0014 word for word
 * (`yidu_search_vector(...)`), so each side of the union is a bitmap scan of one book's postings.
 */
export class SearchRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * The paragraphs whose original or finished translation matches the query (any of its terms), in
   * book order: at most `limit` of them, and how many there are in all.
   */
  async candidates(
    bookId: number,
    language: string,
    tsQuery: string,
    limit: number,
  ): Promise<{ total: number; rows: SearchCandidateRow[] }> {
    const query = sql`to_tsquery('yidu_search', ${tsQuery})`;
    const { rows } = await sql<SearchCandidateRow & { total: string }>`
      WITH matched AS (
        SELECT seq FROM book_blocks
        WHERE book_id = ${bookId} AND yidu_search_vector(text) @@ ${query}
        UNION
        SELECT seq FROM book_translations
        WHERE book_id = ${bookId} AND target_lang = ${language} AND status = 'done'
          AND yidu_search_vector(yidu_html_text(translation)) @@ ${query}
      ), kept AS (
        SELECT seq FROM matched ORDER BY seq LIMIT ${limit}
      )
      SELECT b.seq, b.block_id, b.page, b.text, t.translation, c.title AS chapter_title, c.generated AS chapter_generated,
             (SELECT count(*) FROM matched) AS total
      FROM kept k
      JOIN book_blocks b ON b.book_id = ${bookId} AND b.seq = k.seq
      JOIN book_chapters c ON c.book_id = b.book_id AND c.idx = b.chapter_idx
      LEFT JOIN book_translations t
        ON t.book_id = b.book_id AND t.target_lang = ${language} AND t.seq = b.seq AND t.status = 'done'
      ORDER BY b.seq`.execute(this.db);
    return { total: Number(rows[0]?.total ?? 0), rows };
  }
}
