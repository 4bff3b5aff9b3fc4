import { sql, type Kysely } from 'kysely';

/**
 * Offline reading and where highlights and words go: the client ids that make a mark or a word made
 * offline arrive once however often it is sent (and stay deleted once deleted), the words sent to
 * Anki, and each reader's Readwise connection with the marks already pushed to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per client-generated id, kept after its mark or word is deleted: a repeat of the create
  // then finds the id taken and its target gone, and the mark stays deleted (a tombstone).
  await db.schema
    .createTable('client_writes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('mark', 'word')`))
    // The mark's or word's id; null only inside the transaction that creates it.
    .addColumn('target_id', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('client_writes_pk', ['user_id', 'client_id'])
    .execute();

  // Another device learns which words this reader already sent to Anki.
  await db.schema.alterTable('vocabulary_words').addColumn('anki_sent_at', 'timestamptz').execute();

  await db.schema
    .createTable('readwise_accounts')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // The access token sealed with the app secret (SecretBox), and its last characters to show.
    .addColumn('token_sealed', 'text', (c) => c.notNull())
    .addColumn('token_hint', 'text', (c) => c.notNull())
    // Highlights and notes are pushed as they are made (else only on demand).
    .addColumn('auto_push', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('last_push_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // What Readwise has: a mark is pushed again when its content (its note) changed since.
  await db.schema
    .createTable('readwise_pushes')
    .addColumn('mark_id', 'bigint', (c) => c.primaryKey().references('reader_marks.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('pushed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX readwise_pushes_user ON readwise_pushes (user_id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
