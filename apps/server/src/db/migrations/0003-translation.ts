import { sql, type Kysely } from 'kysely';

/** The shared translation memory, per-book translation state, and the price list. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('translation_memory')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('source_hash', 'text', (c) => c.notNull())
    .addColumn('source_lang', 'text', (c) => c.notNull())
    .addColumn('target_lang', 'text', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('glossary_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('translation', 'text', (c) => c.notNull())
    .addColumn('source_chars', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('translation_memory_key', [
      'source_hash',
      'source_lang',
      'target_lang',
      'engine',
      'model',
      'glossary_version',
    ])
    .execute();

  await db.schema
    .createTable('book_translations')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('target_lang', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending', 'done', 'failed')`))
    .addColumn('translation', 'text')
    .addColumn('engine', 'text')
    .addColumn('model', 'text')
    /** True when the text came from the memory rather than from an engine call made for this book. */
    .addColumn('from_memory', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('requested_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('book_translations_pk', ['book_id', 'target_lang', 'seq'])
    .execute();

  await db.schema
    .alterTable('books')
    .addColumn('glossary_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('prices')
    .addColumn('action', 'text', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().check(sql`points >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
