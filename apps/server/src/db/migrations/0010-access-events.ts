import { sql, type Kysely } from 'kysely';

/**
 * Every process keeps sessions and book access in memory for its hottest calls (lib/access-events.ts).
 * These triggers announce, on the notifier's channel, each change that can take access away: a
 * session revoked or cut short, a user changed or deleted, a book changed or deleted, a copy added,
 * removed or changing source. Written as triggers so that no code path (nor an admin's SQL) can
 * change access without every process hearing of it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // TG_ARGV: the key of the announcement (userId or bookId) and the column that holds its value.
  await sql`
    CREATE FUNCTION yidu_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      changed jsonb := to_jsonb(CASE WHEN TG_OP = 'INSERT' THEN NEW ELSE OLD END);
    BEGIN
      PERFORM pg_notify('yidu_events', json_build_object(
        'topic', 'access',
        'data', json_build_object(TG_ARGV[0], (changed ->> TG_ARGV[1])::int)
      )::text);
      RETURN NULL;
    END $$`.execute(db);
  const triggers = [
    `users_access AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION yidu_access_changed('userId', 'id')`,
    `sessions_access_update AFTER UPDATE ON sessions FOR EACH ROW
       WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
       EXECUTE FUNCTION yidu_access_changed('userId', 'user_id')`,
    `sessions_access_delete AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION yidu_access_changed('userId', 'user_id')`,
    `books_access AFTER UPDATE OR DELETE ON books FOR EACH ROW EXECUTE FUNCTION yidu_access_changed('bookId', 'id')`,
    `user_books_access AFTER INSERT OR DELETE ON user_books FOR EACH ROW EXECUTE FUNCTION yidu_access_changed('bookId', 'book_id')`,
    `user_books_access_update AFTER UPDATE ON user_books FOR EACH ROW
       WHEN (OLD.source IS DISTINCT FROM NEW.source OR OLD.user_id IS DISTINCT FROM NEW.user_id)
       EXECUTE FUNCTION yidu_access_changed('bookId', 'book_id')`,
  ];
  for (const trigger of triggers) await sql.raw(`CREATE TRIGGER ${trigger}`).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
