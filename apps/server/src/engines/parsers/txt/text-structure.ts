/**
 * Plain text → paragraphs → chapters. Shared by TXT and DOC, whose bodies are plain text too.
 * Real files come in three shapes: paragraphs separated by blank lines with hard-wrapped lines
 * (Project Gutenberg), hard-wrapped lines where an indent starts a paragraph (Chinese web texts), and
 * one line per paragraph (Aozora Bunko, most modern files). We decide from the text itself.
 */
import type { BookBuilder } from '../builder.ts';
import { shorten } from '../builder.ts';

const CJK_CHAR = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;
const NUMERALS = '一二三四五六七八九十百千零〇两壹贰叁肆伍陆柒捌玖拾佰\\d０-９';
const CJK_HEADING = new RegExp(`^第[${NUMERALS}]{1,8}[章回节節卷集部篇话話幕]`);
const WORD_NUMBER =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|[a-z]+-(?:one|two|three|four|five|six|seven|eight|nine)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final';
const LATIN_HEADING = new RegExp(
  `^\\[?(?:(?:chapter|chap\\.|book|part|adventure|letter|volume|canto|story|act)\\s+(?:[ivxlcdm]+|\\d+|${WORD_NUMBER})\\b|(?:prologue|epilogue|preface)\\b)`,
  'i',
);
const ROMAN_CAPS_HEADING = /^[IVXLC]{1,7}\.\s+[A-Z][A-Z0-9'’,.!?;: -]{3,}$/;
/** A marker put in front of lines a format already knows are headings (Aozora's 見出し notes). */
export const HEADING_MARK = '\u0002';
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

export function headingLevel(line: string, numbered = false): number | undefined {
  const text = line.trim();
  if (!text) return undefined;
  if (text.startsWith(HEADING_MARK)) return 1;
  if (text.length > 60) return undefined;
  if (CJK_HEADING.test(text)) return 1;
  if (
    LATIN_HEADING.test(text) &&
    text.length <= 70 &&
    !/[.!?]["”’]?$/.test(text.replace(/\b[ivxlcdm]+\.$|\d+\.$/i, ''))
  )
    return 1;
  if (ROMAN_CAPS_HEADING.test(text)) return 1;
  if (numbered) {
    if (/^([A-ZА-Я]|\d{1,2})\.\s+\p{Lu}[\p{Lu}\d ,'’&:;()/-]{3,}$/u.test(text)) return 1;
    if (/^\d{1,2}(\.\d{1,2}){0,2}\.?\s+\S/.test(text) && text.length <= 80 && !/[.;:,]$/.test(text)) return 2;
  }
  return undefined;
}

export interface TextParagraph {
  text: string;
  heading?: number;
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
    const level = headingLevel(line.text, options.numberedHeadings);
    if (level) {
      flush();
      out.push({ text: line.text.replace(HEADING_MARK, '').trim(), heading: level });
      continues = false;
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

/**
 * Adds chapters to the builder. Headings followed by (almost) no text are a table of contents, not
 * chapters: their lines stay as paragraphs of the chapter before.
 */
export function addTextChapters(
  builder: BookBuilder,
  paragraphs: TextParagraph[],
  options: TextChapterOptions = {},
): void {
  const minBody = 40;
  const headingIdx = paragraphs.map((p, i) => (p.heading ? i : -1)).filter((i) => i >= 0);
  const accepted = new Set<number>();
  headingIdx.forEach((idx, k) => {
    const next = headingIdx[k + 1] ?? paragraphs.length;
    let body = 0;
    for (let i = idx + 1; i < next; i++) body += paragraphs[i]!.text.length;
    if (body >= minBody) accepted.add(idx);
  });
  // Sub-level (numbered "1.2") headings only count when there are no top-level ones.
  const topLevel = [...accepted].filter((i) => paragraphs[i]!.heading === 1);
  const chapterStarts = new Set(topLevel.length >= 2 ? topLevel : accepted);
  if (chapterStarts.size >= 2) {
    builder.startChapter('');
    paragraphs.forEach((p, i) => {
      if (chapterStarts.has(i)) {
        builder.startChapter(shorten(p.text, 100), 1);
        builder.add({ type: 'heading', text: p.text, level: 1 });
      } else if (p.heading && accepted.has(i)) {
        builder.add({ type: 'heading', text: p.text, level: 2 });
      } else builder.add({ type: 'paragraph', text: p.text });
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
      builder.startChapter(`Part ${part}`);
      count = 0;
      chars = 0;
    }
    builder.add({ type: p.heading ? 'heading' : 'paragraph', text: p.text, ...(p.heading ? { level: 2 } : {}) });
    count++;
    chars += p.text.length;
  }
  if (part === 1) builder.chapters[0]!.title = '';
}
