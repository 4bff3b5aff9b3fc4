import type { BookRow } from '../../db/schema.ts';
import type { PointsService } from '../points/points.service.ts';
import { pageChargeKey } from '../reader/page-charges.ts';
import { isTranslatable, sourceOf } from '../reader/page-translator.ts';
import type { GlossaryService } from '../translation/glossary.service.ts';
import type { TranslationService } from '../translation/translation.service.ts';
import { sourceHash } from '../translation/translation.service.ts';
import type { BookTranslationRepo, QuoteBlockRow } from './book-translation.repo.ts';

/** Pages read per query while quoting (a 30 MB book is quoted a few hundred kilobytes at a time). */
const QUOTE_PAGES = 200;

export interface Prices {
  translation: number;
  translationCached: number;
}

export interface Quote {
  points: number;
  freshCharacters: number;
  cachedCharacters: number;
  /** Pages the reader has not paid for (nor is paying for), with text to translate. */
  pagesToPay: number;
  /** Paragraphs with no finished translation, on any page. */
  paragraphsToTranslate: number;
}

/**
 * What translating the rest of a book costs a reader, priced exactly as opening each page would
 * (page-charges.ts): per page, rounded up once, engine work at `translation` and the rest — text
 * translated already by someone else, or in the shared memory — at `translationCached`. Text not
 * translated yet is priced as engine work unless the memory holds it. Pages the reader paid for, or is
 * paying for (an open page's hold), are left out: a page is charged once, whoever charges it.
 */
export async function quoteBook(
  deps: {
    repo: BookTranslationRepo;
    points: PointsService;
    translation: TranslationService;
    glossary: GlossaryService;
  },
  input: { userId: number; book: BookRow; lang: string; prices: Prices; preferredEngine: string | null },
): Promise<Quote> {
  const { book, lang, userId, prices } = input;
  const glossary = await deps.glossary.entries(book.id, lang);
  const keys = Array.from({ length: book.page_count }, (_, i) => pageChargeKey(book.id, lang, i + 1));
  const paid = new Set([
    ...(await deps.points.chargedKeys(userId, keys)),
    ...(await deps.points.liveHoldKeys(userId, keys)),
  ]);
  const quote: Quote = { points: 0, freshCharacters: 0, cachedCharacters: 0, pagesToPay: 0, paragraphsToTranslate: 0 };
  for (let from = 1; from <= book.page_count; from += QUOTE_PAGES) {
    const rows = (await deps.repo.quoteBlocks(book.id, lang, from, from + QUOTE_PAGES - 1)).filter(isTranslatable);
    const untranslated = rows.filter((r) => r.status !== 'done');
    quote.paragraphsToTranslate += untranslated.length;
    const unpaid = untranslated.filter((r) => !paid.has(pageChargeKey(book.id, lang, r.page)));
    const memory = await deps.translation.fromMemory(unpaid.map(sourceOf), book.original_language ?? 'auto', lang, {
      preferred: input.preferredEngine,
      glossary,
    });
    const pages = new Map<number, QuoteBlockRow[]>();
    for (const row of rows) {
      if (paid.has(pageChargeKey(book.id, lang, row.page))) continue;
      pages.set(row.page, [...(pages.get(row.page) ?? []), row]);
    }
    for (const blocks of pages.values()) {
      let fresh = 0;
      let cached = 0;
      for (const block of blocks) {
        // Done: engine work for this reader is priced as such; to do: engine work unless the memory has it.
        const engineWork =
          block.status === 'done'
            ? !block.from_memory && block.requested_by === userId
            : !memory.has(sourceHash(sourceOf(block)));
        if (engineWork) fresh += block.text.length;
        else cached += block.text.length;
      }
      quote.points += Math.ceil((fresh * prices.translation + cached * prices.translationCached) / 1000);
      quote.freshCharacters += fresh;
      quote.cachedCharacters += cached;
      quote.pagesToPay += 1;
    }
  }
  return quote;
}
