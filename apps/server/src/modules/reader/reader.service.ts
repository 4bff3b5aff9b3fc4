import { findLanguage, type BlockLocation, type PageBlock, type PageData, type ReadingLanguage } from '@yidu/shared';
import type { BookRow, UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Db } from '../../db/client.ts';
import type { BooksService, PageImages } from '../books/books.service.ts';
import type { PointsService } from '../points/points.service.ts';
import type { ChapterContext } from '../translation/chapter-context.ts';
import type { GlossaryService } from '../translation/glossary.service.ts';
import type { TranslationService } from '../translation/translation.service.ts';
import { chargeableOf, isComplete, PageCharges, pageChargeKey, type Chargeable } from './page-charges.ts';
import { isTranslatable, PageTranslator } from './page-translator.ts';
import { ReaderRepo, type BlockRow, type TranslationRow } from './reader.repo.ts';
import { isRetryDue } from './retries.ts';

export { PAGES_TOPIC, translationTopic } from './page-translator.ts';
export { pageChargeKey } from './page-charges.ts';

const hasFailed = (wanted: BlockRow[], rows: Map<number, TranslationRow>) =>
  wanted.some((b) => rows.get(b.seq)?.status === 'failed');

const PAGE_CACHE_SIZE = 5_000;
/** Same as the claim timeout of ReaderRepo.claimPending. */
const STALE_PENDING_MS = 30_000;

interface CachedPage {
  data: Omit<PageData, 'charge'>;
  /** `data` as JSON, made once. */
  json: string;
  /** Whole response envelopes by the charge they carry (most readers pay the same), encoded once. */
  envelopes: Map<string, Buffer>;
  chargeable: Chargeable[];
}

interface Deps {
  db: Db;
  books: BooksService;
  translation: TranslationService;
  glossary: GlossaryService;
  chapterContext?: ChapterContext;
  points: PointsService;
  queue: JobQueue;
  logger: Logger;
}

export interface PageOptions {
  /** The reader confirmed this page's price ('deductAfterConfirmation' mode). */
  confirm?: boolean;
  /** Block ids whose failed translation is tried again. */
  retry?: string[];
}

/**
 * Reader pages with their translations. Opening a page charges it (page-charges.ts), starts the
 * translation of its missing blocks and prepares the next page (page-translator.ts); the answer holds
 * what is finished so far, and the stream announces the rest.
 */
export class ReaderService {
  private readonly d: Deps;
  readonly repo: ReaderRepo;
  private readonly charges: PageCharges;
  private readonly translator: PageTranslator;
  /**
   * Finished pages (every block translated or failed), by book, language and page: turning back to a
   * page, or a second reader of a public book, costs no block or translation query. Every process
   * drops an entry when a worker announces new translations for that page (PAGES_TOPIC).
   */
  private readonly pages = new Map<string, CachedPage>();
  /**
   * When the engines last changed as this process knows it: its start (it may have started with new
   * settings) or an admin's save (ENGINES_TOPIC). Blocks that failed before it are tried again at once.
   */
  private enginesChangedAt = new Date();
  private readonly engineListeners = new Set<() => void>();
  constructor(deps: Deps) {
    this.d = deps;
    this.repo = new ReaderRepo(deps.db);
    this.charges = new PageCharges({ points: deps.points, repo: this.repo, logger: deps.logger });
    this.translator = new PageTranslator({ ...deps, repo: this.repo });
  }

  /** Forgets a cached page whose translations changed (called on PAGES_TOPIC). */
  forget(change: { bookId: number; lang: string; page: number }): void {
    this.pages.delete(`${change.bookId}:${change.lang}:${change.page}`);
  }

  /**
   * The engine settings changed (called once they are reloaded): failed blocks are due for another try
   * at once, and open event streams look at their pages now instead of at their next poll.
   */
  enginesChanged(): void {
    this.enginesChangedAt = new Date();
    for (const listener of this.engineListeners) listener();
  }

  /** Calls `listener` after each change of the engine settings; returns the unsubscribe. */
  onEnginesChanged(listener: () => void): () => void {
    this.engineListeners.add(listener);
    return () => this.engineListeners.delete(listener);
  }

  /** After missed notifications (a lost database connection) nothing cached can be trusted. */
  forgetAll(): void {
    this.pages.clear();
  }

  /** The `translate.page` job. */
  translatePage(bookId: number, lang: string, page: number): Promise<void> {
    return this.translator.translatePage(bookId, lang, page);
  }

  private remember(key: string, page: CachedPage): void {
    if (this.pages.size >= PAGE_CACHE_SIZE) this.pages.delete(this.pages.keys().next().value!);
    this.pages.set(key, page);
  }

  /** The book and target language of a page request, or the error the reader gets. */
  private async locate(user: UserRow, code: string, language: string, page: number) {
    const { book, copy } = await this.d.books.viewCached(user, code);
    const target = findLanguage(language);
    if (!target) throw fail('noSuchLanguage');
    if (book.status !== 'ready' || page > book.page_count) throw fail('notFound', { pageCount: book.page_count });
    return { book, title: copy?.title ?? book.title, target };
  }

  /**
   * A finished page from memory with this reader's charge, when nothing needs the database: the page
   * is cached and, when translated, already charged to this reader.
   */
  private async fromMemory(
    userId: number,
    bookId: number,
    lang: string,
    page: number,
  ): Promise<{ page: CachedPage; charge: PageData['charge'] } | undefined> {
    const cached = this.pages.get(`${bookId}:${lang}:${page}`);
    if (!cached) return undefined;
    if (!cached.data.translated) return { page: cached, charge: null };
    if (!(await this.charges.isCharged(userId, pageChargeKey(bookId, lang, page)))) return undefined;
    const { points } = await this.charges.priceOf(cached.chargeable, userId);
    return { page: cached, charge: { points, charged: true } };
  }

  /**
   * getPageData's answer. From memory (the common case of turning pages of a translated book) it is
   * the whole response envelope, already encoded: the page's JSON is made once when it is cached and
   * encoded once per charge, not at every request. Otherwise it is the page, as pageData answers it.
   */
  async pageResponse(
    user: UserRow,
    code: string,
    language: string,
    page: number,
    options: PageOptions = {},
  ): Promise<Buffer | PageData> {
    const { book, title, target } = await this.locate(user, code, language, page);
    const found = options.retry?.length ? undefined : await this.fromMemory(user.id, book.id, target.code, page);
    if (!found) return this.pageFromDatabase(user, book, title, target, page, options);
    const charge = JSON.stringify(found.charge);
    const { envelopes } = found.page;
    let envelope = envelopes.get(charge);
    if (!envelope) {
      envelope = Buffer.from(`{"code":0,"msg":"ok","data":${found.page.json.slice(0, -1)},"charge":${charge}}}`);
      if (envelopes.size < 16) envelopes.set(charge, envelope);
    }
    return envelope;
  }

  async pageData(
    user: UserRow,
    code: string,
    language: string,
    page: number,
    options: PageOptions = {},
  ): Promise<PageData> {
    const { book, title, target } = await this.locate(user, code, language, page);
    const found = options.retry?.length ? undefined : await this.fromMemory(user.id, book.id, target.code, page);
    if (found) return { ...found.page.data, charge: found.charge };
    return this.pageFromDatabase(user, book, title, target, page, options);
  }

  /**
   * A page read from the database. A translated one is paid for first (or its price held), then what
   * is missing is started and the next page prepared; the page is cached once it is finished.
   */
  private async pageFromDatabase(
    user: UserRow,
    book: BookRow,
    title: string,
    target: ReadingLanguage,
    page: number,
    options: PageOptions,
  ): Promise<PageData> {
    const cacheKey = `${book.id}:${target.code}:${page}`;
    const blocks = await this.repo.pageBlocks(book.id, page);
    const translated = book.original_language !== target.code;
    const wanted = translated ? blocks.filter(isTranslatable) : [];
    let rows = await this.repo.translations(
      book.id,
      target.code,
      wanted.map((b) => b.seq),
    );

    let payment;
    if (translated) {
      // Failed blocks the reader asked to retry, and those whose automatic retry is due (retries.ts),
      // are quoted and started like missing ones.
      const asked = new Set(options.retry ?? []);
      const now = new Date();
      const before = new Map(rows.map((r) => [r.seq, r]));
      const failed = wanted.filter((b) => before.get(b.seq)?.status === 'failed');
      const retry = failed.filter((b) => asked.has(b.block_id));
      const due = failed.filter(
        (b) => !asked.has(b.block_id) && isRetryDue(before.get(b.seq)!, now, this.enginesChangedAt),
      );
      const have = new Map(before);
      for (const b of [...retry, ...due]) have.delete(b.seq);
      // Nothing of the page's translation is given (nor started) before it is paid for or held.
      payment = await this.charges.open(
        user.id,
        { bookId: book.id, bookCode: book.code, bookTitle: title, language: target.code, page },
        wanted,
        have,
        options.confirm ?? false,
      );
      const missing = wanted.filter((b) => !before.has(b.seq));
      const added = await this.repo.requestPending(
        book.id,
        target.code,
        missing.map((b) => b.seq),
        user.id,
      );
      const retried =
        (await this.repo.retryFailed(
          book.id,
          target.code,
          retry.map((b) => b.seq),
          user.id,
        )) +
        (
          await this.repo.retryDue(
            book.id,
            target.code,
            due.map((b) => b.seq),
            this.enginesChangedAt,
            user.id,
          )
        ).length;
      // A block claimed long ago and still pending lost its worker: start the page again.
      const staleBefore = Date.now() - STALE_PENDING_MS;
      const stale = rows.some((r) => r.status === 'pending' && r.attempts > 0 && r.updated_at.getTime() < staleBefore);
      if (added > 0 || retried > 0 || stale) {
        this.pages.delete(cacheKey);
        this.translator.startNow(book.id, target.code, page);
      }
      if (added > 0 || retried > 0)
        rows = await this.repo.translations(
          book.id,
          target.code,
          wanted.map((b) => b.seq),
        );
      await this.translator.prepareAhead(book.id, target.code, page + 1, book.page_count, user.id);
    }

    const chapter = await this.repo.chapterOf(book.id, blocks[0]?.chapter_idx ?? 1);
    const byseq = new Map(rows.map((r) => [r.seq, r]));
    const images = await this.d.books.pageImages(
      book,
      user,
      blocks.flatMap((b) => (b.image_id ? [b.image_id] : [])),
    );
    const out: PageData = {
      page,
      pageCount: book.page_count,
      chapter: { index: chapter?.idx ?? 1, title: chapter?.title ?? '', generated: chapter?.generated ?? null },
      blocks: blocks.map((b) =>
        this.present(
          b,
          translated && isTranslatable(b) ? byseq.get(b.seq) : undefined,
          translated && isTranslatable(b),
          images,
        ),
      ),
      translated,
      charge: payment ? await this.charges.settle(user.id, payment, wanted, byseq) : null,
    };
    // A page with images is not kept for everyone: its image URLs are signed for this reader and expire
    // (or its pictures are still being made). Nor is one with failed blocks: each reading of it must
    // see whether their retry is due.
    if (isComplete(wanted, byseq) && !hasFailed(wanted, byseq) && !blocks.some((b) => b.image_id)) {
      const { charge: _charge, ...data } = out;
      this.remember(cacheKey, {
        data,
        json: JSON.stringify(data),
        envelopes: new Map(),
        chargeable: chargeableOf(wanted, byseq),
      });
    }
    return out;
  }

  /**
   * A block wherever it is in the book (a note on another page or in another file), in its original,
   * with its page and the pages of the blocks that refer to it. Free, like the original text: its
   * translation comes with its page, paid for as any page.
   */
  async block(user: UserRow, code: string, language: string, blockId: string): Promise<BlockLocation> {
    const { book } = await this.d.books.viewCached(user, code);
    const target = findLanguage(language);
    if (!target) throw fail('noSuchLanguage');
    if (book.status !== 'ready') throw fail('notFound');
    const block = await this.repo.blockById(book.id, blockId);
    if (!block) throw fail('notFound');
    // A note has few markers; a block cited from everywhere answers its first places only.
    const refs = (block.referenced_by ?? []).slice(0, 50);
    const [chapter, pages] = await Promise.all([
      this.repo.chapterOf(book.id, block.chapter_idx),
      this.repo.pagesOf(book.id, refs),
    ]);
    return {
      id: block.block_id,
      page: block.page,
      chapter: { index: chapter?.idx ?? block.chapter_idx, title: chapter?.title ?? '' },
      type: block.type,
      text: block.text,
      html: block.html,
      noteLabel: block.note_label,
      referencedBy: refs.flatMap((id) => (pages.has(id) ? [{ id, page: pages.get(id)! }] : [])),
      translated: book.original_language !== target.code,
    };
  }

  private present(
    block: BlockRow,
    row: TranslationRow | undefined,
    translatable: boolean,
    images: PageImages,
  ): PageBlock {
    const status = !translatable ? 'done' : (row?.status ?? 'pending');
    return {
      id: block.block_id,
      type: block.type,
      text: block.text,
      html: block.html,
      translation: status === 'done' ? (row?.translation ?? null) : null,
      status,
      level: block.level,
      ...images.of(block.image_id),
      noteLabel: block.note_label,
      noteRefs: block.note_refs,
      referencedBy: block.referenced_by,
      pdfPage: block.pdf_page,
      pdfRegions: block.pdf_regions,
    };
  }
}
