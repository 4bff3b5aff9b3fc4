import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { PointsRepo } from './points.repo.ts';

/**
 * Prices per action, in points. Translation is priced per 1,000 source characters: text an engine
 * translated for the reader, and text already in the shared memory (cheaper: no engine was paid).
 * Admins change them at run time (the `prices` table); these are the defaults.
 */
export const DEFAULT_PRICES = {
  translation: 2,
  translationCached: 1,
  annotation: 5,
  explanation: 2,
  advancedExplanation: 5,
  restatement: 2,
  search: 3,
  ocrPage: 1,
  footnoteSplit: 10,
} as const;
export type PricedAction = keyof typeof DEFAULT_PRICES;
/** Other processes see a new price within this time. */
const PRICE_CACHE_MS = 5_000;

/** What decides whether a user can pay: their balance and whether they confirm each charge. */
export type Payer = Pick<UserRow, 'deduct_mode' | 'points_balance'>;

export interface Charge {
  points: number;
  reason: string;
  detail?: Record<string, unknown>;
  /** A retried request with the same key is charged once. */
  idempotencyKey: string;
}

/** Spending and pricing. Balance and ledger change together, in one transaction, or not at all. */
export class PointsService {
  private readonly db: Db;
  private readonly repo = new PointsRepo();
  private priceCache: { at: number; prices: Record<PricedAction, number> } | undefined;
  constructor(db: Db) {
    this.db = db;
  }

  /** The price list, read at most every few seconds (it is on every page a reader opens). */
  async prices(): Promise<Record<PricedAction, number>> {
    if (this.priceCache && this.priceCache.at > Date.now() - PRICE_CACHE_MS) return this.priceCache.prices;
    const rows = await this.db.selectFrom('prices').select(['action', 'points']).execute();
    const prices: Record<string, number> = { ...DEFAULT_PRICES };
    for (const row of rows) if (row.action in prices) prices[row.action] = row.points;
    this.priceCache = { at: Date.now(), prices: prices as Record<PricedAction, number> };
    return this.priceCache.prices;
  }

  async setPrice(action: PricedAction, points: number, adminId: number): Promise<void> {
    await this.db
      .insertInto('prices')
      .values({ action, points, updated_by: adminId })
      .onConflict((oc) => oc.column('action').doUpdateSet({ points, updated_by: adminId, updated_at: new Date() }))
      .execute();
    this.priceCache = undefined;
  }

  /**
   * Checks before work starts: in 'deductAfterConfirmation' mode an unconfirmed paid action answers a
   * quote (pointsConfirmationRequired with the price); a balance below the price answers insufficientPoints.
   */
  assertCanPay(user: Payer, points: number, confirmed: boolean, quote: Record<string, unknown> = {}): void {
    if (points <= 0) return;
    if (user.deduct_mode === 'deductAfterConfirmation' && !confirmed)
      throw fail('pointsConfirmationRequired', { points, ...quote });
    if (Number(user.points_balance) < points)
      throw fail('insufficientPoints', { points, balance: Number(user.points_balance) });
  }

  /** Charges once per idempotency key; never lets a balance go below zero, whatever runs at the same time. */
  async spend(userId: number, charge: Charge): Promise<{ charged: boolean; balance: number }> {
    if (charge.points <= 0) return { charged: false, balance: await this.balance(userId) };
    try {
      return await this.db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('points_ledger')
          .select('id')
          .where('user_id', '=', userId)
          .where('idempotency_key', '=', charge.idempotencyKey)
          .executeTakeFirst();
        if (existing) return { charged: false, balance: await this.balance(userId, trx) };
        const updated = await trx
          .updateTable('users')
          .set({ points_balance: sql`points_balance - ${charge.points}` })
          .where('id', '=', userId)
          .where('points_balance', '>=', String(charge.points))
          .returning('points_balance')
          .executeTakeFirst();
        if (!updated) throw fail('insufficientPoints', { points: charge.points });
        const after = Number(updated.points_balance);
        await trx
          .insertInto('points_ledger')
          .values({
            user_id: userId,
            type: 'expenditure',
            points: charge.points,
            balance_before: after + charge.points,
            reason: charge.reason,
            detail: charge.detail ? JSON.stringify(charge.detail) : null,
            idempotency_key: charge.idempotencyKey,
          })
          .execute();
        return { charged: true, balance: after };
      });
    } catch (error) {
      // The same key charged by a concurrent request: its transaction won, this one was rolled back.
      if ((error as { code?: string }).code === '23505') return { charged: false, balance: await this.balance(userId) };
      throw error;
    }
  }

  /** Whether a charge with this key was already made. */
  async charged(userId: number, idempotencyKey: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('points_ledger')
      .select('id')
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', idempotencyKey)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Gives points back (a paid job that failed after charging); once per key. */
  async refund(
    userId: number,
    points: number,
    reason: string,
    idempotencyKey: string,
    detail?: Record<string, unknown>,
  ): Promise<void> {
    await this.credit(userId, points, reason, idempotencyKey, detail);
  }

  async grant(
    userId: number,
    points: number,
    reason: string,
    idempotencyKey: string,
    detail?: Record<string, unknown>,
  ): Promise<void> {
    await this.credit(userId, points, reason, idempotencyKey, detail);
  }

  private async credit(
    userId: number,
    points: number,
    reason: string,
    idempotencyKey: string,
    detail?: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('points_ledger')
          .select('id')
          .where('user_id', '=', userId)
          .where('idempotency_key', '=', idempotencyKey)
          .executeTakeFirst();
        if (existing) return;
        await this.repo.credit(trx, { userId, points, reason, idempotencyKey, ...(detail ? { detail } : {}) });
      });
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error;
    }
  }

  /** An admin's grant: once per request id, recorded as income with who granted it. */
  async grantTo(
    userId: number,
    points: number,
    requestId: string,
    detail: { by: number; note: string },
  ): Promise<number> {
    const user = await this.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw fail('notFound');
    await this.credit(userId, points, 'adminGrant', `grant:${requestId}`, detail);
    return this.balance(userId);
  }

  /** The user's balance and deduction mode as they are now. */
  payer(userId: number): Promise<Payer> {
    return this.db
      .selectFrom('users')
      .select(['deduct_mode', 'points_balance'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
  }

  private async balance(userId: number, db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select('points_balance')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.points_balance);
  }
}
