/**
 * Web pages that are Word documents: Word's "Save as Web Page" (HTML with Office namespaces), its
 * "Single File Web Page" (MHT: the page and its parts in one MIME message), and the HTML many
 * websites send as a ".doc" because Word opens it. Read as the Word documents they stand for: the
 * page's body into blocks (the EPUB reader's HTML rules), Word's footnotes and endnotes as notes,
 * chapters from its headings (as for DOCX), the title from <title>, the author from Word's document
 * properties. Pictures are left out.
 */
import type { BookBuilder } from '../builder.ts';
import { htmlToBlocks, type BlockDraft } from '../blocks.ts';
import { splitByHeadings } from '../heading-chapters.ts';
import { ParseError } from '../errors.ts';
import { PARSE_LIMITS } from '../limits.ts';
import { decodeEntities, findFirst, localName, parseMarkup, textContent } from '../markup.ts';
import { decodeText } from '../txt/txt-encoding.ts';
import type { BookMetadata } from '../types.ts';

const HTML_START = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!doctype\s+html|<html[\s>])/i;
const MHT_START = /^(?:[\w-]+:[^\n]*\r?\n(?:[ \t][^\n]*\r?\n)*)*?mime-version\s*:/i;

/** The first bytes as text, whatever the encoding says (enough to recognise the format). */
function head(input: Buffer, bytes = 4096): string {
  if (input[0] === 0xff && input[1] === 0xfe) return input.subarray(2, bytes).toString('utf16le');
  if (input[0] === 0xfe && input[1] === 0xff) {
    const swapped = Buffer.from(input.subarray(2, bytes));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  return input.subarray(input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0, bytes).toString('latin1');
}

/** Whether the bytes are a whole web page (HTML with <html>, or an MHT archive holding one). */
export function isWebPage(input: Buffer): boolean {
  const start = head(input);
  if (HTML_START.test(start)) return true;
  return MHT_START.test(start) && /multipart\/related/i.test(start) && /text\/html/i.test(head(input, 64 * 1024));
}

// ---------- MHT ----------

interface MimePart {
  headers: Map<string, string>;
  body: Buffer;
}

function parseHeaders(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of text.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function parameter(header: string | undefined, name: string): string | undefined {
  const match = header && new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, 'i').exec(header);
  return match ? (match[1] ?? match[2]) : undefined;
}

function splitHead(input: Buffer): { headers: Map<string, string>; body: Buffer } {
  const crlf = input.indexOf('\r\n\r\n');
  const lf = input.indexOf('\n\n');
  const end = crlf !== -1 && (lf === -1 || crlf < lf) ? crlf + 4 : lf !== -1 ? lf + 2 : input.length;
  return { headers: parseHeaders(input.subarray(0, end).toString('latin1')), body: input.subarray(end) };
}

function decodeTransfer(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
    case 'quoted-printable': {
      const text = body.toString('latin1').replace(/=\r?\n/g, '');
      const out = Buffer.alloc(text.length);
      let n = 0;
      for (let i = 0; i < text.length; i++) {
        const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : '';
        if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
          out[n++] = parseInt(hex, 16);
          i += 2;
        } else {
          out[n++] = text.charCodeAt(i) & 0xff;
        }
      }
      return out.subarray(0, n);
    }
    default:
      return body;
  }
}

/** The HTML part of an MHT archive, its bytes decoded from the transfer encoding, and its charset. */
function htmlOfMht(input: Buffer): { bytes: Buffer; charset?: string } {
  const top = splitHead(input);
  const boundary = parameter(top.headers.get('content-type'), 'boundary');
  if (!boundary) throw new ParseError('fileCorrupted', 'A web archive without parts');
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const parts: MimePart[] = [];
  let at = top.body.indexOf(delimiter);
  while (at !== -1 && parts.length < 10_000) {
    const from = at + delimiter.length;
    if (top.body.subarray(from, from + 2).toString('latin1') === '--') break;
    const next = top.body.indexOf(delimiter, from);
    const part = splitHead(top.body.subarray(from, next === -1 ? top.body.length : next).subarray(0));
    parts.push(part);
    at = next;
  }
  const html = parts.find((p) => /text\/html/i.test(p.headers.get('content-type') ?? ''));
  if (!html) throw new ParseError('fileCorrupted', 'A web archive without a page');
  return {
    bytes: decodeTransfer(html.body, html.headers.get('content-transfer-encoding')),
    charset: parameter(html.headers.get('content-type'), 'charset'),
  };
}

// ---------- decoding ----------

function decodeHtml(bytes: Buffer, declared?: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes.subarray(2));
  }
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(bytes.subarray(0, 8192).toString('latin1'));
  for (const label of [declared, meta?.[1]]) {
    if (!label) continue;
    try {
      return new TextDecoder(label.toLowerCase() === 'gb2312' ? 'gb18030' : label).decode(bytes);
    } catch {
      // A label TextDecoder does not know: try the next, then guess.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decodeText(bytes).text;
  }
}

// ---------- the page ----------

/** Word's note anchors: `#_ftn3` / `#_edn3` in the text, `id=ftn3` / `id=edn3` on the note itself. */
const NOTE_LINK = /#_(ftn|edn)(\d+)$/;
const NOTE_BODY = /^(ftn|edn)(\d+)$/;
const noteKey = (kind: string, n: string) => `${kind === 'ftn' ? 'f' : 'e'}${n}`;

export interface WebPageDocument {
  drafts: BlockDraft[];
  metadata: BookMetadata;
}

/** `notePrefix` keeps the note keys of several pages in one book apart (DOCX imported chunks). */
export function readWebPage(input: Buffer, { notePrefix = '' } = {}): WebPageDocument {
  const mht = HTML_START.test(head(input)) ? undefined : htmlOfMht(input);
  const bytes = mht?.bytes ?? input;
  if (bytes.length > PARSE_LIMITS.markupDocumentBytes) {
    throw new ParseError('fileTooComplex', `A web page larger than ${PARSE_LIMITS.markupDocumentBytes} bytes`);
  }
  const source = decodeHtml(bytes, mht?.charset);
  const root = parseMarkup(source);
  const body = findFirst(root, (e) => localName(e.name) === 'body') ?? root;
  const title = findFirst(root, (e) => localName(e.name) === 'title');
  // Word keeps its document properties in an <xml> island inside a conditional comment.
  const author = /<o:Author>([^<]{1,200})<\/o:Author>/i.exec(source)?.[1];
  const metaAuthor = findFirst(root, (e) => localName(e.name) === 'meta' && /^author$/i.test(e.attrs.name ?? ''));
  const metadata: BookMetadata = {};
  const titleText = title && textContent(title).replace(/\s+/g, ' ').trim();
  if (titleText) metadata.title = titleText;
  const authorText = (author ? decodeEntities(author) : metaAuthor?.attrs.content)?.trim();
  if (authorText) metadata.author = authorText;

  const drafts: BlockDraft[] = [];
  htmlToBlocks(body, {
    resolveImage: () => undefined,
    resolveNoteLink: (href) => {
      const match = NOTE_LINK.exec(href);
      return match ? notePrefix + noteKey(match[1]!, match[2]!) : undefined;
    },
    noteKeyOf: (e) => {
      const match = NOTE_BODY.exec(e.attrs.id ?? '');
      return match ? notePrefix + noteKey(match[1]!, match[2]!) : undefined;
    },
    skip: (e) => {
      const name = localName(e.name);
      const style = e.attrs.style ?? '';
      // Word's data islands and what it hides (mso-hide), and its page headers and footers.
      return name === 'xml' || /mso-hide\s*:\s*all/i.test(style) || /mso-element\s*:\s*(header|footer)/i.test(style);
    },
    emit: (block) => drafts.push(block),
  });
  return { drafts, metadata };
}

/**
 * Title and author for the upload's answer: read from the page's first 64 KiB (an MHT's first MiB)
 * with two patterns, never the whole page.
 */
export function webPageMetadata(input: Buffer): { title?: string; author?: string } {
  const mht = HTML_START.test(head(input)) ? undefined : htmlOfMht(input.subarray(0, 1024 * 1024));
  const source = decodeHtml((mht?.bytes ?? input).subarray(0, 64 * 1024), mht?.charset);
  const title = /<title[^>]*>([^<]{1,500})<\/title>/i.exec(source)?.[1];
  const author = /<o:Author>([^<]{1,200})<\/o:Author>/i.exec(source)?.[1];
  const clean = (text?: string) => (text ? decodeEntities(text).replace(/\s+/g, ' ').trim() || undefined : undefined);
  return { title: clean(title), author: clean(author) };
}

/** Reads a web page into the book builder: blocks, chapters at its headings, its notes, its title. */
export function buildWebPage(book: BookBuilder, input: Buffer): void {
  const { drafts, metadata } = readWebPage(input);
  if (!drafts.some((d) => d.text.trim())) throw new ParseError('noTextFound', 'The web page has no text');
  book.metadata = { ...book.metadata, ...metadata };
  splitByHeadings(book, drafts);
}
