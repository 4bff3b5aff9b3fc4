import { sql, type Kysely } from 'kysely';

/**
 * The reader's place is a paragraph: `reading_positions.block_offset` is how far into the block at
 * the top of the view the reader was (0..1 of its height), restored by block whatever its height
 * is now (another language, another width). Uploads survive the tab: a request the uploader gave up
 * is 'discarded' (its unfinished book goes), and the sweep (UploadService.sweep) finds the requests
 * nobody drives any more through a small partial index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('reading_positions').addColumn('block_offset', 'real').execute();
  await sql`ALTER TABLE upload_requests DROP CONSTRAINT upload_requests_status_check`.execute(db);
  await sql`ALTER TABLE upload_requests ADD CONSTRAINT upload_requests_status_check
    CHECK (status IN ('running', 'done', 'failed', 'discarded'))`.execute(db);
  await sql`CREATE INDEX upload_requests_unfinished ON upload_requests (updated_at)
    WHERE stage <> 'completed' AND status <> 'discarded'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
