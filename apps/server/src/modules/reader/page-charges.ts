import type { PageData } from '@yidu/shared';
import type { Logger } from '../../lib/logger.ts';
import type { Hold, PointsService } from '../points/points.service.ts';
import { isTranslatable } from './page-translator.ts';
import type { BlockRow, ReaderRepo, TranslationRow } from './reader.repo.ts';

/** A finished block as its charge counts it. */
export interface Chargeable {
  chars: number;
  fromMemory: boolean;
  requestedBy: number | null;
}

/** Where a reader stands with paying for a page, once it is opened. */
export type PagePayment =
  | { state: 'charged' }
  /** The price is held while the page's blocks are translated; charged when they are all finished. */
  | { state: 'held'; hold: Hold }
  /** Nothing to pay (no text to translate, or a price of 0). */
  | { state: 'free' }
  /**
   * The reader's whole-book translation of this book and language is running: the page is charged out
   * of its reservation when it is complete (modules/book-translation), with no quote of its own.
   */
  | { state: 'book'; hold: Hold; key: string; detail: Record<string, unknown> };

/** What is bought, as the points history shows it. */
export interface PageItem {
  bookId: number;
  bookCode: string;
  bookTitle: string;
  language: string;
  page: number;
}

export const pageChargeKey = (bookId: number, lang: string, page: number) => `page:${bookId}:${lang}:${page}`;
/** The key of the reservation of a reader's whole-book translation (one live at a time per book and language). */
export const wholeBookKey = (bookId: number, lang: string) => `book:${bookId}:${lang}`;

/**
 * A page's price for a reader: engine work done for them at `translation`, the rest (memory hits,
 * another reader's work) at `translationCached`, per 1,000 characters, rounded up once per page.
 */
export function pagePrice(
  blocks: Chargeable[],
  userId: number,
  prices: { translation: number; translationCached: number },
): { points: number; fresh: number; cached: number } {
  let fresh = 0;
  let cached = 0;
  for (const block of blocks) {
    if (!block.fromMemory && block.requestedBy === userId) fresh += block.chars;
    else cached += block.chars;
  }
  return { points: Math.ceil((fresh * prices.translation + cached * prices.translationCached) / 1000), fresh, cached };
}

/** The finished blocks of a page, as the charge counts them. */
export function chargeableOf(wanted: BlockRow[], rows: Map<number, TranslationRow>): Chargeable[] {
  return wanted.flatMap((b) => {
    const row = rows.get(b.seq);
    return row?.status === 'done'
      ? [{ chars: b.text.length, fromMemory: row.from_memory, requestedBy: row.requested_by }]
      : [];
  });
}

/** Every wanted block translated or failed: nothing more will come. */
export const isComplete = (wanted: BlockRow[], rows: Map<number, TranslationRow>) =>
  wanted.every((b) => rows.get(b.seq)?.status === 'done' || rows.get(b.seq)?.status === 'failed');

/**
 * What reading a translated page costs: charged when its reader opens it (never when it is prepared
 * ahead), once per reader, page and language, at the translation price for what an engine translated
 * for this reader and the cached price for the rest. A complete page is charged at once; otherwise
 * its price is held until its blocks are finished, then charged for what was delivered (failed blocks
 * cost nothing, and a page that delivered nothing gives the hold back).
 */
export class PageCharges {
  private readonly points: PointsService;
  private readonly repo: ReaderRepo;
  private readonly logger: Logger;
  /** Page charges already made: a charge is never undone, so once seen it need not be looked up. */
  private readonly charged = new Set<string>();
  constructor(deps: { points: PointsService; repo: ReaderRepo; logger: Logger }) {
    this.points = deps.points;
    this.repo = deps.repo;
    this.logger = deps.logger;
    // A page held by a process that died is charged for what its reader could see, or released.
    this.points.onExpiry('translation', (hold) => this.deliveredPrice(hold));
  }

  async isCharged(userId: number, key: string): Promise<boolean> {
    if (this.charged.has(`${userId}:${key}`)) return true;
    const charged = await this.points.charged(userId, key);
    if (charged) this.remember(userId, key);
    return charged;
  }

  private remember(userId: number, key: string): void {
    if (this.charged.size > 100_000) this.charged.clear();
    this.charged.add(`${userId}:${key}`);
  }

  /**
   * Opening a page: its reader pays before any of its translations is given. Already paid or held:
   * nothing more. Complete: charged now. Otherwise the quoted price (what is missing priced as engine
   * work) is held. In confirmation mode, without `confirmed`, the quote is answered instead
   * (pointsConfirmationRequired); without enough points, insufficientPoints.
   */
  async open(
    userId: number,
    item: PageItem,
    wanted: BlockRow[],
    rows: Map<number, TranslationRow>,
    confirmed: boolean,
  ): Promise<PagePayment> {
    const key = pageChargeKey(item.bookId, item.language, item.page);
    if (await this.isCharged(userId, key)) return { state: 'charged' };
    const live = await this.points.liveHold(userId, key);
    if (live) return live.status === 'settled' ? { state: 'charged' } : { state: 'held', hold: live };

    const detail = { bookCode: item.bookCode, bookTitle: item.bookTitle, page: item.page, language: item.language };
    const wholeBook = await this.points.liveHold(userId, wholeBookKey(item.bookId, item.language));
    if (wholeBook?.status === 'held') return { state: 'book', hold: wholeBook, key, detail };
    if (isComplete(wanted, rows)) {
      const price = await this.priceOf(chargeableOf(wanted, rows), userId);
      if (price.points === 0) return { state: 'free' };
      await this.points.assertConfirmed(userId, price.points, confirmed, {
        characters: price.fresh + price.cached,
        action: 'translation',
        page: item.page,
      });
      await this.points.spend(userId, {
        points: price.points,
        reason: 'translation',
        idempotencyKey: key,
        detail: { ...detail, freshCharacters: price.fresh, cachedCharacters: price.cached },
      });
      this.remember(userId, key);
      return { state: 'charged' };
    }

    const quote = await this.quote(wanted, rows, userId);
    if (quote.points === 0) return { state: 'free' };
    await this.points.assertConfirmed(userId, quote.points, confirmed, {
      characters: quote.characters,
      action: 'translation',
      page: item.page,
    });
    const { hold } = await this.points.reserve(userId, {
      action: 'translation',
      key,
      content: { bookId: item.bookId, language: item.language, page: item.page },
      points: quote.points,
      detail,
    });
    return hold.status === 'settled' ? { state: 'charged' } : { state: 'held', hold };
  }

  /** The page's charge as its reader sees it; a held price is settled once the page is complete. */
  async settle(
    userId: number,
    payment: PagePayment,
    wanted: BlockRow[],
    rows: Map<number, TranslationRow>,
  ): Promise<NonNullable<PageData['charge']>> {
    const price = await this.priceOf(chargeableOf(wanted, rows), userId);
    if (payment.state === 'charged') return { points: price.points, charged: true };
    if (payment.state === 'free' || !isComplete(wanted, rows)) return { points: price.points, charged: false };
    if (payment.state === 'book') return this.settleFromBook(userId, payment, price);
    const { hold } = payment;
    const settled = await this.points.settle(hold, price.points, {
      detail: { freshCharacters: price.fresh, cachedCharacters: price.cached },
    });
    if (settled) this.remember(userId, hold.key);
    // Not settled here: another request of the same reader settled it first, or nothing was delivered.
    const charged = settled || (price.points > 0 && (await this.isCharged(userId, hold.key)));
    if (!settled && !charged && price.points > 0)
      this.logger.info({ userId, key: hold.key }, 'a page hold was resolved before its page was complete');
    return { points: price.points, charged };
  }

  /**
   * A complete page read during the reader's whole-book translation: charged out of its reservation
   * under the page's own key (so the translation's job never charges it again); when the translation
   * ended meanwhile, or its reservation is spent, the page is charged as any page.
   */
  private async settleFromBook(
    userId: number,
    payment: Extract<PagePayment, { state: 'book' }>,
    price: { points: number; fresh: number; cached: number },
  ): Promise<NonNullable<PageData['charge']>> {
    const { key } = payment;
    const detail = { ...payment.detail, freshCharacters: price.fresh, cachedCharacters: price.cached, wholeBook: true };
    const drawn = await this.points.draw(payment.hold.id, { points: price.points, key, reason: 'translation', detail });
    if (drawn.state === 'free') return { points: 0, charged: false };
    if (drawn.state === 'notCovered') {
      try {
        await this.points.spend(userId, { points: price.points, reason: 'translation', idempotencyKey: key, detail });
      } catch (error) {
        this.logger.info(
          { userId, key, err: error },
          'a page read during a whole-book translation could not be charged',
        );
        return { points: price.points, charged: false };
      }
    }
    this.remember(userId, key);
    return { points: price.points, charged: true };
  }

  /** Engine work done for this reader at the translation price, memory hits at the cached price. */
  async priceOf(blocks: Chargeable[], userId: number): Promise<{ points: number; fresh: number; cached: number }> {
    return pagePrice(blocks, userId, await this.points.prices());
  }

  /** The most the page can cost: finished blocks at their price, the others as engine work. */
  private async quote(
    wanted: BlockRow[],
    have: Map<number, TranslationRow>,
    userId: number,
  ): Promise<{ points: number; characters: number }> {
    const prices = await this.points.prices();
    let fresh = 0;
    let cached = 0;
    for (const block of wanted) {
      const row = have.get(block.seq);
      if (row?.status === 'done' && (row.from_memory || row.requested_by !== userId)) cached += block.text.length;
      else fresh += block.text.length;
    }
    return {
      points: Math.ceil((fresh * prices.translation + cached * prices.translationCached) / 1000),
      characters: fresh + cached,
    };
  }

  /** For the sweep: the price of what a held page had delivered by now (0 releases the hold). */
  private async deliveredPrice(hold: Hold): Promise<number> {
    const [, bookId, lang, page] = hold.key.split(':');
    const wanted = (await this.repo.pageBlocks(Number(bookId), Number(page))).filter(isTranslatable);
    const rows = await this.repo.translations(
      Number(bookId),
      lang!,
      wanted.map((b) => b.seq),
    );
    const byseq = new Map(rows.map((r) => [r.seq, r]));
    return (await this.priceOf(chargeableOf(wanted, byseq), hold.userId)).points;
  }
}
