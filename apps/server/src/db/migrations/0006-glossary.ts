import { sql, type Kysely } from 'kysely';

/** Per-book glossaries: how names and terms of a book are rendered in each target language. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('book_glossary')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('target_lang', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('book_glossary_pk', ['book_id', 'target_lang', 'source'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
