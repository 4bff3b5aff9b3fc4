import type { LanguageCode } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import { notify } from '../../lib/notifier.ts';
import type { BooksService } from '../books/books.service.ts';
import type { ChapterContext } from '../translation/chapter-context.ts';
import type { GlossaryService } from '../translation/glossary.service.ts';
import type { TranslationService } from '../translation/translation.service.ts';
import { escapeText, sourceHash } from '../translation/translation.service.ts';
import { CLAIM_RENEW_MS, TRANSLATABLE, type BlockRow, type ReaderRepo } from './reader.repo.ts';

/** Announces that a page's translations changed; every process drops its cached copy. */
export const PAGES_TOPIC = 'pages';

/** Topic of the event announcing finished translations of a book in a language. */
export const translationTopic = (bookId: number, lang: string) => `tr:${bookId}:${lang}`;

/** The first batch holds one block, so the first paragraph reaches the reader after one engine round trip. */
const FIRST_BATCH = 1;
/** The rest is spread over the engine's other concurrent requests, at most this many blocks each. */
const MAX_BATCH_BLOCKS = 12;

export const isTranslatable = (block: Pick<BlockRow, 'type' | 'text'>) =>
  (TRANSLATABLE as readonly string[]).includes(block.type) && block.text.trim() !== '';
/** What is sent to the engine: the inline markup when the block has some, else escaped text. */
export const sourceOf = (block: Pick<BlockRow, 'html' | 'text'>) => block.html ?? escapeText(block.text);
const sourceHashOf = (block: BlockRow) => sourceHash(sourceOf(block));

interface Deps {
  db: Db;
  repo: ReaderRepo;
  books: BooksService;
  translation: TranslationService;
  glossary: GlossaryService;
  /** The running chapter summaries given to LLM translation (chapter-context.ts). */
  chapterContext?: ChapterContext;
  queue: JobQueue;
  logger: Logger;
}

/**
 * The translating side of the reader: starts a page's missing blocks at once in this process (with a
 * durable job as a backup), prepares the next page through the queue, and does the work of the
 * `translate.page` job. Nothing here is charged: a page is charged when its reader opens it.
 */
export class PageTranslator {
  private readonly d: Deps;
  private readonly prepared = new Set<string>();
  constructor(deps: Deps) {
    this.d = deps;
  }

  /** Queues the translation of a page nobody is reading yet (the next one), once per process. */
  async prepareAhead(bookId: number, lang: string, page: number, pageCount: number, userId: number): Promise<void> {
    if (page > pageCount) return;
    // Once a page has been prepared in this process, asking again only costs queries.
    const key = `${bookId}:${lang}:${page}`;
    if (this.prepared.has(key)) return;
    if (this.prepared.size > 10_000) this.prepared.clear();
    this.prepared.add(key);
    const blocks = (await this.d.repo.pageBlocks(bookId, page)).filter(isTranslatable);
    if (
      (await this.d.repo.requestPending(
        bookId,
        lang,
        blocks.map((b) => b.seq),
        userId,
      )) > 0
    )
      await this.enqueue(bookId, lang, page);
  }

  private async enqueue(bookId: number, lang: string, page: number, startAfterSeconds?: number): Promise<void> {
    await this.d.queue.send(
      'translate.page',
      { bookId, lang, page },
      startAfterSeconds ? { startAfter: startAfterSeconds } : {},
    );
  }

  /**
   * The page a reader is looking at is translated right here, without waiting for a worker to poll
   * the queue (that wait would come before every first paragraph). A delayed durable job backs it up:
   * if this process dies, the job finds the blocks still pending and finishes them.
   */
  startNow(bookId: number, lang: string, page: number): void {
    void this.enqueue(bookId, lang, page, 30).catch((error) =>
      this.d.logger.warn({ err: error }, 'could not queue the backup translation job'),
    );
    void this.translatePage(bookId, lang, page).catch((error) =>
      this.d.logger.warn({ bookId, lang, page, err: error }, 'page translation failed'),
    );
  }

  /**
   * The worker's side: translates the claimed blocks of a page, memory first, then the engines in
   * small concurrent batches (the first block alone, so that it arrives first), announcing each batch.
   */
  async translatePage(bookId: number, lang: string, page: number): Promise<void> {
    const book = await this.d.books.repo.findBookById(bookId);
    if (!book) return;
    const claimed = (await this.d.repo.claimPending(bookId, lang, page)).filter(isTranslatable);
    if (claimed.length === 0) return;
    const from = book.original_language ?? 'auto';
    const to = lang as LanguageCode;
    const topic = translationTopic(bookId, lang);
    // The engine the reader who asked for the page prefers goes first.
    const requester = claimed.find((b) => b.requested_by !== null)?.requested_by;
    const preferred = requester ? await this.d.repo.preferredEngine(requester) : null;

    const glossary = await this.d.glossary.entries(bookId, lang);
    const memory = await this.d.translation.fromMemory(claimed.map(sourceOf), from, to, { preferred, glossary });
    const hits = claimed.filter((b) => memory.has(sourceHashOf(b)));
    if (hits.length > 0) {
      await this.d.repo.saveDone(
        bookId,
        lang,
        hits.map((b) => ({ seq: b.seq, ...memory.get(sourceHashOf(b))!, fromMemory: true })),
      );
      await notify(this.d.db, topic, { page, seqs: hits.map((b) => b.seq) });
      await notify(this.d.db, PAGES_TOPIC, { bookId, lang, page });
    }
    const rest = claimed.filter((b) => !memory.has(sourceHashOf(b)));
    // What the chapter told before this page, for an LLM engine (made once per page and language).
    const summary =
      rest.length > 0 ? await this.d.chapterContext?.summaryBefore(book, lang, page, preferred, glossary) : undefined;
    const parallel = Math.max(1, this.d.translation.concurrencyFor(preferred) - 1);
    const size = Math.min(MAX_BATCH_BLOCKS, Math.max(1, Math.ceil((rest.length - FIRST_BATCH) / parallel)));
    const batches = rest.length > 0 ? [rest.slice(0, FIRST_BATCH), ...chunk(rest.slice(FIRST_BATCH), size)] : [];
    // While the engines work, the claim stays this worker's; if the process dies, it lapses in 30 s.
    const lease = setInterval(
      () =>
        void this.d.repo
          .renewClaims(
            bookId,
            lang,
            rest.map((b) => b.seq),
          )
          .catch((error) => this.d.logger.warn({ err: error }, 'could not renew translation claims')),
      CLAIM_RENEW_MS,
    );
    try {
      await Promise.all(
        batches.map(async (batch) => {
          try {
            const results = await this.d.translation.translate(batch.map(sourceOf), from, to, {
              preferred,
              glossary,
              ...(summary ? { summary } : {}),
            });
            await this.d.repo.saveDone(
              bookId,
              lang,
              batch.map((b, i) => ({ seq: b.seq, ...results[i]! })),
            );
          } catch (error) {
            this.d.logger.warn({ bookId, lang, page, err: error }, 'translation batch failed');
            await this.d.repo.saveFailed(
              bookId,
              lang,
              batch.map((b) => b.seq),
              (error as Error).message,
            );
          }
          await notify(this.d.db, topic, { page, seqs: batch.map((b) => b.seq) });
          await notify(this.d.db, PAGES_TOPIC, { bookId, lang, page });
        }),
      );
    } finally {
      clearInterval(lease);
    }
  }
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
