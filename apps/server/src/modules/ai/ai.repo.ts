import { titleText } from '@yidu/shared/contents';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookBlocksTable } from '../../db/schema.ts';

export type AiBlockRow = Selectable<BookBlocksTable>;

/** The SQL of the AI reading aids (search has its own, search.repo.ts): the text they read and the page notes they share. */
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

  /** A chapter's title for the model's prompt (which is in English: so is a generated title). */
  async chapterTitle(bookId: number, index: number): Promise<string> {
    const row = await this.db
      .selectFrom('book_chapters')
      .select(['title', 'generated'])
      .where('book_id', '=', bookId)
      .where('idx', '=', index)
      .executeTakeFirst();
    return row ? titleText(row.title, row.generated, 'en') : '';
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
}
