import { sql, type Kysely } from 'kysely';

/** Accounts, sessions, codes, invitations, the points ledger and login history. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);

  await db.schema
    .createTable('users')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text')
    .addColumn('avatar', 'text')
    .addColumn('invite_code', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('user')
        .check(sql`role IN ('user', 'admin')`),
    )
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending', 'active', 'disabled')`))
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('Chinese'))
    .addColumn('ui_language', 'text')
    .addColumn('common_languages', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('default_share_public', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deduct_mode', 'text', (c) =>
      c
        .notNull()
        .defaultTo('autoDeduct')
        .check(sql`deduct_mode IN ('autoDeduct', 'deductAfterConfirmation')`),
    )
    .addColumn('points_balance', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`points_balance >= 0`),
    )
    .addColumn('login_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_login_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Logins are case-insensitive; one account, email or phone per user.
  await sql`CREATE UNIQUE INDEX users_account_lower ON users (lower(account))`.execute(db);
  await sql`CREATE UNIQUE INDEX users_email_lower ON users (lower(email)) WHERE email IS NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX users_phone ON users (phone) WHERE phone IS NOT NULL`.execute(db);
  await sql`CREATE INDEX users_username_trgm ON users USING gin (username gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX users_created_at ON users (created_at)`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('login'))
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('verification_codes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ip', 'text')
    .execute();
  await db.schema
    .createIndex('verification_codes_target')
    .on('verification_codes')
    .columns(['purpose', 'target', 'created_at'])
    .execute();
  await db.schema.createIndex('verification_codes_hash').on('verification_codes').column('code_hash').execute();

  await db.schema
    .createTable('invite_codes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('max_uses', 'integer')
    .addColumn('used_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('points_ledger')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type IN ('income', 'expenditure')`))
    .addColumn('points', 'bigint', (c) => c.notNull().check(sql`points > 0`))
    .addColumn('balance_before', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('detail', 'jsonb')
    .addColumn('idempotency_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('points_ledger_user_time')
    .on('points_ledger')
    .columns(['user_id', 'created_at'])
    .execute();
  await sql`CREATE UNIQUE INDEX points_ledger_idempotency ON points_ledger (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL`.execute(
    db,
  );

  await db.schema
    .createTable('login_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('success', 'boolean', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('login_events_time').on('login_events').column('created_at').execute();
  await db.schema.createIndex('login_events_user').on('login_events').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
