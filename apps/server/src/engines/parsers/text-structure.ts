/**
 * Plain text → paragraphs → chapters. Shared by TXT and DOC, whose bodies are plain text too.
 * Real files come in three shapes: paragraphs separated by blank lines with hard-wrapped lines
 * (Project Gutenberg), hard-wrapped lines where an indent starts a paragraph (Chinese web texts), and
 * one line per paragraph (Aozora Bunko, most modern files). We decide from the text itself.
 */
import type { BookBuilder } from './builder.ts';
import { shorten } from './builder.ts';

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

function isHardWrapped(lengths: number[]): { wrapped: boolean; width: number } {
  if (lengths.length < 8) return { wrapped: false, width: 0 };
  const sorted = [...lengths].sort((a, b) => a - b);
  const width = sorted[Math.floor(sorted.length * 0.9)]!;
  const full = lengths.filter((l) => l >= width * 0.75).length;
  return { wrapped: width <= 130 && full >= lengths.length * 0.4, width };
}

export interface TextParagraph {
  text: string;
  heading?: number;
}

/** Splits text (LF line ends) into paragraphs, marking heading lines. */
export function splitParagraphs(text: string, options: TextChapterOptions = {}): TextParagraph[] {
  const lines = text.split('\n').map((l) => l.replace(/\s+$/, ''));
  const nonEmpty = lines.filter((l) => l.trim());
  const measured = isHardWrapped(nonEmpty.map((l) => l.trim().length));
  const wrapped = measured.wrapped && !options.linePerParagraph;
  const width = measured.width;
  const indented = nonEmpty.filter((l) => /^[ \t\u3000]{2,}|^\u3000/.test(l)).length;
  const indentMarks = wrapped && indented >= nonEmpty.length * 0.03 && indented <= nonEmpty.length * 0.7;
  const out: TextParagraph[] = [];
  let current = '';
  let previousLength = 0;
  const flush = () => {
    const t = current.trim();
    if (t) out.push({ text: t });
    current = '';
  };
  for (const raw of lines) {
    const line = raw.trim().replace(/^\u3000+/, '');
    if (line.startsWith(TOC_LINE_MARK)) {
      flush();
      out.push({ text: line.slice(1).replace(/\t+/g, ' ').trim() });
      previousLength = 0;
      continue;
    }
    if (!line) {
      flush();
      previousLength = 0;
      continue;
    }
    const level = headingLevel(line, options.numberedHeadings);
    if (level) {
      flush();
      out.push({ text: line.replace(HEADING_MARK, '').trim(), heading: level });
      previousLength = 0;
      continue;
    }
    if (!wrapped) {
      flush();
      current = line;
      flush();
      continue;
    }
    const startsParagraph = indentMarks && /^[ \t\u3000]{2,}|^\u3000/.test(raw);
    if (startsParagraph || (previousLength > 0 && previousLength < width * 0.6)) flush();
    current = joinLines(current, line);
    previousLength = line.length;
  }
  flush();
  return out;
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
