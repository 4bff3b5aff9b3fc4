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
  // The pool listens to idle clients only: a client held between queries (an advisory lock kept through
  // a long task, a transaction) that loses its server would emit an unheard 'error' and end the process.
  // Its next query fails instead, and the pool drops it when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool };
}
