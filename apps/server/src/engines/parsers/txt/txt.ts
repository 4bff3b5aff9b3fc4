/**
 * Plain text: detect the encoding (txt-encoding.ts), strip well-known wrappers
 * (Project Gutenberg licence, Aozora Bunko notes and ruby), then find paragraphs and chapters.
 */
import { PARSE_LIMITS } from '../limits.ts';
import { BookBuilder, isMarkerText, shorten, tocTitleOf } from '../builder.ts';
import { ParseError } from '../errors.ts';
import { addTextChapters, HEADING_MARK, headingLevel, splitParagraphs } from './text-structure.ts';
import { decodeText } from './txt-encoding.ts';
import { repairMojibakeText } from '../mojibake.ts';
import type { BookParser, ParseOptions, ParsedBook } from '../types.ts';

export { decodeText } from './txt-encoding.ts';

interface Unwrapped {
  text: string;
  title?: string;
  author?: string;
  language?: string;
}

/** Project Gutenberg: keep what is between the START and END markers; read Title/Author lines. */
function unwrapGutenberg(text: string): Unwrapped | undefined {
  const start = /^\*{3}\s*START OF (THE|THIS) PROJECT GUTENBERG.*$/im.exec(text);
  if (!start) return undefined;
  const head = text.slice(0, start.index);
  const endMatch = /^\*{3}\s*END OF (THE|THIS) PROJECT GUTENBERG.*$/im.exec(text);
  const body = text.slice(start.index + start[0].length, endMatch ? endMatch.index : undefined);
  const field = (name: string) => new RegExp(`^${name}:[ \\t]*(.+)$`, 'im').exec(head)?.[1]?.trim();
  const out: Unwrapped = { text: body.replace(/^\s*Produced by[^\n]*(\n[^\n]+)*\n/, '') };
  const title = field('Title');
  const author = field('Author');
  const language = field('Language');
  if (title) out.title = title;
  if (author) out.author = author;
  if (language) out.language = language;
  return out;
}

/** Aozora Bunko: title and author lines, a notation legend between dashed rules, a colophon, ruby. */
function unwrapAozora(text: string): Unwrapped | undefined {
  if (!/［＃[^］]*］|《[\u3040-\u30ff]{1,20}》/.test(text.slice(0, 50000))) return undefined;
  const lines = text.split('\n');
  const out: Unwrapped = { text };
  const firstLines = lines.slice(0, 5).filter((l) => l.trim());
  let body = text;
  const rule = /^-{20,}\s*$/m;
  const first = rule.exec(body);
  if (first && first.index < 3000) {
    const rest = body.slice(first.index + first[0].length);
    const second = rule.exec(rest);
    if (second) {
      body = rest.slice(second.index + second[0].length);
      if (firstLines[0] && !firstLines[0].startsWith('-')) out.title = firstLines[0].trim();
      if (firstLines[1] && !firstLines[1].startsWith('-')) out.author = firstLines[1].trim();
    }
  }
  const colophon = /^底本：/m.exec(body);
  if (colophon) body = body.slice(0, colophon.index);
  out.text = body
    .split('\n')
    .map((line) => {
      const heading = /［＃「([^」]+)」は[大中小]?見出し］/.exec(line);
      if (heading) return HEADING_MARK + heading[1]!;
      return line
        .replace(/｜/g, '')
        .replace(/《[^》]*》/g, '')
        .replace(/［＃[^］]*］/g, '');
    })
    .join('\n');
  return out;
}

const SRT_TIMING = /^\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}.*$/;

/** SubRip/WebVTT subtitles: drop cue numbers and timings, one paragraph per cue. */
export function stripSubtitles(text: string): string {
  const lines = text.split('\n');
  const timings = lines.filter((l) => SRT_TIMING.test(l.trim())).length;
  if (timings < 3 || timings < lines.length * 0.1) return text;
  const cues: string[] = [];
  let current: string[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (SRT_TIMING.test(line) || line === 'WEBVTT') return;
    if (/^\d+$/.test(line) && SRT_TIMING.test(lines[i + 1]?.trim() ?? '')) {
      if (current.length) cues.push(current.join(' '));
      current = [];
      return;
    }
    if (line) current.push(line.replace(/<[^>]+>/g, ''));
  });
  if (current.length) cues.push(current.join(' '));
  return cues.join('\n\n');
}

/**
 * Project Gutenberg's "[Illustration: caption]" notes span lines and sometimes hold the chapter heading
 * itself ("[Illustration: ·PRIDE AND PREJUDICE· … Chapter I.]"). Each note becomes one short paragraph;
 * a heading inside it comes out first, on its own, so it opens its chapter.
 */
export function normalizeIllustrations(text: string): string {
  const out: string[] = [];
  let i = 0;
  const re = /^[ \t]*\[Illustration\b/gim;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const start = m.index + m[0].indexOf('[');
    let depth = 0;
    let end = -1;
    for (let j = start; j < Math.min(text.length, start + 3000); j++) {
      const c = text[j];
      if (c === '[') depth++;
      else if (c === ']' && --depth === 0) {
        end = j;
        break;
      }
    }
    if (end === -1) continue;
    const inner = text.slice(start + '[Illustration'.length, end).replace(/^\s*:?/, '');
    const lines = inner
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const headings = lines.filter((l) => headingLevel(l) !== undefined);
    const caption = lines
      .filter((l) => !headings.includes(l))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    out.push(text.slice(i, m.index));
    out.push(
      `\n\n${headings.map((h) => `${h}\n\n`).join('')}${caption ? `[Illustration: ${caption}]` : '[Illustration]'}\n\n`,
    );
    i = end + 1;
    re.lastIndex = end + 1;
  }
  out.push(text.slice(i));
  return out.join('');
}

function countLines(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

export const txtParser: BookParser = {
  format: 'txt',
  async parse(input: Buffer, options: ParseOptions = {}): Promise<ParsedBook> {
    const started = performance.now();
    if (input.length === 0) throw new ParseError('emptyFile', 'The file is empty');
    const decoded = decodeText(input);
    let text = decoded.text
      .replace(/^\ufeff/, '')
      .replace(/\r\n?/g, '\n')
      .replaceAll('\u0000', '');
    if (!text.trim()) throw new ParseError('emptyFile', 'The file contains no text');
    const lines = countLines(text);
    if (lines > PARSE_LIMITS.linesPerText) {
      throw new ParseError('fileTooComplex', `The text has ${lines} lines, more than ${PARSE_LIMITS.linesPerText}`);
    }
    // A file converted to UTF-8 from the wrong code page ('Íå î÷åíü' for 'Не очень') is read in the right one.
    const mojibake = repairMojibakeText(text);
    if (mojibake) text = mojibake.text;
    options.onProgress?.(0.2);
    const book = new BookBuilder();
    if (mojibake) book.warn(`Read the text in ${mojibake.codePage}: it was written in it and stored as Latin-1`);
    const gutenberg = unwrapGutenberg(text);
    const unwrapped = gutenberg ?? unwrapAozora(text);
    if (unwrapped) {
      text = unwrapped.text;
      book.metadata = { title: unwrapped.title, author: unwrapped.author, language: unwrapped.language };
    } else {
      // Chinese web texts usually open with the title, then 作者：name.
      const head = text
        .split('\n')
        .slice(0, 30)
        .map((l) => l.trim());
      const author = head.map((l) => /^(?:作者|作\s*者|著者)[:：]\s*(.+)$/.exec(l)?.[1]).find(Boolean);
      if (author) {
        const authorLine = head.findIndex((l) => /^(?:作者|作\s*者|著者)[:：]/.test(l));
        const title = head
          .slice(0, authorLine)
          .reverse()
          .find((l) => l && l.length <= 40 && !/[:：]|http/.test(l));
        book.metadata = { title: title?.replace(/^《(.+)》$/, '$1'), author: author.trim() };
      }
    }
    text = stripSubtitles(text);
    // Illustration notes are Project Gutenberg's; searching every other long text for them costs time.
    if (gutenberg && text.includes('[Illustration')) text = normalizeIllustrations(text);
    const paragraphs = splitParagraphs(text);
    if (paragraphs.length === 0) throw new ParseError('noTextFound', 'The file contains no readable text');
    addTextChapters(book, paragraphs);
    // The front matter before the first chapter (title page, banner, table of contents) is named after
    // its table of contents, else the book, never after a banner rule or an illustration note.
    const front = book.chapters[0];
    if (book.chapters.length > 1 && front && !front.title) {
      const heading = front.blocks.some((b) => b.type === 'heading' && !isMarkerText(b.text));
      const firstText = front.blocks.find((b) => b.text.trim() && !isMarkerText(b.text));
      const title = tocTitleOf(front.blocks) ?? (heading ? undefined : (book.metadata.title ?? firstText?.text));
      if (title) front.title = shorten(title, 80);
    }
    options.onProgress?.(1);
    return book.finish('txt', started, { encoding: decoded.encoding });
  },
};
