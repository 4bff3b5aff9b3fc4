import { sql, type Kysely } from 'kysely';

/** Translation engine settings edited by admins at run time (secrets sealed), and each user's choice. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('engine_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    /** Non-secret settings (endpoint, region, model, limits) as JSON. */
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    /** The API key, sealed with the app secret (lib/secret-box.ts). */
    .addColumn('api_key_sealed', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('users').addColumn('translation_engine', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
