import type { Chapter } from '../../engines/parsers/types.ts';

/** Reader pages hold whole blocks, about 1,500-3,000 characters; a chapter always starts a page. */
export const PAGE_TARGET_CHARS = 1500;
export const PAGE_MAX_CHARS = 3000;
/** Images and tables weigh as much as this many characters when filling a page. */
const MEDIA_WEIGHT = 600;

export interface PagedBlock {
  chapterIndex: number;
  page: number;
}

/**
 * Assigns a 1-based reader page to every block, chapter by chapter. A page closes once it has the
 * target size and the next block would overflow it, or before a heading when it is already well
 * filled, so that headings open pages rather than end them.
 */
export function paginate(chapters: Pick<Chapter, 'blocks'>[]): {
  pages: number[][];
  pageCount: number;
  chapterFirstPage: number[];
} {
  const pages: number[][] = [];
  const chapterFirstPage: number[] = [];
  let page = 0;
  for (const chapter of chapters) {
    page += 1;
    chapterFirstPage.push(page);
    let filled = 0;
    const chapterPages: number[] = [];
    for (const block of chapter.blocks) {
      const weight =
        block.type === 'image' || block.type === 'table'
          ? Math.max(MEDIA_WEIGHT, block.text.length)
          : block.text.length;
      const overflow = filled + weight > PAGE_MAX_CHARS;
      const headingBreak = block.type === 'heading' && filled >= PAGE_TARGET_CHARS * 0.6;
      const breakHere =
        filled >= PAGE_MAX_CHARS ||
        headingBreak ||
        (overflow && (filled >= PAGE_TARGET_CHARS / 2 || weight >= PAGE_MAX_CHARS));
      if (filled > 0 && breakHere) {
        page += 1;
        filled = 0;
      }
      chapterPages.push(page);
      filled += weight;
    }
    pages.push(chapterPages);
  }
  return { pages, pageCount: page, chapterFirstPage };
}
