import { createHash } from 'node:crypto';
import type { RetranslationQuote } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import { notify } from '../../lib/notifier.ts';
import type { BooksService } from '../books/books.service.ts';
import type { PointsService } from '../points/points.service.ts';
import { PAGES_TOPIC } from '../reader/page-translator.ts';
import type { GlossaryService } from './glossary.service.ts';

/** The job's payload: the paragraphs sent back, and the hold that pays for them (none when free). */
export interface RetranslationJob {
  bookId: number;
  lang: string;
  userId: number;
  holdKey: string | null;
  seqs: number[];
}

/** Paragraphs still being translated by another worker are waited for this long before the charge. */
const SETTLE_WAIT_MS = 60_000;
const SETTLE_POLL_MS = 1_000;

/**
 * After a glossary change, the owner brings the book's translated paragraphs up to date: the quote
 * (GlossaryService.quote) is confirmed with its price, which is held; the paragraphs go back to
 * pending — readers of their pages see them being translated and get the new ones over the page's
 * event stream — and a durable job translates them page by page with the glossary of now, then
 * charges what was delivered: engine work at the translation price, memory hits at the cached one,
 * failures nothing.
 */
export class Retranslation {
  private readonly d: {
    db: Db;
    glossary: GlossaryService;
    books: BooksService;
    points: PointsService;
    queue: JobQueue;
    translatePage: (bookId: number, lang: string, page: number) => Promise<void>;
    logger: Logger;
  };
  constructor(deps: Retranslation['d']) {
    this.d = deps;
  }

  /** The owner confirms the quote they saw (`points`); a quote that changed meanwhile is answered again. */
  async confirm(
    user: UserRow,
    code: string,
    language: string,
    points: number,
  ): Promise<{ quote: RetranslationQuote; held: number }> {
    const book = await this.d.glossary.editable(user, code);
    const lang = this.d.glossary.language(language);
    const quote = await this.d.glossary.quote(book, lang);
    if (quote.points !== points) throw fail('quoteChanged', { quote });
    const { stale } = await this.d.glossary.staleParagraphs(book.id, lang);
    if (stale.length === 0) return { quote, held: 0 };
    const seqs = stale.map((p) => p.seq);
    let holdKey: string | null = null;
    if (quote.points > 0) {
      const which = createHash('sha256').update(seqs.join(',')).digest('base64url').slice(0, 16);
      holdKey = `retranslation:${book.id}:${lang}:${book.glossary_version}:${which}`;
      const { created } = await this.d.points.reserve(user.id, {
        action: 'retranslation',
        key: holdKey,
        content: { bookId: book.id, lang, seqs },
        points: quote.points,
        detail: { bookCode: book.code, bookTitle: book.title, language: lang, paragraphs: seqs.length },
        // Long enough for the job to finish a big book's paragraphs before the sweep would give the points back.
        ttlSeconds: Math.min(6 * 3600, 600 + seqs.length * 2),
      });
      if (!created) throw fail('requestInProgress');
    }
    const sent = await this.d.glossary.repo.markPending(book.id, lang, seqs);
    for (const page of new Set(stale.map((p) => p.page)))
      await notify(this.d.db, PAGES_TOPIC, { bookId: book.id, lang, page });
    await this.d.queue.send('glossary.retranslate', { bookId: book.id, lang, userId: user.id, holdKey, seqs });
    this.d.logger.info({ bookId: book.id, lang, paragraphs: sent, points: quote.points }, 'retranslation confirmed');
    return { quote: await this.d.glossary.quote(book, lang), held: quote.points };
  }

  /** The job: translates the pages of the paragraphs sent back, then settles the hold for what came out. */
  async run(job: RetranslationJob): Promise<void> {
    const pages = [
      ...new Set((await this.d.glossary.repo.translated(job.bookId, job.lang, job.seqs)).map((r) => r.page)),
    ];
    for (const page of pages.sort((a, b) => a - b)) await this.d.translatePage(job.bookId, job.lang, page);
    // A reader's page may have claimed some of them first: wait for that worker (bounded), then charge.
    const deadline = Date.now() + SETTLE_WAIT_MS;
    let rows = await this.d.glossary.repo.translated(job.bookId, job.lang, job.seqs);
    while (rows.some((r) => r.status === 'pending') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
      for (const page of new Set(rows.filter((r) => r.status === 'pending').map((r) => r.page)))
        await this.d.translatePage(job.bookId, job.lang, page);
      rows = await this.d.glossary.repo.translated(job.bookId, job.lang, job.seqs);
    }
    if (!job.holdKey) return;
    const hold = await this.d.points.liveHold(job.userId, job.holdKey);
    if (!hold || hold.status !== 'held') return;
    const prices = await this.d.points.prices();
    let fresh = 0;
    let cached = 0;
    for (const row of rows) {
      if (row.status !== 'done') continue;
      if (row.from_memory) cached += row.chars;
      else fresh += row.chars;
    }
    const points = Math.ceil((fresh * prices.translation + cached * prices.translationCached) / 1000);
    await this.d.points.settle(hold, points, { detail: { freshCharacters: fresh, cachedCharacters: cached } });
  }
}
