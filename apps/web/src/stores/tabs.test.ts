import { beforeEach, describe, expect, it } from 'vitest';
import { NEW_TAB, TABS_STORAGE_KEY, useTabs } from './tabs.ts';

describe('tabs store', () => {
  beforeEach(() => useTabs.getState().clear());

  it('keeps the permanent New Tab and one tab per book', () => {
    const { addBook } = useTabs.getState();
    addBook({ bookCode: 'a', name: 'A' });
    addBook({ bookCode: 'b', name: 'B' });
    addBook({ bookCode: 'a', name: 'A (renamed)' });
    const { tabs, activeId } = useTabs.getState();
    expect(tabs.map((t) => t.id)).toEqual(['newTab', 'book-a', 'book-b']);
    expect(activeId).toBe('book-a');
  });

  it('removes book tabs but never the New Tab, and activates a neighbour', () => {
    const { addBook, remove } = useTabs.getState();
    addBook({ bookCode: 'a', name: 'A' });
    addBook({ bookCode: 'b', name: 'B' });
    remove('newTab');
    remove('book-b');
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['newTab', 'book-a']);
    expect(useTabs.getState().activeId).toBe('book-a');
  });

  it('is persisted and cleared back to the New Tab alone', () => {
    useTabs.getState().addBook({ bookCode: 'a', name: 'A' });
    expect(JSON.parse(localStorage.getItem(TABS_STORAGE_KEY)!).state.tabs).toHaveLength(2);
    useTabs.getState().clear();
    expect(useTabs.getState().tabs).toEqual([NEW_TAB]);
  });
});
