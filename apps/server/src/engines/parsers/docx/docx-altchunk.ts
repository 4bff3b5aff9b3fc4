/**
 * Imported chunks (`w:altChunk`): content a DOCX holds in another format, which Word converts when
 * it opens the file. Tools that make DOCX from web pages (html-docx-js, SharePoint, many report
 * generators) put the whole text there — an HTML page, an MHT archive, RTF or plain text — and
 * leave document.xml with nothing but the chunk's reference. Each chunk is read before the walk, by
 * the readers of its format, into block drafts the walk puts where the reference stands. A chunk that
 * is itself a DOCX (or any binary) is left out.
 */
import type { BlockDraft } from '../blocks.ts';
import type { Relationship } from './docx-styles.ts';
import { ParseError } from '../errors.ts';
import { isRtf, readRtf, RTF_HEADING_MARK } from '../rtf/rtf.ts';
import { looksLikeText } from '../sniff.ts';
import { decodeText } from '../txt/txt-encoding.ts';
import { NOTE_MARK_CLOSE, NOTE_MARK_OPEN } from '../doc/word-binary.ts';
import { isWebPage, readWebPage } from '../doc/word-html.ts';
import { resolveZipPath, type SafeZip } from '../zip.ts';

/** An imported chunk larger than this is not read (real ones are the size of the document). */
const MAX_CHUNK_BYTES = 64 * 1024 * 1024;
const RTF_NOTE_MARK = new RegExp(`${NOTE_MARK_OPEN}[fe]\\d+${NOTE_MARK_CLOSE}`, 'g');

/** The drafts of every imported chunk of a part, by relationship id. */
export async function readAltChunks(
  zip: SafeZip,
  partPath: string,
  rels: Map<string, Relationship>,
): Promise<Map<string, BlockDraft[]>> {
  const chunks = new Map<string, BlockDraft[]>();
  for (const [id, rel] of rels) {
    if (rel.external || !/\/aFChunk$/i.test(rel.type)) continue;
    const path = resolveZipPath(partPath, rel.target);
    if ((zip.declaredSize(path) ?? 0) > MAX_CHUNK_BYTES) {
      throw new ParseError('fileTooComplex', `An imported chunk larger than ${MAX_CHUNK_BYTES} bytes`);
    }
    const data = await zip.read(path, MAX_CHUNK_BYTES).catch(() => undefined);
    if (data) chunks.set(id, chunkDrafts(data, `chunk${chunks.size + 1}:`));
  }
  return chunks;
}

/** One chunk's drafts, read by what its bytes are (its name and content type are often wrong). */
function chunkDrafts(data: Buffer, notePrefix: string): BlockDraft[] {
  if (isRtf(data)) return rtfDrafts(data);
  if (isWebPage(data) || /^\s*<(?:html|body|p|div|h[1-6]|table)[\s>]/i.test(data.subarray(0, 512).toString('latin1'))) {
    return readWebPage(data, { notePrefix }).drafts;
  }
  // A DOCX within the DOCX, or anything else binary, is left out rather than shown as bytes.
  return looksLikeText(data) ? textDrafts(decodeText(data).text) : [];
}

function rtfDrafts(data: Buffer): BlockDraft[] {
  const { main, footnotes, endnotes } = readRtf(data);
  const drafts: BlockDraft[] = [];
  for (const line of main.split('\n')) {
    const level = /^\ue002*/.exec(line)![0].length;
    const text = line.replaceAll(RTF_HEADING_MARK, '').replace(RTF_NOTE_MARK, '').replace(/\s+/g, ' ').trim();
    if (text) drafts.push(level ? { type: 'heading', text, level } : { type: 'paragraph', text });
  }
  // The chunk's notes follow its text (their references are not linked).
  for (const note of [...footnotes, ...endnotes]) {
    if (note.text) drafts.push({ type: 'paragraph', text: `[${note.label}] ${note.text}` });
  }
  return drafts;
}

function textDrafts(text: string): BlockDraft[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((line) => ({ type: 'paragraph', text: line }));
}
