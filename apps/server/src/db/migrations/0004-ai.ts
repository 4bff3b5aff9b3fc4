import { sql, type Kysely } from 'kysely';

/** AI annotations of a page, shared by every reader of the book in that language (like translations). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ai_annotations')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('notes', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('ai_annotations_pk', ['book_id', 'page', 'lang', 'model'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
