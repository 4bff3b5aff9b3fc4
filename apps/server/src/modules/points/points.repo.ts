import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { HoldStatus } from '../../db/schema.ts';

export interface LedgerEntry {
  userId: number;
  type: 'income' | 'expenditure';
  points: number;
  reason: string;
  detail?: Record<string, unknown>;
  idempotencyKey?: string;
}

/** A reservation of points for one paid action. */
export interface Hold {
  id: string;
  userId: number;
  action: string;
  key: string;
  fingerprint: string;
  points: number;
  status: HoldStatus;
  detail: Record<string, unknown> | null;
  result: unknown;
  expiresAt: Date;
}

export interface NewHold {
  userId: number;
  action: string;
  key: string;
  fingerprint: string;
  points: number;
  detail: Record<string, unknown>;
  ttlSeconds: number;
}

const HOLD_COLUMNS = [
  sql<string>`id::text`.as('id'),
  'user_id',
  'action',
  'key',
  'fingerprint',
  'points',
  'status',
  'detail',
  'result',
  'expires_at',
] as const;

interface HoldRow {
  id: string;
  user_id: number;
  action: string;
  key: string;
  fingerprint: string;
  points: string;
  status: HoldStatus;
  detail: Record<string, unknown> | null;
  result: unknown;
  expires_at: Date;
}

const toHold = (row: HoldRow): Hold => ({
  id: row.id,
  userId: row.user_id,
  action: row.action,
  key: row.key,
  fingerprint: row.fingerprint,
  points: Number(row.points),
  status: row.status,
  detail: row.detail,
  result: row.result,
  expiresAt: row.expires_at,
});

/**
 * Locks the user row of a hold before the hold's own row is touched. Every statement that changes
 * a hold and a balance takes the user row first, as a reservation does: one that took the hold first
 * would deadlock with a reservation of the same key waiting on that hold's unique index entry.
 */
const lockPayerOf = (holdId: string) =>
  sql`payer_lock AS (
        SELECT id FROM users WHERE id = (SELECT user_id FROM points_holds WHERE id = ${holdId}) FOR UPDATE
      )`;

/**
 * The points ledger and the holds on it. Every change of a balance is a ledger row with the balance
 * before it, written by the same statement (or transaction) as the balance, so that balance and ledger
 * can never disagree. What a user can still spend is `points_balance - points_held`.
 */
export class PointsRepo {
  /** Adds points inside the caller's transaction and returns the new balance. */
  async credit(trx: Db, entry: Omit<LedgerEntry, 'type'>): Promise<number> {
    const user = await trx
      .updateTable('users')
      .set({ points_balance: sql`points_balance + ${entry.points}` })
      .where('id', '=', entry.userId)
      .returning('points_balance')
      .executeTakeFirstOrThrow();
    const after = Number(user.points_balance);
    await trx
      .insertInto('points_ledger')
      .values({
        user_id: entry.userId,
        type: 'income',
        points: entry.points,
        balance_before: after - entry.points,
        reason: entry.reason,
        detail: entry.detail ? JSON.stringify(entry.detail) : null,
        idempotency_key: entry.idempotencyKey ?? null,
      })
      .execute();
    return after;
  }

  /**
   * Charges at once (work already done, nothing to hold): one statement takes the points if what is
   * not promised elsewhere covers them, and writes the ledger row. Undefined when it does not; a
   * second charge with the same key fails on the ledger's unique key (23505) and changes nothing.
   */
  async spend(
    db: Db,
    entry: { userId: number; points: number; reason: string; detail?: Record<string, unknown>; idempotencyKey: string },
  ): Promise<number | undefined> {
    const result = await sql<{ balance: string }>`
      WITH payer AS (
        UPDATE users SET points_balance = points_balance - ${entry.points}
         WHERE id = ${entry.userId} AND points_balance - points_held >= ${entry.points}
        RETURNING id, points_balance
      )
      INSERT INTO points_ledger (user_id, type, points, balance_before, reason, detail, idempotency_key)
      SELECT id, 'expenditure', ${entry.points}, points_balance + ${entry.points}, ${entry.reason},
             ${entry.detail ? JSON.stringify(entry.detail) : null}::jsonb, ${entry.idempotencyKey}
        FROM payer
      RETURNING balance_before - points AS balance`.execute(db);
    const row = result.rows[0];
    return row ? Number(row.balance) : undefined;
  }

  /**
   * Holds points for an action, in one conditional statement: the hold exists only if the points
   * not yet promised covered it, and then they are promised. Undefined when they did not. A live hold
   * with the same key makes the statement fail on the unique key (23505) and change nothing.
   */
  async reserve(db: Db, hold: NewHold): Promise<Hold | undefined> {
    const result = await sql<HoldRow>`
      WITH payer AS (
        UPDATE users SET points_held = points_held + ${hold.points}
         WHERE id = ${hold.userId} AND points_balance - points_held >= ${hold.points}
        RETURNING id
      )
      INSERT INTO points_holds (user_id, action, key, fingerprint, points, detail, expires_at)
      SELECT id, ${hold.action}, ${hold.key}, ${hold.fingerprint}, ${hold.points}, ${JSON.stringify(hold.detail)}::jsonb,
             now() + make_interval(secs => ${hold.ttlSeconds})
        FROM payer
      RETURNING id::text, user_id, action, key, fingerprint, points, status, detail, result, expires_at`.execute(db);
    const row = result.rows[0];
    return row ? toHold(row) : undefined;
  }

  /**
   * Turns a hold into a charge of `points` (at most what was held), in one statement: the hold is
   * settled, the balance and the promised points go down, the ledger row is written with the hold's
   * key and detail. Undefined when the hold was no longer held (settled or released meanwhile).
   */
  async settle(
    db: Db,
    holdId: string,
    points: number,
    extra: { detail?: Record<string, unknown>; result?: unknown },
  ): Promise<number | undefined> {
    const result = await sql<{ balance: string }>`
      WITH ${lockPayerOf(holdId)}, hold AS (
        UPDATE points_holds h
           SET status = 'settled', resolved_at = now(),
               detail = coalesce(h.detail, '{}'::jsonb) || ${JSON.stringify(extra.detail ?? {})}::jsonb,
               result = ${extra.result === undefined ? null : JSON.stringify(extra.result)}::jsonb
          FROM payer_lock
         WHERE h.id = ${holdId} AND h.user_id = payer_lock.id AND h.status = 'held' AND h.points >= ${points}
        RETURNING h.user_id, h.action, h.key, h.points, h.detail
      ), payer AS (
        UPDATE users u SET points_balance = u.points_balance - ${points}, points_held = u.points_held - hold.points
          FROM hold WHERE u.id = hold.user_id
        RETURNING u.id, u.points_balance
      )
      INSERT INTO points_ledger (user_id, type, points, balance_before, reason, detail, idempotency_key)
      SELECT payer.id, 'expenditure', ${points}, payer.points_balance + ${points}, hold.action, hold.detail, hold.key
        FROM payer, hold
      RETURNING balance_before - points AS balance`.execute(db);
    const row = result.rows[0];
    return row ? Number(row.balance) : undefined;
  }

  /**
   * Charges part of a hold (a whole-book translation paying page by page), in one statement: up to
   * `points`, never more than the hold still holds, leave the hold and the balance together and a
   * ledger row is written with `key` (and the hold's id in its detail: the history shows a hold's rows
   * as one line). A key already in the ledger makes the statement fail on its
   * unique index (23505) and change nothing. Undefined when the hold is no longer held or empty.
   */
  async draw(
    db: Db,
    holdId: string,
    entry: { points: number; key: string; reason: string; detail: Record<string, unknown> },
  ): Promise<{ points: number; balance: number } | undefined> {
    const result = await sql<{ points: string; balance: string }>`
      WITH ${lockPayerOf(holdId)}, current AS (
        SELECT h.id, h.user_id, LEAST(h.points, ${entry.points}) AS take
          FROM points_holds h JOIN payer_lock ON payer_lock.id = h.user_id
         WHERE h.id = ${holdId} AND h.status = 'held' AND h.points > 0
         FOR UPDATE OF h
      ), hold AS (
        UPDATE points_holds h SET points = h.points - current.take FROM current WHERE h.id = current.id
        RETURNING h.user_id, current.take
      ), payer AS (
        UPDATE users u SET points_balance = u.points_balance - hold.take, points_held = u.points_held - hold.take
          FROM hold WHERE u.id = hold.user_id
        RETURNING u.id, u.points_balance, hold.take
      )
      INSERT INTO points_ledger (user_id, type, points, balance_before, reason, detail, idempotency_key)
      SELECT payer.id, 'expenditure', payer.take, payer.points_balance + payer.take, ${entry.reason},
             ${JSON.stringify({ ...entry.detail, holdId })}::jsonb, ${entry.key}
        FROM payer
      RETURNING points, balance_before - points AS balance`.execute(db);
    const row = result.rows[0];
    return row ? { points: Number(row.points), balance: Number(row.balance) } : undefined;
  }

  /** Which of these keys the user's ledger holds (charges made). */
  async ledgerKeys(db: Db, userId: number, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await db
      .selectFrom('points_ledger')
      .select('idempotency_key')
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', sql<string>`ANY(${keys}::text[])`)
      .execute();
    return new Set(rows.map((r) => r.idempotency_key!));
  }

  /** Which of these keys have a live (held or settled) hold of the user. */
  async liveHoldKeys(db: Db, userId: number, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await db
      .selectFrom('points_holds')
      .select('key')
      .where('user_id', '=', userId)
      .where('key', '=', sql<string>`ANY(${keys}::text[])`)
      .where('status', '<>', 'released')
      .execute();
    return new Set(rows.map((r) => r.key));
  }

  /** Gives a hold's points back to what the user can spend; false when it was no longer held. */
  async release(db: Db, holdId: string): Promise<boolean> {
    const result = await sql`
      WITH ${lockPayerOf(holdId)}, hold AS (
        UPDATE points_holds h SET status = 'released', resolved_at = now()
          FROM payer_lock
         WHERE h.id = ${holdId} AND h.user_id = payer_lock.id AND h.status = 'held'
        RETURNING h.user_id, h.points
      )
      UPDATE users u SET points_held = u.points_held - hold.points FROM hold WHERE u.id = hold.user_id`.execute(db);
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** The live (held or settled) hold of a user's key. */
  async liveHold(db: Db, userId: number, key: string): Promise<Hold | undefined> {
    const row = await db
      .selectFrom('points_holds')
      .select(HOLD_COLUMNS)
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .where('status', '<>', 'released')
      .executeTakeFirst();
    return row ? toHold(row as HoldRow) : undefined;
  }

  /** Holds still held past their expiry, oldest first: their processes died. */
  async expiredHolds(db: Db, limit: number): Promise<Hold[]> {
    const rows = await db
      .selectFrom('points_holds')
      .select(HOLD_COLUMNS)
      .where('status', '=', 'held')
      .where('expires_at', '<', sql<Date>`now()`)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((r) => toHold(r as HoldRow));
  }

  /** Whether the ledger holds a charge with this key. */
  async hasLedgerKey(db: Db, userId: number, key: string): Promise<boolean> {
    const row = await db
      .selectFrom('points_ledger')
      .select('id')
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Balance, promised points and deduction mode, as they are now. */
  payer(
    db: Db,
    userId: number,
  ): Promise<{ deduct_mode: 'autoDeduct' | 'deductAfterConfirmation'; points_balance: string; points_held: string }> {
    return db
      .selectFrom('users')
      .select(['deduct_mode', 'points_balance', 'points_held'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
  }

  async userExists(db: Db, userId: number): Promise<boolean> {
    return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
  }

  priceRows(db: Db): Promise<{ action: string; points: number }[]> {
    return db.selectFrom('prices').select(['action', 'points']).execute();
  }

  async setPrice(db: Db, action: string, points: number, adminId: number): Promise<void> {
    await db
      .insertInto('prices')
      .values({ action, points, updated_by: adminId })
      .onConflict((oc) => oc.column('action').doUpdateSet({ points, updated_by: adminId, updated_at: new Date() }))
      .execute();
  }

  /**
   * The titles the user sees for books, by code (their copy's title, else the public one): for
   * ledger rows written before rows kept the title themselves.
   */
  async bookTitles(db: Db, userId: number, codes: string[]): Promise<Map<string, string>> {
    if (codes.length === 0) return new Map();
    const rows = await db
      .selectFrom('books as b')
      .leftJoin('user_books as c', (j) => j.onRef('c.book_id', '=', 'b.id').on('c.user_id', '=', userId))
      .select(['b.code', sql<string>`coalesce(c.title, b.title)`.as('title')])
      .where('b.code', 'in', codes)
      .execute();
    return new Map(rows.map((r) => [r.code, r.title]));
  }
}

/**
 * A line of the points history: one ledger row, or the rows of one whole-book translation (drawn
 * from one reservation, see draw) taken together.
 */
export interface LedgerLine {
  id: string;
  type: 'income' | 'expenditure';
  /** The line's points: the row's, or the sum of the group's rows. */
  points: string;
  /** The balance before the line's first row, and after its last. */
  balance_before: string;
  balance_after: string;
  reason: string;
  /** The detail of the line's last row. */
  detail: Record<string, unknown> | null;
  created_at: Date;
  /** Whether rows were taken together (a whole-book translation), and how many; their first and last page. */
  grouped: boolean;
  entries: string;
  first_page: number | null;
  last_page: number | null;
}

/**
 * What takes ledger rows together in the history: the reservation they were drawn from (whole-book
 * translations write its id into each page's row); rows of whole-book translations written before
 * that are taken together per book and language. Every other row stands alone.
 */
const LINE_KEY = sql`CASE
    WHEN detail ? 'holdId' THEN 'hold:' || (detail->>'holdId')
    WHEN detail->>'wholeBook' = 'true' THEN 'book:' || coalesce(detail->>'bookCode', '') || ':' || coalesce(detail->>'language', '')
    ELSE 'row:' || id::text
  END`;

/**
 * The last `days` days of a user's ledger as history lines, newest first (a group by its last row),
 * with the window's totals. The ledger keeps one row per page for idempotency; the history shows
 * one line per whole-book translation.
 */
export async function recentLedger(
  db: Db,
  userId: number,
  options: { days: number; type?: 'income' | 'expenditure' | undefined; limit: number; offset: number },
): Promise<{ rows: LedgerLine[]; total: number; income: number; expenditure: number }> {
  const since = sql<Date>`now() - make_interval(days => ${options.days})`;
  const totals = await db
    .selectFrom('points_ledger')
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .select([
      sql<string>`coalesce(sum(points) FILTER (WHERE type = 'income'), 0)`.as('income'),
      sql<string>`coalesce(sum(points) FILTER (WHERE type = 'expenditure'), 0)`.as('expenditure'),
    ])
    .executeTakeFirstOrThrow();
  const type = options.type ?? null;
  const result = await sql<LedgerLine & { total: string }>`
    WITH entries AS (
      SELECT id, type, points, balance_before, reason, detail, created_at, ${LINE_KEY} AS line,
             CASE WHEN jsonb_typeof(detail->'page') = 'number' THEN (detail->>'page')::int END AS page
        FROM points_ledger
       WHERE user_id = ${userId} AND created_at >= ${since} AND (${type}::text IS NULL OR type = ${type}::text)
    ), lines AS (
      SELECT max(id) AS last_id, type, sum(points) AS points, count(*) AS entries,
             (array_agg(balance_before ORDER BY id))[1] AS balance_before,
             (array_agg(balance_before - CASE WHEN type = 'income' THEN -points ELSE points END ORDER BY id DESC))[1] AS balance_after,
             (array_agg(reason ORDER BY id DESC))[1] AS reason,
             (array_agg(detail ORDER BY id DESC))[1] AS detail,
             max(created_at) AS created_at, min(page) AS first_page, max(page) AS last_page,
             bool_or(line NOT LIKE 'row:%') AS grouped
        FROM entries GROUP BY line, type
    )
    SELECT last_id::text AS id, type, points::text, balance_before::text, balance_after::text, reason, detail,
           created_at, grouped, entries::text, first_page, last_page, count(*) OVER ()::text AS total
      FROM lines
     ORDER BY created_at DESC, last_id DESC
     LIMIT ${options.limit} OFFSET ${options.offset}`.execute(db);
  const total = result.rows[0] ? Number(result.rows[0].total) : await countLines(db, userId, since, type);
  return { rows: result.rows, total, income: Number(totals.income), expenditure: Number(totals.expenditure) };
}

/** The number of history lines (for a page past the last, where the lines' query returns none). */
async function countLines(db: Db, userId: number, since: RawBuilder<Date>, type: string | null): Promise<number> {
  const row = await sql<{ n: string }>`
    SELECT count(DISTINCT (${LINE_KEY}, type))::text AS n FROM points_ledger
     WHERE user_id = ${userId} AND created_at >= ${since} AND (${type}::text IS NULL OR type = ${type}::text)`.execute(
    db,
  );
  return Number(row.rows[0]?.n ?? 0);
}
