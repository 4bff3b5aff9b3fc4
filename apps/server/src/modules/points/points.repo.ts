import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

export interface LedgerEntry {
  userId: number;
  type: 'income' | 'expenditure';
  points: number;
  reason: string;
  detail?: Record<string, unknown>;
  idempotencyKey?: string;
}

/**
 * The points ledger: every change of a balance is a row with the balance before it, written in the
 * same transaction as the balance update, so that balance and ledger can never disagree.
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
}

export interface LedgerRow {
  id: string;
  type: 'income' | 'expenditure';
  points: string;
  balance_before: string;
  reason: string;
  detail: Record<string, unknown> | null;
  created_at: Date;
}

/** The last `days` days of a user's ledger, newest first, with the window's totals. */
export async function recentLedger(
  db: Db,
  userId: number,
  options: { days: number; type?: 'income' | 'expenditure' | undefined; limit: number; offset: number },
): Promise<{ rows: LedgerRow[]; total: number; income: number; expenditure: number }> {
  let base = db
    .selectFrom('points_ledger')
    .where('user_id', '=', userId)
    .where('created_at', '>=', sql<Date>`now() - make_interval(days => ${options.days})`);
  const totals = await base
    .select([
      sql<string>`coalesce(sum(points) FILTER (WHERE type = 'income'), 0)`.as('income'),
      sql<string>`coalesce(sum(points) FILTER (WHERE type = 'expenditure'), 0)`.as('expenditure'),
    ])
    .executeTakeFirstOrThrow();
  if (options.type) base = base.where('type', '=', options.type);
  const [rows, count] = await Promise.all([
    base
      .select([sql<string>`id::text`.as('id'), 'type', 'points', 'balance_before', 'reason', 'detail', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n), income: Number(totals.income), expenditure: Number(totals.expenditure) };
}
