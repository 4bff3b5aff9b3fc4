import { z } from 'zod';

/** One glossary entry: how a name or term of the book is rendered in the target language. */
export const GlossaryEntry = z.object({
  source: z.string().trim().min(1).max(200),
  target: z.string().trim().min(1).max(200),
  note: z.string().trim().max(500).nullable().default(null),
});
export type GlossaryEntry = z.infer<typeof GlossaryEntry>;

/** Who put an entry in: the owner, the automatic extraction, or a reader's accepted suggestion. */
export const GlossaryOrigin = z.enum(['owner', 'extracted', 'suggested']);
export type GlossaryOrigin = z.infer<typeof GlossaryOrigin>;

/** A reader's proposal for a book's glossary, which the owner accepts or rejects. */
export const GlossarySuggestion = GlossaryEntry.extend({
  id: z.number(),
  status: z.enum(['pending', 'accepted', 'rejected']),
  /** The reader's nickname (for the owner) — null when the account is gone. */
  by: z.string().nullable(),
  createdAt: z.string(),
});
export type GlossarySuggestion = z.infer<typeof GlossarySuggestion>;

/**
 * What retranslating the paragraphs a glossary change left out of date costs: paragraphs of the book
 * already translated into this language whose glossary entries are not those of today.
 */
export const RetranslationQuote = z.object({
  paragraphs: z.number(),
  characters: z.number(),
  /** At most this (engine work at the translation price; paragraphs the memory has cost less). */
  points: z.number(),
  /** Paragraphs being retranslated now (a confirmed retranslation not finished yet). */
  running: z.number(),
});
export type RetranslationQuote = z.infer<typeof RetranslationQuote>;

export const Glossary = z.object({
  entries: z.array(GlossaryEntry.extend({ origin: GlossaryOrigin })),
  /** Bumped at every change. */
  version: z.number(),
  /** The uploader (or an admin) may edit it; other readers may suggest entries. */
  editable: z.boolean(),
  canSuggest: z.boolean(),
  /** For the owner: pending suggestions of readers. For a reader: their own, with what became of them. */
  suggestions: z.array(GlossarySuggestion),
  /** For the owner: what bringing the translated paragraphs up to date would cost. */
  retranslation: RetranslationQuote.nullable(),
});
export type Glossary = z.infer<typeof Glossary>;

/** One translation of a paragraph and what made it. */
export const TranslationVersion = z.object({
  translation: z.string(),
  engine: z.string().nullable(),
  model: z.string().nullable(),
});
export type TranslationVersion = z.infer<typeof TranslationVersion>;

export const ReportStatus = z.enum(['open', 'keptOriginal', 'choseAlternative']);
export type ReportStatus = z.infer<typeof ReportStatus>;

/** A reader marked a paragraph's translation wrong: it was translated again by another engine or model. */
export const TranslationReport = z.object({
  id: z.number(),
  blockId: z.string(),
  original: TranslationVersion,
  alternative: TranslationVersion,
  status: ReportStatus,
});
export type TranslationReport = z.infer<typeof TranslationReport>;

/** A report as admins list them. */
export const AdminTranslationReport = TranslationReport.extend({
  bookCode: z.string(),
  bookTitle: z.string(),
  language: z.string(),
  page: z.number(),
  text: z.string(),
  reporter: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type AdminTranslationReport = z.infer<typeof AdminTranslationReport>;

export const AdminTranslationReportPage = z.object({
  items: z.array(AdminTranslationReport),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type AdminTranslationReportPage = z.infer<typeof AdminTranslationReportPage>;
