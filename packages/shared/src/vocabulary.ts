import { INT4_MAX } from './validation.ts';
import { z } from 'zod';
import { ClientId } from './marks.ts';

/**
 * Words to learn: a word or phrase looked up where it stands in a book, saved with its sentence to a
 * vocabulary book, reviewed on a spaced-repetition schedule and exported for Anki; and the reading
 * statistics (time read, pages, lookups, days read) the personal center shows.
 */

const Charge = z.object({ points: z.number(), charged: z.boolean() });

/** POST /reader/lookup: a word or phrase of a book, with the sentence it stands in. */
export const LookupBody = z.object({
  bookCode: z.string().min(1).max(40),
  /** The reader's language: the meaning is given in it (a code or an English name). */
  language: z.string().min(1).max(40),
  /** The word or phrase as selected (a phrase of a few words at most). */
  text: z.string().trim().min(1).max(100),
  /** The sentence it stands in, for its meaning in context ('' when there is none). */
  sentence: z.string().trim().max(1000).default(''),
  /** 'deductAfterConfirmation' users confirm the quoted price. */
  confirm: z.boolean().optional(),
  /** Names one purchase: a retried request gets the answer it paid for again, never a second charge. */
  requestId: z.string().min(8).max(64).optional(),
});
export type LookupBody = z.input<typeof LookupBody>;

/** Where an entry came from: the LLM (meaning in context) or a translation engine's dictionary. */
export const LOOKUP_SOURCES = ['llm', 'microsoft'] as const;

/** A dictionary entry for a word in its sentence. */
export const LookupEntry = z.object({
  /** The word or phrase looked up, as it stands. */
  text: z.string(),
  /** Its dictionary form when it differs ("went" → "go"), else ''. */
  lemma: z.string(),
  /** What it means here, in the reader's language. */
  meaning: z.string(),
  /** How it is said: IPA, pinyin, romaji…; '' when unknown. */
  pronunciation: z.string(),
  /** noun, verb… in the reader's language; '' when unknown. */
  partOfSpeech: z.string(),
  /** A short line of usage in the book's language, and its translation. */
  usage: z.string(),
  usageTranslation: z.string(),
  /** Other meanings the word has (a dictionary's other translations), at most a few. */
  alternatives: z.array(z.string()),
  source: z.enum(LOOKUP_SOURCES),
});
export type LookupEntry = z.infer<typeof LookupEntry>;

export const LookupResult = z.object({
  entry: LookupEntry,
  /** Whether this answer came from the shared cache (priced as cached work). */
  cached: z.boolean(),
  charge: Charge,
});
export type LookupResult = z.infer<typeof LookupResult>;

/**
 * The review schedule: Leitner boxes. A new word is in box 0 (due now); "known" moves it up a box and
 * it comes back after that box's interval; "again" sends it back to box 1, due again today.
 */
export const REVIEW_INTERVAL_DAYS = [0, 1, 3, 7, 14, 30, 60, 120] as const;
export const REVIEW_RESULTS = ['known', 'again'] as const;
export type ReviewResult = (typeof REVIEW_RESULTS)[number];

export const VocabularyWord = z.object({
  id: z.number(),
  text: z.string(),
  lemma: z.string(),
  meaning: z.string(),
  pronunciation: z.string(),
  partOfSpeech: z.string(),
  usage: z.string(),
  /** The reader's own note. */
  note: z.string(),
  sentence: z.string(),
  /** The language of the word (the book's), and the one its meaning is in (the reader's). */
  sourceLanguage: z.string(),
  language: z.string(),
  bookCode: z.string(),
  bookTitle: z.string(),
  chapterTitle: z.string(),
  /** Where it stands: the block and the offsets of the word in its text (null when not known). */
  blockId: z.string(),
  page: z.number(),
  start: z.number().nullable(),
  end: z.number().nullable(),
  box: z.number(),
  dueAt: z.string(),
  reviews: z.number(),
  lapses: z.number(),
  lastReviewedAt: z.string().nullable(),
  createdAt: z.string(),
  /** When the reader sent the word to Anki (from any of their devices); null when never. */
  ankiSentAt: z.string().nullable(),
});
export type VocabularyWord = z.infer<typeof VocabularyWord>;

/** POST /vocabulary: save a looked-up word where it stands. Saving it again keeps the first one. */
export const SaveWordBody = z.object({
  clientId: ClientId,
  bookCode: z.string().min(1).max(40),
  language: z.string().min(1).max(40),
  text: z.string().trim().min(1).max(100),
  sentence: z.string().trim().max(1000).default(''),
  blockId: z.string().min(1).max(40),
  start: z.number().int().min(0).max(INT4_MAX).nullable().optional(),
  end: z.number().int().min(0).max(INT4_MAX).nullable().optional(),
  lemma: z.string().trim().max(100).default(''),
  meaning: z.string().trim().max(1000).default(''),
  pronunciation: z.string().trim().max(200).default(''),
  partOfSpeech: z.string().trim().max(60).default(''),
  usage: z.string().trim().max(1000).default(''),
  note: z.string().trim().max(2000).default(''),
});
export type SaveWordBody = z.input<typeof SaveWordBody>;

export const EditWordBody = z.object({
  meaning: z.string().trim().max(1000).optional(),
  pronunciation: z.string().trim().max(200).optional(),
  note: z.string().trim().max(2000).optional(),
});

export const VocabularyQuery = z.object({
  bookCode: z.string().min(1).max(40).optional(),
  /** Only the words due for review now. */
  due: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});

export const VocabularyPage = z.object({
  items: z.array(VocabularyWord),
  total: z.number(),
  /** Words due for review now (in the filter's book, or in all). */
  due: z.number(),
  /** Every book the user saved words from, with how many. */
  books: z.array(z.object({ bookCode: z.string(), bookTitle: z.string(), words: z.number() })),
});
export type VocabularyPage = z.infer<typeof VocabularyPage>;

export const ReviewBody = z.object({ result: z.enum(REVIEW_RESULTS) });

export const EXPORT_FORMATS = ['csv', 'tsv'] as const;
export const VocabularyExportQuery = z.object({
  format: z.enum(EXPORT_FORMATS).default('csv'),
  bookCode: z.string().min(1).max(40).optional(),
});

// ---------- reading statistics ----------

/** The reader sends a heartbeat this often while the reader is visible and in use. */
export const HEARTBEAT_SECONDS = 30;

/** POST /reader/activity: the reader was reading this page during the last heartbeat interval. */
export const ActivityBody = z.object({
  bookCode: z.string().min(1).max(40),
  page: z.number().int().min(1).max(INT4_MAX),
  /** The reader's IANA time zone ("Asia/Shanghai"): days are counted in it. */
  timeZone: z.string().max(64).optional(),
});

export const ReadingStats = z.object({
  /** The days the calendar covers (the last `days` days, today included), in the reader's time zone. */
  from: z.string(),
  to: z.string(),
  totalSeconds: z.number(),
  totalPages: z.number(),
  totalLookups: z.number(),
  daysRead: z.number(),
  /** Consecutive days read up to today (or yesterday, when today has nothing yet). */
  streak: z.number(),
  days: z.array(z.object({ date: z.string(), seconds: z.number(), pages: z.number(), lookups: z.number() })),
  books: z.array(
    z.object({
      bookCode: z.string(),
      bookTitle: z.string(),
      seconds: z.number(),
      pages: z.number(),
      lookups: z.number(),
      words: z.number(),
      lastReadAt: z.string(),
    }),
  ),
});
export type ReadingStats = z.infer<typeof ReadingStats>;

export const ReadingStatsQuery = z.object({
  days: z.coerce.number().int().min(7).max(366).default(182),
  timeZone: z.string().max(64).optional(),
});
