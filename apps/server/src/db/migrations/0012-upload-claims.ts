import { sql, type Kysely } from 'kysely';

/**
 * Each counted upload can be turned into one upload request: `upload_events.request_id` names the
 * request that used it (BooksRepo.createRequestFromUpload). The upload limits move to `rate_limits`,
 * where one statement checks and counts them; today's and this month's uploads are carried over so
 * that an upgrade does not hand out a fresh allowance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_events').addColumn('request_id', 'text').execute();
  await sql`CREATE INDEX upload_events_unused ON upload_events (user_id, file_id) WHERE request_id IS NULL`.execute(db);
  await sql`
    INSERT INTO rate_limits (key, count, reset_at)
    SELECT 'uploads:day:' || ip, count(*), date_trunc('day', now()) + interval '1 day'
    FROM upload_events WHERE created_at >= date_trunc('day', now()) GROUP BY ip
    ON CONFLICT (key) DO NOTHING`.execute(db);
  await sql`
    INSERT INTO rate_limits (key, count, reset_at)
    SELECT 'uploads:month:' || ip, count(*), date_trunc('month', now()) + interval '1 month'
    FROM upload_events WHERE created_at >= date_trunc('month', now()) GROUP BY ip
    ON CONFLICT (key) DO NOTHING`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
