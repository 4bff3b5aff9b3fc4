/**
 * Word binary (.doc). The compound file (cfb.ts) and the FIB are read here to decide what the file
 * is: Word 6/95 (nFib 101-105) is read by doc-word6.ts, Word 97-2003 by doc-word97.ts; older Word
 * (2.x and before) is refused as too old, encrypted files as encrypted. Either way the body is plain
 * text with one paragraph per line, so chapters come from heading-like lines (numbered headings,
 * `第…章`, "Chapter N"). Notes are linked to their references and placed at the end of the chapter
 * that cites them; notes nothing cites are listed in a final "Notes" chapter. Text boxes of the body
 * follow the text, then those anchored in page headers (the headers themselves are left out).
 */
import { NOTE_LINK_MARK } from '../blocks.ts';
import { BookBuilder, shorten } from '../builder.ts';
import type { ChapterDraft } from '../builder.ts';
import { CompoundFile } from './cfb.ts';
import { isWord6Fib, readWord6 } from './doc-word6.ts';
import { readWord97 } from './doc-word97.ts';
import { ParseError } from '../errors.ts';
import { escapeHtml } from '../markup.ts';
import { repairLines, repairMojibakeText } from '../mojibake.ts';
import type { MojibakeCodePage } from '../mojibake.ts';
import { isRtf, readRtf, RTF_HEADING_MARK } from '../rtf/rtf.ts';
import { buildWebPage, isWebPage } from './word-html.ts';
import { parseWordXml, wordXmlKind } from './word-xml.ts';
import { addTextChapters, HEADING_MARK, splitParagraphs, TOC_LINE_MARK } from '../txt/text-structure.ts';
import type { TextParagraph } from '../txt/text-structure.ts';
import type { BookParser, ParseOptions, ParsedBook } from '../types.ts';
import { NOTE_MARK_CLOSE, NOTE_MARK_OPEN } from './word-binary.ts';
import type { WordNote, WordStories } from './word-binary.ts';

const F_ENCRYPTED = 0x0100;
const FIRST_WORD6_FIB = 101;

/**
 * Starts a line that follows a manual line break (Word's vertical tab, RTF's \line). The line is read
 * as a line of its own, as before, so it is never taken for a heading; keepLines then puts it back
 * into its paragraph after a `\n`.
 */
const LINE_GOES_ON = '\ue003';

/** Lines after a manual line break go back into the paragraph they belong to (not into a heading). */
function keepLines(paragraphs: TextParagraph[]): TextParagraph[] {
  const out: TextParagraph[] = [];
  for (const p of paragraphs) {
    const goesOn = p.text.startsWith(LINE_GOES_ON);
    const text = p.text.replaceAll(LINE_GOES_ON, '').trim();
    const before = out[out.length - 1];
    if (goesOn && before && !before.heading && !p.heading) before.text += `\n${text}`;
    else if (text) out.push({ ...p, text });
  }
  return out;
}

/** Word's special characters left in the text, and the note marks of word-binary.ts kept. */
function cleanWordText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // A manual line break starts a line that goes on with the paragraph (verse, addresses): see keepLines.
      .replaceAll('\u000b', `\n${LINE_GOES_ON}`)
      // eslint-disable-next-line no-control-regex -- Word's cell, page and column marks are control characters
      .replace(/[\u0007\u000c\u000e]/g, '\n')
      // Non-breaking hyphen.
      .replaceAll('\u001e', '-')
      // eslint-disable-next-line no-control-regex -- field marks, optional hyphens and other Word controls
      .replace(/[\u0001-\u0006\u0008\u000f-\u001f]/g, '')
      // Symbol-font glyph positions (Wingdings bullets...) are not characters.
      .replace(/[\uf000-\uf0ff]/g, '')
      // Table-of-contents lines end with a tab and the page number: keep the title only.
      .replace(/^(.{2,200}?)\t+\d{1,4}\s*$/gm, `${TOC_LINE_MARK}$1`)
      // Paragraphs the document styles as headings (RTF).
      .replace(new RegExp(`^${RTF_HEADING_MARK}`, 'gm'), HEADING_MARK)
      .replaceAll(RTF_HEADING_MARK, '')
  );
}

function noteText(raw: string): string {
  return cleanWordText(raw)
    .replace(new RegExp(`[${NOTE_MARK_OPEN}${NOTE_MARK_CLOSE}${HEADING_MARK}${LINE_GOES_ON}]`, 'g'), '')
    .split('\n')
    .map((l) => l.replace(TOC_LINE_MARK, '').trim())
    .filter(Boolean)
    .join(' ');
}

/** Opens the compound file and reads the stories of whichever Word wrote it, or refuses clearly. */
function readStories(input: Buffer): WordStories {
  const file = new CompoundFile(input);
  // Password-protected OOXML files are compound files with an EncryptedPackage stream.
  if (file.has('EncryptedPackage')) throw new ParseError('fileEncrypted', 'The document is password-protected');
  const stream = file.stream('WordDocument');
  if (!stream) {
    if (file.has('Workbook') || file.has('Book') || file.has('PowerPoint Document')) {
      throw new ParseError('unsupportedFileType', 'An Office file that is not a Word document');
    }
    throw new ParseError('fileCorrupted', 'Unreadable Word document: no WordDocument stream');
  }
  if (stream.length < 12) throw new ParseError('fileCorrupted', 'Unreadable Word document: no FIB');
  const nFib = stream.readUInt16LE(2);
  if (nFib < FIRST_WORD6_FIB) {
    throw new ParseError('formatTooOld', `Word for Windows 2.x or older (nFib ${nFib}) is not supported`);
  }
  if (stream.readUInt16LE(0x0a) & F_ENCRYPTED) {
    throw new ParseError('fileEncrypted', 'The document is password-protected');
  }
  return isWord6Fib(nFib) ? readWord6(stream) : readWord97(file, stream);
}

/**
 * Word 6 text is 8-bit, in the code page its font's character set names: a font that said "Western"
 * while it drew Cyrillic (or Greek, Central European...) letters gives mojibake. Every story is read
 * in the code page the main text shows, line by line where that reads better (mojibake.ts).
 */
function repairWordMojibake(stories: WordStories): MojibakeCodePage | undefined {
  const main = repairMojibakeText(stories.main);
  if (!main) return undefined;
  stories.main = main.text;
  stories.textBoxes = repairLines(stories.textBoxes, main.codePage);
  stories.headerTextBoxes = repairLines(stories.headerTextBoxes, main.codePage);
  for (const note of [...stories.footnotes, ...stories.endnotes]) note.text = repairLines(note.text, main.codePage);
  return main.codePage;
}

const NOTE_MARK = new RegExp(`${NOTE_MARK_OPEN}([fe])(\\d+)${NOTE_MARK_CLOSE}`, 'g');

/**
 * Turns the note marks left in block texts into links ("[1]") and puts each note at the end of the
 * chapter that first cites it; notes nothing cites go to a final "Notes" chapter.
 */
function linkNotes(book: BookBuilder, stories: WordStories): void {
  const notes = new Map<string, WordNote>();
  stories.footnotes.forEach((note, i) => notes.set(`f${i}`, note));
  stories.endnotes.forEach((note, i) => notes.set(`e${i}`, note));
  const placed = new Set<string>();
  const chapters = [...book.chapters];
  const appendNote = (chapter: ChapterDraft, key: string) => {
    const note = notes.get(key)!;
    const text = noteText(note.text);
    if (!text) return;
    chapter.blocks.push({ type: 'footnote', text, noteKey: key, ...(note.label ? { noteLabel: note.label } : {}) });
  };
  for (const chapter of chapters) {
    const cited: string[] = [];
    for (const block of chapter.blocks) {
      if (!block.text.includes(NOTE_MARK_OPEN)) continue;
      const keys: string[] = [];
      let html = '';
      let last = 0;
      const marked = block.text;
      block.text = marked.replace(NOTE_MARK, (mark, kind: string, index: string, at: number) => {
        const key = `${kind}${index}`;
        const note = notes.get(key);
        html += escapeHtml(marked.slice(last, at));
        last = at + mark.length;
        if (!note) return '';
        const shown = `[${note.label || key}]`;
        keys.push(key);
        html += `<sup><a href="#${NOTE_LINK_MARK}${key}${NOTE_LINK_MARK}">${escapeHtml(shown)}</a></sup>`;
        return shown;
      });
      html += escapeHtml(marked.slice(last));
      if (!keys.length) continue;
      block.html = html.replace(/^\s+|\s+$/g, '');
      block.noteRefKeys = keys;
      for (const key of keys) if (!placed.has(key)) cited.push(key);
      for (const key of keys) placed.add(key);
    }
    for (const key of cited) appendNote(chapter, key);
  }
  const leftover = [...notes.keys()].filter((key) => !placed.has(key));
  if (leftover.length) {
    const chapter = book.startChapter('Notes');
    leftover.forEach((key, i) => {
      if (!notes.get(key)!.label) notes.get(key)!.label = String(i + 1);
      appendNote(chapter, key);
    });
  }
}

export const docParser: BookParser = {
  format: 'doc',
  async parse(input: Buffer, options: ParseOptions = {}): Promise<ParsedBook> {
    const started = performance.now();
    if (input.length === 0) throw new ParseError('emptyFile', 'The file is empty');
    if (wordXmlKind(input)) return parseWordXml(input, options, started);
    if (isWebPage(input)) {
      const book = new BookBuilder();
      buildWebPage(book, input);
      options.onProgress?.(1);
      return book.finish('doc', started);
    }
    // Rich Text saved under a .doc name reads into the same stories, with its own title and author.
    const rtf = isRtf(input) ? readRtf(input) : undefined;
    const stories = rtf ?? readStories(input);
    const mojibake = repairWordMojibake(stories);
    options.onProgress?.(0.5);
    let body = cleanWordText(stories.main);
    // Text boxes follow the text: the body's, then those anchored in headers (stored once, not per
    // page, so unlike running heads they are not repeated noise: a text box is content put there).
    for (const boxes of [stories.textBoxes, stories.headerTextBoxes]) {
      if (boxes.trim()) body += `\n${cleanWordText(boxes)}`;
    }
    if (!body.replace(new RegExp(`${NOTE_MARK.source}|\\s`, 'g'), '')) {
      throw new ParseError('noTextFound', 'The document contains no text');
    }
    const book = new BookBuilder();
    if (mojibake) book.warn(`Read the text in ${mojibake}: its fonts said Western but drew its letters`);
    const firstLines = body
      .slice(0, 4096)
      .split('\n')
      .map((l) =>
        l.replace(TOC_LINE_MARK, '').replace(HEADING_MARK, '').replace(LINE_GOES_ON, '').replace(NOTE_MARK, '').trim(),
      )
      .filter(Boolean)
      .slice(0, 3);
    let title = firstLines[0];
    if (title && /[:：]$/.test(title) && firstLines[1]) title = `${title} ${firstLines[1]}`;
    if (rtf?.title) title = rtf.title;
    if (title) book.metadata.title = shorten(title, 120);
    if (rtf?.author) book.metadata.author = rtf.author;
    if (rtf?.description) book.metadata.description = rtf.description;
    const paragraphs = keepLines(splitParagraphs(body, { linePerParagraph: true, numberedHeadings: true }));
    addTextChapters(book, paragraphs, { numberedHeadings: true });
    linkNotes(book, stories);
    options.onProgress?.(1);
    return book.finish('doc', started);
  },
};
