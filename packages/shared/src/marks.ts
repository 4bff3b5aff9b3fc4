import { INT4_MAX } from './validation.ts';
import { z } from 'zod';

/** What a reader leaves in a book (SPEC §3.6, §3.7): anchored to a block id and character offsets. */
export const MARK_KINDS = ['annotation', 'highlight', 'underline', 'bookmark'] as const;
export type MarkKind = (typeof MARK_KINDS)[number];
export const HIGHLIGHT_COLORS = ['yellow', 'green', 'blue', 'pink', 'purple'] as const;

export const Mark = z.object({
  id: z.number(),
  kind: z.enum(MARK_KINDS),
  bookCode: z.string(),
  blockId: z.string(),
  page: z.number(),
  /** Offsets in the block's text, or in its translation when inTranslation; null for a whole block. */
  start: z.number().nullable(),
  end: z.number().nullable(),
  inTranslation: z.boolean(),
  /** The target language of a selection made in the translation. */
  language: z.string().nullable(),
  /** The selected text, as it was when marked. */
  quote: z.string(),
  /** The annotation's text, or a bookmark's note. */
  content: z.string().nullable(),
  color: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Mark = z.infer<typeof Mark>;

/**
 * A client-generated id (a UUID) naming one mark or word made on a device: sent again and again by
 * an offline queue until it is answered, it creates the thing once; once deleted, it stays deleted.
 */
export const ClientId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/)
  .optional();

const Anchor = {
  clientId: ClientId,
  bookCode: z.string().min(1).max(40),
  blockId: z.string().min(1).max(40),
  start: z.number().int().min(0).max(INT4_MAX).nullable().optional(),
  end: z.number().int().min(0).max(INT4_MAX).nullable().optional(),
  quote: z.string().max(5000).default(''),
  inTranslation: z.boolean().default(false),
  language: z.string().max(10).nullable().optional(),
};

/** POST /reader/annotation. Empty content is refused with `annotationEmpty`. */
export const AnnotationBody = z.object({ ...Anchor, content: z.string().max(10_000) });
export type AnnotationBody = z.infer<typeof AnnotationBody>;

export const HighlightBody = z.object({
  ...Anchor,
  style: z.enum(['highlight', 'underline']).default('highlight'),
  color: z.enum(HIGHLIGHT_COLORS).default('yellow'),
});
export type HighlightBody = z.infer<typeof HighlightBody>;

export const BookmarkBody = z.object({
  clientId: ClientId,
  bookCode: z.string().min(1).max(40),
  page: z.number().int().min(1).max(INT4_MAX),
  blockId: z.string().min(1).max(40).optional(),
  note: z.string().max(1000).optional(),
});
export type BookmarkBody = z.infer<typeof BookmarkBody>;

/**
 * Where a reader is in a book: the paragraph at the top of the view (blockId) and how far into it
 * (blockOffset: 0..1 of its height, so that it holds whatever the paragraph's height is on another
 * screen or in another language), on its page.
 */
export const Position = z.object({
  bookCode: z.string(),
  page: z.number(),
  blockId: z.string().nullable(),
  blockOffset: z.number().nullable(),
  language: z.string(),
  updatedAt: z.string(),
});
export type Position = z.infer<typeof Position>;

export const PositionBody = z.object({
  bookCode: z.string().min(1).max(40),
  page: z.number().int().min(1).max(INT4_MAX),
  blockId: z.string().max(40).nullable().optional(),
  blockOffset: z.number().min(0).max(1).nullable().optional(),
  language: z.string().min(1).max(40),
});

/** Reader settings (SPEC §3.10), saved per user on the server. */
export const READER_MODES = ['advanced', 'default', 'simple'] as const;
export const COLOR_SCHEMES = ['white', 'lightGray', 'paper', 'black', 'gray', 'custom'] as const;
const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/);
export const ReaderSettings = z.object({
  mode: z.enum(READER_MODES).default('default'),
  fontSize: z.number().int().min(12).max(40).default(18),
  lineHeight: z.number().min(1).max(3).default(1.8),
  paragraphMargin: z.number().int().min(0).max(64).default(16),
  scheme: z.enum(COLOR_SCHEMES).default('paper'),
  background: hex.default('#f8f3e8'),
  textColor: hex.default('#2b2622'),
});
export type ReaderSettings = z.infer<typeof ReaderSettings>;

/** The open book tabs (SPEC §2.3), kept on the server so that they follow the user across devices. */
export const TabsState = z.object({
  tabs: z
    .array(
      z.object({
        bookCode: z.string().max(40),
        language: z.string().max(10),
        bookName: z.string().max(300).optional(),
      }),
    )
    .max(50),
  /** 'newTab' or 'book-{bookCode}'. */
  active: z.string().max(60).default('newTab'),
});
export type TabsState = z.infer<typeof TabsState>;
