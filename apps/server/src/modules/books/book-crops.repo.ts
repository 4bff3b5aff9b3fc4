import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { BookImagesTable, BookPendingCropsTable } from '../../db/schema.ts';

export type PendingCropRow = Selectable<BookPendingCropsTable>;

/** The PDF figures whose pictures are still to be made (book-crops.ts), and their images once made. */
export class BookCropsRepo {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The book's next crops in page order, marked as taken now (the sweep leaves them alone a while). */
  async take(bookId: number, limit: number): Promise<PendingCropRow[]> {
    const rows = await sql<PendingCropRow>`
      UPDATE book_pending_crops SET updated_at = now()
      WHERE book_id = ${bookId} AND image_id IN (
        SELECT image_id FROM book_pending_crops WHERE book_id = ${bookId} ORDER BY page, image_id LIMIT ${limit}
      )
      RETURNING *`.execute(this.db);
    return rows.rows.sort((a, b) => a.page - b.page || a.image_id.localeCompare(b.image_id));
  }

  /** Crops done (or given up): their images recorded and their rows gone, in one transaction. */
  async finish(bookId: number, imageIds: string[], images: Insertable<BookImagesTable>[]): Promise<void> {
    if (!imageIds.length) return;
    await this.db.transaction().execute(async (trx) => {
      if (images.length) {
        await trx
          .insertInto('book_images')
          .values(images)
          .onConflict((c) => c.columns(['book_id', 'image_id']).doNothing())
          .execute();
      }
      await trx
        .deleteFrom('book_pending_crops')
        .where('book_id', '=', bookId)
        .where('image_id', 'in', imageIds)
        .execute();
    });
  }

  /** Which of these images of a book are still to be made. */
  async pendingOf(bookId: number, imageIds: string[]): Promise<Set<string>> {
    if (!imageIds.length) return new Set();
    const rows = await this.db
      .selectFrom('book_pending_crops')
      .select('image_id')
      .where('book_id', '=', bookId)
      .where('image_id', 'in', imageIds)
      .execute();
    return new Set(rows.map((r) => r.image_id));
  }

  /** Books with crops untouched for `staleSeconds` (their job was lost), the rows touched again. */
  async reclaimStale(staleSeconds: number, limit = 20): Promise<number[]> {
    const rows = await sql<{ book_id: number }>`
      UPDATE book_pending_crops SET updated_at = now()
      WHERE book_id IN (
        SELECT DISTINCT book_id FROM book_pending_crops
        WHERE updated_at < now() - make_interval(secs => ${staleSeconds}) LIMIT ${limit}
      )
      RETURNING book_id`.execute(this.db);
    return [...new Set(rows.rows.map((r) => r.book_id))];
  }
}
