import { sql, type Kysely } from 'kysely';

/**
 * Words to learn: looked-up words shared by every reader (one engine call per word, sentence and
 * language), each reader's vocabulary book with its review schedule, and reading activity (time,
 * pages and lookups per day and book) for the statistics of the personal center.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('word_lookups')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    // sha256 of the normalised word and sentence (the sentence is '' for a dictionary that ignores it).
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('source_lang', 'text', (c) => c.notNull())
    .addColumn('target_lang', 'text', (c) => c.notNull())
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('entry', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('word_lookups_key', ['key_hash', 'source_lang', 'target_lang', 'engine', 'model'])
    .execute();

  await db.schema
    .createTable('vocabulary_words')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // A deleted book leaves the reader's words, with the titles kept below.
    .addColumn('book_id', 'integer', (c) => c.references('books.id').onDelete('set null'))
    .addColumn('book_title', 'text', (c) => c.notNull())
    .addColumn('chapter_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('text', 'text', (c) => c.notNull())
    // The word folded for sameness: saving it again from the same book keeps the first entry.
    .addColumn('text_key', 'text', (c) => c.notNull())
    .addColumn('lemma', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('meaning', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pronunciation', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('part_of_speech', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('usage', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sentence', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source_lang', 'text', (c) => c.notNull())
    .addColumn('target_lang', 'text', (c) => c.notNull())
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('start_offset', 'integer')
    .addColumn('end_offset', 'integer')
    // Leitner box (0 = new) and when the word is due for review again.
    .addColumn('box', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('due_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reviews', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lapses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_reviewed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE UNIQUE INDEX vocabulary_words_once ON vocabulary_words (user_id, book_id, text_key)`.execute(db);
  await sql`CREATE INDEX vocabulary_words_due ON vocabulary_words (user_id, due_at)`.execute(db);
  await sql`CREATE INDEX vocabulary_words_book ON vocabulary_words (user_id, book_id, created_at)`.execute(db);

  // The reader's last heartbeat: time read is credited for the wall-clock time since it, at most one
  // interval, so two open tabs never count the same minute twice.
  await db.schema
    .createTable('reading_heartbeats')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('last_at', 'timestamptz', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .execute();
  await db.schema
    .createTable('reading_days')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    // The reader's calendar day, in their time zone.
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lookups', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('reading_days_pk', ['user_id', 'day', 'book_id'])
    .execute();
  await db.schema
    .createTable('reading_pages')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('reading_pages_pk', ['user_id', 'book_id', 'day', 'page'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
