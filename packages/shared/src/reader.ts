import { INT4_MAX } from './validation.ts';
import { z } from 'zod';
import { GeneratedTitle } from './contents.ts';

export const BLOCK_STATUSES = ['done', 'pending', 'failed'] as const;

/** A rectangle of a PDF page: fractions of the displayed page, origin at the top left. */
export const PdfRegion = z.object({
  page: z.number().int().min(1),
  x: z.number().min(0).max(1),
  y: z.number().min(0).max(1),
  w: z.number().min(0).max(1),
  h: z.number().min(0).max(1),
});
export type PdfRegion = z.infer<typeof PdfRegion>;

/** One block of a reader page with its translation state (issue: reader page data). */
export const PageBlock = z.object({
  /** Stable block id ('c3-b12'): annotations, highlights and bookmarks anchor to it. */
  id: z.string(),
  type: z.string(),
  text: z.string(),
  /** Inline markup of the original (em, strong, sup, ruby, links to notes), sanitised; null when plain. */
  html: z.string().nullable(),
  /** The translation (same inline markup), null until done. */
  translation: z.string().nullable(),
  status: z.enum(BLOCK_STATUSES),
  level: z.number().nullable(),
  imageUrl: z.string().nullable(),
  /**
   * Image blocks of a PDF: the picture is still being made (figures past the first ones are cropped
   * after the book is saved). `imageUrl` is null meanwhile; asking for the page again later gives it.
   */
  imagePending: z.boolean().optional(),
  noteLabel: z.string().nullable(),
  noteRefs: z.array(z.string()).nullable(),
  /** Footnote blocks: the blocks whose markers lead to this note (the way back). */
  referencedBy: z.array(z.string()).nullable().optional(),
  pdfPage: z.number().nullable(),
  /**
   * PDF books: where the block stands on the original pages, one rectangle per page and column piece
   * it covers. x, y, w, h are fractions (0..1) of the page as displayed (rotation and crop box applied),
   * origin at the top left; `page` is 1-based. Null for other books and blocks without a place.
   */
  pdfRegions: z.array(PdfRegion).nullable(),
});
export type PageBlock = z.infer<typeof PageBlock>;

export const PageData = z.object({
  page: z.number(),
  pageCount: z.number(),
  /** The chapter of the page; its title is empty when `generated` says it. */
  chapter: z.object({ index: z.number(), title: z.string(), generated: GeneratedTitle.nullable() }),
  blocks: z.array(PageBlock),
  /** False when the book is already in the target language: nothing is translated or charged. */
  translated: z.boolean(),
  /** Points for this page: charged once, when its translation is complete. */
  charge: z.object({ points: z.number(), charged: z.boolean() }).nullable(),
});
export type PageData = z.infer<typeof PageData>;

const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');

export const PageQuery = z.object({
  bookCode: z.string().min(1).max(40),
  /** Target language: a code (zh, en, jp...) or an English name. */
  language: z.string().min(1).max(40),
  page: z.coerce.number().int().min(1).max(INT4_MAX),
  /** 'deductAfterConfirmation' users confirm the quoted price with confirm=true. */
  confirm: flag,
  /** Block ids whose failed translation should be tried again, comma-separated. */
  retry: z.string().max(2000).optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const BlockQuery = z.object({
  bookCode: z.string().min(1).max(40),
  /** The reader's language (as for pages): whether the book is translated for them. */
  language: z.string().min(1).max(40),
  blockId: z.string().regex(/^c\d{1,6}-b\d{1,7}$/),
});
export type BlockQuery = z.infer<typeof BlockQuery>;

/**
 * One block of a book wherever it is, in its original (free, as the original text is): a note opened
 * from its marker on another page, or the place a note's way back leads to. Its translation comes with
 * its page (getPageData), paid as pages are.
 */
export const BlockLocation = z.object({
  id: z.string(),
  page: z.number(),
  chapter: z.object({ index: z.number(), title: z.string() }),
  type: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  noteLabel: z.string().nullable(),
  /** The blocks referring to this one (a note's markers), with their pages. */
  referencedBy: z.array(z.object({ id: z.string(), page: z.number() })),
  /** False when the book is already in the reader's language. */
  translated: z.boolean(),
});
export type BlockLocation = z.infer<typeof BlockLocation>;
