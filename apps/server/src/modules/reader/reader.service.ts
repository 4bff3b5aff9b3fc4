import { findLanguage, type LanguageCode, type PageBlock, type PageData, type ReadingLanguage } from '@yidu/shared';
import type { BookRow, UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Logger } from '../../lib/logger.ts';
import { notify } from '../../lib/notifier.ts';
import type { Db } from '../../db/client.ts';
import type { BooksService } from '../books/books.service.ts';
import type { PointsService } from '../points/points.service.ts';
import type { GlossaryService } from '../translation/glossary.service.ts';
import type { TranslationService } from '../translation/translation.service.ts';
import { escapeText, sourceHash } from '../translation/translation.service.ts';
import { CLAIM_RENEW_MS, ReaderRepo, TRANSLATABLE, type BlockRow, type TranslationRow } from './reader.repo.ts';

/** Announces that a page's translations changed; every process drops its cached copy. */
export const PAGES_TOPIC = 'pages';
const PAGE_CACHE_SIZE = 5_000;

interface Chargeable {
  chars: number;
  fromMemory: boolean;
  requestedBy: number | null;
}

interface CachedPage {
  data: Omit<PageData, 'charge'>;
  /** `data` as JSON, made once. */
  json: string;
  /** Whole response envelopes by the charge they carry (most readers pay the same), encoded once. */
  envelopes: Map<string, Buffer>;
  chargeable: Chargeable[];
}

/** The finished blocks of a page, as the charge counts them. */
function chargeableOf(wanted: BlockRow[], rows: Map<number, TranslationRow>): Chargeable[] {
  return wanted.flatMap((b) => {
    const row = rows.get(b.seq);
    return row?.status === 'done'
      ? [{ chars: b.text.length, fromMemory: row.from_memory, requestedBy: row.requested_by }]
      : [];
  });
}

/** Topic of the event announcing finished translations of a book in a language. */
export const translationTopic = (bookId: number, lang: string) => `tr:${bookId}:${lang}`;

/** The first batch holds one block, so the first paragraph reaches the reader after one engine round trip. */
const FIRST_BATCH = 1;
/** Same as the claim timeout of ReaderRepo.claimPending. */
const STALE_PENDING_MS = 30_000;
/** The rest is spread over the engine's other concurrent requests, at most this many blocks each. */
const MAX_BATCH_BLOCKS = 12;

interface Deps {
  db: Db;
  books: BooksService;
  translation: TranslationService;
  glossary: GlossaryService;
  points: PointsService;
  queue: JobQueue;
  logger: Logger;
}

const isTranslatable = (block: BlockRow) =>
  (TRANSLATABLE as readonly string[]).includes(block.type) && block.text.trim() !== '';
/** What is sent to the engine: the inline markup when the block has some, else escaped text. */
const sourceOf = (block: BlockRow) => block.html ?? escapeText(block.text);

/**
 * Reader pages with their translations. Asking for a page starts the translation of its missing
 * blocks (a durable job) and prepares the next page; the answer holds what is finished so far, and
 * the stream announces the rest. A page is charged once per reader and language, when it is complete.
 */
export class ReaderService {
  private readonly d: Deps;
  readonly repo: ReaderRepo;
  private readonly prepared = new Set<string>();
  /**
   * Finished pages (every block translated or failed), by book, language and page: turning back to a
   * page, or a second reader of a public book, costs no block or translation query. Every process
   * drops an entry when a worker announces new translations for that page (PAGES_TOPIC).
   */
  private readonly pages = new Map<string, CachedPage>();
  /** Page charges already made: a charge is never undone, so once seen it need not be looked up. */
  private readonly charged = new Set<string>();
  constructor(deps: Deps) {
    this.d = deps;
    this.repo = new ReaderRepo(deps.db);
  }

  /** Forgets a cached page whose translations changed (called on PAGES_TOPIC). */
  forget(change: { bookId: number; lang: string; page: number }): void {
    this.pages.delete(`${change.bookId}:${change.lang}:${change.page}`);
  }

  /** After missed notifications (a lost database connection) nothing cached can be trusted. */
  forgetAll(): void {
    this.pages.clear();
  }

  private remember(key: string, page: CachedPage): void {
    if (this.pages.size >= PAGE_CACHE_SIZE) this.pages.delete(this.pages.keys().next().value!);
    this.pages.set(key, page);
  }

  private async isCharged(userId: number, key: string): Promise<boolean> {
    if (this.charged.has(`${userId}:${key}`)) return true;
    const charged = await this.d.points.charged(userId, key);
    if (charged) {
      if (this.charged.size > 100_000) this.charged.clear();
      this.charged.add(`${userId}:${key}`);
    }
    return charged;
  }

  /** The book and target language of a page request, or the error the reader gets. */
  private async locate(user: UserRow, code: string, language: string, page: number) {
    const { book } = await this.d.books.viewCached(user, code);
    const target = findLanguage(language);
    if (!target) throw fail('noSuchLanguage');
    if (book.status !== 'ready' || page > book.page_count) throw fail('notFound', { pageCount: book.page_count });
    return { book, target };
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
    if (!(await this.isCharged(userId, pageChargeKey(bookId, lang, page)))) return undefined;
    return { page: cached, charge: { points: await this.pointsFor(cached.chargeable, userId), charged: true } };
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
    options: { confirm?: boolean; retry?: string[] } = {},
  ): Promise<Buffer | PageData> {
    const { book, target } = await this.locate(user, code, language, page);
    const found = options.retry?.length ? undefined : await this.fromMemory(user.id, book.id, target.code, page);
    if (!found) return this.pageFromDatabase(user, book, target, page, options);
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
    options: { confirm?: boolean; retry?: string[] } = {},
  ): Promise<PageData> {
    const { book, target } = await this.locate(user, code, language, page);
    const found = options.retry?.length ? undefined : await this.fromMemory(user.id, book.id, target.code, page);
    if (found) return { ...found.page.data, charge: found.charge };
    return this.pageFromDatabase(user, book, target, page, options);
  }

  /** A page read from the database; starts what is missing and caches the page once it is finished. */
  private async pageFromDatabase(
    user: UserRow,
    book: BookRow,
    target: ReadingLanguage,
    page: number,
    options: { confirm?: boolean; retry?: string[] },
  ): Promise<PageData> {
    const cacheKey = `${book.id}:${target.code}:${page}`;
    let chargedAlready = false;
    const blocks = await this.repo.pageBlocks(book.id, page);
    const translated = book.original_language !== target.code;
    const wanted = translated ? blocks.filter(isTranslatable) : [];
    let rows = await this.repo.translations(
      book.id,
      target.code,
      wanted.map((b) => b.seq),
    );

    if (translated) {
      const chargeKey = pageChargeKey(book.id, target.code, page);
      const alreadyCharged = await this.d.points.charged(user.id, chargeKey);
      const have = new Map(rows.map((r) => [r.seq, r]));
      const missing = wanted.filter((b) => !have.has(b.seq));
      const retry = options.retry?.length
        ? wanted.filter((b) => options.retry!.includes(b.block_id) && have.get(b.seq)?.status === 'failed')
        : [];
      if ((missing.length > 0 || retry.length > 0) && !alreadyCharged) {
        const quote = await this.quote(wanted, have, user.id);
        // The caller's session may come from memory: balance and deduction mode are read afresh.
        this.d.points.assertCanPay(await this.d.points.payer(user.id), quote.points, options.confirm ?? false, {
          characters: quote.characters,
          action: 'translation',
          page,
        });
      }
      const added = await this.repo.requestPending(
        book.id,
        target.code,
        missing.map((b) => b.seq),
        user.id,
      );
      const retried = await this.repo.retryFailed(
        book.id,
        target.code,
        retry.map((b) => b.seq),
        user.id,
      );
      // A block claimed long ago and still pending lost its worker: start the page again.
      const staleBefore = Date.now() - STALE_PENDING_MS;
      const stale = rows.some((r) => r.status === 'pending' && r.attempts > 0 && r.updated_at.getTime() < staleBefore);
      if (added > 0 || retried > 0 || stale) {
        this.pages.delete(cacheKey);
        this.startNow(book.id, target.code, page);
      }
      if (added > 0 || retried > 0)
        rows = await this.repo.translations(
          book.id,
          target.code,
          wanted.map((b) => b.seq),
        );
      await this.prepareAhead(book.id, target.code, page + 1, book.page_count, user.id);
      chargedAlready = alreadyCharged;
    }

    const chapter = await this.repo.chapterOf(book.id, blocks[0]?.chapter_idx ?? 1);
    const byseq = new Map(rows.map((r) => [r.seq, r]));
    const images = await this.d.books.imageUrls(
      book,
      user,
      blocks.flatMap((b) => (b.image_id ? [b.image_id] : [])),
    );
    const out: PageData = {
      page,
      pageCount: book.page_count,
      chapter: { index: chapter?.idx ?? 1, title: chapter?.title ?? '' },
      blocks: blocks.map((b) =>
        this.present(
          b,
          translated && isTranslatable(b) ? byseq.get(b.seq) : undefined,
          translated && isTranslatable(b),
          images,
        ),
      ),
      translated,
      charge: null,
    };
    if (translated)
      out.charge = await this.settle(user, book.id, book.code, target.code, page, wanted, byseq, chargedAlready);
    const complete = wanted.every((b) => byseq.get(b.seq)?.status === 'done' || byseq.get(b.seq)?.status === 'failed');
    // A page with images is not kept for everyone: its image URLs are signed for this reader and expire.
    if (complete && images.size === 0) {
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

  /** Charges a complete page once (fresh engine work and memory hits priced apart). */
  async settle(
    user: UserRow,
    bookId: number,
    code: string,
    lang: string,
    page: number,
    wanted: BlockRow[],
    rows: Map<number, TranslationRow>,
    knownCharged = false,
  ): Promise<{ points: number; charged: boolean }> {
    const key = pageChargeKey(bookId, lang, page);
    const complete = wanted.every((b) => rows.get(b.seq)?.status === 'done' || rows.get(b.seq)?.status === 'failed');
    const { points, fresh, cached } = await this.priceOf(chargeableOf(wanted, rows), user.id);
    if (knownCharged || (await this.isCharged(user.id, key))) return { points, charged: true };
    if (!complete || points === 0) return { points, charged: false };
    try {
      await this.d.points.spend(user.id, {
        points,
        reason: 'translation',
        idempotencyKey: key,
        detail: { bookCode: code, page, language: lang, freshCharacters: fresh, cachedCharacters: cached },
      });
      return { points, charged: true };
    } catch (error) {
      // Read but not paid (the balance ran out meanwhile): the next page will ask for points first.
      this.d.logger.info({ userId: user.id, bookId, page, err: error }, 'page charge failed');
      return { points, charged: false };
    }
  }

  /** Engine work done for this reader at the translation price, memory hits at the cached price. */
  private async priceOf(
    blocks: Chargeable[],
    userId: number,
  ): Promise<{ points: number; fresh: number; cached: number }> {
    const prices = await this.d.points.prices();
    let fresh = 0;
    let cached = 0;
    for (const block of blocks) {
      if (!block.fromMemory && block.requestedBy === userId) fresh += block.chars;
      else cached += block.chars;
    }
    return {
      points: Math.ceil((fresh * prices.translation + cached * prices.translationCached) / 1000),
      fresh,
      cached,
    };
  }

  private async pointsFor(blocks: Chargeable[], userId: number): Promise<number> {
    return (await this.priceOf(blocks, userId)).points;
  }

  private async quote(
    wanted: BlockRow[],
    have: Map<number, TranslationRow>,
    userId: number,
  ): Promise<{ points: number; characters: number }> {
    const prices = await this.d.points.prices();
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

  private async prepareAhead(
    bookId: number,
    lang: string,
    page: number,
    pageCount: number,
    userId: number,
  ): Promise<void> {
    if (page > pageCount) return;
    // Once a page has been prepared in this process, asking again only costs queries.
    const key = `${bookId}:${lang}:${page}`;
    if (this.prepared.has(key)) return;
    if (this.prepared.size > 10_000) this.prepared.clear();
    this.prepared.add(key);
    const blocks = (await this.repo.pageBlocks(bookId, page)).filter(isTranslatable);
    if (
      (await this.repo.requestPending(
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
  private startNow(bookId: number, lang: string, page: number): void {
    void this.enqueue(bookId, lang, page, 30).catch((error) =>
      this.d.logger.warn({ err: error }, 'could not queue the backup translation job'),
    );
    void this.translatePage(bookId, lang, page).catch((error) =>
      this.d.logger.warn({ bookId, lang, page, err: error }, 'page translation failed'),
    );
  }

  private present(
    block: BlockRow,
    row: TranslationRow | undefined,
    translatable: boolean,
    images: Map<string, string>,
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
      imageUrl: block.image_id ? (images.get(block.image_id) ?? null) : null,
      noteLabel: block.note_label,
      noteRefs: block.note_refs,
      pdfPage: block.pdf_page,
    };
  }

  /**
   * The worker's side: translates the claimed blocks of a page, memory first, then the engines in
   * small concurrent batches (the first block alone, so that it arrives first), announcing each batch.
   */
  async translatePage(bookId: number, lang: string, page: number): Promise<void> {
    const book = await this.d.books.repo.findBookById(bookId);
    if (!book) return;
    const claimed = (await this.repo.claimPending(bookId, lang, page)).filter(isTranslatable);
    if (claimed.length === 0) return;
    const from = book.original_language ?? 'auto';
    const to = lang as LanguageCode;
    const topic = translationTopic(bookId, lang);
    // The engine the reader who asked for the page prefers goes first.
    const requester = claimed.find((b) => b.requested_by !== null)?.requested_by;
    const preferred = requester
      ? (
          await this.d.db
            .selectFrom('users')
            .select('translation_engine')
            .where('id', '=', requester)
            .executeTakeFirst()
        )?.translation_engine
      : null;

    const glossary = await this.d.glossary.entries(bookId, lang);
    const memory = await this.d.translation.fromMemory(
      claimed.map(sourceOf),
      from,
      to,
      book.glossary_version,
      preferred,
    );
    const hits = claimed.filter((b) => memory.has(sourceHashOf(b)));
    if (hits.length > 0) {
      await this.repo.saveDone(
        bookId,
        lang,
        hits.map((b) => ({ seq: b.seq, ...memory.get(sourceHashOf(b))!, fromMemory: true })),
      );
      await notify(this.d.db, topic, { page, seqs: hits.map((b) => b.seq) });
      await notify(this.d.db, PAGES_TOPIC, { bookId, lang, page });
    }
    const rest = claimed.filter((b) => !memory.has(sourceHashOf(b)));
    const parallel = Math.max(1, this.d.translation.concurrencyFor(preferred) - 1);
    const size = Math.min(MAX_BATCH_BLOCKS, Math.max(1, Math.ceil((rest.length - FIRST_BATCH) / parallel)));
    const batches = rest.length > 0 ? [rest.slice(0, FIRST_BATCH), ...chunk(rest.slice(FIRST_BATCH), size)] : [];
    // While the engines work, the claim stays this worker's; if the process dies, it lapses in 30 s.
    const lease = setInterval(
      () =>
        void this.repo
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
              glossaryVersion: book.glossary_version,
              preferred,
              glossary,
            });
            await this.repo.saveDone(
              bookId,
              lang,
              batch.map((b, i) => ({ seq: b.seq, ...results[i]! })),
            );
          } catch (error) {
            this.d.logger.warn({ bookId, lang, page, err: error }, 'translation batch failed');
            await this.repo.saveFailed(
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

const sourceHashOf = (block: BlockRow) => sourceHash(sourceOf(block));

export const pageChargeKey = (bookId: number, lang: string, page: number) => `page:${bookId}:${lang}:${page}`;

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
