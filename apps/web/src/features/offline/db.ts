import type { BookDetail } from '@yidu/shared/books';
import type { Mark, Position } from '@yidu/shared/marks';
import type { PageData } from '@yidu/shared/reader';

/**
 * The device's offline store (IndexedDB): downloaded books with their pages and pictures, the reader's
 * marks and position in them, and the queue of what was done offline. A thin promise wrapper around
 * IndexedDB itself — nothing here is cached by the service worker.
 */
const DB_NAME = 'yidu-offline';
const VERSION = 1;

/** A downloaded book in one reading language. */
export interface StoredBook {
  /** `${bookCode}/${language}` */
  key: string;
  bookCode: string;
  language: string;
  /** Whose book it is: the store is cleared when another reader logs in on the device. */
  userId: number | null;
  /** The book's detail with its cover URL pointing at the stored picture (media path). */
  detail: BookDetail;
  pages: number[];
  /** Pages left out: not translated yet, or not paid for. */
  missing: number[];
  /** What the book takes on the device, in bytes (pages, pictures, marks). */
  bytes: number;
  downloadedAt: string;
}

export interface StoredPage {
  key: string;
  page: number;
  data: PageData;
}

/** A picture by its media path (`/api/media/<key>`, without the expiring signature). */
export interface StoredMedia {
  path: string;
  blob: Blob;
  books: string[];
}

export interface StoredMarks {
  bookCode: string;
  marks: Mark[];
}

export type StoredPosition = Omit<Position, 'updatedAt'> & { updatedAt: string };

/** Something done offline, sent once the network is back (in order). */
export interface QueuedOp {
  seq?: number;
  /** Names the mark or word being made: a repeat creates nothing new on the server. */
  clientId: string;
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  bookCode: string | null;
  /** A create's stand-in id in the local marks (negative), replaced by the server's once sent. */
  localId?: number;
  /** A later change or delete of a mark made offline names it by its create's client id. */
  targetClientId?: string;
  queuedAt: string;
}

export interface PositionConflict {
  bookCode: string;
  /** Where this device read to offline, and the furthest position the server has (another device). */
  localPage: number;
  serverPage: number;
  serverBlockId: string | null;
  language: string;
}

type Stores = {
  books: StoredBook;
  pages: StoredPage;
  media: StoredMedia;
  marks: StoredMarks;
  positions: StoredPosition;
  outbox: QueuedOp;
  conflicts: PositionConflict;
  meta: { key: string; value: unknown };
};
export type StoreName = keyof Stores;

let opening: Promise<IDBDatabase> | undefined;

export function openDb(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore('books', { keyPath: 'key' });
      db.createObjectStore('pages', { keyPath: ['key', 'page'] });
      db.createObjectStore('media', { keyPath: 'path' });
      db.createObjectStore('marks', { keyPath: 'bookCode' });
      db.createObjectStore('positions', { keyPath: 'bookCode' });
      db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
      db.createObjectStore('conflicts', { keyPath: 'bookCode' });
      db.createObjectStore('meta', { keyPath: 'key' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opening = undefined;
      reject(request.error ?? new Error('IndexedDB could not be opened'));
    };
  });
  return opening;
}

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });

/** Runs `work` in one transaction over `names`; resolves once the transaction has committed. */
export async function transact<T>(
  names: StoreName[],
  mode: IDBTransactionMode,
  work: (stores: { [K in StoreName]: IDBObjectStore }) => Promise<T> | T,
): Promise<T> {
  const db = await openDb();
  const tx = db.transaction(names, mode);
  const stores = Object.fromEntries(names.map((n) => [n, tx.objectStore(n)])) as { [K in StoreName]: IDBObjectStore };
  const finished = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
  const result = await work(stores);
  await finished;
  return result;
}

export const get = <K extends StoreName>(name: K, key: IDBValidKey) =>
  transact([name], 'readonly', (s) => done(s[name].get(key)) as Promise<Stores[K] | undefined>);
export const getAll = <K extends StoreName>(name: K, query?: IDBKeyRange) =>
  transact([name], 'readonly', (s) => done(s[name].getAll(query)) as Promise<Stores[K][]>);
export const put = <K extends StoreName>(name: K, value: Stores[K]) =>
  transact([name], 'readwrite', (s) => done(s[name].put(value)).then(() => undefined));
export const remove = (name: StoreName, key: IDBValidKey | IDBKeyRange) =>
  transact([name], 'readwrite', (s) => done(s[name].delete(key)).then(() => undefined));
export { done as requestDone };

/** Forgets everything kept for offline reading (another reader logged in, or this one logged out). */
export async function clearAll(): Promise<void> {
  const names: StoreName[] = ['books', 'pages', 'media', 'marks', 'positions', 'outbox', 'conflicts', 'meta'];
  await transact(names, 'readwrite', (s) => Promise.all(names.map((n) => done(s[n].clear()))));
}
