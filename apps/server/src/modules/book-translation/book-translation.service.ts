import { randomUUID } from 'node:crypto';
import {
  findLanguage,
  type BookTranslationQuote,
  type BookTranslationStatus,
  type StartBookTranslationBody,
} from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import type { PointsService } from '../points/points.service.ts';
import { wholeBookKey } from '../reader/page-charges.ts';
import type { ReaderService } from '../reader/reader.service.ts';
import type { GlossaryService } from '../translation/glossary.service.ts';
import type { TranslationService } from '../translation/translation.service.ts';
import { BookTranslationRepo, type JobWithHold } from './book-translation.repo.ts';
import { BookTranslationRunner } from './book-translation.runner.ts';
import { quoteBook, type Quote } from './quote.ts';

/**
 * A reservation lives far longer than any book takes to translate: only one whose job is gone for
 * good reaches it, and the sweep then releases it (pages already finished were charged as they were).
 */
const HOLD_TTL_SECONDS = 30 * 24 * 3600;
/** Lapsed jobs handed to new runs per sweep round. */
const RESUME_BATCH = 50;

interface Deps {
  db: Db;
  books: BooksService;
  reader: ReaderService;
  /** The book's glossary: the memory keeps a paragraph's translation with the entries it holds. */
  glossary: GlossaryService;
  points: PointsService;
  translation: TranslationService;
  queue: JobQueue;
  logger: Logger;
}

/**
 * Whole-book translations on request (issue 20): a quote (what opening every page not paid for yet
 * would cost), confirmed by the reader, then a durable job that translates the book chunk by chunk
 * (book-translation.runner.ts), charging each page once out of the reservation, with progress and
 * cancel. Reading the book meanwhile charges its pages out of the same reservation (page-charges.ts).
 */
export class BookTranslationService {
  private readonly d: Deps;
  readonly repo: BookTranslationRepo;
  readonly runner: BookTranslationRunner;
  constructor(deps: Deps) {
    this.d = deps;
    this.repo = new BookTranslationRepo(deps.db);
    this.runner = new BookTranslationRunner({ ...deps, repo: this.repo });
  }

  /** The book and the language to translate into, or the error the reader gets. */
  private async locate(user: UserRow, code: string, language: string) {
    const { book, copy } = await this.d.books.view(user, code);
    const target = findLanguage(language);
    if (!target) throw fail('noSuchLanguage');
    if (book.status !== 'ready') throw fail('bookNotFound');
    if (book.original_language === target.code) throw fail('translationNotNeeded');
    return { book, title: copy?.title ?? book.title, target };
  }

  private async computeQuote(user: UserRow, book: Awaited<ReturnType<typeof this.locate>>['book'], lang: string) {
    const prices = await this.d.points.prices();
    const quote = await quoteBook(
      { repo: this.repo, points: this.d.points, translation: this.d.translation, glossary: this.d.glossary },
      { userId: user.id, book, lang, prices, preferredEngine: user.translation_engine },
    );
    return { prices, quote };
  }

  private async presentQuote(
    userId: number,
    lang: string,
    pageCount: number,
    quote: Quote,
  ): Promise<BookTranslationQuote> {
    return { language: lang, pageCount, ...quote, available: await this.d.points.available(userId) };
  }

  async quote(user: UserRow, code: string, language: string): Promise<BookTranslationQuote> {
    const { book, target } = await this.locate(user, code, language);
    const { quote } = await this.computeQuote(user, book, target.code);
    return this.presentQuote(user.id, target.code, book.page_count, quote);
  }

  /**
   * Starts the translation at the confirmed price: a higher price now (prices changed, or the reader
   * paid for fewer pages meanwhile) answers pointsConfirmationRequired with the new quote instead.
   * The price is held (insufficientPoints without enough points) and the job written in one
   * transaction, under a lock of the reader, book and language: of starts at once, one makes the job
   * and its reservation, the others answer with it. A job is never written without its hold, and a
   * hold is never released while its job runs.
   */
  async start(user: UserRow, body: StartBookTranslationBody): Promise<BookTranslationStatus> {
    const { book, title, target } = await this.locate(user, body.bookCode, body.language);
    const lang = target.code;
    const latest = await this.repo.latest(user.id, book.id, lang);
    if (latest?.status === 'running') return this.present(latest);
    const { prices, quote } = await this.computeQuote(user, book, lang);
    if (quote.points > body.points)
      throw fail('pointsConfirmationRequired', await this.presentQuote(user.id, lang, book.page_count, quote));

    const job = {
      user_id: user.id,
      book_id: book.id,
      target_lang: lang,
      quoted_points: quote.points,
      price_translation: prices.translation,
      price_cached: prices.translationCached,
      page_count: book.page_count,
    };
    if (quote.points === 0 && quote.paragraphsToTranslate === 0) {
      // Nothing to translate nor to pay: the book is the reader's already.
      const done = await this.repo.insert({
        ...job,
        status: 'done',
        hold_id: null,
        next_page: book.page_count + 1,
        pages_done: book.page_count,
        finished_at: new Date(),
      });
      return this.present({ ...done, held_points: null });
    }

    const started = await this.repo.exclusively(user.id, book.id, lang, async (repo, trx) => {
      // Under the lock, a running job is the one every other start answers with.
      const running = await repo.latest(user.id, book.id, lang);
      if (running?.status === 'running') return { job: running, runId: undefined };
      const key = wholeBookKey(book.id, lang);
      // A reservation without a running job (left by an earlier version, or a job ended without
      // releasing it) pays for nothing: it is given back before the new one is made.
      const stale = await this.d.points.liveHold(user.id, key, trx);
      if (stale?.status === 'held') await this.d.points.release(stale, trx);
      const { hold } = await this.d.points.reserve(
        user.id,
        {
          action: 'bookTranslation',
          key,
          content: { bookId: book.id, language: lang },
          points: quote.points,
          detail: { bookCode: book.code, bookTitle: title, language: lang, pages: book.page_count, wholeBook: true },
          ttlSeconds: HOLD_TTL_SECONDS,
        },
        trx,
      );
      const runId = randomUUID();
      const created = await repo.insert({ ...job, status: 'running', hold_id: hold.id, run_id: runId });
      return { job: { ...created, held_points: String(hold.points) }, runId };
    });
    if (!started.runId) return this.present(started.job);
    // Queued after the commit: a process that dies in between leaves the job to the sweep (resume).
    await this.d.queue.send('book.translateWhole', { jobId: started.job.id }, { id: started.runId });
    this.d.logger.info(
      { jobId: started.job.id, bookId: book.id, lang, points: quote.points },
      'whole-book translation started',
    );
    return this.present((await this.repo.find(started.job.id))!);
  }

  /** The reader's latest whole-book translation of the book into the language (null: none yet). */
  async status(user: UserRow, code: string, language: string): Promise<BookTranslationStatus | null> {
    const { book, target } = await this.locate(user, code, language);
    let job = await this.repo.latest(user.id, book.id, target.code);
    if (!job) return null;
    // Someone is watching: a job whose worker died is resumed now rather than at the next sweep.
    if (job.status === 'running' && (await this.resume(job))) job = (await this.repo.find(job.id))!;
    return this.present(job);
  }

  /** Stops a running translation: pages finished stay charged, the rest of the reservation is released. */
  async cancel(user: UserRow, code: string, language: string): Promise<BookTranslationStatus | null> {
    const { book, target } = await this.locate(user, code, language);
    const job = await this.repo.latest(user.id, book.id, target.code);
    if (!job) return null;
    if (job.status === 'running') {
      const failedBlocks = await this.repo.failedBlocks(book.id, target.code);
      const ended = await this.repo.finish(job.id, 'cancelled', { failedBlocks });
      if (ended?.hold_id) await this.d.points.release({ id: ended.hold_id });
      if (ended) this.d.logger.info({ jobId: job.id }, 'whole-book translation cancelled');
    }
    return this.present((await this.repo.find(job.id))!);
  }

  /** The `book.resumeTranslations` job (every minute): jobs whose worker died go to new runs. */
  async resumeLapsed(): Promise<number> {
    let resumed = 0;
    for (const job of await this.repo.lapsed(RESUME_BATCH)) if (await this.resume(job)) resumed += 1;
    return resumed;
  }

  /** Hands a job whose lease lapsed (or that never started) to a new run; false when it is alive. */
  private async resume(job: { id: string; run_id: string | null }): Promise<boolean> {
    const runId = randomUUID();
    if (!(await this.repo.restart(job.id, job.run_id, runId))) return false;
    this.d.logger.warn({ jobId: job.id }, 'resuming a whole-book translation whose worker was lost');
    await this.d.queue.send('book.translateWhole', { jobId: job.id }, { id: runId });
    return true;
  }

  private present(job: JobWithHold): BookTranslationStatus {
    const reserved = Number(job.quoted_points);
    const pagesDone = job.status === 'done' ? job.page_count : Math.min(job.pages_done, job.page_count);
    return {
      id: Number(job.id),
      language: job.target_lang,
      state: job.status,
      pageCount: job.page_count,
      pagesDone,
      percent: job.page_count > 0 ? Math.floor((pagesDone * 100) / job.page_count) : 100,
      pointsReserved: reserved,
      pointsCharged: job.held_points === null ? 0 : reserved - Number(job.held_points),
      failedParagraphs: job.failed_blocks,
      errorKey: job.error_key,
      startedAt: job.created_at.toISOString(),
      finishedAt: job.finished_at?.toISOString() ?? null,
    };
  }
}
