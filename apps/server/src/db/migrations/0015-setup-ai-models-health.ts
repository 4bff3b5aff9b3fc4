import { sql, type Kysely } from 'kysely';

/**
 * Set-up from the browser: the AI models of the reading aids, chosen by admins at run time (keys
 * sealed like the engine keys), and what Yidu last saw of each engine and model — from real use,
 * the periodic probe and the admins' Test buttons.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ai_model_settings')
    // explanation | annotation (the translation model is the llm row of engine_settings).
    .addColumn('use', 'text', (c) => c.primaryKey().check(sql`use IN ('explanation', 'annotation')`))
    .addColumn('base_url', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    /** The API key, sealed with the app secret (lib/secret-box.ts). */
    .addColumn('api_key_sealed', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('engine_health')
    // translation:<engine> or ai:<use>
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('last_success_at', 'timestamptz')
    .addColumn('last_failure_at', 'timestamptz')
    /** The last failure's kind and message (keys and URL queries removed). */
    .addColumn('last_error', 'text')
    /** Milliseconds of the latest outcome. */
    .addColumn('latency_ms', 'integer')
    /** What measured the latest outcome: use | probe | test. */
    .addColumn('checked_by', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
