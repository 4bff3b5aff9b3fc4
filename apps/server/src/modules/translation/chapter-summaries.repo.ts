import type { Db } from '../../db/client.ts';

/** The only SQL about running chapter summaries. */
export class ChapterSummariesRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The chapter a page belongs to (a chapter always starts a page) and the chapter's first page. */
  async chapterOfPage(bookId: number, page: number): Promise<{ idx: number; firstPage: number } | undefined> {
    const row = await this.db
      .selectFrom('book_blocks as b')
      .innerJoin('book_chapters as c', (j) =>
        j.onRef('c.book_id', '=', 'b.book_id').onRef('c.idx', '=', 'b.chapter_idx'),
      )
      .select(['c.idx', 'c.first_page'])
      .where('b.book_id', '=', bookId)
      .where('b.page', '=', page)
      .orderBy('b.seq')
      .limit(1)
      .executeTakeFirst();
    return row ? { idx: row.idx, firstPage: row.first_page } : undefined;
  }

  /** The latest summary of the chapter made before a page. */
  latestBefore(
    bookId: number,
    lang: string,
    chapter: number,
    page: number,
  ): Promise<{ page: number; summary: string } | undefined> {
    return this.db
      .selectFrom('chapter_summaries')
      .select(['page', 'summary'])
      .where('book_id', '=', bookId)
      .where('target_lang', '=', lang)
      .where('chapter_idx', '=', chapter)
      .where('page', '<', page)
      .orderBy('page', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The text of the chapter's pages from..to, in order (what a summary is made of). */
  async pagesText(bookId: number, from: number, to: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('book_blocks')
      .select('text')
      .where('book_id', '=', bookId)
      .where('page', '>=', from)
      .where('page', '<=', to)
      .where('type', 'in', ['heading', 'paragraph', 'quote', 'listItem'])
      .orderBy('seq')
      .execute();
    return rows.map((r) => r.text);
  }

  async save(bookId: number, lang: string, chapter: number, page: number, summary: string): Promise<void> {
    await this.db
      .insertInto('chapter_summaries')
      .values({ book_id: bookId, target_lang: lang, chapter_idx: chapter, page, summary })
      .onConflict((oc) => oc.columns(['book_id', 'target_lang', 'chapter_idx', 'page']).doNothing())
      .execute();
  }
}
