import { sql, type Kysely } from 'kysely';

/**
 * E-readers (issue 26): device passwords for OPDS catalogs and KOReader's progress sync, the
 * progress devices push, the digests by which a device names a document, and the first shelf of
 * public-domain books seeded on a fresh install.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A device password is made by the server (about 99 random bits) and shown once. KOReader sends
  // md5(password), never the password, so what is kept must be checkable from that md5: an HMAC of
  // it under the app secret (docs/adr/0025-device-passwords.md says why no argon2 here).
  await db.schema
    .createTable('device_passwords')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hmac', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('last_used_by', 'text')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX device_passwords_user ON device_passwords (user_id) WHERE revoked_at IS NULL`.execute(db);
  // Every process keeps the device passwords it checked in memory: a revocation must reach them all
  // (the access notifications of migration 0010).
  // (Not on the "last used" stamp, which devices move all the time.)
  await sql`CREATE TRIGGER device_passwords_access_update AFTER UPDATE ON device_passwords FOR EACH ROW
    WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.key_hmac IS DISTINCT FROM NEW.key_hmac
          OR OLD.user_id IS DISTINCT FROM NEW.user_id)
    EXECUTE FUNCTION yidu_access_changed('userId', 'user_id')`.execute(db);
  await sql`CREATE TRIGGER device_passwords_access_delete AFTER DELETE ON device_passwords FOR EACH ROW
    EXECUTE FUNCTION yidu_access_changed('userId', 'user_id')`.execute(db);

  // What each device last pushed for a document, as it came (KOReader's progress string is an
  // XPointer or a page number), and the web reader's place it was mapped to.
  await db.schema
    .createTable('device_progress')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('progress', 'text', (c) => c.notNull())
    .addColumn('percentage', 'double precision', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text')
    .addColumn('book_id', 'integer', (c) => c.references('books.id').onDelete('set null'))
    /** The reader page the push moved the web reader to (null: the document is not a known book). */
    .addColumn('web_page', 'integer')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_progress_pk', ['user_id', 'document'])
    .execute();

  // KOReader names a document by the partial MD5 of its bytes (or the MD5 of its file name). An
  // original's is kept with its file; an exported EPUB's is recorded when it is served, per reader
  // (the export carries the reader's own title and cover), with what locating a place in it needs.
  await sql`ALTER TABLE files ADD COLUMN partial_md5 text`.execute(db);
  await sql`ALTER TABLE files ADD COLUMN name_md5 text`.execute(db);
  await sql`UPDATE files SET name_md5 = md5(original_name)`.execute(db);
  await sql`CREATE INDEX files_partial_md5 ON files (partial_md5) WHERE partial_md5 IS NOT NULL`.execute(db);
  await sql`CREATE INDEX files_name_md5 ON files (name_md5) WHERE name_md5 IS NOT NULL`.execute(db);
  await db.schema
    .createTable('served_documents')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method IN ('binary', 'filename')`))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('variant', 'text', (c) => c.notNull().check(sql`variant IN ('original', 'bilingual', 'translated')`))
    /** The target language of an export ('' for an original). */
    .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
    /** Bytes served (binary digests only). */
    .addColumn('size', 'bigint')
    /** The export's version (its dcterms:modified): a later export of other content is another file. */
    .addColumn('version', 'text', (c) => c.notNull().defaultTo(''))
    /** Whether the export opens with a cover document (it shifts every DocFragment by one). */
    .addColumn('has_cover', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('served_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('served_documents_pk', ['user_id', 'digest', 'method', 'book_id', 'variant', 'language'])
    .execute();
  await sql`CREATE INDEX served_documents_book ON served_documents (user_id, book_id, variant, language)`.execute(db);

  // The first shelf: each book seeded once, ever. An admin's removal sets book_id to null (or the
  // book stays out of the public library), and the slug is never seeded again.
  await db.schema
    .createTable('first_shelf')
    .addColumn('slug', 'text', (c) => c.primaryKey())
    .addColumn('book_id', 'integer', (c) => c.references('books.id').onDelete('set null'))
    .addColumn('seeded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
