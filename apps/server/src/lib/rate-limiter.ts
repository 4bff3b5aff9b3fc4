import { sql } from 'kysely';
import type { Db } from '../db/client.ts';

export interface Hit {
  count: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

export interface Taken extends Hit {
  /** Whether a slot was free; when false nothing was counted and `retryAfter` says when one frees up. */
  allowed: boolean;
}

/** A window of a fixed length from its first event, or one that ends with the calendar day or month. */
export type Window = { seconds: number } | 'day' | 'month';

const windowEnd = (window: Window) =>
  window === 'day'
    ? sql<Date>`date_trunc('day', now()) + interval '1 day'`
    : window === 'month'
      ? sql<Date>`date_trunc('month', now()) + interval '1 month'`
      : sql<Date>`now() + make_interval(secs => ${window.seconds})`;

/**
 * Fixed-window counters kept in PostgreSQL, so that every API process on every machine shares them.
 * Used where abuse matters: logins, verification codes, invitation codes, uploads.
 *
 * A limit is checked and counted by `take`, in one statement, before the work it guards: requests
 * racing each other queue on the counter's row, so no more than `max` of them ever get through,
 * however many arrive at once. An attempt that turns out not to count (a right password, a valid
 * invitation code) gives its slot back.
 */
export class RateLimiter {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Takes one of the `max` slots of `key` in its window, if one is free. */
  async take(key: string, max: number, window: Window): Promise<Taken> {
    const end = windowEnd(window);
    if (max <= 0) return { allowed: false, count: 0, retryAfter: await this.secondsUntil(end) };
    // The conflict branch runs under the row's lock, so the condition sees every slot taken before it.
    // When it refuses, no row comes back and the counter is read as it stands.
    const result = await sql<{ allowed: boolean; count: number; reset_at: Date }>`
      WITH taken AS (
        INSERT INTO rate_limits (key, count, reset_at)
        VALUES (${key}, 1, ${end})
        ON CONFLICT (key) DO UPDATE SET
          count = CASE WHEN rate_limits.reset_at <= now() THEN 1 ELSE rate_limits.count + 1 END,
          reset_at = CASE WHEN rate_limits.reset_at <= now() THEN EXCLUDED.reset_at ELSE rate_limits.reset_at END
        WHERE rate_limits.reset_at <= now() OR rate_limits.count < ${max}
        RETURNING count, reset_at
      )
      SELECT true AS allowed, count, reset_at FROM taken
      UNION ALL
      SELECT false, count, reset_at FROM rate_limits WHERE key = ${key} AND NOT EXISTS (SELECT 1 FROM taken)`.execute(
      this.db,
    );
    const row = result.rows[0];
    // Refused by a counter created after this statement's snapshot: full, for about one window.
    if (!row) return { allowed: false, count: max, retryAfter: await this.secondsUntil(end) };
    return { allowed: row.allowed, ...toHit(row) };
  }

  /** Gives back a slot taken by `take` for an attempt that turned out not to count. */
  async giveBack(key: string): Promise<void> {
    await this.db
      .updateTable('rate_limits')
      .set((eb) => ({ count: sql<number>`greatest(${eb.ref('count')} - 1, 0)` }))
      .where('key', '=', key)
      .where('reset_at', '>', sql<Date>`now()`)
      .execute();
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

  private async secondsUntil(end: ReturnType<typeof windowEnd>): Promise<number> {
    const result = await sql<{ reset_at: Date }>`SELECT ${end} AS reset_at`.execute(this.db);
    return toHit({ count: 0, reset_at: result.rows[0]!.reset_at }).retryAfter;
  }
}

function toHit(row: { count: number; reset_at: Date }): Hit {
  return { count: row.count, retryAfter: Math.max(1, Math.ceil((row.reset_at.getTime() - Date.now()) / 1000)) };
}
