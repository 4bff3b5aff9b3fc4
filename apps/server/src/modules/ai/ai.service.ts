import { randomUUID } from 'node:crypto';
import {
  findLanguage,
  type AiAnnotation,
  type AiFeature,
  type AnnotateResult,
  type ExplainBody,
  type RestateBody,
  type SearchResult,
} from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { BookRow, UserRow } from '../../db/schema.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import type { LlmClient } from '../../engines/llm/types.ts';
import type { GlossaryTerm } from '../../engines/translation/types.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import type { Hold, PointsService, PricedAction } from '../points/points.service.ts';
import { AiRepo } from './ai.repo.ts';
import { parseAnnotations } from './model-text.ts';
import { annotatePrompt, explainPrompt, restatePrompt, searchPrompt, type PassageContext } from './prompts.ts';
import { PassageSearch } from './search.service.ts';

export type Charge = { points: number; charged: boolean };
export type AiEvent = { delta: string } | { done: { text: string; charge: Charge } };

interface Deps {
  db: Db;
  books: BooksService;
  points: PointsService;
  logger: Logger;
  /** The model of a use as configured now (admins change it at run time); undefined: none is set. */
  llm: (use: 'explanation' | 'annotation') => LlmClient | undefined;
  /** The book's glossary entries (in a reader language) occurring in some texts, for the prompts. */
  glossaryTerms?: (bookId: number, language: string, texts: string[]) => Promise<GlossaryTerm[]>;
}

/**
 * A paid AI answer about to be made (its price held; no hold when the price is 0), or one the same
 * request id already paid for, whose answer is given again instead of a new one.
 */
type Purchase =
  { hold: Hold | undefined; price: number; paid?: undefined } | { hold?: undefined; paid: Hold; price: number };

/**
 * The AI reading aids: explanations, restatements, page annotations and intelligent search. Each is
 * priced: the price is held before the model is asked, charged when the answer is complete, and
 * given back when the model fails or has nothing to say. A request id buys one answer: retried, it
 * gets the same answer again, never a second one.
 */
export class AiService {
  private readonly d: Deps;
  private readonly repo: AiRepo;
  private readonly passages: PassageSearch;
  constructor(deps: Deps) {
    this.d = deps;
    this.repo = new AiRepo(deps.db);
    this.passages = new PassageSearch(deps.db);
  }

  private llm(use: 'explanation' | 'annotation' = 'explanation'): LlmClient {
    const client = this.d.llm(use);
    if (!client) throw fail('aiNotConfigured');
    return client;
  }

  /** Shared books carry only the features their links grant; the server refuses the others. */
  private async viewWith(user: UserRow, code: string, feature: AiFeature) {
    const view = await this.d.books.view(user, code);
    if (!view.features?.includes(feature)) throw fail('insufficientPermissions', { feature });
    return { ...view, title: view.copy?.title ?? view.book.title };
  }

  private language(code: string): string {
    const language = findLanguage(code);
    if (!language) throw fail('noSuchLanguage');
    return language.code;
  }

  /**
   * Holds the price of an answer (after the quote, in confirmation mode), or finds the answer this
   * request id already bought. `key` is bound to the user by the ledger, to the action here, and to
   * `content` by its fingerprint: the same id cannot buy other content.
   */
  private async purchase(
    user: UserRow,
    action: PricedAction,
    options: { key: string; content: unknown; confirm: boolean | undefined; detail: Record<string, unknown> },
  ): Promise<Purchase> {
    const key = `${action}:${options.key}`;
    const content = { action, ...(options.content as object) };
    const earlier = await this.d.points.earlierPurchase(user.id, key, content);
    if (earlier) return this.bought(earlier);
    const price = (await this.d.points.prices())[action];
    if (price <= 0) return { hold: undefined, price };
    await this.d.points.assertConfirmed(user.id, price, options.confirm ?? false, { action });
    const { hold, created } = await this.d.points.reserve(user.id, {
      action,
      key,
      content,
      points: price,
      detail: options.detail,
    });
    return created ? { hold, price } : this.bought(hold);
  }

  /** A purchase the key made before: its answer when it was paid, else it is still being answered. */
  private bought(hold: Hold): Purchase {
    if (hold.status !== 'settled') throw fail('requestInProgress');
    return { paid: hold, price: hold.points };
  }

  /** Charges a held answer that was delivered; the answer is kept for a retried request. */
  private async settle(purchase: Purchase, result: unknown): Promise<Charge> {
    if (purchase.paid || !purchase.hold) return { points: purchase.price, charged: purchase.paid !== undefined };
    const charged = await this.d.points.settle(purchase.hold, purchase.price, { result });
    if (!charged) this.d.logger.warn({ holdId: purchase.hold.id }, 'an AI hold was resolved before its answer was');
    return { points: purchase.price, charged };
  }

  /** Gives the held points back (no answer, or nothing in it); a settled hold is left as it is. */
  private async release(purchase: Purchase): Promise<void> {
    if (purchase.hold) await this.d.points.release(purchase.hold);
  }

  /** The block and its neighbours, for context. */
  private async passage(book: BookRow, blockId: string): Promise<PassageContext & { seq: number; page: number }> {
    const block = await this.repo.block(book.id, blockId);
    if (!block) throw fail('notFound', { blockId });
    const [around, chapterTitle] = await Promise.all([
      this.repo.texts(book.id, [block.seq - 1, block.seq + 1]),
      this.repo.chapterTitle(book.id, block.chapter_idx),
    ]);
    return {
      seq: block.seq,
      page: block.page,
      bookTitle: book.title,
      author: book.author,
      chapterTitle,
      bookLanguage: book.original_language ?? 'en',
      paragraph: block.text,
      before: around.find((a) => a.seq === block.seq - 1)?.text,
      after: around.find((a) => a.seq === block.seq + 1)?.text,
    };
  }

  /** Streams an explanation (or an advanced one) of a selection, then charges it. */
  async *explain(user: UserRow, body: ExplainBody): AsyncGenerator<AiEvent> {
    const llm = this.llm();
    const action: PricedAction = body.advanced ? 'advancedExplanation' : 'explanation';
    const { book, title } = await this.viewWith(user, body.bookCode, action as AiFeature);
    const language = this.language(body.language);
    const ctx = await this.passage(book, body.blockId);
    ctx.terms = await this.d.glossaryTerms?.(book.id, language, [ctx.paragraph, body.selection]);
    const purchase = await this.purchase(user, action, {
      key: body.requestId ?? randomUUID(),
      content: { bookId: book.id, blockId: body.blockId, selection: body.selection, language },
      confirm: body.confirm,
      detail: { bookCode: book.code, bookTitle: title, page: ctx.page, language, blockId: body.blockId },
    });
    yield* this.paidStream(
      purchase,
      llm,
      explainPrompt(ctx, body.selection, language, body.advanced),
      body.advanced ? 900 : 400,
    );
  }

  /** Streams a simpler rewording of a selection, in the selection's own language, then charges it. */
  async *restate(user: UserRow, body: RestateBody): AsyncGenerator<AiEvent> {
    const llm = this.llm();
    const { book, title } = await this.viewWith(user, body.bookCode, 'restatement');
    const language = this.language(body.language);
    const ctx = await this.passage(book, body.blockId);
    // A selection made in the original text is reworded in the book's language, one made in the translation in the reader's.
    const selectionLanguage = ctx.paragraph.includes(body.selection.slice(0, 40)) ? ctx.bookLanguage : language;
    // The glossary renders the book's names in the reader's language: of use when the rewording is in it.
    if (selectionLanguage === language)
      ctx.terms = await this.d.glossaryTerms?.(book.id, language, [ctx.paragraph, body.selection]);
    const purchase = await this.purchase(user, 'restatement', {
      key: body.requestId ?? randomUUID(),
      content: { bookId: book.id, blockId: body.blockId, selection: body.selection, language, level: body.level },
      confirm: body.confirm,
      detail: { bookCode: book.code, bookTitle: title, page: ctx.page, language, blockId: body.blockId },
    });
    yield* this.paidStream(purchase, llm, restatePrompt(ctx, body.selection, selectionLanguage, body.level), 800);
  }

  /**
   * Streams a held answer and settles it once complete. Released when the model fails, answers
   * nothing, or the reader goes away before the end (the generator is returned early).
   */
  private async *paidStream(
    purchase: Purchase,
    llm: LlmClient,
    messages: Parameters<LlmClient['stream']>[0],
    maxTokens: number,
  ): AsyncGenerator<AiEvent> {
    if (purchase.paid) {
      const { text } = purchase.paid.result as { text: string };
      yield { delta: text };
      yield { done: { text, charge: { points: purchase.price, charged: true } } };
      return;
    }
    let settled = false;
    try {
      const text = yield* this.streamAnswer(llm, messages, maxTokens);
      if (text === '') {
        yield { done: { text, charge: { points: purchase.price, charged: false } } };
        return;
      }
      const charge = await this.settle(purchase, { text });
      settled = true;
      yield { done: { text, charge } };
    } finally {
      if (!settled) await this.release(purchase);
    }
  }

  private async *streamAnswer(
    llm: LlmClient,
    messages: Parameters<LlmClient['stream']>[0],
    maxTokens: number,
  ): AsyncGenerator<AiEvent, string> {
    let text = '';
    try {
      for await (const event of llm.stream(messages, { maxTokens, temperature: 0.3 })) {
        if ('delta' in event) {
          text += event.delta;
          yield { delta: event.delta };
        }
      }
    } catch (error) {
      if (error instanceof EngineError) {
        this.d.logger.warn({ kind: error.kind, err: error.message }, 'AI request failed');
        throw fail('aiUnavailable', { reason: error.kind });
      }
      throw error;
    }
    return text.trim();
  }

  /**
   * Notes for the hard words, names, idioms and allusions of a page, shared by all its readers. Paid
   * once per reader, page and language; a page where the model found nothing to note costs nothing.
   */
  async annotate(
    user: UserRow,
    body: { bookCode: string; language: string; page: number; confirm?: boolean | undefined },
  ): Promise<AnnotateResult> {
    const llm = this.llm('annotation');
    const { book, title } = await this.viewWith(user, body.bookCode, 'annotation');
    const language = this.language(body.language);
    const blocks = await this.repo.textBlocksOfPage(book.id, body.page);
    if (blocks.length === 0) throw fail('notFound', { page: body.page });
    const purchase = await this.purchase(user, 'annotation', {
      key: `${book.id}:${language}:${body.page}`,
      content: { bookId: book.id, language, page: body.page },
      confirm: body.confirm,
      detail: { bookCode: book.code, bookTitle: title, page: body.page, language },
    });
    let notes: AiAnnotation[];
    try {
      notes = await this.pageNotes(llm, book, blocks, body.page, language);
    } catch (error) {
      await this.release(purchase);
      throw error;
    }
    if (notes.length === 0) {
      await this.release(purchase);
      return { annotations: notes, charge: { points: purchase.price, charged: purchase.paid !== undefined } };
    }
    return { annotations: notes, charge: await this.settle(purchase, null) };
  }

  /** A page's notes: shared by every reader of the page once made; an empty answer is not kept. */
  private async pageNotes(
    llm: LlmClient,
    book: BookRow,
    blocks: Awaited<ReturnType<AiRepo['textBlocksOfPage']>>,
    page: number,
    language: string,
  ): Promise<AiAnnotation[]> {
    const cached = (await this.repo.annotations(book.id, page, language, llm.model)) as AiAnnotation[] | undefined;
    if (cached) return cached;
    let answer;
    try {
      answer = await llm.complete(
        annotatePrompt(
          {
            bookTitle: book.title,
            author: book.author,
            chapterTitle: await this.repo.chapterTitle(book.id, blocks[0]!.chapter_idx),
            bookLanguage: book.original_language ?? 'en',
            terms: await this.d.glossaryTerms?.(
              book.id,
              language,
              blocks.map((b) => b.text),
            ),
          },
          blocks.map((b) => b.text),
          language,
        ),
        { responseFormat: 'json', maxTokens: 1500, temperature: 0.2 },
      );
    } catch (error) {
      if (error instanceof EngineError) throw fail('aiUnavailable', { reason: error.kind });
      throw error;
    }
    const notes = parseAnnotations(answer.text, blocks);
    if (notes.length > 0) await this.repo.saveAnnotations(book.id, page, language, llm.model, notes);
    return notes;
  }

  /**
   * Search over the book (original and translation, CJK included), best passages first with their
   * counts and highlights, and optionally an AI answer grounded in the best of them.
   */
  async search(
    user: UserRow,
    body: {
      bookCode: string;
      language: string;
      query: string;
      ai: boolean;
      confirm?: boolean | undefined;
      requestId?: string | undefined;
    },
  ): Promise<SearchResult> {
    const { book, title } = await this.viewWith(user, body.bookCode, 'search');
    const language = this.language(body.language);
    const llm = body.ai ? this.llm() : undefined;
    const purchase = llm
      ? await this.purchase(user, 'search', {
          key: body.requestId ?? randomUUID(),
          content: { bookId: book.id, query: body.query, language },
          confirm: body.confirm,
          detail: { bookCode: book.code, bookTitle: title, language, query: body.query.slice(0, 100) },
        })
      : undefined;
    try {
      const { hits, stats, passages } = await this.passages.find(book, language, body.query);
      if (!llm || !purchase) return { hits, stats, answer: null, charge: null };
      if (purchase.paid) {
        const { answer } = purchase.paid.result as Pick<SearchResult, 'answer'>;
        return { hits, stats, answer, charge: { points: purchase.price, charged: true } };
      }
      // The model reads the passage as written, and the translation where the question matched that.
      const context = passages.slice(0, 8).map((p) => ({
        block_id: p.candidate.blockId,
        page: p.candidate.page,
        text: p.inTranslation && p.translationText ? `${p.candidate.text}\n(${p.translationText})` : p.candidate.text,
      }));
      const answer = await this.searchAnswer(llm, book.title, body.query, context, language);
      if (answer.text === '') {
        await this.release(purchase);
        return { hits, stats, answer, charge: { points: purchase.price, charged: false } };
      }
      return { hits, stats, answer, charge: await this.settle(purchase, { answer }) };
    } catch (error) {
      if (purchase) await this.release(purchase);
      throw error;
    }
  }

  private async searchAnswer(
    llm: LlmClient,
    bookTitle: string,
    query: string,
    passages: { block_id: string; page: number; text: string }[],
    language: string,
  ): Promise<NonNullable<SearchResult['answer']>> {
    let answer;
    try {
      answer = await llm.complete(
        searchPrompt(
          bookTitle,
          query,
          passages.map((p) => p.text),
          language,
        ),
        { maxTokens: 700, temperature: 0.2 },
      );
    } catch (error) {
      if (error instanceof EngineError) throw fail('aiUnavailable', { reason: error.kind });
      throw error;
    }
    const cited = [...new Set([...answer.text.matchAll(/\[(\d{1,2})\]/g)].map((m) => Number(m[1])))].filter(
      (n) => n >= 1 && n <= passages.length,
    );
    return {
      text: answer.text.trim(),
      citations: cited.map((n) => ({ n, blockId: passages[n - 1]!.block_id, page: passages[n - 1]!.page })),
    };
  }
}
