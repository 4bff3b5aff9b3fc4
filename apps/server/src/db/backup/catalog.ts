/**
 * What a backup holds, read from PostgreSQL's catalog: the tables of our schema (`public`) with
 * their columns, and their sequences. pg-boss's schema is left out on purpose (see README, backups):
 * its jobs are work in flight that Yidu's own tables describe and find again after a restore.
 */
import type pg from 'pg';
import { MIGRATION_TABLE } from '../migrate.ts';

export const SCHEMA = 'public';

/** The migrator's own tables: a restore rebuilds them by running the migrations. */
const MIGRATOR_TABLES = [MIGRATION_TABLE, `${MIGRATION_TABLE}_lock`];

export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** The tables of our schema with the columns COPY can write (generated columns are made by PostgreSQL). */
export async function tablesOf(client: pg.ClientBase): Promise<{ table: string; columns: string[] }[]> {
  const { rows } = await client.query<{ table: string; columns: string[] }>(
    `SELECT c.relname AS table,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = $1 AND c.relkind = 'r' AND NOT c.relispartition AND c.relname <> ALL($2)
      GROUP BY c.relname
      ORDER BY c.relname`,
    [SCHEMA, MIGRATOR_TABLES],
  );
  return rows;
}

/** The sequences of our schema and their last values (null: never used). */
export async function sequencesOf(client: pg.ClientBase): Promise<{ name: string; value: string | null }[]> {
  const { rows } = await client.query<{ name: string; value: string | null }>(
    `SELECT sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = $1 ORDER BY 1`,
    [SCHEMA],
  );
  return rows;
}

/** The migrations applied to the database, or [] where Yidu never migrated it. */
export async function appliedMigrations(client: pg.ClientBase): Promise<string[]> {
  const exists = await client.query(`SELECT to_regclass($1) AS t`, [`${SCHEMA}.${MIGRATION_TABLE}`]);
  if (!exists.rows[0].t) return [];
  const { rows } = await client.query<{ name: string }>(
    `SELECT name FROM ${SCHEMA}.${quoteIdent(MIGRATION_TABLE)} ORDER BY name`,
  );
  return rows.map((r) => r.name);
}

/** The foreign keys of our schema, with what re-creates each (dropped during a load, made again after). */
export async function foreignKeysOf(
  client: pg.ClientBase,
): Promise<{ table: string; name: string; definition: string }[]> {
  const { rows } = await client.query<{ table: string; name: string; definition: string }>(
    `SELECT c.relname AS table, k.conname AS name, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = $1
      ORDER BY c.relname, k.conname`,
    [SCHEMA],
  );
  return rows;
}

/**
 * The indexes of our schema that no constraint owns, with what re-creates each: a restore builds
 * them after the load, in one pass each, which is many times faster than keeping them up to date row
 * by row (above all the GIN indexes of passage search and names).
 */
export async function plainIndexesOf(client: pg.ClientBase): Promise<{ name: string; definition: string }[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT ic.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = ic.relnamespace
      WHERE n.nspname = $1
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY ic.relname`,
    [SCHEMA],
  );
  return rows;
}
