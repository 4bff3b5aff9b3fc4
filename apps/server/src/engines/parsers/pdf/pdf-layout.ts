/**
 * PDF text layout: positioned text items → lines (pdf-lines.ts) → reading order (pdf-columns.ts) →
 * running headers and footers removed, footnotes split off → paragraphs (their lines joined by
 * pdf-join.ts). Pure functions on plain data so they can be tested without PDFs. Coordinates are PDF
 * points with the origin at the bottom-left of the page (y grows upwards), as pdf.js reports them.
 */
import { joinParagraphLines } from './pdf-join.ts';
import type { Lexicon } from './pdf-join.ts';
import { addLineBox } from './pdf-regions.ts';
import type { PageBox } from './pdf-regions.ts';

export interface PdfTextItem {
  str: string;
  /** Baseline start. */
  x: number;
  y: number;
  width: number;
  /** Font size (vertical scale of the text matrix). */
  size: number;
  font?: string;
  /** Set in a vertical font: placed by its top centre, `height` long downwards (pdf-vertical.ts). */
  vertical?: boolean;
  height?: number;
}

export interface PdfPageText {
  page: number;
  width: number;
  height: number;
  items: PdfTextItem[];
}

export interface PdfLine {
  page: number;
  text: string;
  x0: number;
  x1: number;
  /** Baseline. */
  y: number;
  size: number;
  /** Superscript markers seen in the line ("1", "*"): footnote references. */
  marks: string[];
  /** Starts with a small raised marker (a footnote's own label). */
  leadingMark?: string;
  /** Control, private-use and U+FFFD characters pdf.js gave for the line (made spaces in `text`). */
  badChars?: number;
  /** Column from the left (0 = single or leftmost, 1, 2…), -1 = spans columns. */
  col: number;
  /** The font (pdf.js id) carrying most of the line's characters, and its share of them (0..1). */
  font?: string;
  fontShare?: number;
}

export interface PdfParagraph {
  /** `figure`: a picture cropped from the page (a figure, a table, a displayed formula). */
  kind: 'heading' | 'paragraph' | 'footnote' | 'figure';
  text: string;
  page: number;
  /** Top of the first line, for placing chapter starts inside a page. */
  top: number;
  size: number;
  marks: string[];
  label?: string;
  level?: number;
  /** A heading found by its bold face (body size), not by a larger size. */
  byWeight?: boolean;
  /** Where its lines stand, per page and column piece (pdf-regions.ts); of a figure, what is cropped. */
  boxes: PageBox[];
  /** Figures: mostly a photograph of this many pixels per point (encoded lossy), and the image cropped for it. */
  photo?: number;
  /** Figures: pixels of the pictures rendering it decodes (pdf-crop.ts refuses past PARSE_LIMITS.cropSourcePixels). */
  sourcePixels?: number;
  imageId?: string;
}

/**
 * Figures in the flow of a page's lines, where they stand in reading order: their paragraphs (the
 * picture and its caption) in the order they are read. A float (a figure, a table) never cuts the
 * paragraph running past it: it follows that paragraph. A displayed formula is part of the flow:
 * the text before it is a paragraph of its own.
 */
export interface FlowFigure {
  paragraphs: PdfParagraph[];
  float: boolean;
}

const isFigure = (item: PdfLine | FlowFigure): item is FlowFigure => 'paragraphs' in item;

/** Font size carrying most characters: the body text. */
export function bodyFontSize(lines: PdfLine[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) {
    const key = Math.round(l.size * 2) / 2;
    weight.set(key, (weight.get(key) ?? 0) + l.text.length);
  }
  let best = 10;
  let bestWeight = -1;
  for (const [size, w] of weight)
    if (w > bestWeight) {
      best = size;
      bestWeight = w;
    }
  return best;
}

const NOTE_START = /^([\d]{1,3}|[*†‡§¶∗]{1,3})(?=\s|[A-Za-z\u00c0-\u024f\u4e00-\u9fff])/;

/**
 * Marks footnotes: the run of small-font lines at the bottom of a column, from the first one that
 * starts with a number or a note symbol.
 */
export function splitFootnotes(
  lines: PdfLine[],
  bodySize: number,
): { body: PdfLine[]; notes: PdfLine[]; asides: PdfLine[] } {
  const notes = new Set<PdfLine>();
  const asides = new Set<PdfLine>();
  for (const col of new Set(lines.map((l) => l.col))) {
    const inCol = lines.filter((l) => l.col === col).sort((a, b) => a.y - b.y);
    const run: PdfLine[] = [];
    for (const l of inCol) {
      if (l.size < bodySize * 0.93) run.push(l);
      else break;
    }
    // A column set entirely in small type is body text, not notes.
    if (!run.length || run.length === inCol.length || run.length > 25) continue;
    // The topmost line of the run must open a note; notes below it belong to it.
    run.reverse();
    const start = run.findIndex((l) => l.leadingMark || NOTE_START.test(l.text));
    // Small print above the notes (or instead of them: copyright blocks, credits) is set aside so the
    // body paragraph can continue in the next column or page.
    for (const l of start === -1 ? run : run.slice(0, start)) if (run.length <= 12) asides.add(l);
    if (start !== -1) for (const l of run.slice(start)) notes.add(l);
  }
  if (!notes.size && !asides.size) return { body: lines, notes: [], asides: [] };
  return {
    body: lines.filter((l) => !notes.has(l) && !asides.has(l)),
    notes: lines.filter((l) => notes.has(l)),
    asides: lines.filter((l) => asides.has(l)),
  };
}

const TERMINAL = /[.!?:;。！？：；」』”"')\]…]$/;

export interface ParagraphState {
  /** An open paragraph that may continue on the next page/column. */
  open?: { para: PdfParagraph; lines: string[]; last: PdfLine; colRight: number };
  /** Fonts (pdf.js ids) of bold/heavy faces: a short line of body size in one of them is a heading. */
  headingFonts?: ReadonlySet<string>;
  /** Page footnotes and small print held back until the open paragraph ends (not cut in two). */
  pending?: PdfParagraph[];
  lexicon?: Lexicon;
}

/** Font names of bold faces: "Times-Bold", "NimbusSanL-Medi", "Helvetica-Black", "SourceHanSans-Heavy"... */
export const BOLD_FONT_NAME = /bold|heavy|black|semibold|demibold|[-,+_ ](?:medi|demi|bd|hv|blk)\b|medium/i;

/**
 * A line that may be a heading set in a bold face at about body size: short, not small print, with
 * letters, not ending like a sentence (numbered titles "2.1 Tracing." aside).
 */
export function isWeightHeadingLine(l: PdfLine, bodySize: number): boolean {
  const text = l.text.trim();
  if (l.size < bodySize * 0.95 || text.length > 90 || text.length < 2 || !/\p{L}{2}/u.test(text)) return false;
  // A run-in heading ("Numbers. JavaScript has...") shares its line with body text: not a heading line.
  if ((l.fontShare ?? 1) < 0.9) return false;
  // Captions, hyphenated or comma-ended lines and sentences are text, not titles.
  if (/^(fig(ure)?|table|listing|algorithm|example)\.?\s*\d/i.test(text) || /[-,;:]$/.test(text)) return false;
  const numbering = /^(\d{1,2}(\.\d{1,2})*\.?|[IVX]{1,5}\.|[A-Z]\.)\s+(?=\S)/.exec(text);
  const rest = numbering ? text.slice(numbering[0].length) : text;
  if (/[^\d\s][.!?]\s+\S/u.test(rest)) return false;
  return !/[.!?]$/.test(rest) || numbering !== null;
}

/** Ends the open paragraph (if any) and releases what was held back for it. */
export function closeParagraph(state: ParagraphState, out: PdfParagraph[]): void {
  if (state.open) {
    const para = state.open.para;
    para.text = joinParagraphLines(state.open.lines, state.lexicon);
    // Several bold lines in a row are a bold paragraph (a warning, a lead-in), not a title.
    if (para.kind === 'heading' && para.byWeight && para.text.length > 120) {
      para.kind = 'paragraph';
      delete para.level;
      delete para.byWeight;
    }
    if (para.text) out.push(para);
  }
  state.open = undefined;
  if (state.pending?.length) {
    out.push(...state.pending);
    state.pending = [];
  }
}

/** Turns ordered lines of one page into paragraphs, continuing the open paragraph of the previous page. */
export function linesToParagraphs(
  flow: (PdfLine | FlowFigure)[],
  bodySize: number,
  headingSizes: number[],
  state: ParagraphState,
  out: PdfParagraph[],
): void {
  const lines = flow.filter((item): item is PdfLine => !isFigure(item));
  interface ColumnStats {
    left: number;
    right: number;
    /** Typical full line width. */
    width: number;
    /** Most lines start at the same x: indents mean something (ragged-left text has none). */
    leftAligned: boolean;
  }
  const colStats = new Map<number, ColumnStats>();
  for (const col of new Set(lines.map((l) => l.col))) {
    const ls = lines.filter((l) => l.col === col && l.size <= bodySize * 1.1);
    if (!ls.length) continue;
    const xs = ls.map((l) => l.x0).sort((a, b) => a - b);
    const rs = ls.map((l) => l.x1).sort((a, b) => a - b);
    const ws = ls.map((l) => l.x1 - l.x0).sort((a, b) => a - b);
    const left = xs[Math.floor(xs.length * 0.2)]!;
    colStats.set(col, {
      left,
      right: rs[Math.floor(rs.length * 0.85)]!,
      width: ws[Math.floor(ws.length * 0.85)]!,
      leftAligned: ls.filter((l) => Math.abs(l.x0 - left) < 2).length >= ls.length * 0.4,
    });
  }
  const statsOf = (l: PdfLine): ColumnStats =>
    colStats.get(l.col) ?? { left: l.x0, right: l.x1, width: l.x1 - l.x0, leftAligned: true };
  const close = () => closeParagraph(state, out);
  const bySize = (l: PdfLine) => l.size >= bodySize * 1.15 && l.text.length <= 150 && /\p{L}/u.test(l.text);
  const byWeight = (l: PdfLine) =>
    l.font !== undefined && state.headingFonts?.has(l.font) === true && isWeightHeadingLine(l, bodySize);
  const isHeading = (l: PdfLine) => bySize(l) || byWeight(l);
  const levelOf = (size: number) => {
    const idx = headingSizes.findIndex((s) => Math.abs(s - size) < 0.6);
    return idx === -1 ? headingSizes.length + 1 : idx + 1;
  };
  let prev: PdfLine | undefined = state.open?.last;
  /** A float stands between this line and the one before: the paragraph may go on past it. */
  let pastFloat = false;
  for (const line of flow) {
    if (isFigure(line)) {
      if (!line.float) close();
      if (state.open) state.pending = [...(state.pending ?? []), ...line.paragraphs];
      else out.push(...line.paragraphs);
      pastFloat = line.float;
      continue;
    }
    const stats = statsOf(line);
    const heading = isHeading(line);
    let newPara = !state.open;
    if (state.open && prev) {
      const wasHeading = state.open.para.kind === 'heading';
      const samePlace = !pastFloat && prev.page === line.page && prev.col === line.col;
      if (heading !== wasHeading) newPara = true;
      else if (Math.abs(prev.size - line.size) > Math.max(prev.size, line.size) * 0.12) newPara = true;
      else if (samePlace) {
        const gap = prev.y - line.y;
        if (gap < 0 || gap > Math.max(prev.size, line.size) * (wasHeading ? 2.2 : 1.75)) newPara = true;
        else if (!wasHeading) {
          const indent = line.x0 - stats.left;
          const prevIndent = prev.x0 - stats.left;
          const prevWidth = prev.x1 - prev.x0;
          const prevShort = prevWidth < stats.width - Math.max(line.size * 2, stats.width * 0.1);
          // An indent starts a paragraph after one that ended; after a line that ran to the margin
          // mid-sentence it is a hanging indent, the same item going on (a definition, a numbered step).
          const ended = prevShort || TERMINAL.test(prev.text);
          if (stats.leftAligned && indent > line.size * 0.8 && prevIndent < line.size * 0.5 && ended) newPara = true;
          else if (prevShort && (TERMINAL.test(prev.text) || prevWidth < stats.width * 0.5)) newPara = true;
        }
      } else {
        // New page or column: continue only if the previous line ran to the margin without ending.
        const prevFull = prev.x1 >= state.open.colRight - Math.max(line.size * 2, 10);
        const indent = line.x0 - stats.left;
        if (wasHeading || !prevFull || TERMINAL.test(prev.text) || indent > line.size * 0.8) newPara = true;
      }
    }
    if (newPara) {
      close();
      const para: PdfParagraph = {
        kind: heading ? 'heading' : 'paragraph',
        text: '',
        page: line.page,
        top: line.y + line.size,
        size: line.size,
        marks: [],
        boxes: [],
      };
      // Body-size bold headings rank below every larger size.
      if (heading && bySize(line)) para.level = levelOf(Math.round(line.size * 2) / 2);
      else if (heading) {
        para.level = headingSizes.length + 1;
        para.byWeight = true;
      }
      state.open = { para, lines: [], last: line, colRight: stats.right };
    }
    const open = state.open!;
    open.lines.push(line.text);
    open.para.marks.push(...line.marks);
    addLineBox(open.para.boxes, line);
    open.last = line;
    open.colRight = stats.right;
    prev = line;
    pastFloat = false;
  }
  if (state.open && state.open.para.kind === 'heading') close();
}

/** Groups footnote lines into notes, each starting at a line that opens with a marker. */
export function footnoteParagraphs(notes: PdfLine[], lexicon?: Lexicon): PdfParagraph[] {
  const out: PdfParagraph[] = [];
  let current: { para: PdfParagraph; lines: string[] } | undefined;
  const sorted = [...notes].sort((a, b) => (a.col === b.col ? b.y - a.y : a.col - b.col));
  for (const l of sorted) {
    const mark = l.leadingMark ?? NOTE_START.exec(l.text)?.[1];
    if (mark || !current) {
      if (current) out.push({ ...current.para, text: joinParagraphLines(current.lines, lexicon) });
      const text = l.leadingMark ? l.text.replace(l.leadingMark, '').trim() : l.text;
      const para: PdfParagraph = {
        kind: 'footnote',
        text: '',
        page: l.page,
        top: l.y + l.size,
        size: l.size,
        marks: [],
        boxes: [],
      };
      if (mark) para.label = mark;
      current = { para, lines: [l.leadingMark ? `${l.leadingMark} ${text}` : text] };
    } else current.lines.push(l.text);
    addLineBox(current.para.boxes, l);
  }
  if (current) out.push({ ...current.para, text: joinParagraphLines(current.lines, lexicon) });
  return out;
}
