import { createHash, randomUUID } from 'node:crypto';
import { findLanguage, type LanguageCode, type LookupBody, type LookupEntry, type LookupResult } from '@yidu/shared';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { LlmClient } from '../../engines/llm/types.ts';
import { EngineError } from '../../engines/translation/errors.ts';
import { MicrosoftDictionary } from '../../engines/translation/microsoft-dictionary.ts';
import { MicrosoftEngine } from '../../engines/translation/microsoft.ts';
import { fail } from '../../http/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { BooksService } from '../books/books.service.ts';
import type { Hold, PointsService } from '../points/points.service.ts';
import type { TranslationService } from '../translation/translation.service.ts';
import { DictionaryLookup, LlmLookup, type LookupSource } from './lookup-sources.ts';
import { LookupRepo, type LookupKey } from './lookup.repo.ts';

interface Deps {
  db: Db;
  books: BooksService;
  points: PointsService;
  translation: TranslationService;
  logger: Logger;
  /** The explanation model as configured now (admins may change it without a restart). */
  llm: () => LlmClient | undefined;
  /** Counts a lookup in the reader's statistics (never fails the lookup). */
  onLookup?: (userId: number, bookId: number) => Promise<void>;
}

/** Same word, same sentence: whitespace and letter case of the word do not make a new entry. */
const fold = (text: string) => text.replace(/\s+/g, ' ').trim();
export const lookupKeyHash = (text: string, sentence: string): string =>
  createHash('sha256')
    .update(`${fold(text).toLowerCase()}\u0000${fold(sentence)}`)
    .digest('hex');

interface Answer {
  entry: LookupEntry;
  /** This request's engine call made the entry (else: the cache, or another request's call). */
  fresh: boolean;
}

/**
 * Looking a word up where it stands: its meaning in the reader's language for this sentence,
 * pronunciation and a line of usage. Entries are shared by everyone like translations (one engine
 * call per word, sentence and languages, even when many readers ask at once) and priced like an
 * explanation: the price is held before the work, settled when the entry is given, released when no
 * source could answer. An entry made by this request's engine call costs `lookup`; one from the
 * cache, or made meanwhile by another request, costs `lookupCached` (as translations from the
 * shared memory cost `translationCached`).
 */
export class LookupService {
  private readonly d: Deps;
  private readonly repo: LookupRepo;
  /** Engine calls under way in this process, by cache key: a concurrent lookup of the same word waits for it. */
  private readonly inFlight = new Map<string, Promise<Answer>>();
  constructor(deps: Deps) {
    this.d = deps;
    this.repo = new LookupRepo(deps.db);
  }

  /** The sources for a pair, best first: the LLM (meaning in context), then Microsoft's dictionary. */
  private sources(from: string, to: LanguageCode): LookupSource[] {
    const list: LookupSource[] = [];
    const llm = this.d.llm();
    if (llm) list.push(new LlmLookup(llm));
    const microsoft = this.d.translation.enabledEngine('microsoft');
    if (microsoft instanceof MicrosoftEngine) {
      const dictionary = new MicrosoftDictionary(microsoft);
      if (dictionary.supports(from, to)) list.push(new DictionaryLookup(dictionary));
    }
    return list;
  }

  private keyOf(source: LookupSource, text: string, sentence: string, from: string, to: string): LookupKey {
    return {
      keyHash: lookupKeyHash(text, source.readsSentence ? sentence : ''),
      from,
      to,
      engine: source.engine,
      model: source.model,
    };
  }

  async lookup(user: UserRow, raw: LookupBody): Promise<LookupResult> {
    const body = { ...raw, sentence: raw.sentence ?? '' };
    const view = await this.d.books.view(user, body.bookCode);
    // On a shared book the lookup is one of the explanations its link grants.
    if (!view.features?.includes('explanation')) throw fail('insufficientPermissions', { feature: 'explanation' });
    const to = findLanguage(body.language)?.code;
    if (!to) throw fail('noSuchLanguage');
    const from = view.book.original_language ?? 'en';
    const text = fold(body.text);
    const sentence = fold(body.sentence).slice(0, 1000);
    const sources = this.sources(from, to);
    if (sources.length === 0) throw fail('lookupUnavailable');
    const keys = sources.map((s) => this.keyOf(s, text, sentence, from, to));

    const prices = await this.d.points.prices();
    // The best source's entry, when there is one, is given from the cache at the cached price.
    const cached = await this.repo.cached(keys[0]!);
    const price = cached ? prices.lookupCached : prices.lookup;
    const key = `lookup:${body.requestId ?? randomUUID()}`;
    const content = { action: 'lookup', bookId: view.book.id, text, sentence, to };
    const earlier = await this.d.points.earlierPurchase(user.id, key, content);
    if (earlier) return this.again(earlier);
    let hold: Hold | undefined;
    if (price > 0) {
      await this.d.points.assertConfirmed(user.id, price, body.confirm ?? false, { action: 'lookup' });
      const reserved = await this.d.points.reserve(user.id, {
        action: 'lookup',
        key,
        content,
        points: price,
        detail: {
          bookCode: view.book.code,
          bookTitle: view.copy?.title ?? view.book.title,
          language: to,
          query: text.slice(0, 100),
        },
      });
      if (!reserved.created) return this.again(reserved.hold);
      hold = reserved.hold;
    }

    let answer: Answer;
    try {
      answer = cached
        ? { entry: cached, fresh: false }
        : await this.answer(sources, keys, { text, sentence, from, to });
    } catch (error) {
      if (hold) await this.d.points.release(hold);
      throw error;
    }
    const points = answer.fresh ? price : Math.min(price, prices.lookupCached);
    const result = { entry: answer.entry, cached: !answer.fresh };
    let charged = false;
    if (hold) charged = await this.d.points.settle(hold, points, { result });
    await this.d
      .onLookup?.(user.id, view.book.id)
      .catch((error: unknown) =>
        this.d.logger.warn({ err: error }, 'a lookup was not counted in the reading statistics'),
      );
    return { ...result, charge: { points, charged } };
  }

  /** What a request id already bought: its entry again (paid once), or requestInProgress. */
  private again(hold: Hold): LookupResult {
    if (hold.status !== 'settled') throw fail('requestInProgress');
    const { entry, cached } = hold.result as { entry: LookupEntry; cached: boolean };
    return { entry, cached, charge: { points: hold.points, charged: true } };
  }

  /**
   * Asks the sources in turn, best first, and keeps the first entry: a later source is asked only when
   * the ones before it failed, and its cached entry is taken first. A lookup of the same word already
   * under way in this process is waited for instead of asked again (the waiter's entry is not fresh).
   */
  private async answer(
    sources: LookupSource[],
    keys: LookupKey[],
    word: { text: string; sentence: string; from: string; to: LanguageCode },
  ): Promise<Answer> {
    const flight = keys.map((k) => `${k.engine}:${k.model}:${k.keyHash}:${k.from}:${k.to}`).join('|');
    const running = this.inFlight.get(flight);
    if (running) return { entry: (await running).entry, fresh: false };
    const work = this.ask(sources, keys, word);
    this.inFlight.set(flight, work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(flight);
    }
  }

  private async ask(
    sources: LookupSource[],
    keys: LookupKey[],
    word: { text: string; sentence: string; from: string; to: LanguageCode },
  ): Promise<Answer> {
    let failure: EngineError | undefined;
    let unknown = false;
    for (const [i, source] of sources.entries()) {
      try {
        const cached = i > 0 ? await this.repo.cached(keys[i]!) : undefined;
        if (cached) return { entry: cached, fresh: false };
        const entry = await source.lookup(word);
        if (!entry) {
          unknown = true;
          continue;
        }
        await this.repo.remember(keys[i]!, word.text, entry);
        return { entry, fresh: true };
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        this.d.logger.warn({ engine: source.engine, kind: error.kind, err: error.message }, 'a word lookup failed');
        failure = error;
      }
    }
    // A dictionary that answered does not know the word; else every source failed.
    throw unknown ? fail('wordNotFound') : fail('lookupUnavailable', failure ? { reason: failure.kind } : {});
  }
}
