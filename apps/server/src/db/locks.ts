import { sql } from 'kysely';
import type { Db } from './client.ts';

/**
 * Holds a PostgreSQL advisory lock named `name` until the caller's transaction ends: work under the
 * same name, in any process, runs one at a time. For writes that read before they write (replace a
 * list, pick a free name, start one job) and must not interleave.
 */
export async function lockUntilCommit(trx: Db, name: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx);
}
