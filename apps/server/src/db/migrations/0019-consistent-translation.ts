import { sql, type Kysely } from 'kysely';

/**
 * Consistent translation: the glossary in the translation-memory key per paragraph, reader
 * suggestions for a book's glossary, running chapter summaries for LLM translation, and reports of
 * wrong translations.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The memory was keyed by the book's glossary version: one edit invalidated every paragraph of the
  // book (in every language), and the same version number of two books named different glossaries.
  // Now the key is a hash of the entries that occur in the paragraph itself ('' when none do), so an
  // edit touches exactly the paragraphs holding the changed terms, and paragraphs without terms are
  // shared across books. Rows made under a book's glossary version are kept apart for good.
  await sql`ALTER TABLE translation_memory ADD COLUMN glossary_key text NOT NULL DEFAULT ''`.execute(db);
  await sql`UPDATE translation_memory SET glossary_key = 'legacy:' || id WHERE glossary_version <> 0`.execute(db);
  await sql`ALTER TABLE translation_memory DROP CONSTRAINT translation_memory_key`.execute(db);
  await sql`ALTER TABLE translation_memory ADD CONSTRAINT translation_memory_key
    UNIQUE (source_hash, source_lang, target_lang, engine, model, glossary_key)`.execute(db);
  // A reader who found a translation wrong chose another: it is served first, to every reader.
  await sql`ALTER TABLE translation_memory ADD COLUMN chosen_at timestamptz`.execute(db);

  // Which glossary entries a paragraph's translation was made with (null: before this migration, taken
  // as none), so that a change of the glossary finds the paragraphs it leaves out of date.
  await sql`ALTER TABLE book_translations ADD COLUMN glossary_key text`.execute(db);

  // Entries made by the automatic extraction are marked so the owner can tell them from their own.
  await sql`ALTER TABLE book_glossary ADD COLUMN origin text NOT NULL DEFAULT 'owner'
    CHECK (origin IN ('owner', 'extracted', 'suggested'))`.execute(db);

  await db.schema
    .createTable('glossary_suggestions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('target_lang', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status IN ('pending', 'accepted', 'rejected')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX glossary_suggestions_book ON glossary_suggestions (book_id, target_lang, status)`.execute(db);

  // "The chapter so far", per book, chapter and target language, as of the end of a page.
  await db.schema
    .createTable('chapter_summaries')
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('target_lang', 'text', (c) => c.notNull())
    .addColumn('chapter_idx', 'integer', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('chapter_summaries_pk', ['book_id', 'target_lang', 'chapter_idx', 'page'])
    .execute();

  await db.schema
    .createTable('translation_reports')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('target_lang', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('original_translation', 'text', (c) => c.notNull())
    .addColumn('original_engine', 'text')
    .addColumn('original_model', 'text')
    .addColumn('alternative_translation', 'text')
    .addColumn('alternative_engine', 'text')
    .addColumn('alternative_model', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('open')
        .check(sql`status IN ('open', 'keptOriginal', 'choseAlternative')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX translation_reports_recent ON translation_reports (created_at DESC)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
