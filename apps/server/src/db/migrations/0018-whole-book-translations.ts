import { sql, type Kysely } from 'kysely';

/**
 * Whole-book translations (modules/book-translation): a reader's request to translate a book into a
 * language, paid against one confirmed quote. The quote is held as one points hold and charged page by
 * page out of it (PointsRepo.draw), so a hold may now reach 0 points before it is released.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE points_holds DROP CONSTRAINT points_holds_points_check`.execute(db);
  await sql`ALTER TABLE points_holds ADD CONSTRAINT points_holds_points_valid CHECK (points >= 0)`.execute(db);

  await db.schema
    .createTable('book_translation_jobs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('target_lang', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('running', 'done', 'cancelled', 'failed')`))
    // The reservation the pages are charged out of (released, what is left of it, when the job ends).
    .addColumn('hold_id', 'bigint', (c) => c.references('points_holds.id').onDelete('set null'))
    .addColumn('quoted_points', 'bigint', (c) => c.notNull())
    // Prices per 1,000 characters when the reader confirmed: pages are charged at these, never more.
    .addColumn('price_translation', 'integer', (c) => c.notNull())
    .addColumn('price_cached', 'integer', (c) => c.notNull())
    .addColumn('page_count', 'integer', (c) => c.notNull())
    // Progress: pages before next_page are finished (translated, or failed for good, and charged).
    .addColumn('next_page', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('pages_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_blocks', 'integer', (c) => c.notNull().defaultTo(0))
    // The one pg-boss job allowed to work on it, and its lease: renewed while it works, lapsed when it died.
    .addColumn('run_id', 'text')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('error_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // One running translation per reader, book and language.
  await sql`CREATE UNIQUE INDEX book_translation_jobs_running ON book_translation_jobs (user_id, book_id, target_lang)
    WHERE status = 'running'`.execute(db);
  await sql`CREATE INDEX book_translation_jobs_latest ON book_translation_jobs (user_id, book_id, target_lang, id)`.execute(
    db,
  );
  // The sweep looks for running jobs whose worker is gone.
  await sql`CREATE INDEX book_translation_jobs_lease ON book_translation_jobs (lease_until) WHERE status = 'running'`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
