import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BookDetail } from '@yidu/shared/books';
import { routes } from '../../shell/routes.tsx';
import { useAuth } from '../../stores/auth.ts';
import { useTabs } from '../../stores/tabs.ts';
import { DEFAULT_READER_SETTINGS, useReaderSettings } from '../../stores/readerSettings.ts';
import { fail, fakeFetch, makeUser, ok, renderRoutes, type FakeCall } from '../../test/utils.tsx';

const detail = (bookCode: string, bookName: string): BookDetail => ({
  bookCode,
  bookName,
  bookAuthor: 'Herman Melville',
  bookDescribe: '',
  category: null,
  bookStatus: 0,
  coverUrl: null,
  format: 'epub',
  originalLanguage: 'en',
  readLanguage: 'zh',
  pageCount: 3,
  chapterCount: 1,
  readers: 1,
  isOwner: true,
  inLibrary: true,
  updateAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  chapters: [{ index: 1, title: 'Loomings', level: 1, page: 1 }],
  sourcePages: null,
  features: ['explanation'],
});

const pageData = {
  page: 1,
  pageCount: 3,
  chapter: { index: 1, title: 'Loomings' },
  translated: true,
  charge: null,
  blocks: [
    {
      id: 'c1-b1',
      type: 'paragraph',
      text: 'Call me Ishmael.',
      html: null,
      translation: '叫我以实玛利。',
      status: 'done',
      level: null,
      imageUrl: null,
      noteLabel: null,
      noteRefs: null,
      pdfPage: null,
      pdfRegions: null,
    },
  ],
};

const common = {
  'GET /api/user/tabs': ok({ tabs: [], active: 'newTab' }),
  'PUT /api/user/tabs': ok({ tabs: [], active: 'newTab' }),
  'GET /api/user/reader-settings': ok({
    mode: 'default',
    fontSize: 18,
    lineHeight: 1.8,
    paragraphMargin: 16,
    scheme: 'paper',
    background: '#f8f3e8',
    textColor: '#2b2622',
  }),
  'GET /api/reader/position': ok(null),
  'PUT /api/reader/position': ok({}),
  'GET /api/reader/marks': ok([]),
  'GET /api/reader/getPageData': ok(pageData),
  'GET /api/user/getUserinfo': ok(makeUser()),
};

beforeEach(() => {
  useAuth.getState().setSession('t', makeUser());
  useTabs.getState().clear();
  useTabs.getState().markSynced();
});
afterEach(() => vi.unstubAllGlobals());

describe('the reader route and the tab rules (SPEC §2.3)', () => {
  it('arriving without a tab loads the book, adds and activates its tab and titles the window', async () => {
    const { calls } = fakeFetch({ ...common, 'GET /api/book/user/getBookByCode': ok(detail('b1', 'Moby Dick')) });
    renderRoutes(routes, '/tabs/read/b1/zh');
    // The first test loads the reader's modules cold: on a busy machine that takes a while.
    expect(await screen.findByText('叫我以实玛利。', {}, { timeout: 20_000 })).toBeTruthy();
    await waitFor(() => expect(useTabs.getState().activeId).toBe('book-b1'));
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['newTab', 'book-b1']);
    expect(document.title).toBe('Moby Dick');
    const detailCall = calls.find((c) => c.path === '/api/book/user/getBookByCode')!;
    expect(Object.fromEntries(detailCall.query)).toEqual({ bookCode: 'b1', readLanguage: 'zh' });
    expect(screen.getByRole('tab', { name: /Moby Dick/ })).toBeTruthy();
  });

  it('arriving with a tab activates it at once and shows a failed reload as an error toast', async () => {
    useTabs.getState().addBook({ bookCode: 'b2', name: 'Dubliners', language: 'zh' });
    useTabs.getState().activate('newTab');
    fakeFetch({ ...common, 'GET /api/book/user/getBookByCode': fail(500, 'internalError') });
    renderRoutes(routes, '/tabs/read/b2/zh');
    await waitFor(() => expect(useTabs.getState().activeId).toBe('book-b2'));
    await waitFor(() => expect(document.title).toBe('Dubliners'));
    expect(await screen.findByText('server says internalError')).toBeTruthy();
  });

  it('closing the active tab goes to its neighbour; the New Tab stays', async () => {
    useTabs.getState().addBook({ bookCode: 'b1', name: 'Moby Dick', language: 'zh' });
    fakeFetch({ ...common, 'GET /api/book/user/getBookByCode': ok(detail('b1', 'Moby Dick')) });
    const { router } = renderRoutes(routes, '/tabs/read/b1/zh');
    await screen.findByText('叫我以实玛利。');
    const tab = screen.getByRole('tab', { name: /Moby Dick/ });
    await userEvent.click(tab.parentElement!.querySelector('.ant-tabs-tab-remove')!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/tabs/new'));
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['newTab']);
  });

  it('restores the tabs of other devices from the server and saves changes (debounced)', async () => {
    const { calls } = fakeFetch({
      ...common,
      'GET /api/user/tabs': ok({ tabs: [{ bookCode: 'b9', language: 'zh', bookName: 'Walden' }], active: 'newTab' }),
      'GET /api/reader/recent': ok([]),
      'GET /api/book/user/list': ok([]),
    });
    renderRoutes(routes, '/tabs/new');
    expect(await screen.findByRole('tab', { name: /Walden/ })).toBeTruthy();
    useTabs.getState().addBook({ bookCode: 'b1', name: 'Moby Dick', language: 'zh' });
    const puts = () => calls.filter((c) => c.method === 'PUT' && c.path === '/api/user/tabs');
    // First the merged bar, then (debounced) the one with the new book.
    await waitFor(() => expect(puts()).toHaveLength(2), { timeout: 3000 });
    expect(puts()[0]!.body).toEqual({
      tabs: [{ bookCode: 'b9', language: 'zh', bookName: 'Walden' }],
      active: 'newTab',
    });
    expect((puts()[1]!.body as { tabs: unknown }).tabs).toEqual([
      { bookCode: 'b9', language: 'zh', bookName: 'Walden' },
      { bookCode: 'b1', language: 'zh', bookName: 'Moby Dick' },
    ]);
  });
});

describe('paying for pages', () => {
  /** Page `n` of the book in the reading language (translated) or in its own language (the original). */
  const bookPage = (n: number, translated: boolean) => ({
    ...pageData,
    page: n,
    translated,
    charge: translated ? { points: 3, charged: true } : null,
    blocks: pageData.blocks.map((b) => ({
      ...b,
      id: `c1-b${n}`,
      text: `Original text of page ${n}.`,
      translation: translated ? `第 ${n} 页的译文。` : null,
    })),
  });
  const quote = (n: number) => fail(409, 'pointsConfirmationRequired', { points: 3, characters: 1500, page: n });
  const pageCalls = (calls: FakeCall[], language = 'zh') =>
    calls
      .filter((c) => c.path === '/api/reader/getPageData' && c.query.get('language') === language)
      .map((c) => `${c.query.get('page')}${c.query.get('confirm') === 'true' ? '+confirm' : ''}`);

  it('in confirmation mode, confirming translates the page; the next page asks again; nothing is fetched ahead', async () => {
    const { calls } = fakeFetch({
      ...common,
      'GET /api/book/user/getBookByCode': ok(detail('pay1', 'Moby Dick')),
      'GET /api/reader/getPageData': (call) => {
        const n = Number(call.query.get('page'));
        if (call.query.get('language') === 'en') return ok(bookPage(n, false));
        return call.query.get('confirm') === 'true' ? ok(bookPage(n, true)) : quote(n);
      },
    });
    renderRoutes(routes, '/tabs/read/pay1/zh');
    // The price first, with the original text below it (free).
    expect(
      await screen.findByText('Translating this page costs 3 points (1500 characters).', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(await screen.findByText('Original text of page 1.')).toBeTruthy();
    expect(screen.queryByText('第 1 页的译文。')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Translate this page' }));
    expect(await screen.findByText('第 1 页的译文。')).toBeTruthy();
    expect(pageCalls(calls)).toContain('1+confirm');
    // Page 2 is never asked for before the reader turns to it, and then it asks for its own confirmation.
    expect(pageCalls(calls).filter((p) => p.startsWith('2'))).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    expect(await screen.findByText('Original text of page 2.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Translate this page' })).toBeTruthy();
    expect(pageCalls(calls).filter((p) => p.startsWith('2'))).toEqual(['2']);
    expect(pageCalls(calls).filter((p) => p.endsWith('+confirm'))).toEqual(['1+confirm']);
  });

  it('without enough points, says so and shows the original text', async () => {
    fakeFetch({
      ...common,
      'GET /api/book/user/getBookByCode': ok(detail('poor1', 'Moby Dick')),
      'GET /api/reader/getPageData': (call) =>
        call.query.get('language') === 'en'
          ? ok(bookPage(1, false))
          : fail(402, 'insufficientPoints', { points: 3, balance: 1 }),
    });
    renderRoutes(routes, '/tabs/read/poor1/zh');
    expect(
      await screen.findByText(
        'Translating this page costs 3 points, but your balance is 1. Here is the original text.',
        {},
        { timeout: 5000 },
      ),
    ).toBeTruthy();
    expect(await screen.findByText('Original text of page 1.')).toBeTruthy();
  });

  it('shows the original of paragraphs whose translation failed, and one Retry all for the page', async () => {
    const failed = (id: string, text: string) => ({
      ...pageData.blocks[0]!,
      id,
      text,
      translation: null,
      status: 'failed',
    });
    const { calls } = fakeFetch({
      ...common,
      'GET /api/book/user/getBookByCode': ok(detail('f1', 'Moby Dick')),
      'GET /api/reader/getPageData': (call) =>
        ok({
          ...pageData,
          blocks: call.query.get('retry')
            ? [pageData.blocks[0], { ...failed('c1-b2', 'Some years ago.'), status: 'pending' }]
            : [pageData.blocks[0], failed('c1-b2', 'Some years ago.'), failed('c1-b3', 'Never mind how long.')],
        }),
    });
    renderRoutes(routes, '/tabs/read/f1/zh');
    expect(await screen.findByText('Some years ago.', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Never mind how long.')).toBeTruthy();
    expect(screen.getByText('叫我以实玛利。')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Retry all/ }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/reader/getPageData').map((c) => c.query.get('retry'))).toContain(
        'c1-b2,c1-b3',
      ),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: /Retry all/ })).toBeNull(), { timeout: 5000 });
  });
});

describe('the reader shell in a dark scheme and on a phone', () => {
  afterEach(() => useReaderSettings.setState({ settings: DEFAULT_READER_SETTINGS }));

  it('a dark reading scheme reaches the tab bar and what opens over the reader, while a book is open', async () => {
    useReaderSettings.setState({ settings: { ...DEFAULT_READER_SETTINGS, scheme: 'black' }, loaded: true });
    fakeFetch({
      ...common,
      'GET /api/book/user/getBookByCode': ok(detail('d1', 'Moby Dick')),
      'GET /api/reader/recent': ok([]),
      'GET /api/book/user/list': ok([]),
    });
    const { router } = renderRoutes(routes, '/tabs/read/d1/zh');
    await screen.findByText('叫我以实玛利。', {}, { timeout: 5000 });
    await waitFor(() => expect(document.body.classList.contains('yd-reader-dark')).toBe(true), { timeout: 5000 });
    expect(document.body.style.getPropertyValue('--rd-bg')).toBe('#121212');
    await router.navigate('/tabs/new');
    await waitFor(() => expect(document.body.classList.contains('yd-reader-dark')).toBe(false), { timeout: 5000 });
  });

  it('on a phone the New Tab is pinned before the book tabs, named for screen readers', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 640px)',
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      addListener: vi.fn(),
      removeListener: vi.fn(),
    }));
    fakeFetch({
      ...common,
      'GET /api/book/user/getBookByCode': ok(detail('p1', 'The Adventures of Sherlock Holmes')),
      'GET /api/reader/recent': ok([]),
      'GET /api/book/user/list': ok([]),
    });
    const { router } = renderRoutes(routes, '/tabs/read/p1/zh');
    await screen.findByText('叫我以实玛利。', {}, { timeout: 5000 });
    expect(screen.queryByRole('tab', { name: /New Tab/ })).toBeNull();
    expect(screen.getByRole('tab', { name: /Sherlock Holmes/ })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'New Tab' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tabs/new'), { timeout: 5000 });
    expect(screen.getByRole('button', { name: 'New Tab' }).getAttribute('aria-current')).toBe('page');
  });
});
