/**
 * Japanese and Chinese set in vertical columns, read top to bottom and the columns right to left
 * (tiers of a newspaper page top to bottom). pdf.js gives each glyph of such a page as an item of
 * its own (punctuation in a vertical font, the rest often in a horizontal one placed glyph under
 * glyph), and reading them as horizontal lines crosses every column.
 *
 * A page whose glyphs stand mostly under one another is turned a quarter: the top of the page
 * becomes its left edge and its right edge the top, so a column becomes a line, a tier a column, and
 * the layout of lines, columns and paragraphs reads it as it reads horizontal text.
 */
import type { PdfPageText, PdfTextItem } from './pdf-layout.ts';

const CJK_GLYPH = /^[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f\ufe10-\ufe4f]$/u;

/**
 * An item's box on the page, and the left edge of its column: pdf.js places a vertical font's glyph
 * by its top centre, a horizontal font's by its baseline start (a narrow glyph, a Latin digit in a
 * column, starts at the column's left edge too).
 */
interface Box {
  item: PdfTextItem;
  top: number;
  bottom: number;
  left: number;
}

function boxOf(item: PdfTextItem): Box {
  if (item.vertical) {
    const height = item.height || item.size * [...item.str].length;
    return { item, top: item.y, bottom: item.y - height, left: item.x - item.size / 2 };
  }
  return { item, top: item.y + item.size, bottom: item.y, left: item.x };
}

const isGlyph = (item: PdfTextItem) => item.vertical === true || CJK_GLYPH.test(item.str);

/**
 * Glyphs directly under one another against glyphs side by side on a baseline: a page of vertical
 * text has many of the first and few of the second.
 */
export function isVerticalPage(items: PdfTextItem[]): boolean {
  const glyphs = items.filter((item) => item.str.trim() && isGlyph(item)).map(boxOf);
  if (glyphs.length < 10) return false;
  let under = 0;
  for (const g of glyphs) if (g.item.vertical) under += [...g.item.str].length - 1;
  const byColumn = [...glyphs].sort((a, b) => a.left - b.left || b.top - a.top);
  for (let i = 1; i < byColumn.length; i++) {
    const a = byColumn[i - 1]!;
    const b = byColumn[i]!;
    const size = Math.max(a.item.size, b.item.size);
    if (Math.abs(a.left - b.left) < size * 0.3 && a.bottom - b.top > -size * 0.3 && a.bottom - b.top < size * 0.25) {
      under++;
    }
  }
  let beside = 0;
  const byRow = [...glyphs].sort((a, b) => b.bottom - a.bottom || a.item.x - b.item.x);
  for (let i = 1; i < byRow.length; i++) {
    const a = byRow[i - 1]!;
    const b = byRow[i]!;
    const size = Math.max(a.item.size, b.item.size);
    const gap = b.item.x - (a.item.x + a.item.width);
    if (Math.abs(a.bottom - b.bottom) < size * 0.3 && gap > -size * 0.3 && gap < size * 0.25) beside++;
  }
  return under >= 8 && under > beside * 2;
}

/**
 * The page turned a quarter when its text is vertical: each glyph placed so that its column is a
 * line (x from the top of the page, the baseline at the column's middle, further right read first).
 * Horizontal text on such a page (a running head, a date) is kept together: each of its lines
 * becomes one item where it starts.
 */
export function toReadingFrame(page: PdfPageText): PdfPageText {
  if (!isVerticalPage(page.items)) return page;
  const items: PdfTextItem[] = [];
  const horizontal: PdfTextItem[] = [];
  for (const item of page.items) {
    if (!item.str.trim()) continue;
    if (isGlyph(item)) items.push(turned(boxOf(item), page.height));
    else horizontal.push(item);
  }
  // Horizontal lines: items on one baseline, joined left to right.
  horizontal.sort((a, b) => b.y - a.y || a.x - b.x);
  let row: PdfTextItem[] = [];
  const flush = () => {
    if (!row.length) return;
    const first = row[0]!;
    const last = row[row.length - 1]!;
    const str = row.map((i) => i.str).join(' ');
    const box = { item: { ...first, str }, top: first.y + first.size, bottom: first.y, left: last.x + last.width };
    items.push(turned(box, page.height));
    row = [];
  };
  for (const item of horizontal) {
    if (row.length && Math.abs(row[0]!.y - item.y) > item.size * 0.5) flush();
    row.push(item);
  }
  flush();
  return { page: page.page, width: page.height, height: page.width, items };
}

function turned(box: Box, pageHeight: number): PdfTextItem {
  const out: PdfTextItem = {
    str: box.item.str,
    x: pageHeight - box.top,
    y: box.left + box.item.size / 2,
    width: box.top - box.bottom,
    size: box.item.size,
  };
  if (box.item.font) out.font = box.item.font;
  return out;
}
