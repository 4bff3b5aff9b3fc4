import { sql, type Kysely } from 'kysely';

/**
 * Figures of a PDF whose pictures are rendered after the book is stored (issue 24): the parse crops
 * the first ones, a queue job (book.crops) the rest. A row goes when its picture is in book_images
 * (or could not be made); the reader shows "picture being made" for an image block that has a row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('book_pending_crops')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('image_id', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    // The region to render: { page, x, y, w, h } as fractions of the displayed page, margin included.
    .addColumn('region', 'jsonb', (c) => c.notNull())
    // A photograph's pixels per point (0: unknown); null for drawings and type.
    .addColumn('photo', 'real')
    // Made, or last taken by a crop run: rows long untouched lost their job and are queued again.
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('book_pending_crops_pk', ['book_id', 'image_id'])
    .execute();
  await sql`CREATE INDEX book_pending_crops_order ON book_pending_crops (book_id, page)`.execute(db);
  await sql`CREATE INDEX book_pending_crops_updated ON book_pending_crops (updated_at)`.execute(db);
}
