import { OFFLINE_PAGES_PER_CALL } from '@yidu/shared/offline';
import type { PageData } from '@yidu/shared/reader';
import { booksApi } from '../../api/books.ts';
import { offlineApi } from '../../api/offline.ts';
import { readerApi } from '../../api/reader.ts';
import { get, put, type StoredBook } from './db.ts';
import { bookKey, mediaPath, saveMarks } from './store.ts';

export interface DownloadProgress {
  pagesDone: number;
  pageCount: number;
  bytes: number;
}

const sizeOf = (value: unknown) => new Blob([JSON.stringify(value)]).size;

/**
 * Keeps a book on the device for reading offline: its pages with the translations the reader already
 * has (the server leaves out what is untranslated or unpaid: nothing is charged), its pictures and
 * cover as bytes (their signed URLs expire), the reader's marks and position. Downloading again
 * brings the copy up to date (pages translated since are added).
 */
export async function downloadBook(
  bookCode: string,
  language: string,
  userId: number | null,
  onProgress: (progress: DownloadProgress) => void,
  signal?: AbortSignal,
): Promise<StoredBook> {
  const key = bookKey(bookCode, language);
  const detail = await booksApi.detail(bookCode, language);
  const pages: number[] = [];
  const missing: number[] = [];
  const images = new Set<string>();
  let bytes = 0;
  let pageCount = detail.pageCount;
  for (let from = 1; from <= pageCount; from += OFFLINE_PAGES_PER_CALL) {
    signal?.throwIfAborted();
    const batch = await offlineApi.pages({ bookCode, language, from, to: from + OFFLINE_PAGES_PER_CALL - 1 }, signal);
    pageCount = batch.pageCount;
    missing.push(...batch.missing);
    for (const data of batch.pages) {
      const kept: PageData = {
        ...data,
        blocks: data.blocks.map((b) => {
          if (!b.imageUrl) return b;
          images.add(b.imageUrl);
          return { ...b, imageUrl: mediaPath(b.imageUrl) };
        }),
      };
      await put('pages', { key, page: data.page, data: kept });
      bytes += sizeOf(kept);
      pages.push(data.page);
    }
    onProgress({ pagesDone: Math.min(from + OFFLINE_PAGES_PER_CALL - 1, pageCount), pageCount, bytes });
  }
  if (detail.coverUrl) images.add(detail.coverUrl);
  for (const url of images) {
    signal?.throwIfAborted();
    const path = mediaPath(url);
    const known = await get('media', path);
    if (known) {
      if (!known.books.includes(key)) await put('media', { ...known, books: [...known.books, key] });
      bytes += known.blob.size;
      continue;
    }
    const response = await fetch(url, { signal });
    if (!response.ok) continue; // a picture that cannot be had now is shown as missing offline
    const blob = await response.blob();
    await put('media', { path, blob, books: [key] });
    bytes += blob.size;
  }
  const marks = await readerApi.marks(bookCode);
  await saveMarks(bookCode, marks);
  bytes += sizeOf(marks);
  const position = await readerApi.position(bookCode);
  if (position && !(await get('positions', bookCode))) await put('positions', position);
  const book: StoredBook = {
    key,
    bookCode,
    language,
    userId,
    detail: { ...detail, coverUrl: detail.coverUrl ? mediaPath(detail.coverUrl) : null },
    pages,
    missing,
    bytes,
    downloadedAt: new Date().toISOString(),
  };
  await put('books', book);
  onProgress({ pagesDone: pageCount, pageCount, bytes });
  return book;
}
