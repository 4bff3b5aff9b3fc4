/**
 * Plain text → paragraphs → chapters. Shared by TXT and DOC, whose bodies are plain text too.
 * Real files come in three shapes: paragraphs separated by blank lines with hard-wrapped lines
 * (Project Gutenberg), hard-wrapped lines where an indent starts a paragraph (Chinese web texts), and
 * one line per paragraph (Aozora Bunko, most modern files). We decide from the text itself.
 */
import type { BlockDraft } from '../blocks.ts';
import { shorten, type BookBuilder } from '../builder.ts';
import { bareNumber, headingMarks, headingRank, titleLike } from './text-headings.ts';

const CJK_CHAR = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;
/** A marker for table-of-contents lines: never headings themselves (their page numbers are gone). */
export const TOC_LINE_MARK = '\u0003';

export interface TextChapterOptions {
  /** Every line is a paragraph (Word bodies); skips the hard-wrap detection. */
  linePerParagraph?: boolean;
  /** Also accept numbered headings like "1. Introduction" / "A. GENERAL INFORMATION" (DOC). */
  numberedHeadings?: boolean;
  /** Paragraphs per chapter when a text has no chapter headings. */
  paragraphsPerPart?: number;
  /** Characters per chapter when a text has no chapter headings. */
  charactersPerPart?: number;
}

export function isCjkText(text: string): boolean {
  let cjk = 0;
  let total = 0;
  for (const ch of text.slice(0, 20000)) {
    if (/\s/.test(ch)) continue;
    total++;
    if (CJK_CHAR.test(ch)) cjk++;
  }
  return total > 0 && cjk / total > 0.3;
}

/** Joins two pieces of a wrapped line: no space between CJK characters, one between words. */
export function joinLines(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  const last = a[a.length - 1]!;
  const first = b[0]!;
  if (CJK_CHAR.test(last) || CJK_CHAR.test(first)) return a + b;
  return `${a} ${b}`;
}

export interface TextParagraph {
  text: string;
  /** The heading's rank (text-headings.ts): 1 part, 2 chapter, 3 section. */
  heading?: number;
  /** A line standing alone between blank lines (a title, perhaps). */
  alone?: boolean;
}

const WIDE_RANGES =
  '\\u1100-\\u115f\\u2e80-\\ua4cf\\uac00-\\ud7a3\\uf900-\\ufaff\\ufe30-\\ufe4f\\uff00-\\uff60\\uffe0-\\uffe6';
const WIDE = new RegExp(`[${WIDE_RANGES}]`);
const NARROW = new RegExp(`[^${WIDE_RANGES}]`, 'g');
/** Display columns of a line: CJK and full-width characters take two, as in the editors that wrapped it. */
function columns(line: string): number {
  // Most lines hold no wide character, or (in CJK books) few narrow ones: count the fewer kind.
  if (!WIDE.test(line)) return line.length;
  return line.length * 2 - (line.match(NARROW)?.length ?? 0);
}

/**
 * The width a text was hard-wrapped at, in columns, if a good part of it was: wrapped lines fill up to
 * the width and never pass it, so their lengths pile up just below it. Lines a little longer than a
 * candidate width speak against it; much longer ones are unwrapped paragraphs elsewhere in the text
 * (a book wrapped in its first chapters only) and say nothing.
 */
function wrapWidth(lengths: number[]): number | undefined {
  const histogram = new Array<number>(242).fill(0);
  for (const length of lengths) if (length <= 240) histogram[length]!++;
  const upTo = new Array<number>(243).fill(0);
  for (let i = 0; i <= 241; i++) upTo[i + 1] = upTo[i]! + histogram[i]!;
  const count = (from: number, to: number) => upTo[Math.min(241, to) + 1]! - upTo[Math.max(0, from)]!;
  let best: { width: number; score: number; full: number } | undefined;
  for (let width = 30; width <= 200; width++) {
    const full = count(Math.ceil(width * 0.8), width);
    const score = full - 4 * count(width + 1, Math.floor(width * 1.08) + 1);
    if (!best || score > best.score) best = { width, score, full };
  }
  if (!best || best.full < 8) return undefined;
  const longEnough = lengths.filter((l) => l >= best.width * 0.5).length;
  return best.full >= longEnough * 0.3 ? best.width : undefined;
}

/**
 * A line that opens an item of its own: a bullet, a number, a letter ('a.', '(b)', 'C)'; not 'M.', which
 * opens names as often), 一、 or （一）.
 */
const LIST_ITEM =
  /^(?:[-*•·‣◦▪]\s|\(?\d{1,3}[.)]\s|\(?[a-z][.)]\s|\(?[A-Z]\)\s|[一二三四五六七八九十]+、|（[一二三四五六七八九十\d]+）)/;
/** A table-of-contents line: a title, dots or spaces, a page number. */
const TOC_LINE = /(?:\.{3,}|…{2,}|\s{3,}|\t)\s*\d{1,4}$/;

/** A space after a Chinese sentence, inside a line. */
const CJK_PARAGRAPH_GAP = /(?<=[。！？」』”])[ \u3000]+(?=[\u2e80-\u9fff「『“])/u;
const CJK_SENTENCE_END = /[。！？」』”]$/u;

interface Line {
  raw: string;
  text: string;
  indent: number;
  /** Columns, indentation included. */
  width: number;
  cjk: boolean;
}

/** Splits text (LF line ends) into paragraphs, marking heading lines. */
export function splitParagraphs(text: string, options: TextChapterOptions = {}): TextParagraph[] {
  const lines: (Line | undefined)[] = text.split('\n').map((raw) => {
    const trimmed = raw.trimEnd();
    const text = trimmed.trimStart();
    if (!text) return undefined;
    const indentText = trimmed.slice(0, trimmed.length - text.length);
    const indent = indentText ? columns(indentText.replace(/\t/g, '    ')) : 0;
    return { raw: trimmed, text, indent, width: indent + columns(text), cjk: CJK_CHAR.test(text.slice(0, 3)) };
  });
  const present = lines.filter((l): l is Line => l !== undefined);
  const width = options.linePerParagraph ? undefined : wrapWidth(present.map((l) => l.width));

  // Whether a line is as long as a wrapped line gets, and whether the lines around it are: a region of
  // such lines was wrapped, a region of long or ragged lines holds one paragraph per line.
  const full = (line: Line) =>
    width !== undefined && line.width >= width * (line.cjk ? 0.8 : 0.75) && line.width <= width * 1.05 + 2;
  const fullAt = present.map(full);
  // Paragraphs separated by blank lines (Project Gutenberg): inside one, every line but a short one
  // (the end of a verse line, an address) was cut by the wrapping, as long as the text is wrapped.
  let beforeBlank = 0;
  for (let i = 0; i < lines.length - 1; i++) if (lines[i] && !lines[i + 1]) beforeBlank++;
  const blankSeparated = width !== undefined && beforeBlank >= present.length * 0.08;
  const shortAt = present.map((l) => width === undefined || l.width < width * 0.6 || l.width > width * 1.1 + 2);
  const longAt = present.map((l) => width !== undefined && l.width > width * 1.1 + 2);
  // A line of a wrapped paragraph has a wrapped line next to it, or several among the lines before or
  // after it (the first one after a heading has them after it only).
  const wrappedRegion = (k: number) => {
    const side = (from: number, to: number) => {
      let fullCount = 0;
      let longCount = 0;
      for (let j = Math.max(0, from); j <= Math.min(present.length - 1, to); j++) {
        if (fullAt[j]) fullCount++;
        if (longAt[j]) longCount++;
      }
      return fullCount >= 3 && longCount <= 1;
    };
    return fullAt[k - 1] === true || fullAt[k + 1] === true || side(k - 5, k - 1) || side(k + 1, k + 5);
  };

  // Paragraphs that start with an indent and go on flush (Chinese web texts): an indented line then
  // opens a paragraph, it does not go on with the line before. Verse and quotations are indented
  // line after line instead.
  let opening = 0;
  let indentedLines = 0;
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i];
    if (!line || line.indent < 2) continue;
    indentedLines++;
    const next = lines[i + 1];
    if (next && next.indent === 0) opening++;
  }
  const indentOpens = indentedLines > 0 && opening >= indentedLines * 0.5;

  const out: TextParagraph[] = [];
  let current = '';
  const flush = () => {
    const t = current.trim();
    if (t) out.push({ text: t });
    current = '';
  };
  let k = -1;
  let continues = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) {
      flush();
      continues = false;
      continue;
    }
    k++;
    if (line.text.startsWith(TOC_LINE_MARK)) {
      flush();
      out.push({ text: line.text.slice(1).replace(/\t+/g, ' ').trim() });
      continues = false;
      continue;
    }
    const rank = headingRank(line.text, options.numberedHeadings);
    if (rank) {
      flush();
      out.push({ text: line.text.slice(headingMarks(line.text)).trim(), heading: rank });
      continues = false;
      continue;
    }
    // A short line between blank lines may be a title; whether it is depends on the rest of the text.
    if (!lines[i - 1] && !lines[i + 1] && titleLike(line.text)) {
      flush();
      out.push({ text: line.text, alone: true });
      continue;
    }
    const previous = lines[i - 1];
    const joins =
      continues &&
      previous !== undefined &&
      !LIST_ITEM.test(line.text) &&
      !TOC_LINE.test(line.text) &&
      !(indentOpens ? line.indent >= 2 : line.indent > previous.indent) &&
      // Indented lines one after the other are verse or a quotation: they run on only when the
      // line before filled its width (a wrapped quotation).
      (indentOpens || line.indent < 2 || (line.indent === previous.indent && fullAt[k - 1]!));
    if (!joins) flush();
    // Chinese wrapped text that marks no paragraph (no indent, no blank line) keeps a space where one
    // ended inside a line ('去了。 王冕自此'), and starts a paragraph on a new line after a sentence end.
    const wrappedCjk = line.cjk && fullAt[k]! && wrappedRegion(k) && !indentOpens;
    const pieces = wrappedCjk ? line.text.split(CJK_PARAGRAPH_GAP) : [line.text];
    pieces.forEach((piece, n) => {
      if (n > 0) flush();
      current = joinWrapped(current, piece);
    });
    // This line runs on into the next when it was cut by the wrapping: as long as a wrapped line, in
    // a wrapped region, and not a table-of-contents line.
    // A full indented line that a flush one follows opens a wrapped paragraph in such a text.
    const opensWrapped = indentOpens && line.indent >= 2 && lines[i + 1] !== undefined && lines[i + 1]!.indent === 0;
    continues =
      (blankSeparated ? !shortAt[k]! : fullAt[k]! && (wrappedRegion(k) || opensWrapped)) &&
      !TOC_LINE.test(line.text) &&
      !(wrappedCjk && CJK_SENTENCE_END.test(line.text));
  }
  flush();
  return out;
}

/** Joins a wrapped line to the paragraph so far: a word cut after its hyphen is joined without a space. */
function joinWrapped(paragraph: string, line: string): string {
  if (/\p{L}-$/u.test(paragraph) && /^\p{Ll}/u.test(line)) return paragraph + line;
  return joinLines(paragraph, line);
}

/** Characters of text a heading needs before the next one of its rank: fewer, it is a contents line. */
const MIN_BODY = 40;
/** Characters a title standing alone needs before the next one (a story, not a line of verse). */
const MIN_TITLE_BODY = 200;

/**
 * The headings among `candidates` (paragraph index → rank) that have a body: text before the next
 * heading of the same or a higher rank. Headings followed by (almost) no text are a table of
 * contents, not chapters: their lines stay paragraphs of the chapter before.
 */
function withBody(paragraphs: TextParagraph[], candidates: Map<number, number>, minBody: number): Map<number, number> {
  const accepted = new Map<number, number>();
  for (const [index, rank] of candidates) {
    let body = 0;
    for (let i = index + 1; i < paragraphs.length && body < minBody; i++) {
      const other = candidates.get(i);
      if (other === undefined) body += paragraphs[i]!.text.length;
      else if (other <= rank) break;
    }
    if (body >= minBody) accepted.set(index, rank);
  }
  return accepted;
}

/**
 * The headings a text really has, by rank: numbered and named heading lines (text-headings.ts); else
 * numbers alone on their lines that count up (I, II, III…); else short title-like lines standing
 * alone between blank lines ("青蛙王子"), when each is followed by a story's worth of text.
 */
function findHeadings(paragraphs: TextParagraph[]): Map<number, number> {
  const marked = new Map<number, number>();
  paragraphs.forEach((p, i) => p.heading && marked.set(i, p.heading));
  const headings = withBody(paragraphs, marked, MIN_BODY);
  if (headings.size >= 2) return headings;

  const numbers = new Map<number, number>();
  paragraphs.forEach((p, i) => {
    const n = p.heading ? undefined : bareNumber(p.text);
    if (n !== undefined) numbers.set(i, n);
  });
  const values = [...numbers.values()];
  const counting = values.filter((v, k) => k > 0 && v === values[k - 1]! + 1).length;
  if (values.length >= 3 && values[0]! <= 2 && counting >= (values.length - 1) * 0.8) {
    const numbered = withBody(paragraphs, new Map([...numbers.keys()].map((i) => [i, 2])), MIN_BODY);
    if (numbered.size >= 3) return numbered;
  }

  const titles = new Map<number, number>();
  paragraphs.forEach((p, i) => p.alone && !p.heading && titles.set(i, 2));
  const named = withBody(paragraphs, titles, MIN_TITLE_BODY);
  if (named.size >= 3 && named.size <= paragraphs.length / 2) return named;
  return new Map();
}

/**
 * Adds chapters and the contents to the builder, from the headings the text has (findHeadings).
 * Chapters start at chapter headings (or, without them, at the rank there is); the rest are entries
 * of the contents inside their chapter, at their depth. A text without headings is cut into parts of
 * about the same size, titled by a generated marker (said "Part 3" in the reader's language).
 */
export function addTextChapters(
  builder: BookBuilder,
  paragraphs: TextParagraph[],
  options: TextChapterOptions = {},
): void {
  const headings = findHeadings(paragraphs);
  if (headings.size >= 2) {
    const count = (rank: number) => [...headings.values()].filter((r) => r === rank).length;
    const cutRank = [2, 1, 3].find((rank) => count(rank) >= 2) ?? 2;
    const ranks = [...new Set(headings.values())].sort((a, b) => a - b);
    builder.listChapter(builder.startChapter(''), 1);
    paragraphs.forEach((p, i) => {
      const rank = headings.get(i);
      if (rank === undefined) {
        builder.add({ type: 'paragraph', text: p.text });
        return;
      }
      const level = ranks.indexOf(rank) + 1;
      const block: BlockDraft = { type: 'heading', text: p.text, level };
      if (rank <= cutRank) builder.listChapter(builder.startChapter(shorten(p.text, 100), level));
      else builder.entry(shorten(p.text, 100), level, block);
      builder.add(block);
    });
    return;
  }
  // No structure: cut into parts of about the same size, at paragraph boundaries.
  const perPart = options.paragraphsPerPart ?? 80;
  const charsPerPart = options.charactersPerPart ?? 30000;
  let part = 0;
  let count = 0;
  let chars = 0;
  for (const p of paragraphs) {
    if (part === 0 || count >= perPart || chars >= charsPerPart) {
      part++;
      builder.listChapter(builder.startChapter('', 1, { kind: 'part', n: part }));
      count = 0;
      chars = 0;
    }
    builder.add({ type: p.heading ? 'heading' : 'paragraph', text: p.text, ...(p.heading ? { level: 2 } : {}) });
    count++;
    chars += p.text.length;
  }
  // One part is the whole text: named by its first words, not "Part 1".
  if (part === 1) delete builder.chapters[0]!.generated;
}
