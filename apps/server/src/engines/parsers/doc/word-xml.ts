/**
 * Word documents saved as one XML file, often under a .doc name: "Word 2003 XML" (WordprocessingML
 * 2003, `<w:wordDocument>`) and "Word XML Document" of Word 2007 and later (Flat OPC, `<pkg:package>`:
 * the parts of a DOCX in one file).
 *
 * Flat OPC is put back into the DOCX it stands for (its parts stored in a ZIP) and read by the DOCX
 * reader, notes, numbering and styles included. WordprocessingML 2003 is streamed (xml-stream.ts,
 * no tree): paragraphs from `w:t`, `w:tab` and `w:br`, deleted text and field codes left out,
 * footnotes and endnotes (written inside the text in this format) as notes, headings from the
 * document's own styles (names "heading N" or outline levels), the title and author from its
 * document properties.
 */
import JSZip from 'jszip';
import { NOTE_LINK_MARK, type BlockDraft } from '../blocks.ts';
import { BookBuilder } from '../builder.ts';
import { docxParser } from '../docx/docx.ts';
import { HEADING_NAME } from '../docx/docx-styles.ts';
import { splitByHeadings } from '../heading-chapters.ts';
import { ParseError } from '../errors.ts';
import { PARSE_LIMITS } from '../limits.ts';
import { decodeEntities, escapeHtml } from '../markup.ts';
import type { ParsedBook, ParseOptions } from '../types.ts';
import { refuseEntities, XmlStreamReader, type XmlHandler, type XmlTag } from '../xml-stream.ts';

export type WordXmlKind = 'flatOpc' | 'wordml2003';

/** Which single-file XML Word format the bytes are, if any (from the first 4 KiB). */
export function wordXmlKind(input: Buffer): WordXmlKind | undefined {
  const head = xmlText(input.subarray(0, 4096));
  if (!/^\s*<\?xml/.test(head)) return undefined;
  if (/<pkg:package[\s>]/.test(head)) return 'flatOpc';
  if (/<w:wordDocument[\s>]/.test(head) || /progid\s*=\s*["']Word\.Document["']/i.test(head)) return 'wordml2003';
  return undefined;
}

function xmlText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  const declared = /^\s*<\?xml[^>]*encoding=["']([\w.:-]+)["']/i.exec(bytes.subarray(0, 200).toString('latin1'));
  try {
    return new TextDecoder(declared?.[1] ?? 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** Reads either format into a book (its format stays "doc", as the upload named it). */
export async function parseWordXml(input: Buffer, options: ParseOptions, started: number): Promise<ParsedBook> {
  if (input.length > PARSE_LIMITS.markupDocumentBytes) {
    throw new ParseError('fileTooComplex', `An XML document larger than ${PARSE_LIMITS.markupDocumentBytes} bytes`);
  }
  const kind = wordXmlKind(input);
  if (kind === 'flatOpc') {
    const book = await docxParser.parse(await packageOfFlatOpc(xmlText(input)), options);
    book.stats.format = 'doc';
    return book;
  }
  if (kind !== 'wordml2003') throw new ParseError('fileCorrupted', 'Not a Word XML document');
  const book = new BookBuilder();
  buildWordMl2003(book, input);
  options.onProgress?.(1);
  return book.finish('doc', started);
}

// ---------- Flat OPC ----------

/** The parts of a Flat OPC package, stored in a ZIP as the DOCX they come from. */
async function packageOfFlatOpc(xml: string): Promise<Buffer> {
  const zip = new JSZip();
  let parts = 0;
  for (let at = xml.indexOf('<pkg:part'); at !== -1; at = xml.indexOf('<pkg:part', at + 1)) {
    const tagEnd = xml.indexOf('>', at);
    if (tagEnd === -1) break;
    const name = /pkg:name\s*=\s*["']\/?([^"']+)["']/.exec(xml.slice(at, tagEnd))?.[1];
    const end = xml.indexOf('</pkg:part>', tagEnd);
    if (!name || end === -1) continue;
    if (++parts > 10_000) throw new ParseError('fileTooComplex', 'More than 10,000 parts in one package');
    const body = xml.slice(tagEnd + 1, end);
    const data = /<pkg:xmlData>([\s\S]*)<\/pkg:xmlData>/.exec(body)?.[1];
    const binary = /<pkg:binaryData>([\s\S]*)<\/pkg:binaryData>/.exec(body)?.[1];
    const path = decodeEntities(name);
    if (path.split('/').some((segment) => segment === '..' || segment === '')) continue;
    if (data !== undefined) zip.file(path, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${data.trim()}`);
    else if (binary !== undefined) zip.file(path, Buffer.from(binary.replace(/\s+/g, ''), 'base64'));
  }
  if (!parts) throw new ParseError('fileCorrupted', 'A Word XML package without parts');
  return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
}

// ---------- WordprocessingML 2003 ----------

const NAMESPACES: Record<string, string> = {
  'http://schemas.microsoft.com/office/word/2003/wordml': 'w',
  'http://schemas.microsoft.com/office/word/2003/auxHint': 'wx',
  'urn:schemas-microsoft-com:office:office': 'o',
};

interface Paragraph {
  text: string;
  html: string;
  style?: string;
  outline?: number;
  noteRefKeys: string[];
}

const newParagraph = (): Paragraph => ({ text: '', html: '', noteRefKeys: [] });

/** Streams a WordprocessingML 2003 document into block drafts. */
class WordMl2003 implements XmlHandler {
  readonly drafts: BlockDraft[] = [];
  readonly notes: BlockDraft[] = [];
  title = '';
  author = '';
  /** Style id → heading level (1-based) for paragraph styles that are headings. */
  private readonly headingStyles = new Map<string, number>();
  private style?: { id: string; level?: number };
  /** Open paragraphs: the body's, and a note's inside it. */
  private readonly paragraphs: Paragraph[] = [];
  /** Open notes: their paragraphs' text so far. */
  private readonly openNotes: { kind: 'f' | 'e'; text: string[] }[] = [];
  private readonly noteCounts = { f: 0, e: 0 };
  private collecting: 'text' | 'title' | 'author' | undefined;
  private skipDepth = 0;

  wantsText(): boolean {
    return this.collecting !== undefined && this.skipDepth === 0;
  }

  text(text: string): void {
    if (this.collecting === 'title') this.title += text;
    else if (this.collecting === 'author') this.author += text;
    else this.append(text);
  }

  open(name: string, tag: XmlTag, selfClosing: boolean): void {
    if (this.skipDepth) {
      if (!selfClosing) this.skipDepth++;
      return;
    }
    switch (name) {
      case 'w:delText':
      case 'w:instrText':
      case 'w:binData':
      case 'w:hdr':
      case 'w:ftr':
      case 'w:docPr':
      case 'w:fonts':
      case 'w:lists':
        if (!selfClosing && !tag.skip()) this.skipDepth = 1;
        return;
      case 'w:style':
        this.style = { id: tag.attr('w:styleId') ?? '' };
        return;
      case 'w:name':
        if (this.style) this.nameStyle(tag.attr('w:val') ?? '');
        return;
      case 'w:outlineLvl': {
        const level = Number(tag.attr('w:val'));
        if (!Number.isInteger(level) || level > 8) return;
        if (this.style) this.style.level = level + 1;
        else if (this.paragraphs.length) this.paragraphs.at(-1)!.outline = level + 1;
        return;
      }
      case 'w:pStyle':
        if (!this.style && this.paragraphs.length) this.paragraphs.at(-1)!.style = tag.attr('w:val');
        return;
      case 'w:p':
        if (!selfClosing) this.paragraphs.push(newParagraph());
        return;
      case 'w:t':
        if (!selfClosing) this.collecting = 'text';
        return;
      case 'w:tab':
        this.append('\t');
        return;
      case 'w:br': {
        // A line break is a line of the paragraph (verse, addresses); page and column breaks are layout.
        const type = tag.attr('w:type');
        this.append(type === 'page' || type === 'column' ? ' ' : '\n');
        return;
      }
      case 'w:cr':
        this.append('\n');
        return;
      case 'w:footnote':
      case 'w:endnote':
        if (!selfClosing) this.openNotes.push({ kind: name === 'w:footnote' ? 'f' : 'e', text: [] });
        return;
      case 'o:Title':
        this.collecting = 'title';
        return;
      case 'o:Author':
        this.collecting = 'author';
        return;
    }
  }

  close(name: string): void {
    if (this.skipDepth) {
      this.skipDepth--;
      return;
    }
    switch (name) {
      case 'w:t':
      case 'o:Title':
      case 'o:Author':
        this.collecting = undefined;
        return;
      case 'w:style':
        if (this.style?.level) this.headingStyles.set(this.style.id, this.style.level);
        this.style = undefined;
        return;
      case 'w:p':
        this.endParagraph();
        return;
      case 'w:footnote':
      case 'w:endnote':
        this.endNote();
        return;
    }
  }

  private nameStyle(name: string): void {
    const match = HEADING_NAME.exec(name.trim());
    if (match && this.style && !this.style.level) this.style.level = Number(match[1]);
  }

  private append(text: string): void {
    const paragraph = this.paragraphs.at(-1);
    if (!paragraph) return;
    paragraph.text += text;
    paragraph.html += escapeHtml(text);
  }

  private endParagraph(): void {
    const paragraph = this.paragraphs.pop();
    if (!paragraph) return;
    // Spaces collapse; line breaks stay in body paragraphs, a heading or a note reads as one line.
    const lines = (raw: string) =>
      raw
        .replace(/[^\S\n]+/g, ' ')
        .replace(/ ?\n ?/g, '\n')
        .replace(/^\n+|\n+$/g, '')
        .trim();
    const text = lines(paragraph.text);
    const note = this.openNotes.at(-1);
    if (note) {
      if (text) note.text.push(text.replace(/\n/g, ' '));
      return;
    }
    if (!text) return;
    if (this.drafts.length >= PARSE_LIMITS.blocksPerBook) {
      throw new ParseError('fileTooComplex', `The book has more than ${PARSE_LIMITS.blocksPerBook} blocks`);
    }
    const level = paragraph.outline ?? (paragraph.style ? this.headingStyles.get(paragraph.style) : undefined);
    if (level) {
      this.drafts.push({ type: 'heading', text: text.replace(/\n/g, ' '), level });
      return;
    }
    const draft: BlockDraft = { type: 'paragraph', text };
    if (paragraph.noteRefKeys.length) {
      draft.html = lines(paragraph.html);
      draft.noteRefKeys = paragraph.noteRefKeys;
    }
    this.drafts.push(draft);
  }

  private endNote(): void {
    const note = this.openNotes.pop();
    if (!note) return;
    const label = String(++this.noteCounts[note.kind]);
    const key = `${note.kind}${label}`;
    this.notes.push({ type: 'footnote', text: note.text.join(' '), noteKey: key, noteLabel: label });
    // The reference stands where the note was written, in the paragraph around it.
    const paragraph = this.paragraphs.at(-1);
    if (!paragraph) return;
    paragraph.text += `[${label}]`;
    paragraph.html += `<sup><a href="#${NOTE_LINK_MARK}${key}${NOTE_LINK_MARK}">[${label}]</a></sup>`;
    paragraph.noteRefKeys.push(key);
  }
}

/** Reads a WordprocessingML 2003 document into the builder: blocks, chapters at headings, notes, title. */
function buildWordMl2003(book: BookBuilder, input: Buffer): void {
  const handler = new WordMl2003();
  const reader = new XmlStreamReader(handler, {
    namespaces: NAMESPACES,
    onDoctype: refuseEntities,
  });
  const text = xmlText(input);
  for (let at = 0; at < text.length; at += 1 << 20) reader.write(text.slice(at, at + (1 << 20)));
  reader.end();
  if (!handler.drafts.some((d) => d.text)) throw new ParseError('noTextFound', 'The document contains no text');
  const title = handler.title.replace(/\s+/g, ' ').trim();
  const author = handler.author.replace(/\s+/g, ' ').trim();
  if (title) book.metadata.title = title;
  if (author) book.metadata.author = author;
  splitByHeadings(book, [...handler.drafts, ...handler.notes]);
}

/**
 * Title and author for the upload's answer, from the document properties: near the top in Word 2003
 * XML, in a part near the end in Flat OPC. Only the first and last 256 KiB are read.
 */
export function wordXmlMetadata(input: Buffer): { title?: string; author?: string } {
  const span = 256 * 1024;
  const head =
    input.length <= 2 * span
      ? xmlText(input)
      : `${xmlText(input.subarray(0, span))}\n${input.subarray(input.length - span).toString('utf8')}`;
  const pick = (pattern: RegExp) => {
    const value = pattern.exec(head)?.[1];
    return value ? decodeEntities(value).replace(/\s+/g, ' ').trim() || undefined : undefined;
  };
  return {
    title: pick(/<(?:o:Title|dc:title)>([^<]{1,500})<\//),
    author: pick(/<(?:o:Author|dc:creator)>([^<]{1,200})<\//),
  };
}
