import type { Kysely } from 'kysely';

/**
 * A block whose translation failed is tried again by itself, later and later while it keeps failing
 * (ReaderRepo.saveFailed, retryDue): `failures` counts its failed tries since its last success,
 * `retry_at` is when it may be tried next. Rows of earlier failures get no time: their next reading
 * retries them (they failed before this process started, see ReaderService.enginesChangedAt).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('book_translations')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_at', 'timestamptz')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
