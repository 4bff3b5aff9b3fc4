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
