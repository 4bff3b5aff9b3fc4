import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

// int8 (bigint) columns: keep them as strings from the driver; counts and points are parsed where read.
// timestamptz values become Date objects (the driver default).

export type Db = Kysely<Database>;

export function createDb(connectionString: string, max = 10): { db: Db; pool: pg.Pool } {
  // A database that does not answer fails the request after 5 s instead of holding it forever.
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5_000 });
  // A dropped connection (for example a database restart) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool };
}
