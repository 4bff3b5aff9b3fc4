/**
 * Running heads and page numbers, which are the page's furniture and not the book's text: removed
 * before the lines become paragraphs.
 */
import type { PdfLine } from './pdf-layout.ts';

const PAGE_NUMBER = /^(page\s*)?[-–—([]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?$/i;

/**
 * Running headers alternate sides ("xiv PREFACE" / "PREFACE xv") and carry page numbers (arabic or
 * roman): compare them as a set of words with numbers masked.
 */
function headerKey(text: string): string {
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => (/^(\d+|[ivxlc]{1,6})[.,]?$/.test(w) ? '#' : w.replace(/\d+/g, '#')))
    .sort()
    .join(' ');
}

/**
 * Removes running headers and footers: lines in the top or bottom margin whose text (digits ignored)
 * repeats on at least 3 pages, and page numbers alone in those margins.
 */
export function removeRunningLines(pages: { height: number; lines: PdfLine[] }[]): number {
  const band = (page: { height: number; lines: PdfLine[] }) => {
    const sorted = [...page.lines].sort((a, b) => b.y - a.y);
    const top = sorted.slice(0, 3).filter((l) => l.y > page.height * 0.8);
    const bottom = sorted.slice(-3).filter((l) => l.y < page.height * 0.2);
    return new Set([...top, ...bottom]);
  };
  const bands = pages.map(band);
  const counts = new Map<string, number>();
  for (const b of bands) {
    const keys = new Set([...b].map((l) => headerKey(l.text)));
    for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const minRepeats = pages.length >= 6 ? 3 : Math.max(2, pages.length);
  let removed = 0;
  pages.forEach((page, i) => {
    const b = bands[i]!;
    page.lines = page.lines.filter((l) => {
      if (!b.has(l)) return true;
      const drop = PAGE_NUMBER.test(l.text) || (counts.get(headerKey(l.text)) ?? 0) >= minRepeats;
      if (drop) removed++;
      return !drop;
    });
  });
  return removed + removePageCounters(pages);
}

/**
 * Page numbers that stand outside the top and bottom margins (a journal's in its outer margin, a
 * third of the way down): a line of a bare number, one per page, whose value minus the page's index
 * is the same on three pages and a third of the book at least, at about the same height. Numbers in
 * tables may match a page now and then, never a third of the book at one height.
 */
function removePageCounters(pages: { height: number; lines: PdfLine[] }[]): number {
  const bare = (l: PdfLine) => /^\d{1,4}$/.test(l.text.trim());
  const byOffset = new Map<number, { page: number; y: number }[]>();
  for (const page of pages) {
    for (const l of page.lines) {
      if (!bare(l)) continue;
      const offset = Number(l.text.trim()) - l.page;
      if (!byOffset.has(offset)) byOffset.set(offset, []);
      byOffset.get(offset)!.push({ page: l.page, y: l.y / page.height });
    }
  }
  const counting = new Set<number>();
  for (const [offset, seen] of byOffset) {
    const onPages = new Set(seen.map((s) => s.page));
    if (onPages.size !== seen.length || onPages.size < Math.max(3, pages.length / 3)) continue;
    const ys = seen.map((s) => s.y).sort((a, b) => a - b);
    if (ys.at(-1)! - ys[0]! <= 0.05) counting.add(offset);
  }
  if (!counting.size) return 0;
  let removed = 0;
  for (const page of pages) {
    page.lines = page.lines.filter((l) => {
      const drop = bare(l) && counting.has(Number(l.text.trim()) - l.page);
      if (drop) removed++;
      return !drop;
    });
  }
  return removed;
}
