import { sql, type Kysely } from 'kysely';

/** Who did what among the sensitive admin operations. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('admin_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('detail', 'jsonb')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_time').on('audit_log').column('created_at').execute();
  await db.schema.createIndex('upload_requests_time').on('upload_requests').column('created_at').execute();
  await db.schema.createIndex('points_ledger_time').on('points_ledger').columns(['created_at', 'type']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
