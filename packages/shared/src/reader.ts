import { z } from 'zod';
import { GeneratedTitle } from './contents.ts';

export const BLOCK_STATUSES = ['done', 'pending', 'failed'] as const;

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
  noteLabel: z.string().nullable(),
  noteRefs: z.array(z.string()).nullable(),
  pdfPage: z.number().nullable(),
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
  page: z.coerce.number().int().min(1),
  /** 'deductAfterConfirmation' users confirm the quoted price with confirm=true. */
  confirm: flag,
  /** Block ids whose failed translation should be tried again, comma-separated. */
  retry: z.string().max(2000).optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;
