import { md5Hex } from '../devices/device-keys.ts';

/**
 * The names a device gives a downloaded file, for KOReader's other way of naming a document (the
 * MD5 of its file name). KOReader's catalog browser saves a book as "Author - Title.ext" with the
 * characters `\/:*?"<>|` made `_` and trailing dots and spaces dropped (koreader util.lua,
 * replaceAllInvalidChars, and opdsbrowser.lua, getFileName); with "use server filenames" it keeps the
 * name of Content-Disposition. A browser download keeps that one too.
 */
export function koreaderFileName(author: string, title: string, extension: string): string {
  const base = author ? `${author} - ${title}` : title;
  const safe = base.replace(/[\\/:*?"<>|]/g, '_').replace(/[.\s]+$/u, '');
  return `${truncateUtf8(safe, 240)}.${extension.toLowerCase()}`;
}

/** The digests of every name a device may have given the file (duplicates removed). */
export function fileNameDigests(names: string[]): string[] {
  return [...new Set(names.filter(Boolean).map((name) => md5Hex(name)))];
}

/** KOReader cuts names to 240 bytes, dropping a character the cut broke (util.getSafeFilename). */
function truncateUtf8(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  return new TextDecoder('utf-8').decode(encoded.subarray(0, bytes)).replace(/\uFFFD+$/u, '');
}
