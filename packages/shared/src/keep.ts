import { z } from 'zod';

/**
 * A book to keep (issue 20): the whole book translated on request, paid against one quote, and
 * exported as an EPUB with the original and its translation, or the translation alone.
 */

export const EXPORT_MODES = ['bilingual', 'translated'] as const;
export type ExportMode = (typeof EXPORT_MODES)[number];

const bookAndLanguage = {
  bookCode: z.string().min(1).max(40),
  /** Target language: a code (zh, en, jp...) or an English name. */
  language: z.string().min(1).max(40),
};

export const ExportQuery = z.object({ ...bookAndLanguage, mode: z.enum(EXPORT_MODES).default('bilingual') });
export type ExportQuery = z.infer<typeof ExportQuery>;

export const BookTranslationQuery = z.object(bookAndLanguage);
export type BookTranslationQuery = z.infer<typeof BookTranslationQuery>;

/** What translating the rest of a book costs this reader (pages they paid for already are left out). */
export const BookTranslationQuote = z.object({
  language: z.string(),
  /** The price, held when the reader confirms and charged page by page as pages are finished. */
  points: z.number(),
  /** Characters to be translated by an engine (at the translation price)… */
  freshCharacters: z.number(),
  /** …and characters already translated or in the shared memory (at the cached price). */
  cachedCharacters: z.number(),
  pageCount: z.number(),
  /** Pages this reader has not paid for yet (the ones the price covers). */
  pagesToPay: z.number(),
  /** Paragraphs with no finished translation yet, on any page. */
  paragraphsToTranslate: z.number(),
  /** Points the reader can spend now (balance less points held for running actions). */
  available: z.number(),
});
export type BookTranslationQuote = z.infer<typeof BookTranslationQuote>;

export const StartBookTranslationBody = z.object({
  ...bookAndLanguage,
  /** The quoted price the reader confirmed; a higher price now answers a new quote instead. */
  points: z.number().int().min(0),
});
export type StartBookTranslationBody = z.infer<typeof StartBookTranslationBody>;

export const BOOK_TRANSLATION_STATES = ['running', 'done', 'cancelled', 'failed'] as const;

export const BookTranslationStatus = z.object({
  id: z.number(),
  language: z.string(),
  state: z.enum(BOOK_TRANSLATION_STATES),
  pageCount: z.number(),
  pagesDone: z.number(),
  /** 0-100. */
  percent: z.number(),
  /** Points reserved at the start (the confirmed quote). */
  pointsReserved: z.number(),
  /** Points charged so far, page by page; the rest is released when the translation ends. */
  pointsCharged: z.number(),
  /** Paragraphs the engines could not translate (free; the reader can retry them). */
  failedParagraphs: z.number(),
  /** Why a failed translation stopped (an error key). */
  errorKey: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BookTranslationStatus = z.infer<typeof BookTranslationStatus>;
