/**
 * Word 97-2003 binary (.doc) through word-extractor: the body is plain text with one paragraph per
 * line, so chapters come from heading-like lines (numbered headings, `第…章`, "Chapter N").
 */
import WordExtractor from 'word-extractor';
import { BookBuilder, shorten } from './builder.ts';
import { ParseError } from './errors.ts';
import { addTextChapters, splitParagraphs, TOC_LINE_MARK } from './text-structure.ts';
import type { BookParser, ParseOptions, ParsedBook } from './types.ts';

/** Word's special characters that word-extractor leaves in the text. */
function cleanWordText(text: string): string {
  return (
    text
      // word-extractor 1.0.4 inserts the string "undefined" inside words of some fast-saved files.
      .replace(/(?<=\p{L})undefined(?=\p{L})/gu, '')
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- Word's cell, line and page marks are control characters
      .replace(/[\u0007\u000b\u000c]/g, '\n')
      // eslint-disable-next-line no-control-regex -- field marks and other Word controls
      .replace(/[\u0001-\u0006\u0008\u000e-\u001f]/g, '')
      // Table-of-contents lines end with a tab and the page number: keep the title only.
      .replace(/^(.{2,200}?)\t+\d{1,4}\s*$/gm, `${TOC_LINE_MARK}$1`)
  );
}

function notesFrom(raw: string): string[] {
  return cleanWordText(raw)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

export const docParser: BookParser = {
  format: 'doc',
  async parse(input: Buffer, options: ParseOptions = {}): Promise<ParsedBook> {
    const started = performance.now();
    if (input.length === 0) throw new ParseError('emptyFile', 'The file is empty');
    // Password-protected OOXML files are OLE2 containers with an EncryptedPackage stream.
    if (input.includes(Buffer.from('EncryptedPackage', 'utf16le'))) {
      throw new ParseError('fileEncrypted', 'The document is password-protected');
    }
    let doc: Awaited<ReturnType<WordExtractor['extract']>>;
    try {
      doc = await new WordExtractor().extract(input);
    } catch (error) {
      throw new ParseError('fileCorrupted', `Unreadable Word document: ${(error as Error).message}`, {
        cause: error,
      });
    }
    options.onProgress?.(0.5);
    const body = cleanWordText(doc.getBody());
    if (!body.trim()) throw new ParseError('noTextFound', 'The document contains no text');
    const book = new BookBuilder();
    const lines = body.split('\n').map((l) => l.replace(TOC_LINE_MARK, '').trim());
    const firstLines = lines.filter(Boolean).slice(0, 3);
    let title = firstLines[0];
    if (title && /[:：]$/.test(title) && firstLines[1]) title = `${title} ${firstLines[1]}`;
    if (title) book.metadata.title = shorten(title, 120);
    const paragraphs = splitParagraphs(body, { linePerParagraph: true, numberedHeadings: true });
    addTextChapters(book, paragraphs, { numberedHeadings: true });
    const notes = [...notesFrom(doc.getFootnotes()), ...notesFrom(doc.getEndnotes())];
    if (notes.length) {
      // word-extractor gives note texts without their anchors, so notes are listed at the end.
      book.startChapter('Notes');
      notes.forEach((text, i) => book.add({ type: 'footnote', text, noteLabel: String(i + 1), noteKey: `n${i + 1}` }));
    }
    options.onProgress?.(1);
    return book.finish('doc', started);
  },
};
