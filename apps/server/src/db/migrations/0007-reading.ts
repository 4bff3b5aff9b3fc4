import { sql, type Kysely } from 'kysely';

/** What a reader leaves in a book: annotations, highlights, underlines, bookmarks; positions; preferences. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reader_marks')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind IN ('annotation', 'highlight', 'underline', 'bookmark')`),
    )
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    /** Character offsets in the block's text (or in its translation when in_translation). */
    .addColumn('start_offset', 'integer')
    .addColumn('end_offset', 'integer')
    .addColumn('in_translation', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('language', 'text')
    .addColumn('quote', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text')
    .addColumn('color', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('reader_marks_user_book')
    .on('reader_marks')
    .columns(['user_id', 'book_id', 'page'])
    .execute();

  await db.schema
    .createTable('reading_positions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('block_id', 'text')
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('reading_positions_pk', ['user_id', 'book_id'])
    .execute();

  await db.schema
    .alterTable('users')
    .addColumn('reader_settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('tabs', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
