import type { PageBlock } from '@yidu/shared/reader';
import { nearestOnPage } from '@yidu/shared/original-pages';
import type { PdfRegion } from './geometry.ts';

/**
 * How the reflowed text and the original pages follow each other: where a paragraph is on the
 * pages, and which paragraph of the reader page is under a point of a page.
 */

/** The regions a block covers on the original pages (none known: an empty list). */
export const regionsOf = (block: PageBlock): PdfRegion[] => block.pdfRegions ?? [];

/** Where the page view should go to show a block: its first region, else the top of its page. */
export function placeOf(block: PageBlock): { pdfPage: number; region: PdfRegion | null } | null {
  const first = regionsOf(block)
    .slice()
    .sort((a, b) => a.page - b.page || a.y - b.y)[0];
  if (first) return { pdfPage: first.page, region: first };
  return block.pdfPage ? { pdfPage: block.pdfPage, region: null } : null;
}

/** Slack around a region for a click meant for it (a fraction of the page: a few pixels). */
const CLICK_SLACK = 0.006;

/**
 * The block of the reader page under a point of a PDF page (fractions of the page), or undefined when
 * the point is on none of them: the paragraph there may be on another reader page (asked of the server).
 */
export function blockAt(blocks: PageBlock[], pdfPage: number, x: number, y: number): PageBlock | undefined {
  const found = nearestOnPage(blocks, regionsOf, pdfPage, x, y);
  return found && found.distance <= CLICK_SLACK ? found.item : undefined;
}

/** Whether the page's text holds any of a PDF page (so the page view and the text are together). */
export const holdsPdfPage = (blocks: PageBlock[], pdfPage: number) =>
  blocks.some((b) => b.pdfPage === pdfPage || regionsOf(b).some((r) => r.page === pdfPage));

/** The first block of the text that stands on a PDF page. */
export const firstBlockOn = (blocks: PageBlock[], pdfPage: number) =>
  blocks.find((b) => b.pdfPage === pdfPage) ?? blocks.find((b) => regionsOf(b).some((r) => r.page === pdfPage));
