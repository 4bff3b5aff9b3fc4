import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** The minimum a tab needs to show and reopen a book; the reader fills in more later. */
export interface TabBook {
  bookCode: string;
  name: string;
  language?: string;
  cover?: string | null;
}

export type Tab = { kind: 'newtab'; id: 'newTab' } | { kind: 'book'; id: `book-${string}`; book: TabBook };

export const NEW_TAB: Tab = { kind: 'newtab', id: 'newTab' };
export const TABS_STORAGE_KEY = 'tabs';
export const bookTabId = (bookCode: string) => `book-${bookCode}` as const;

interface TabsState {
  tabs: Tab[];
  activeId: string;
  /** Adds a book tab unless one exists for that bookCode (then refreshes its book), and activates it. */
  addBook: (book: TabBook) => void;
  activate: (id: string) => void;
  remove: (id: string) => void;
  /** Back to the New Tab alone (logout). */
  clear: () => void;
}

/** SPEC §2.3: a permanent New Tab plus one tab per open book, kept across sessions. */
export const useTabs = create<TabsState>()(
  persist(
    (set) => ({
      tabs: [NEW_TAB],
      activeId: NEW_TAB.id,
      addBook: (book) =>
        set((state) => {
          const id = bookTabId(book.bookCode);
          const exists = state.tabs.some((t) => t.id === id);
          const tabs = exists
            ? state.tabs.map((t) => (t.id === id ? { kind: 'book' as const, id, book } : t))
            : [...state.tabs, { kind: 'book' as const, id, book }];
          return { tabs, activeId: id };
        }),
      activate: (id) => set((state) => (state.tabs.some((t) => t.id === id) ? { activeId: id } : state)),
      remove: (id) =>
        set((state) => {
          if (id === NEW_TAB.id) return state;
          const index = state.tabs.findIndex((t) => t.id === id);
          if (index < 0) return state;
          const tabs = state.tabs.filter((t) => t.id !== id);
          const activeId = state.activeId === id ? (tabs[Math.max(0, index - 1)]?.id ?? NEW_TAB.id) : state.activeId;
          return { tabs, activeId };
        }),
      clear: () => set({ tabs: [NEW_TAB], activeId: NEW_TAB.id }),
    }),
    {
      name: TABS_STORAGE_KEY,
      version: 1,
      merge: (persisted, current) => {
        const saved = persisted as Partial<TabsState> | undefined;
        const books = (saved?.tabs ?? []).filter((t): t is Extract<Tab, { kind: 'book' }> => t?.kind === 'book');
        const tabs: Tab[] = [NEW_TAB, ...books];
        const activeId = tabs.some((t) => t.id === saved?.activeId) ? saved!.activeId! : NEW_TAB.id;
        return { ...current, tabs, activeId };
      },
    },
  ),
);
