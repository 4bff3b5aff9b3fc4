import type { PageBlock } from '@yidu/shared/reader';
import type { PdfRegion } from './geometry.ts';

/**
 * How the reflowed text and the original pages follow each other: where a paragraph is on the
 * pages, and which paragraph is under a point of a page.
 */

/** The regions a block covers on the original pages (none known: an empty list). */
export function regionsOf(block: PageBlock): PdfRegion[] {
  return (block as PageBlock & { pdfRegions?: PdfRegion[] | null }).pdfRegions ?? [];
}

/** Where the page view should go to show a block: its first region's page and top, else its page's top. */
export function placeOf(block: PageBlock): { pdfPage: number; y: number } | null {
  const first = regionsOf(block)
    .slice()
    .sort((a, b) => a.page - b.page || a.y - b.y)[0];
  if (first) return { pdfPage: first.page, y: first.y };
  return block.pdfPage ? { pdfPage: block.pdfPage, y: 0 } : null;
}

/** Slack around a region for a click that is meant for it (a fraction of the page). */
const CLICK_SLACK = 0.004;

/**
 * The block of these whose region on `pdfPage` holds the point (fractions of the page); of several,
 * the smallest (a caption inside a figure's box, a line inside its paragraph).
 */
export function blockAt(blocks: PageBlock[], pdfPage: number, x: number, y: number): PageBlock | undefined {
  let best: { block: PageBlock; area: number } | undefined;
  for (const block of blocks) {
    for (const r of regionsOf(block)) {
      if (r.page !== pdfPage) continue;
      const inside =
        x >= r.x - CLICK_SLACK && x <= r.x + r.w + CLICK_SLACK && y >= r.y - CLICK_SLACK && y <= r.y + r.h + CLICK_SLACK;
      if (inside && (!best || r.w * r.h < best.area)) best = { block, area: r.w * r.h };
    }
  }
  return best?.block;
}

/** Whether the page's text holds any of a PDF page (so the page view and the text are together). */
export const holdsPdfPage = (blocks: PageBlock[], pdfPage: number) =>
  blocks.some((b) => b.pdfPage === pdfPage || regionsOf(b).some((r) => r.page === pdfPage));

/** The first block of the text that stands on a PDF page. */
export const firstBlockOn = (blocks: PageBlock[], pdfPage: number) =>
  blocks.find((b) => b.pdfPage === pdfPage) ?? blocks.find((b) => regionsOf(b).some((r) => r.page === pdfPage));
