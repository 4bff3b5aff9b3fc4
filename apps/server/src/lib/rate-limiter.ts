import { sql } from 'kysely';
import type { Db } from '../db/client.ts';

export interface Hit {
  count: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/**
 * Fixed-window counters kept in PostgreSQL, so that every API process on every machine shares them.
 * Used where abuse matters: logins, verification codes, uploads.
 */
export class RateLimiter {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Counts one more event for `key` in a window of `windowSeconds` and returns the new count. */
  async hit(key: string, windowSeconds: number): Promise<Hit> {
    const row = await sql<{ count: number; reset_at: Date }>`
      INSERT INTO rate_limits (key, count, reset_at)
      VALUES (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limits.reset_at <= now() THEN 1 ELSE rate_limits.count + 1 END,
        reset_at = CASE WHEN rate_limits.reset_at <= now() THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
      RETURNING count, reset_at`.execute(this.db);
    return toHit(row.rows[0]!);
  }

  /** The current count for `key` without counting anything. */
  async peek(key: string): Promise<Hit> {
    const row = await this.db
      .selectFrom('rate_limits')
      .select(['count', 'reset_at'])
      .where('key', '=', key)
      .where('reset_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return row ? toHit(row) : { count: 0, retryAfter: 0 };
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  /** Drops windows that ended; run from a periodic job. */
  async prune(): Promise<number> {
    const result = await this.db
      .deleteFrom('rate_limits')
      .where('reset_at', '<=', sql<Date>`now()`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function toHit(row: { count: number; reset_at: Date }): Hit {
  return { count: row.count, retryAfter: Math.max(1, Math.ceil((row.reset_at.getTime() - Date.now()) / 1000)) };
}
