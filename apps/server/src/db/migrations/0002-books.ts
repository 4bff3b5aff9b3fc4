import { sql, type Kysely } from 'kysely';

/** Stored files, books and their content, personal libraries, and the upload pipeline. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sha256', 'text', (c) => c.notNull().unique())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('upload_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('file_id', 'text', (c) => c.references('files.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('upload_events_ip_time').on('upload_events').columns(['ip', 'created_at']).execute();

  await db.schema
    .createTable('books')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('file_id', 'text', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull().defaultTo('Anonymous'))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text')
    .addColumn('original_language', 'text')
    .addColumn('declared_language', 'text')
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('visibility', 'smallint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`visibility IN (0, 1)`),
    )
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('processing')
        .check(sql`status IN ('processing', 'ready', 'failed')`),
    )
    .addColumn('recommended', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cover_key', 'text')
    .addColumn('chapter_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('block_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('char_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('page_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source_pages', 'integer')
    .addColumn('readers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('public_deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE INDEX books_public_new ON books (created_at DESC) WHERE visibility = 1 AND status = 'ready' AND NOT public_deleted`.execute(
    db,
  );
  await sql`CREATE INDEX books_public_popular ON books (readers_count DESC, created_at DESC) WHERE visibility = 1 AND status = 'ready' AND NOT public_deleted`.execute(
    db,
  );
  await sql`CREATE INDEX books_title_trgm ON books USING gin (lower(title) gin_trgm_ops)`.execute(db);
  await db.schema.createIndex('books_owner').on('books').column('owner_id').execute();

  await db.schema
    .createTable('book_chapters')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('level', 'smallint', (c) => c.notNull().defaultTo(1))
    .addColumn('first_page', 'integer', (c) => c.notNull())
    .addColumn('first_seq', 'integer', (c) => c.notNull())
    .addColumn('block_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('book_chapters_pk', ['book_id', 'idx'])
    .execute();

  await db.schema
    .createTable('book_blocks')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('chapter_idx', 'integer', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('level', 'smallint')
    .addColumn('image_id', 'text')
    .addColumn('note_label', 'text')
    .addColumn('note_refs', sql`text[]`)
    .addColumn('referenced_by', sql`text[]`)
    .addColumn('pdf_page', 'integer')
    .addPrimaryKeyConstraint('book_blocks_pk', ['book_id', 'seq'])
    .execute();
  await db.schema.createIndex('book_blocks_page').on('book_blocks').columns(['book_id', 'page']).execute();
  await db.schema
    .createIndex('book_blocks_block_id')
    .on('book_blocks')
    .columns(['book_id', 'block_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('book_images')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('image_id', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addPrimaryKeyConstraint('book_images_pk', ['book_id', 'image_id'])
    .execute();

  await db.schema
    .createTable('user_books')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text')
    .addColumn('cover_key', 'text')
    .addColumn('read_language', 'text')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source IN ('upload', 'library', 'share', 'admin')`))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_read_at', 'timestamptz')
    .addUniqueConstraint('user_books_unique', ['user_id', 'book_id'])
    .execute();
  await db.schema.createIndex('user_books_user_time').on('user_books').columns(['user_id', 'added_at']).execute();
  await sql`CREATE INDEX user_books_title_trgm ON user_books USING gin (lower(title) gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('upload_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id'))
    .addColumn('book_id', 'integer', (c) => c.references('books.id').onDelete('set null'))
    .addColumn('book_name', 'text', (c) => c.notNull())
    .addColumn('book_author', 'text', (c) => c.notNull())
    .addColumn('book_describe', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('book_status', 'smallint', (c) => c.notNull())
    .addColumn('force_ocr', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('auto_split_footnote', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('target_language', 'text')
    .addColumn('original_language', 'text')
    .addColumn('auto_chain', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('running', 'done', 'failed')`))
    .addColumn('progress', 'real')
    .addColumn('error_key', 'text')
    .addColumn('error_detail', 'text')
    .addColumn('results', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('job_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('upload_requests_user')
    .on('upload_requests')
    .columns(['user_id', 'created_at'])
    .execute();
  await sql`CREATE INDEX upload_requests_failed ON upload_requests (updated_at DESC) WHERE status = 'failed'`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
