import { createHash } from 'node:crypto';
import type { PointsRecordPage } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { PointsRepo, recentLedger, type Hold } from './points.repo.ts';

export type { Hold } from './points.repo.ts';

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
  /** A word looked up where it stands (its engine call made for this reader), and one from the shared cache. */
  lookup: 2,
  lookupCached: 1,
  ocrPage: 1,
  footnoteSplit: 10,
} as const;
export type PricedAction = keyof typeof DEFAULT_PRICES;
/** Other processes see a new price within this time. */
const PRICE_CACHE_MS = 5_000;
/**
 * A hold lives this long unless its process settles or releases it first. Longer than any work it
 * pays for (an AI answer times out after 60 s; a page's blocks are claimed in leases of 30 s), so
 * only a hold whose process died reaches it.
 */
export const HOLD_TTL_SECONDS = 10 * 60;
/** Tries of a reservation racing others with its key (each sees the winner's hold, or a free key). */
const RESERVE_ATTEMPTS = 25;
/** Expired holds resolved per sweep round. */
const SWEEP_BATCH = 200;

export interface Charge {
  points: number;
  reason: string;
  detail?: Record<string, unknown>;
  /** A retried request with the same key is charged once. */
  idempotencyKey: string;
}

export interface Reservation {
  action: string;
  /** Bound to the user by the table; include the action and what is bought. */
  key: string;
  /** What the key buys: the same key with other content is refused (requestIdReused). */
  content: unknown;
  points: number;
  /** What is bought, as the points history shows it: book title, page, language... */
  detail: Record<string, unknown>;
  ttlSeconds?: number;
}

/**
 * What becomes of a hold whose process died: the points to charge for what was delivered (settled),
 * or 0 to release it. Registered per action by the module that sells it.
 */
export type ExpiryResolver = (hold: Hold) => Promise<number>;

/** A hash naming the content a key buys. */
export const fingerprintOf = (content: unknown): string =>
  createHash('sha256').update(JSON.stringify(content)).digest('base64url');

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * Spending and pricing. A paid action holds its price before the work (reserve), then settles it on
 * success or releases it on failure; balance and ledger change together, in one statement, or not at all.
 */
export class PointsService {
  private readonly db: Db;
  private readonly logger: Logger | undefined;
  private readonly repo = new PointsRepo();
  private readonly resolvers = new Map<string, ExpiryResolver>();
  private priceCache: { at: number; prices: Record<PricedAction, number> } | undefined;
  constructor(db: Db, logger?: Logger) {
    this.db = db;
    this.logger = logger;
  }

  /** The price list, read at most every few seconds (it is on every page a reader opens). */
  async prices(): Promise<Record<PricedAction, number>> {
    if (this.priceCache && this.priceCache.at > Date.now() - PRICE_CACHE_MS) return this.priceCache.prices;
    const rows = await this.repo.priceRows(this.db);
    const prices: Record<string, number> = { ...DEFAULT_PRICES };
    for (const row of rows) if (row.action in prices) prices[row.action] = row.points;
    this.priceCache = { at: Date.now(), prices: prices as Record<PricedAction, number> };
    return this.priceCache.prices;
  }

  async setPrice(action: PricedAction, points: number, adminId: number): Promise<void> {
    await this.repo.setPrice(this.db, action, points, adminId);
    this.priceCache = undefined;
  }

  /**
   * In 'deductAfterConfirmation' mode an unconfirmed paid action answers a quote
   * (pointsConfirmationRequired with the price) before anything is held. Reads the mode afresh: the
   * caller's user row may come from a session kept in memory.
   */
  async assertConfirmed(
    userId: number,
    points: number,
    confirmed: boolean,
    quote: Record<string, unknown> = {},
  ): Promise<void> {
    if (points <= 0 || confirmed) return;
    const payer = await this.repo.payer(this.db, userId);
    if (payer.deduct_mode === 'deductAfterConfirmation') throw fail('pointsConfirmationRequired', { points, ...quote });
  }

  /**
   * Holds the price of an action before its work. Returns the new hold, or the live hold the same key
   * already has (`created: false`: a retried or concurrent request; its content must match). Without
   * enough points not yet promised elsewhere: insufficientPoints. `db` may be the caller's
   * transaction, which then holds a lock that keeps other requests with this key away.
   */
  async reserve(userId: number, reservation: Reservation, db: Db = this.db): Promise<{ hold: Hold; created: boolean }> {
    const fingerprint = fingerprintOf(reservation.content);
    // A hold can be made and released between two of these steps by concurrent requests with the
    // same key: each attempt looks again, and only the last one's failure reaches the caller.
    for (let attempt = 1; ; attempt += 1) {
      const existing = await this.repo.liveHold(db, userId, reservation.key);
      if (existing) return { hold: this.sameContent(existing, fingerprint), created: false };
      try {
        const hold = await this.repo.reserve(db, {
          userId,
          action: reservation.action,
          key: reservation.key,
          fingerprint,
          points: reservation.points,
          detail: reservation.detail,
          ttlSeconds: reservation.ttlSeconds ?? HOLD_TTL_SECONDS,
        });
        if (hold) return { hold, created: true };
        break;
      } catch (error) {
        // A concurrent request with the same key made its hold first: this one shares it (next round),
        // unless that hold was released meanwhile and the key is free again.
        if (!isUniqueViolation(error) || db !== this.db || attempt >= RESERVE_ATTEMPTS) throw error;
      }
    }
    const payer = await this.repo.payer(db, userId);
    throw fail('insufficientPoints', {
      points: reservation.points,
      balance: Number(payer.points_balance) - Number(payer.points_held),
    });
  }

  private sameContent(hold: Hold, fingerprint: string): Hold {
    if (hold.fingerprint !== fingerprint) throw fail('requestIdReused');
    return hold;
  }

  /** The live hold (held or settled) of a key, if any. */
  liveHold(userId: number, key: string, db: Db = this.db): Promise<Hold | undefined> {
    return this.repo.liveHold(db, userId, key);
  }

  /**
   * What a retried request already bought with its key: the live hold (settled: its answer is kept;
   * held: it is still running), or undefined. requestIdReused when the key bought other content.
   */
  async earlierPurchase(userId: number, key: string, content: unknown): Promise<Hold | undefined> {
    const hold = await this.repo.liveHold(this.db, userId, key);
    return hold ? this.sameContent(hold, fingerprintOf(content)) : undefined;
  }

  /**
   * Charges what the work delivered (at most what was held; 0 releases the hold instead) and keeps
   * the answer for a retried request. True when this call made the charge; false when nothing was
   * delivered or the hold had already been resolved (settled or released).
   */
  async settle(
    hold: Hold,
    points: number = hold.points,
    extra: { detail?: Record<string, unknown>; result?: unknown } = {},
  ): Promise<boolean> {
    const charge = Math.min(Math.max(0, Math.round(points)), hold.points);
    if (charge === 0) {
      await this.release(hold);
      return false;
    }
    try {
      return (await this.repo.settle(this.db, hold.id, charge, extra)) !== undefined;
    } catch (error) {
      // A charge with this key is already in the ledger (made before holds existed): not twice.
      if (!isUniqueViolation(error)) throw error;
      await this.release(hold);
      return false;
    }
  }

  /**
   * Charges one purchase out of a larger hold (a page out of a whole-book translation's reservation):
   * at most what the hold still holds, under the purchase's own key, so that it is charged once
   * whoever charges it. `notCovered`: the hold was resolved or is spent, nothing was charged.
   */
  async draw(
    holdId: string,
    charge: { points: number; key: string; reason: string; detail: Record<string, unknown> },
  ): Promise<{ state: 'charged'; points: number } | { state: 'alreadyCharged' | 'notCovered' | 'free' }> {
    if (charge.points <= 0) return { state: 'free' };
    try {
      const drawn = await this.repo.draw(this.db, holdId, charge);
      return drawn ? { state: 'charged', points: drawn.points } : { state: 'notCovered' };
    } catch (error) {
      if (isUniqueViolation(error)) return { state: 'alreadyCharged' };
      throw error;
    }
  }

  /** Which of these keys were charged to the user (are in the ledger). */
  chargedKeys(userId: number, keys: string[]): Promise<Set<string>> {
    return this.repo.ledgerKeys(this.db, userId, keys);
  }

  /** Which of these keys have a live hold of the user: bought (settled) or being bought (held). */
  liveHoldKeys(userId: number, keys: string[]): Promise<Set<string>> {
    return this.repo.liveHoldKeys(this.db, userId, keys);
  }

  /** Gives the held points back: the work failed or delivered nothing. */
  release(hold: Pick<Hold, 'id'>, db: Db = this.db): Promise<boolean> {
    return this.repo.release(db, hold.id);
  }

  /** How a module's holds are resolved when their process died (default: released). */
  onExpiry(action: string, resolver: ExpiryResolver): void {
    this.resolvers.set(action, resolver);
  }

  /**
   * Resolves the holds of processes that died (still held past their expiry): settled at what their
   * module says was delivered, else released. Run by the worker every minute; safe to run anywhere
   * and concurrently (a hold is resolved once). Returns how many were resolved.
   */
  async sweepExpired(): Promise<number> {
    let resolved = 0;
    for (;;) {
      const expired = await this.repo.expiredHolds(this.db, SWEEP_BATCH);
      for (const hold of expired) {
        try {
          const resolver = this.resolvers.get(hold.action);
          const delivered = resolver ? await resolver(hold) : 0;
          if (delivered > 0 ? await this.settle(hold, delivered) : await this.release(hold)) resolved += 1;
        } catch (error) {
          this.logger?.warn({ holdId: hold.id, err: error }, 'could not resolve an expired hold; releasing it');
          if (await this.release(hold)) resolved += 1;
        }
      }
      if (expired.length < SWEEP_BATCH) return resolved;
    }
  }

  /**
   * Charges at once for work that is already done (nothing to hold): once per idempotency key, and
   * never with points promised to running actions.
   */
  async spend(userId: number, charge: Charge): Promise<{ charged: boolean; balance: number }> {
    if (charge.points <= 0) return { charged: false, balance: await this.balance(userId) };
    try {
      const balance = await this.repo.spend(this.db, { userId, ...charge });
      if (balance === undefined) {
        if (await this.charged(userId, charge.idempotencyKey))
          return { charged: false, balance: await this.balance(userId) };
        throw fail('insufficientPoints', { points: charge.points, balance: await this.available(userId) });
      }
      return { charged: true, balance };
    } catch (error) {
      // The same key charged by a concurrent request: its statement won, this one changed nothing.
      if (isUniqueViolation(error)) return { charged: false, balance: await this.balance(userId) };
      throw error;
    }
  }

  /** Whether a charge with this key is in the ledger. */
  charged(userId: number, idempotencyKey: string): Promise<boolean> {
    return this.repo.hasLedgerKey(this.db, userId, idempotencyKey);
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
        if (await this.repo.hasLedgerKey(trx, userId, idempotencyKey)) return;
        await this.repo.credit(trx, { userId, points, reason, idempotencyKey, ...(detail ? { detail } : {}) });
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** An admin's grant: once per request id, recorded as income with who granted it. */
  async grantTo(
    userId: number,
    points: number,
    requestId: string,
    detail: { by: number; note: string },
  ): Promise<number> {
    if (!(await this.repo.userExists(this.db, userId))) throw fail('notFound');
    await this.credit(userId, points, 'adminGrant', `grant:${requestId}`, detail);
    return this.balance(userId);
  }

  private async balance(userId: number): Promise<number> {
    return Number((await this.repo.payer(this.db, userId)).points_balance);
  }

  /** What the user can still spend: the balance less the points promised to running actions. */
  async available(userId: number): Promise<number> {
    const row = await this.repo.payer(this.db, userId);
    return Number(row.points_balance) - Number(row.points_held);
  }
}

/** SPEC §3.11: only the last 30 days are shown. */
export const POINTS_HISTORY_DAYS = 30;

/**
 * A page of the points history. Each line says what was bought (book title, page, language) in its
 * detail; rows written before the title was kept get the title the user sees now. A whole-book
 * translation is one line: its points summed, `pages` (with `firstPage`, `lastPage`) instead of `page`.
 */
export async function pointsHistory(
  db: Db,
  user: Pick<UserRow, 'id' | 'points_balance'>,
  query: { page: number; pageSize: number; type?: 'income' | 'expenditure' | undefined },
): Promise<PointsRecordPage> {
  const repo = new PointsRepo();
  const ledger = await recentLedger(db, user.id, {
    days: POINTS_HISTORY_DAYS,
    type: query.type,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  const untitled = ledger.rows.flatMap((r) =>
    typeof r.detail?.bookCode === 'string' && typeof r.detail.bookTitle !== 'string' ? [r.detail.bookCode] : [],
  );
  const titles = await repo.bookTitles(db, user.id, [...new Set(untitled)]);
  return {
    items: ledger.rows.map((r) => {
      const code = r.detail?.bookCode;
      const title = typeof code === 'string' && typeof r.detail?.bookTitle !== 'string' ? titles.get(code) : undefined;
      let detail = title && r.detail ? { ...r.detail, bookTitle: title } : r.detail;
      if (r.grouped && detail) {
        // One line for a whole-book translation: its pages instead of one page.
        const { page: _page, holdId: _hold, ...rest } = detail;
        detail = { ...rest, pages: Number(r.entries), firstPage: r.first_page, lastPage: r.last_page };
      } else if (detail && 'holdId' in detail) {
        const { holdId: _hold, ...rest } = detail;
        detail = rest;
      }
      return {
        id: Number(r.id),
        type: r.type,
        points: Number(r.points),
        pointsBefore: Number(r.balance_before),
        pointsAfter: Number(r.balance_after),
        reason: r.reason,
        detail,
        createdAt: r.created_at.toISOString(),
      };
    }),
    total: ledger.total,
    page: query.page,
    pageSize: query.pageSize,
    balance: Number(user.points_balance),
    income: ledger.income,
    expenditure: ledger.expenditure,
  };
}
