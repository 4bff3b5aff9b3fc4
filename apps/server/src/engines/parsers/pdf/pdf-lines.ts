/**
 * A page's positioned text items → lines. Items on one baseline make a line, cut where a column
 * gutter runs between them; right-to-left lines are read from their right end (pdf-bidi.ts); each
 * item's characters are made ordinary text (pdf-unicode.ts) and accents pdf.js gave as items of
 * their own go back onto their letters.
 */
import { hasRightToLeft, isRightToLeftText, readingOrder } from './pdf-bidi.ts';
import { countBadChars } from './pdf-garbage.ts';
import type { PdfLine, PdfPageText, PdfTextItem } from './pdf-layout.ts';
import { composeAccents, isCombiningOnly, mayCompose, normalizeItemText } from './pdf-unicode.ts';

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;
const NOTE_MARK = /^[\d*†‡§¶∗]{1,3}$/;

/** Groups a page's items into lines; items far apart on one baseline, or across a gutter, stay separate. */
export function buildLines(page: PdfPageText): PdfLine[] {
  // Fake bold and shadows draw the same text twice, a point or two apart: keep one copy.
  const seen = new Map<string, PdfTextItem[]>();
  const items = page.items.filter((it) => {
    if (!it.str.length || !(it.size > 0)) return false;
    if (!it.str.trim()) return true;
    const twins = seen.get(it.str) ?? [];
    if (twins.some((t) => Math.abs(t.x - it.x) < it.size * 0.3 && Math.abs(t.y - it.y) < it.size * 0.3)) return false;
    twins.push(it);
    seen.set(it.str, twins);
    return true;
  });
  items.sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: PdfTextItem[][] = [];
  for (const item of items) {
    if (!item.str.trim() && item.width <= 0) continue;
    // Attach to the most recent row whose baseline is close; superscripts sit up to ~0.5em higher.
    let row: PdfTextItem[] | undefined;
    for (let r = rows.length - 1; r >= 0 && r >= rows.length - 3; r--) {
      const candidate = rows[r]!;
      const base = dominant(candidate);
      const tol = Math.max(base.size, item.size) * 0.5;
      if (Math.abs(item.y - base.y) <= tol && (item.y >= base.y - base.size * 0.3 || item.size >= base.size * 0.9)) {
        row = candidate;
        break;
      }
    }
    if (row) row.push(item);
    else rows.push([item]);
  }
  attachLeadingLabels(rows);
  for (const row of rows) row.sort((a, b) => a.x - b.x);
  const gutters = findGutters(rows);
  const lines: PdfLine[] = [];
  for (const row of rows) {
    const base = dominant(row);
    let segment: PdfTextItem[] = [];
    const flush = () => {
      if (segment.length) {
        const line = makeLine(page.page, segment, base);
        if (line.text.trim()) lines.push(line);
      }
      segment = [];
    };
    let lastEnd = -Infinity;
    for (const item of row) {
      const gap = item.x - lastEnd;
      const acrossGutter = gap > base.size * 0.2 && gutters.some((g) => g > lastEnd && g < item.x);
      if (segment.length && (gap > Math.max(base.size * 1.6, 12) || acrossGutter)) flush();
      segment.push(item);
      lastEnd = Math.max(lastEnd, item.x + item.width);
    }
    flush();
  }
  return lines;
}

/**
 * Gutters between columns: x positions that fall in a gap between two runs of text at least 6 em
 * wide, in at least half the rows reaching across them and in five rows at least. A gutter can be
 * narrower than the gap that cuts a line on its own (1.6 em): a narrow one between justified
 * columns joined their lines into one. Word spaces, even in justified text, do not line up down a
 * page, and the tab stops of a table of contents have a short run of text on one side.
 */
export function findGutters(rows: PdfTextItem[][]): number[] {
  if (rows.length < 5) return [];
  let left = Infinity;
  let right = -Infinity;
  for (const row of rows) {
    left = Math.min(left, row[0]!.x);
    for (const item of row) right = Math.max(right, item.x + item.width);
  }
  const width = Math.ceil(right - left);
  if (!(width > 0) || width > 20_000) return [];
  // Runs of text: items less than 0.6 em apart; the gaps between two long ones are candidates.
  const rowRuns: { start: number; end: number }[][] = [];
  let candidates = 0;
  for (const row of rows) {
    const size = dominant(row).size;
    const runs: { start: number; end: number }[] = [];
    for (const item of row) {
      const x = item.x - left;
      const last = runs[runs.length - 1];
      if (last && x - last.end < size * 0.6) last.end = Math.max(last.end, x + item.width);
      else runs.push({ start: x, end: x + item.width });
    }
    // Runs shorter than 6 em cannot be beside a gutter: kept only as the row's extent.
    const long = runs.filter((run) => run.end - run.start >= size * 6);
    if (long.length >= 2) candidates++;
    rowRuns.push(runs.length > 1 ? runs.map((run) => ({ ...run, long: run.end - run.start >= size * 6 })) : runs);
  }
  if (candidates < 5) return [];
  const gaps = new Uint16Array(width + 1);
  const across = new Uint16Array(width + 1);
  for (const runs of rowRuns as { start: number; end: number; long?: boolean }[][]) {
    for (let r = 1; r < runs.length; r++) {
      const before = runs[r - 1]!;
      const after = runs[r]!;
      if (!before.long || !after.long) continue;
      for (let i = Math.ceil(before.end); i <= Math.floor(after.start) && i <= width; i++) gaps[i]!++;
    }
    const end = runs[runs.length - 1]!.end;
    for (let i = Math.max(0, Math.ceil(runs[0]!.start)); i <= Math.floor(end) && i <= width; i++) across[i]!++;
  }
  const out: number[] = [];
  let runStart = -1;
  for (let i = 0; i <= width + 1; i++) {
    const isGutter = i <= width && gaps[i]! >= 5 && gaps[i]! * 2 >= across[i]!;
    if (isGutter && runStart === -1) runStart = i;
    if (!isGutter && runStart !== -1) {
      out.push(left + (runStart + i - 1) / 2);
      runStart = -1;
    }
  }
  return out;
}

function dominant(items: PdfTextItem[]): { y: number; size: number } {
  let best = items[0]!;
  for (const it of items) if (it.str.trim().length * it.size > best.str.trim().length * best.size) best = it;
  return { y: best.y, size: best.size };
}

/**
 * Accents pdf.js gave as items of their own (marks drawn over a letter of the item beneath) go back
 * into that item, after the letter they sit on.
 */
function attachMarks(items: PdfTextItem[]): PdfTextItem[] {
  if (!items.some((item) => isCombiningOnly(item.str))) return items;
  const out = items.filter((item) => !isCombiningOnly(item.str)).map((item) => ({ ...item }));
  for (const mark of items) {
    if (!isCombiningOnly(mark.str)) continue;
    const center = mark.x + mark.width / 2;
    const base = out.find((item) => center >= item.x - 0.5 && center <= item.x + item.width + 0.5);
    if (!base) continue;
    const chars = [...base.str];
    const at = Math.min(chars.length, Math.max(1, Math.ceil(((center - base.x) / (base.width || 1)) * chars.length)));
    base.str = chars.slice(0, at).join('') + mark.str + chars.slice(at).join('');
  }
  return out;
}

/**
 * A footnote's small raised label ("²") goes to the line it starts. Sorted by height, it may have
 * joined the row of another column's line at its height rather than its own line's, a little lower;
 * so it is matched by place: a label with nothing next to it in its row, and a larger item starting
 * right after it a little below, in one of the next rows.
 */
function attachLeadingLabels(rows: PdfTextItem[][]): void {
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (const label of [...row]) {
      if (!NOTE_MARK.test(label.str.trim())) continue;
      const end = label.x + label.width;
      const near = (it: PdfTextItem) => it !== label && it.str.trim() && it.x >= label.x && it.x <= end + label.size;
      if (row.some(near)) continue;
      const below = (it: PdfTextItem) =>
        it.size > label.size * 1.15 &&
        it.x >= end - 1 &&
        it.x <= end + it.size &&
        it.y < label.y &&
        it.y >= label.y - it.size * 0.8;
      const target = rows.slice(r + 1, r + 4).find((other) => other.some(below));
      if (!target) continue;
      // Its space goes with it.
      const moving = row.filter((it) => it === label || (!it.str.trim() && it.x >= label.x && it.x <= end + 1));
      target.push(...moving);
      for (const it of moving) row.splice(row.indexOf(it), 1);
    }
  }
  for (let r = rows.length - 1; r >= 0; r--) if (!rows[r]!.length) rows.splice(r, 1);
}

function makeLine(page: number, segment: PdfTextItem[], base: { y: number; size: number }): PdfLine {
  const withMarks = attachMarks(segment);
  const texts = withMarks.map((item) => item.str);
  const items = hasRightToLeft(texts) ? readingOrder(withMarks, isRightToLeftText(texts)) : withMarks;
  let text = '';
  let previous: PdfTextItem | undefined;
  const marks: string[] = [];
  let leadingMark: string | undefined;
  let size = 0;
  let chars = 0;
  let badChars = 0;
  const fontChars = new Map<string, number>();
  items.forEach((item, index) => {
    const raised = item.size < base.size * 0.85 && item.y > base.y + base.size * 0.15;
    badChars += countBadChars(item.str);
    const str = normalizeItemText(item.str);
    if (raised && NOTE_MARK.test(str.trim())) {
      if (index === 0) leadingMark = str.trim();
      else marks.push(str.trim());
    } else if (str.trim()) {
      size += item.size * str.trim().length;
      chars += str.trim().length;
      if (item.font) fontChars.set(item.font, (fontChars.get(item.font) ?? 0) + str.trim().length);
    }
    if (previous) {
      // The space between the two boxes, whichever side of the other this one is (right-to-left lines).
      const gap = Math.max(item.x, previous.x) - Math.min(item.x + item.width, previous.x + previous.width);
      const prev = text[text.length - 1] ?? ' ';
      const next = str[0] ?? ' ';
      const needsSpace = gap > base.size * 0.18 && prev !== ' ' && next !== ' ';
      if (needsSpace && !(CJK.test(prev) && CJK.test(next) && gap < base.size * 0.6)) text += ' ';
    }
    text += str;
    previous = item;
  });
  const line: PdfLine = {
    page,
    text: mayCompose(text) ? composeAccents(text.replace(/\s+/g, ' ').trim()) : text.replace(/\s+/g, ' ').trim(),
    x0: Math.min(...items.map((i) => i.x)),
    x1: Math.max(...items.map((i) => i.x + i.width)),
    y: base.y,
    size: chars ? size / chars : base.size,
    marks,
    col: 0,
  };
  if (badChars) line.badChars = badChars;
  if (leadingMark) line.leadingMark = leadingMark;
  let best = 0;
  for (const [font, n] of fontChars)
    if (n > best) {
      best = n;
      line.font = font;
    }
  if (chars) line.fontShare = best / chars;
  return line;
}

/**
 * Margin furniture: printers' line numbers and crop-mark slugs are digit-only (or nearly) segments
 * outside the text block. Drops digit-only segments that lie left or right of the page's main text.
 */
export function removeMarginNumbers(lines: PdfLine[]): PdfLine[] {
  const text = lines.filter((l) => !/^\d{1,4}$/.test(l.text));
  if (text.length < 5) return lines;
  const xs = text.map((l) => l.x0).sort((a, b) => a - b);
  const left = xs[Math.floor(xs.length * 0.1)]!;
  const rights = text.map((l) => l.x1).sort((a, b) => a - b);
  const right = rights[Math.floor(rights.length * 0.9)]!;
  return lines.filter((l) => !(/^\d{1,4}$/.test(l.text) && (l.x1 < left + 2 || l.x0 > right - 2)));
}
