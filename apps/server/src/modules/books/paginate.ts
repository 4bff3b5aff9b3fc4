import type { Block, Chapter } from '../../engines/parsers/types.ts';

/** Reader pages hold whole blocks, about 1,500-3,000 characters; a chapter always starts a page. */
export const PAGE_TARGET_CHARS = 1500;
export const PAGE_MAX_CHARS = 3000;
/** Images and tables weigh as much as this many characters when filling a page. */
const MEDIA_WEIGHT = 600;

/**
 * Assigns 1-based reader pages to blocks as they come, chapter by chapter. A page closes once it has
 * the target size and the next block would overflow it, or before a heading when it is already well
 * filled, so that headings open pages rather than end them. Block by block, so that a long book can
 * be paged while it is written, never in one go (book-content.ts).
 */
export class PageCounter {
  /** The last page used so far: the book's page count once every block is placed. */
  page = 0;
  private filled = 0;

  /** Starts a chapter on a new page; returns that page. */
  startChapter(): number {
    this.page += 1;
    this.filled = 0;
    return this.page;
  }

  /** The page of the next block of the current chapter. */
  place(block: Pick<Block, 'type' | 'text'>): number {
    const weight =
      block.type === 'image' || block.type === 'table' ? Math.max(MEDIA_WEIGHT, block.text.length) : block.text.length;
    const overflow = this.filled + weight > PAGE_MAX_CHARS;
    const headingBreak = block.type === 'heading' && this.filled >= PAGE_TARGET_CHARS * 0.6;
    const breakHere =
      this.filled >= PAGE_MAX_CHARS ||
      headingBreak ||
      (overflow && (this.filled >= PAGE_TARGET_CHARS / 2 || weight >= PAGE_MAX_CHARS));
    if (this.filled > 0 && breakHere) {
      this.page += 1;
      this.filled = 0;
    }
    this.filled += weight;
    return this.page;
  }
}

/** Every block's page at once (for small books and tests; see PageCounter). */
export function paginate(chapters: Pick<Chapter, 'blocks'>[]): {
  pages: number[][];
  pageCount: number;
  chapterFirstPage: number[];
} {
  const counter = new PageCounter();
  const chapterFirstPage: number[] = [];
  const pages = chapters.map((chapter) => {
    chapterFirstPage.push(counter.startChapter());
    return chapter.blocks.map((block) => counter.place(block));
  });
  return { pages, pageCount: counter.page, chapterFirstPage };
}
