import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NEW_TAB, TABS_STORAGE_KEY, toServerTabs, useTabs } from './tabs.ts';
import { syncTabsOnce } from '../features/reader/useTabsSync.ts';
import { fakeFetch, ok } from '../test/utils.tsx';

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

describe('tabs on the server', () => {
  beforeEach(() => {
    useTabs.getState().clear();
    useTabs.getState().markSynced();
  });

  it('merges the server tabs in without losing the local ones or their order', () => {
    useTabs.getState().addBook({ bookCode: 'a', name: 'A', language: 'zh' });
    useTabs.getState().activate('newTab');
    useTabs.getState().mergeServer({
      tabs: [
        { bookCode: 'a', language: 'en', bookName: 'A elsewhere' },
        { bookCode: 'c', language: 'ko', bookName: 'C' },
      ],
      active: 'book-c',
    });
    const { tabs, activeId } = useTabs.getState();
    expect(tabs.map((t) => t.id)).toEqual(['newTab', 'book-a', 'book-c']);
    expect(tabs[1]).toMatchObject({ book: { name: 'A', language: 'zh' } });
    expect(tabs[2]).toMatchObject({ book: { bookCode: 'c', name: 'C', language: 'ko' } });
    expect(activeId).toBe('book-c');
  });

  it('keeps the local active tab when one is open', () => {
    useTabs.getState().addBook({ bookCode: 'a', name: 'A' });
    useTabs.getState().mergeServer({ tabs: [{ bookCode: 'c', language: 'ko' }], active: 'book-c' });
    expect(useTabs.getState().activeId).toBe('book-a');
  });

  it('describes itself in the server shape', () => {
    useTabs.getState().addBook({ bookCode: 'a', name: 'A', language: 'zh' });
    expect(toServerTabs(useTabs.getState())).toEqual({
      tabs: [{ bookCode: 'a', language: 'zh', bookName: 'A' }],
      active: 'book-a',
    });
  });

  it('after a logout, overwrites the server copy instead of merging it back', async () => {
    useTabs.getState().addBook({ bookCode: 'a', name: 'A', language: 'zh' });
    useTabs.getState().clear();
    expect(useTabs.getState().serverReset).toBe(true);
    const { calls } = fakeFetch({ 'PUT /api/user/tabs': ok({ tabs: [], active: 'newTab' }) });
    await syncTabsOnce();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /api/user/tabs']);
    expect(calls[0]!.body).toEqual({ tabs: [], active: 'newTab' });
    expect(useTabs.getState().serverReset).toBe(false);
    vi.unstubAllGlobals();
  });

  it('otherwise loads and merges the server tabs', async () => {
    fakeFetch({
      'GET /api/user/tabs': ok({ tabs: [{ bookCode: 'z', language: 'jp', bookName: 'Z' }], active: 'newTab' }),
    });
    await syncTabsOnce();
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['newTab', 'book-z']);
    vi.unstubAllGlobals();
  });
});
