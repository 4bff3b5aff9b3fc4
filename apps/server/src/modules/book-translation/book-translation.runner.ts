import { randomUUID } from 'node:crypto';
import type { BookRow } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import type { PointsService } from '../points/points.service.ts';
import { chargeableOf, pageChargeKey, pagePrice } from '../reader/page-charges.ts';
import { isTranslatable } from '../reader/page-translator.ts';
import type { TranslationRow } from '../reader/reader.repo.ts';
import type { ReaderService } from '../reader/reader.service.ts';
import { LEASE_RENEW_MS, type BookTranslationRepo, type JobRow } from './book-translation.repo.ts';

/** Pages per pg-boss job: a run does this many, records them and hands the rest to the next run. */
export const CHUNK_PAGES = 10;
/** Pages translated at once within a run (each one's blocks in the page translator's batches). */
const PAGES_AT_ONCE = 3;
/** A page's failed blocks are tried again after these delays, then left failed (and free). */
const RETRY_DELAYS_MS = [1_000, 4_000, 15_000];
/** How often a page whose blocks another worker is translating is looked at again. */
const PENDING_POLL_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Deps {
  repo: BookTranslationRepo;
  books: BooksService;
  reader: ReaderService;
  points: PointsService;
  queue: JobQueue;
  logger: Logger;
}

/** How a page ended. */
interface PageOutcome {
  /** Every text block failed, even after the retries: the engines are down. */
  allFailed: boolean;
  /** The page could not be charged to the job's reservation (spent, or released): the job stops. */
  unpaid?: boolean;
}

/**
 * The worker's side of a whole-book translation (the `book.translateWhole` job): a run claims the
 * job under a lease, translates the next CHUNK_PAGES pages through the reader's page translator
 * (memory first, then the engines in batches, failed blocks retried with backoff), charges each page
 * once out of the job's reservation, records the chunk and queues the next run. A run that dies
 * leaves its lease to lapse, and the job is handed to a new run (BookTranslationService.recover):
 * pages it finished are charged already (by their keys) and are not charged again.
 */
export class BookTranslationRunner {
  private readonly d: Deps;
  constructor(deps: Deps) {
    this.d = deps;
  }

  async run(jobId: string, runId: string): Promise<void> {
    const job = await this.d.repo.claim(jobId, runId);
    if (!job) return; // another run has it, or it ended
    let ours = true;
    const lease = setInterval(
      () =>
        void this.d.repo
          .renew(jobId, runId)
          .then((renewed) => (ours &&= renewed))
          .catch((error) => this.d.logger.warn({ jobId, err: error }, 'could not renew a book translation lease')),
      LEASE_RENEW_MS,
    );
    try {
      await this.work(job, runId, () => ours);
    } catch (error) {
      // pg-boss runs the job again with backoff; the retry may claim it at once.
      await this.d.repo.dropLease(jobId, runId).catch(() => {});
      throw error;
    } finally {
      clearInterval(lease);
    }
  }

  private async work(job: JobRow, runId: string, ours: () => boolean): Promise<void> {
    const book = await this.d.books.repo.findBookById(job.book_id);
    if (!book || book.status !== 'ready') {
      await this.end(job, 'failed', { runId, errorKey: 'bookNotFound' });
      return;
    }
    if (job.hold_id && !(await this.d.repo.holdIsHeld(job.hold_id))) {
      // Never translate on a reservation that no longer pays for it.
      await this.end(job, 'failed', { runId, errorKey: 'quoteChanged' });
      return;
    }
    const copy = await this.d.books.repo.library.findCopy(job.user_id, book.id);
    const title = copy?.title ?? book.title;
    const last = Math.min(book.page_count, job.next_page + CHUNK_PAGES - 1);
    const pages = Array.from({ length: last - job.next_page + 1 }, (_, i) => job.next_page + i);
    let enginesDown = false;
    let unpaid = false;
    const next = async (): Promise<void> => {
      const page = pages.shift();
      if (page === undefined || enginesDown || unpaid || !ours() || !(await this.d.repo.stillOurs(job.id, runId)))
        return;
      const outcome = await this.finishPage(job, book, title, page, ours);
      if (outcome.allFailed) enginesDown = true;
      if (outcome.unpaid) unpaid = true;
      await this.d.repo.pageDone(job.id, runId);
      return next();
    };
    await Promise.all(Array.from({ length: PAGES_AT_ONCE }, next));
    if (!ours() || !(await this.d.repo.stillOurs(job.id, runId))) return;
    if (enginesDown) {
      await this.end(job, 'failed', { runId, errorKey: 'translationUnavailable' });
      return;
    }
    if (unpaid) {
      // The reservation is spent or gone while pages remain: the reader is asked for a new quote.
      await this.end(job, 'failed', { runId, errorKey: 'quoteChanged' });
      return;
    }
    if (last >= book.page_count) {
      const failedBlocks = await this.d.repo.failedBlocks(book.id, job.target_lang);
      await this.end(job, 'done', { runId, failedBlocks, pagesDone: book.page_count });
      return;
    }
    const nextRun = randomUUID();
    if (await this.d.repo.handOver(job.id, runId, last + 1, nextRun))
      await this.d.queue.send('book.translateWhole', { jobId: job.id }, { id: nextRun });
  }

  /** Ends the job and gives back what is left of its reservation. */
  private async end(
    job: JobRow,
    status: 'done' | 'failed',
    extra: { runId: string; errorKey?: string; failedBlocks?: number; pagesDone?: number },
  ): Promise<void> {
    const ended = await this.d.repo.finish(job.id, status, extra);
    if (ended?.hold_id) await this.d.points.release({ id: ended.hold_id });
    this.d.logger.info({ jobId: job.id, status, errorKey: extra.errorKey }, 'whole-book translation ended');
  }

  /**
   * Translates a page's missing blocks (failed ones again, with backoff) and charges the page once
   * it is finished. Blocks another worker is translating (a reader on that page) are waited for.
   */
  private async finishPage(
    job: JobRow,
    book: BookRow,
    title: string,
    page: number,
    ours: () => boolean,
  ): Promise<PageOutcome> {
    const { repo } = this.d.reader;
    const lang = job.target_lang;
    const wanted = (await repo.pageBlocks(book.id, page)).filter(isTranslatable);
    if (wanted.length === 0) return { allFailed: false };
    const seqs = wanted.map((b) => b.seq);
    let rows = await repo.translations(book.id, lang, seqs);
    const have = new Set(rows.map((r) => r.seq));
    await repo.requestPending(
      book.id,
      lang,
      seqs.filter((s) => !have.has(s)),
      job.user_id,
    );
    await repo.retryFailed(
      book.id,
      lang,
      rows.filter((r) => r.status === 'failed').map((r) => r.seq),
      job.user_id,
    );
    for (let retries = 0; ours();) {
      await this.d.reader.translatePage(book.id, lang, page);
      rows = await repo.translations(book.id, lang, seqs);
      if (rows.some((r) => r.status === 'pending')) {
        await sleep(PENDING_POLL_MS);
        continue;
      }
      const failed = rows.filter((r) => r.status === 'failed').map((r) => r.seq);
      if (failed.length === 0 || retries >= RETRY_DELAYS_MS.length) break;
      this.d.logger.info({ jobId: job.id, page, failed: failed.length, retries }, 'retrying failed paragraphs');
      await sleep(RETRY_DELAYS_MS[retries++]!);
      await repo.retryFailed(book.id, lang, failed, job.user_id);
    }
    if (!ours() || rows.some((r) => r.status === 'pending')) return { allFailed: false };
    const paid = await this.charge(job, book, title, page, wanted, new Map(rows.map((r) => [r.seq, r])));
    return { allFailed: rows.every((r) => r.status === 'failed'), unpaid: !paid };
  }

  /**
   * Charges a finished page out of the reservation, at the prices the reader confirmed, unless the
   * reader paid for it already or is paying for it as an opened page (its key decides: never twice).
   * False when the reservation no longer covers it (the job ended meanwhile, or its points are spent).
   */
  private async charge(
    job: JobRow,
    book: BookRow,
    title: string,
    page: number,
    wanted: Parameters<typeof chargeableOf>[0],
    rows: Map<number, TranslationRow>,
  ): Promise<boolean> {
    if (!job.hold_id) return true;
    const key = pageChargeKey(book.id, job.target_lang, page);
    if ((await this.d.points.chargedKeys(job.user_id, [key])).size > 0) return true;
    if ((await this.d.points.liveHoldKeys(job.user_id, [key])).size > 0) return true;
    const price = pagePrice(chargeableOf(wanted, rows), job.user_id, {
      translation: job.price_translation,
      translationCached: job.price_cached,
    });
    const drawn = await this.d.points.draw(job.hold_id, {
      points: price.points,
      key,
      reason: 'translation',
      detail: {
        bookCode: book.code,
        bookTitle: title,
        page,
        language: job.target_lang,
        freshCharacters: price.fresh,
        cachedCharacters: price.cached,
        wholeBook: true,
      },
    });
    if (drawn.state !== 'notCovered') return true;
    this.d.logger.info(
      { jobId: job.id, page },
      'a page its whole-book reservation no longer covers is not charged here',
    );
    return false;
  }
}
