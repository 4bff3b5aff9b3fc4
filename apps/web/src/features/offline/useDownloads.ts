import { useEffect } from 'react';
import { create } from 'zustand';
import { errorMessage } from '../../api/errors.ts';
import { useAuth } from '../../stores/auth.ts';
import type { StoredBook } from './db.ts';
import { downloadBook, type DownloadProgress } from './download.ts';
import { bookKey, listBooks, removeBook } from './store.ts';

interface Downloads {
  /** Downloaded books by key (`bookCode/language`); undefined until read from the device. */
  books: Record<string, StoredBook> | undefined;
  /** Downloads running, by key. */
  running: Record<string, DownloadProgress>;
  errors: Record<string, string>;
  load: () => Promise<void>;
  download: (bookCode: string, language: string) => Promise<void>;
  remove: (key: string) => Promise<void>;
}

/** The downloaded books and the downloads running, shared by every control that shows them. */
export const useDownloads = create<Downloads>((set, get) => ({
  books: undefined,
  running: {},
  errors: {},
  load: async () => {
    const books = await listBooks().catch(() => [] as StoredBook[]);
    set({ books: Object.fromEntries(books.map((b) => [b.key, b])) });
  },
  download: async (bookCode, language) => {
    const key = bookKey(bookCode, language);
    if (get().running[key]) return;
    set((s) => ({
      running: { ...s.running, [key]: { pagesDone: 0, pageCount: 0, bytes: 0 } },
      errors: { ...s.errors, [key]: '' },
    }));
    try {
      // Ask the browser not to clear the store when space runs short (it may say no).
      void navigator.storage?.persist?.().catch(() => undefined);
      await downloadBook(bookCode, language, useAuth.getState().user?.id ?? null, (progress) =>
        set((s) => ({ running: { ...s.running, [key]: progress } })),
      );
    } catch (error) {
      set((s) => ({ errors: { ...s.errors, [key]: errorMessage(error) } }));
    } finally {
      set((s) => {
        const running = { ...s.running };
        delete running[key];
        return { running };
      });
      await get().load();
    }
  },
  remove: async (key) => {
    await removeBook(key);
    await get().load();
  },
}));

export function useDownloadedBooks() {
  const state = useDownloads();
  useEffect(() => {
    if (state.books === undefined) void state.load();
  }, [state]);
  return state;
}

/** Bytes as people read them: 12.3 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
