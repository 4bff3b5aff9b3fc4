import { z } from 'zod';
import { PdfRegion } from './reader.ts';

/** The stored original file of a PDF book, for the reader's page view (read by range requests). */
export const OriginalFile = z.object({
  /** A signed media URL (see the server's MediaService): it expires and is checked again on every request. */
  url: z.string(),
  /** Bytes of the file. */
  size: z.number(),
  /** When the URL stops working (ISO time); the page view asks for a new one before. */
  expiresAt: z.string(),
});
export type OriginalFile = z.infer<typeof OriginalFile>;

export const OriginalFileQuery = z.object({ bookCode: z.string().min(1).max(40) });

/** A place on a page of the original PDF: a page (from 1), and a point on it in fractions of the page. */
export const PdfLocateQuery = z.object({
  bookCode: z.string().min(1).max(40),
  pdfPage: z.coerce.number().int().min(1).max(100_000),
  /** From the left edge of the displayed page, 0..1. */
  x: z.coerce.number().min(0).max(1).optional(),
  /** From the top edge of the displayed page, 0..1. */
  y: z.coerce.number().min(0).max(1).optional(),
});
export type PdfLocateQuery = z.infer<typeof PdfLocateQuery>;

/**
 * Where a place of the original is in the reflowed book: the reader page and the block there. Without
 * a point, the block is the PDF page's first (or, for a page with no text, the last block before it).
 */
export const PdfPlace = z.object({
  page: z.number(),
  blockId: z.string().nullable(),
  /** Where that block stands on the pages (to outline it at once), null when unknown. */
  pdfRegions: z.array(PdfRegion).nullable(),
});
export type PdfPlace = z.infer<typeof PdfPlace>;

/**
 * Of several blocks, the one whose region on `page` is nearest to a point (fractions of the page): a
 * region holding the point is at distance 0, and of several holding it the smallest wins (a caption
 * inside a figure's box, a line inside its paragraph). Undefined when none has a region on the page.
 */
export function nearestOnPage<T>(
  items: readonly T[],
  regionsOf: (item: T) => readonly PdfRegion[] | null | undefined,
  page: number,
  x: number,
  y: number,
): { item: T; distance: number } | undefined {
  let best: { item: T; distance: number; area: number } | undefined;
  for (const item of items) {
    for (const r of regionsOf(item) ?? []) {
      if (r.page !== page) continue;
      const dx = Math.max(r.x - x, 0, x - (r.x + r.w));
      const dy = Math.max(r.y - y, 0, y - (r.y + r.h));
      const distance = Math.hypot(dx, dy);
      const area = r.w * r.h;
      if (!best || distance < best.distance || (distance === best.distance && area < best.area))
        best = { item, distance, area };
    }
  }
  return best && { item: best.item, distance: best.distance };
}
