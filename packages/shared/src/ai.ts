import { INT4_MAX } from './validation.ts';
import { z } from 'zod';

/** The AI reading aids (SPEC §1 Reading); each is a priced action of the points table. */
export const AI_FEATURES = ['annotation', 'explanation', 'advancedExplanation', 'restatement', 'search'] as const;
export type AiFeature = (typeof AI_FEATURES)[number];

const Common = {
  bookCode: z.string().min(1).max(40),
  /** The reader's language: answers are written in it (a code or an English name). */
  language: z.string().min(1).max(40),
  /** 'deductAfterConfirmation' users confirm the quoted price. */
  confirm: z.boolean().optional(),
  /**
   * Names one purchase: a retried request with the same id gets the answer it paid for again (or
   * requestInProgress while it is being made), never a second answer; another request with it is refused.
   */
  requestId: z.string().min(8).max(64).optional(),
  /** false: one JSON answer instead of server-sent events. */
  stream: z.boolean().default(true),
};

/** Explanation or advanced explanation of a selection, with its paragraph as context. */
export const ExplainBody = z.object({
  ...Common,
  blockId: z.string().min(1).max(40),
  selection: z.string().trim().min(1).max(2000),
  advanced: z.boolean().default(false),
});
export type ExplainBody = z.infer<typeof ExplainBody>;

export const RESTATEMENT_LEVELS = ['simple', 'intermediate', 'advanced'] as const;
export const RestateBody = z.object({
  ...Common,
  blockId: z.string().min(1).max(40),
  selection: z.string().trim().min(1).max(4000),
  /** How simple the rewording is: simple ≈ CEFR A2 / HSK 3, intermediate ≈ B1-B2, advanced ≈ C1. */
  level: z.enum(RESTATEMENT_LEVELS).default('simple'),
});
export type RestateBody = z.infer<typeof RestateBody>;

/** Final JSON answer of explain/restate (and the `done` event of their stream). */
export const AiAnswer = z.object({
  text: z.string(),
  charge: z.object({ points: z.number(), charged: z.boolean() }),
});
export type AiAnswer = z.infer<typeof AiAnswer>;

export const ANNOTATION_KINDS = ['word', 'name', 'idiom', 'allusion', 'grammar', 'other'] as const;
export const AiAnnotation = z.object({
  blockId: z.string(),
  /** The words in the original text the note is about, as they appear there. */
  term: z.string(),
  kind: z.enum(ANNOTATION_KINDS),
  note: z.string(),
  /** Character offsets of `term` in the block's text, or -1 when not found verbatim. */
  start: z.number(),
  end: z.number(),
});
export type AiAnnotation = z.infer<typeof AiAnnotation>;

export const AnnotateBody = z.object({
  bookCode: Common.bookCode,
  language: Common.language,
  page: z.number().int().min(1).max(INT4_MAX),
  confirm: Common.confirm,
});
export const AnnotateResult = z.object({
  annotations: z.array(AiAnnotation),
  charge: z.object({ points: z.number(), charged: z.boolean() }),
});
export type AnnotateResult = z.infer<typeof AnnotateResult>;

export const SearchBody = z.object({
  bookCode: Common.bookCode,
  language: Common.language,
  query: z.string().trim().min(1).max(500),
  /** Also ask the AI for an answer grounded in the passages found (priced). */
  ai: z.boolean().default(false),
  confirm: Common.confirm,
  requestId: Common.requestId,
});
/** A stretch of a snippet that matched the question: [start, end) in UTF-16 code units, as JavaScript counts. */
export const SearchHighlight = z.object({
  start: z.number().int().min(0).max(INT4_MAX),
  end: z.number().int().min(0).max(INT4_MAX),
});
export type SearchHighlight = z.infer<typeof SearchHighlight>;
export const SearchHit = z.object({
  blockId: z.string(),
  page: z.number(),
  chapterTitle: z.string(),
  /** The paragraph's place in the book (to list hits in reading order). */
  position: z.number().int(),
  /** The matching passage (original text; the translation when the question matched that better), as plain text. */
  snippet: z.string(),
  /** Where the snippet matched, in order; the client marks these ranges and escapes everything. */
  highlights: z.array(SearchHighlight),
  /** Matches in the whole paragraph, original and translation. */
  occurrences: z.number().int(),
  inTranslation: z.boolean(),
});
export type SearchHit = z.infer<typeof SearchHit>;
export const SearchStats = z.object({
  /** Paragraphs of the book that match, and the matches in them. */
  passages: z.number().int(),
  occurrences: z.number().int(),
  /** The words searched for (CJK ones by their character pairs), each with its own counts. */
  keywords: z.array(z.object({ keyword: z.string(), passages: z.number().int(), occurrences: z.number().int() })),
  /** Words of the question left out as too common ("who", "is", "是谁"). */
  ignored: z.array(z.string()),
  /** So many paragraphs matched that only the first ones (in book order) were ranked and counted. */
  truncated: z.boolean(),
});
export type SearchStats = z.infer<typeof SearchStats>;
export const SearchResult = z.object({
  hits: z.array(SearchHit),
  stats: SearchStats,
  /** The AI's answer; `[n]` in the text refers to citations[n-1]. */
  answer: z
    .object({
      text: z.string(),
      citations: z.array(z.object({ n: z.number(), blockId: z.string(), page: z.number() })),
    })
    .nullable(),
  charge: z.object({ points: z.number(), charged: z.boolean() }).nullable(),
});
export type SearchResult = z.infer<typeof SearchResult>;
