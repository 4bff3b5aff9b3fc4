import { sql, type Kysely } from 'kysely';

/**
 * Points as reservations. A paid action first holds its price (`points_holds`, counted in
 * `users.points_held`), then settles it — the balance and the ledger change together — or releases it.
 * What a user may still promise is `points_balance - points_held`, checked by the one conditional
 * statement that makes the hold, so the same points can never be promised twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN points_held bigint NOT NULL DEFAULT 0
    CONSTRAINT users_points_held_valid CHECK (points_held >= 0 AND points_held <= points_balance)`.execute(db);

  await db.schema
    .createTable('points_holds')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    // The idempotency key, per user: the action and what it buys (a page, or the client's request id).
    .addColumn('key', 'text', (c) => c.notNull())
    // What the key bought (a hash of the content): the same key may not buy anything else.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('points', 'bigint', (c) => c.notNull().check(sql`points > 0`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('held')
        .check(sql`status IN ('held', 'settled', 'released')`),
    )
    // What is bought, as the points history shows it (copied to the ledger row when settled).
    .addColumn('detail', 'jsonb')
    // The answer that was paid for, kept so that a retried request gets it again instead of a new one.
    .addColumn('result', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A hold still 'held' past this time belongs to a process that died: the sweep resolves it.
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('resolved_at', 'timestamptz')
    .execute();
  // One live purchase per key: a released hold (nothing delivered, nothing paid) may be bought again.
  await sql`CREATE UNIQUE INDEX points_holds_key ON points_holds (user_id, key) WHERE status <> 'released'`.execute(db);
  await sql`CREATE INDEX points_holds_expiry ON points_holds (expires_at) WHERE status = 'held'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
