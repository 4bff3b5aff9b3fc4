/**
 * Decides what a file really is from its bytes, whatever its name says (a PNG renamed .pdf is refused).
 */
import { ParseError } from './errors.ts';
import { isRtf } from './rtf/rtf.ts';
import { isWebPage } from './doc/word-html.ts';
import { wordXmlKind } from './doc/word-xml.ts';
import type { BookFormat } from './types.ts';

export type SniffResult = { ok: true; format: BookFormat } | { ok: false; error: ParseError };

const startsWith = (buf: Buffer, bytes: number[], offset = 0): boolean =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);

const KNOWN_BINARY: [string, number[]][] = [
  ['PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['WebP/RIFF', [0x52, 0x49, 0x46, 0x46]],
  ['gzip', [0x1f, 0x8b]],
  ['RAR archive', [0x52, 0x61, 0x72, 0x21]],
  ['7z archive', [0x37, 0x7a, 0xbc, 0xaf]],
  ['ELF binary', [0x7f, 0x45, 0x4c, 0x46]],
  ['MOBI/PalmDB', [0x42, 0x4f, 0x4f, 0x4b, 0x4d, 0x4f, 0x42, 0x49]],
];

/**
 * Word formats older than Word 6, which wrote no compound file: Word for Windows 1.x and 2.x (FIB
 * magic 0xA59B / 0xA5DB with nFib below 101), Word for DOS and Windows Write (0xBE31 or 0xBE32, then
 * 0x0000 and 0xAB00), Word for the Macintosh 4 and 5 (0x37FE then 0x1C00 or 0x2300).
 */
function isPreWord6(input: Buffer): boolean {
  if (input.length < 6) return false;
  const magic = input.readUInt16LE(0);
  if ((magic === 0xa59b || magic === 0xa5db) && input.readUInt16LE(2) < 101) return true;
  if ((magic === 0xbe31 || magic === 0xbe32) && input.readUInt16LE(2) === 0 && input.readUInt16LE(4) === 0xab00) {
    return true;
  }
  return startsWith(input, [0xfe, 0x37, 0x00, 0x1c]) || startsWith(input, [0xfe, 0x37, 0x00, 0x23]);
}

/** Sniffs the format; never throws. */
export function sniff(input: Buffer): SniffResult {
  const fail = (
    key: 'unsupportedFileType' | 'emptyFile' | 'fileCorrupted' | 'formatTooOld',
    message: string,
  ): SniffResult => ({
    ok: false,
    error: new ParseError(key, message),
  });
  if (input.length === 0) return fail('emptyFile', 'The file is empty');
  // PDF readers accept the header anywhere in the first KiB (some files start with junk).
  const pdfAt = input.subarray(0, 1024).indexOf('%PDF-');
  if (pdfAt !== -1) return { ok: true, format: 'pdf' };
  if (startsWith(input, [0x50, 0x4b, 0x03, 0x04]) || startsWith(input, [0x50, 0x4b, 0x05, 0x06])) {
    // Entry names are stored uncompressed in local headers and the central directory.
    if (input.subarray(0, 200).includes('application/epub+zip')) return { ok: true, format: 'epub' };
    if (input.includes('META-INF/container.xml')) return { ok: true, format: 'epub' };
    if (input.includes('word/document.xml')) return { ok: true, format: 'docx' };
    if (input.includes('[Content_Types].xml'))
      return fail('unsupportedFileType', 'An Office file that is not a Word document');
    return fail('unsupportedFileType', 'A ZIP archive that is neither EPUB nor DOCX');
  }
  if (startsWith(input, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return { ok: true, format: 'doc' };
  // Rich Text is read as a Word document (doc.ts): it is one, saved in Word's other format.
  if (isRtf(input)) return { ok: true, format: 'doc' };
  // So are web pages (Word's "Save as Web Page", its MHT archives, the HTML sites send as .doc) and
  // Word's single-file XML (2003 XML, Flat OPC).
  if (isWebPage(input) || wordXmlKind(input)) return { ok: true, format: 'doc' };
  if (isPreWord6(input)) return fail('formatTooOld', 'A Word document older than Word 6 (1993)');
  for (const [name, magic] of KNOWN_BINARY) {
    if (startsWith(input, magic)) return fail('unsupportedFileType', `The file is a ${name}`);
  }
  if (looksLikeText(input)) return { ok: true, format: 'txt' };
  return fail('unsupportedFileType', 'Unrecognised binary file');
}

/** Like sniff, but throws the ParseError. */
export function sniffFormat(input: Buffer): BookFormat {
  const result = sniff(input);
  if (!result.ok) throw result.error;
  return result.format;
}

/**
 * Text has no NUL bytes (except UTF-16, recognised by BOM or by alternating NULs) and few C0 controls.
 */
export function looksLikeText(input: Buffer): boolean {
  const sample = input.subarray(0, 64 * 1024);
  if (startsWith(sample, [0xff, 0xfe]) || startsWith(sample, [0xfe, 0xff])) return true;
  let nulEven = 0;
  let nulOdd = 0;
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i]!;
    if (b === 0) {
      if (i % 2 === 0) nulEven++;
      else nulOdd++;
    } else if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1a && b !== 0x1b) {
      controls++;
    }
  }
  const half = sample.length / 2;
  // BOM-less UTF-16 of mostly-ASCII text: every other byte is NUL.
  if ((nulOdd > half * 0.6 && nulEven < half * 0.05) || (nulEven > half * 0.6 && nulOdd < half * 0.05)) return true;
  if (nulEven + nulOdd > 0) return false;
  return controls <= sample.length * 0.01;
}
