import { sql, type Kysely } from 'kysely';

/**
 * Usernames are unique without case, in their NFKC form (see @yidu/shared names.ts): two people
 * could share one, and `admin ` passed for `admin` on share pages. Names are normalised; where two
 * were the same, the later account's gets a number and its id (bob, bob2-15); new registrations get the
 * first free number (bob2).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE users SET username = regexp_replace(btrim(normalize(username, NFKC)), ' {2,}', ' ', 'g')`.execute(
    db,
  );
  await sql`UPDATE users SET username = 'reader' || id WHERE username = ''`.execute(db);
  await sql`
    WITH ranked AS (
      SELECT id, username, row_number() OVER (PARTITION BY lower(username) ORDER BY id) AS n FROM users
    )
    UPDATE users u SET username = r.username || r.n || '-' || u.id
      FROM ranked r WHERE r.id = u.id AND r.n > 1`.execute(db);
  await sql`CREATE UNIQUE INDEX users_username_key ON users (lower(username))`.execute(db);
}
