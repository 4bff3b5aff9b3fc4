import type { BookDetail } from '@yidu/shared/books';
import type { Mark } from '@yidu/shared/marks';
import type { PageData } from '@yidu/shared/reader';
import { clearAll, get, getAll, put, remove, requestDone, transact, type QueuedOp, type StoredBook } from './db.ts';
import { useConnectivity } from './connectivity.ts';

/** What the rest of the web app asks of the offline store. */

export const bookKey = (bookCode: string, language: string) => `${bookCode}/${language}`;

/** A media URL's stable part: the signature and expiry change, the picture does not. */
export const mediaPath = (url: string) => new URL(url, window.location.origin).pathname;

export function listBooks(): Promise<StoredBook[]> {
  return getAll('books');
}

/** The downloaded copy of a book: in this reading language, else in any. */
export async function findBook(bookCode: string, language?: string): Promise<StoredBook | undefined> {
  if (language) {
    const exact = await get('books', bookKey(bookCode, language));
    if (exact) return exact;
  }
  return (await listBooks()).find((b) => b.bookCode === bookCode);
}

const objectUrls = new Map<string, string>();

/** A stored picture as an object URL (made once per picture and page load); null when not stored. */
export async function mediaUrl(path: string | null): Promise<string | null> {
  if (!path) return null;
  const known = objectUrls.get(path);
  if (known) return known;
  const media = await get('media', mediaPath(path));
  if (!media) return null;
  const url = URL.createObjectURL(media.blob);
  objectUrls.set(path, url);
  return url;
}

/** A stored page as the reader shows it, its pictures read from the device. */
export async function storedPage(bookCode: string, language: string, page: number): Promise<PageData | undefined> {
  const stored = await get('pages', [bookKey(bookCode, language), page]);
  if (!stored) return undefined;
  const blocks = await Promise.all(
    stored.data.blocks.map(async (b) => (b.imageUrl ? { ...b, imageUrl: await mediaUrl(b.imageUrl) } : b)),
  );
  return { ...stored.data, blocks };
}

export async function storedDetail(book: StoredBook): Promise<BookDetail> {
  return { ...book.detail, coverUrl: await mediaUrl(book.detail.coverUrl) };
}

export async function storedMarks(bookCode: string): Promise<Mark[] | undefined> {
  return (await get('marks', bookCode))?.marks;
}

export function saveMarks(bookCode: string, marks: Mark[]): Promise<void> {
  return put('marks', { bookCode, marks });
}

/** Whether this book is kept on the device (so its marks and position are kept up to date). */
export async function isDownloaded(bookCode: string): Promise<boolean> {
  return (await findBook(bookCode)) !== undefined;
}

/** The page of a block, from the stored pages of the book (marks made offline need it). */
export async function pageOfBlock(bookCode: string, blockId: string): Promise<number | undefined> {
  const book = await findBook(bookCode);
  if (!book) return undefined;
  const pages = await getAll('pages', IDBKeyRange.bound([book.key, 0], [book.key, Infinity]));
  return pages.find((p) => p.data.blocks.some((b) => b.id === blockId))?.page;
}

/** Removes a downloaded book: its pages, and the pictures no other downloaded book uses. */
export async function removeBook(key: string): Promise<void> {
  const book = await get('books', key);
  if (!book) return;
  await transact(['books', 'pages', 'media'], 'readwrite', async (s) => {
    await requestDone(s.pages.delete(IDBKeyRange.bound([key, 0], [key, Infinity])));
    const media = (await requestDone(s.media.getAll())) as { path: string; books: string[]; blob: Blob }[];
    for (const item of media) {
      if (!item.books.includes(key)) continue;
      const books = item.books.filter((b) => b !== key);
      if (books.length === 0) await requestDone(s.media.delete(item.path));
      else await requestDone(s.media.put({ ...item, books }));
    }
    await requestDone(s.books.delete(key));
  });
  const others = (await listBooks()).some((b) => b.bookCode === book.bookCode);
  if (!others) await remove('marks', book.bookCode);
}

// ---------- the queue of what was done offline ----------

export async function queued(): Promise<QueuedOp[]> {
  return (await getAll('outbox')).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

export async function countQueued(): Promise<void> {
  useConnectivity.setState({ pending: (await getAll('outbox')).length });
}

export async function enqueue(op: Omit<QueuedOp, 'queuedAt'>): Promise<void> {
  await put('outbox', { ...op, queuedAt: new Date().toISOString() });
  await countQueued();
}

export async function dequeue(seq: number): Promise<void> {
  await remove('outbox', seq);
  await countQueued();
}

export async function replaceQueued(op: QueuedOp): Promise<void> {
  await put('outbox', op);
}

/** The store belongs to one reader: when another logs in on the device, it is emptied first. */
export async function claimStore(userId: number): Promise<void> {
  const owner = (await get('meta', 'owner'))?.value;
  if (owner !== undefined && owner !== userId) await clearAll();
  await put('meta', { key: 'owner', value: userId });
  await countQueued();
}

export { clearAll };
