import { sql, type Kysely } from 'kysely';

/** Share links with the AI features they grant, what recipients accepted, feedback, avatars, account changes. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('book_shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('features', sql`text[]`, (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('book_shares_owner').on('book_shares').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('share_grants')
    .addColumn('share_id', 'text', (c) => c.notNull().references('book_shares.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('book_id', 'integer', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('share_grants_pk', ['share_id', 'user_id'])
    .execute();
  await db.schema.createIndex('share_grants_user_book').on('share_grants').columns(['user_id', 'book_id']).execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type IN ('systemBug', 'uiIssue', 'optimizationSuggestion')`),
    )
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('image_key', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('unresolved')
        .check(sql`status IN ('unresolved', 'inProgress', 'resolved', 'closed')`),
    )
    .addColumn('reply', 'text')
    .addColumn('replied_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('feedback_user').on('feedback').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('feedback_status').on('feedback').columns(['status', 'created_at']).execute();

  await db.schema
    .alterTable('users')
    .addColumn('pending_email', 'text')
    .addColumn('show_name_on_shares', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
