import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { TabsState as ServerTabs } from '@yidu/shared/marks';

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
  /** Back to the New Tab alone (logout); the server's copy is reset at the next sync. */
  clear: () => void;
  /**
   * Set by clear(): the next sync overwrites the server's tabs instead of merging them in. The server
   * clears them at logout itself; this covers a logout it never heard of (expired token, offline).
   */
  serverReset: boolean;
  /** Adds the server's tabs that are not open here (other devices); the local order and choice win. */
  mergeServer: (server: ServerTabs) => void;
  markSynced: () => void;
}

/** The tabs as the server keeps them (GET/PUT /api/user/tabs). */
export function toServerTabs(state: Pick<TabsState, 'tabs' | 'activeId'>): ServerTabs {
  return {
    tabs: state.tabs
      .filter((t): t is Extract<Tab, { kind: 'book' }> => t.kind === 'book')
      .slice(0, 50)
      .map((t) => ({
        bookCode: t.book.bookCode,
        language: t.book.language ?? '',
        bookName: t.book.name.slice(0, 300),
      })),
    active: state.activeId,
  };
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
      clear: () => set({ tabs: [NEW_TAB], activeId: NEW_TAB.id, serverReset: true }),
      serverReset: false,
      mergeServer: (server) =>
        set((state) => {
          const known = new Set(state.tabs.map((t) => t.id));
          const added: Tab[] = server.tabs
            .filter((s) => s.bookCode && !known.has(bookTabId(s.bookCode)))
            .map((s) => ({
              kind: 'book' as const,
              id: bookTabId(s.bookCode),
              book: { bookCode: s.bookCode, name: s.bookName || s.bookCode, language: s.language || undefined },
            }));
          if (added.length === 0) return state;
          const tabs = [...state.tabs, ...added];
          const activeId =
            state.activeId === NEW_TAB.id && tabs.some((t) => t.id === server.active) ? server.active : state.activeId;
          return { tabs, activeId };
        }),
      markSynced: () => set({ serverReset: false }),
    }),
    {
      name: TABS_STORAGE_KEY,
      version: 1,
      merge: (persisted, current) => {
        const saved = persisted as Partial<TabsState> | undefined;
        const books = (saved?.tabs ?? []).filter((t): t is Extract<Tab, { kind: 'book' }> => t?.kind === 'book');
        const tabs: Tab[] = [NEW_TAB, ...books];
        const activeId = tabs.some((t) => t.id === saved?.activeId) ? saved!.activeId! : NEW_TAB.id;
        return { ...current, tabs, activeId, serverReset: saved?.serverReset === true };
      },
    },
  ),
);
