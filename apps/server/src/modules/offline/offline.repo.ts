import type { Db } from '../../db/client.ts';
import type { BlockRow } from '../reader/reader.repo.ts';

/** The only SQL of offline downloads: the blocks of a page range with their finished translations. */
export class OfflineRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Blocks of pages `from`..`to` in reading order, each with its finished translation into `lang` (or null). */
  blocks(
    bookId: number,
    lang: string,
    from: number,
    to: number,
  ): Promise<(BlockRow & { translation: string | null })[]> {
    return this.db
      .selectFrom('book_blocks as b')
      .leftJoin('book_translations as t', (j) =>
        j
          .onRef('t.book_id', '=', 'b.book_id')
          .onRef('t.seq', '=', 'b.seq')
          .on('t.target_lang', '=', lang)
          .on('t.status', '=', 'done'),
      )
      .selectAll('b')
      .select('t.translation')
      .where('b.book_id', '=', bookId)
      .where('b.page', '>=', from)
      .where('b.page', '<=', to)
      .orderBy('b.seq')
      .execute();
  }

  chapters(bookId: number): Promise<{ idx: number; title: string }[]> {
    return this.db
      .selectFrom('book_chapters')
      .select(['idx', 'title'])
      .where('book_id', '=', bookId)
      .orderBy('idx')
      .execute();
  }
}
