import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BookDetail } from '@yidu/shared/books';
import { routes } from '../../shell/routes.tsx';
import { useAuth } from '../../stores/auth.ts';
import { useTabs } from '../../stores/tabs.ts';
import { fail, fakeFetch, makeUser, ok, renderRoutes, type FakeCall } from '../../test/utils.tsx';

/** Pepys's Diary as Standard Ebooks makes it: the entry on page 1, its note 60 in the endnotes, page 3. */
const detail: BookDetail = {
  bookCode: 'pepys',
  bookName: 'The Diary of Samuel Pepys',
  bookAuthor: 'Samuel Pepys',
  bookDescribe: '',
  category: null,
  bookStatus: 0,
  coverUrl: null,
  format: 'epub',
  originalLanguage: 'en',
  readLanguage: 'zh',
  pageCount: 3,
  chapterCount: 2,
  readers: 1,
  isOwner: true,
  inLibrary: true,
  updateAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  chapters: [
    { index: 1, title: 'January 1659–60', level: 1, page: 1 },
    { index: 2, title: 'Endnotes', level: 1, page: 3 },
  ],
  sourcePages: null,
  features: ['explanation'],
};

const block = {
  level: null,
  imageUrl: null,
  noteLabel: null,
  noteRefs: null,
  pdfPage: null,
  status: 'done',
};
const ENTRY = '2nd. Then I went to Mr. Sheply60 who was drawing of sack in the wine cellar.';
const NOTE = 'W. Shepley was a servant of Admiral Sir Edward Montagu.';
const page = (n: number) => ({
  page: n,
  pageCount: 3,
  translated: true,
  charge: { points: 4, charged: true },
  chapter: n === 3 ? { index: 2, title: 'Endnotes' } : { index: 1, title: 'January 1659–60' },
  blocks:
    n === 3
      ? [
          {
            ...block,
            id: 'c2-b15',
            type: 'footnote',
            text: NOTE,
            html: null,
            noteLabel: '60',
            referencedBy: ['c1-b1'],
            translation: '谢普利是蒙塔古爵士的仆人。',
          },
        ]
      : [
          {
            ...block,
            id: `c1-b${n}`,
            type: 'paragraph',
            text: n === 1 ? ENTRY : 'Another day.',
            html: n === 1 ? ENTRY.replace('Sheply60', 'Sheply<a href="#c2-b15">60</a>') : null,
            noteRefs: n === 1 ? ['c2-b15'] : null,
            translation: n === 1 ? '我去见谢普利<a href="#c2-b15">60</a>先生。' : '又一天。',
          },
          {
            ...block,
            id: `c1-b${n}0`,
            type: 'quote',
            text: 'Little Harry Hughes and his schoolfellows all\nWent out for to play ball.',
            html: null,
            translation: '小哈里·休斯和他的同学们\n出去玩球。',
          },
        ],
});
const location = {
  id: 'c2-b15',
  page: 3,
  chapter: { index: 2, title: 'Endnotes' },
  type: 'footnote',
  text: NOTE,
  html: null,
  noteLabel: '60',
  referencedBy: [{ id: 'c1-b1', page: 1 }],
  translated: true,
};

const handlers = (pages: (call: FakeCall) => ReturnType<typeof ok>) => ({
  'GET /api/user/tabs': ok({ tabs: [], active: 'newTab' }),
  'PUT /api/user/tabs': ok({ tabs: [], active: 'newTab' }),
  'GET /api/user/reader-settings': ok({
    mode: 'advanced',
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
  'GET /api/user/getUserinfo': ok(makeUser()),
  'GET /api/book/user/getBookByCode': ok(detail),
  'GET /api/reader/block': ok(location),
  'GET /api/reader/getPageData': pages,
});
const pageCalls = (calls: FakeCall[]) =>
  calls
    .filter((c) => c.path === '/api/reader/getPageData')
    .map((c) => `${c.query.get('page')}${c.query.get('confirm') === 'true' ? '+confirm' : ''}`);

beforeEach(() => {
  useAuth.getState().setSession('t', makeUser());
  useTabs.getState().clear();
  useTabs.getState().markSynced();
});
afterEach(() => vi.unstubAllGlobals());

describe('a note marker opens its note wherever it is', () => {
  it('shows note 60 from the endnotes in a popover, original and translation; Esc and a tap outside close it', async () => {
    const { calls } = fakeFetch(handlers((call) => ok(page(Number(call.query.get('page'))))));
    renderRoutes(routes, '/tabs/read/pepys/zh');
    const [marker] = await screen.findAllByRole('link', { name: '60' }, { timeout: 20_000 });
    await userEvent.click(marker!);

    const dialog = await screen.findByRole('dialog', { name: 'Note 60' });
    expect(within(dialog).getByText(NOTE)).toBeTruthy();
    expect(await within(dialog).findByText('谢普利是蒙塔古爵士的仆人。')).toBeTruthy();
    expect(within(dialog).getByText('Translated with page 3 (4 points, charged once per page)')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/reader/block')!.query.get('blockId')).toBe('c2-b15');
    expect(pageCalls(calls)).toContain('3');
    // Keyboard: focus is in the note, Esc closes it and gives focus back to the marker.
    expect(dialog.contains(document.activeElement)).toBe(true);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(marker);

    await userEvent.click(marker!);
    await screen.findByRole('dialog', { name: 'Note 60' });
    fireEvent.pointerDown(document.body);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  }, 60_000);

  it('goes to the note on its page and back to the marker', async () => {
    fakeFetch(handlers((call) => ok(page(Number(call.query.get('page'))))));
    renderRoutes(routes, '/tabs/read/pepys/zh');
    const [marker] = await screen.findAllByRole('link', { name: '60' }, { timeout: 20_000 });
    await userEvent.click(marker!);
    const dialog = await screen.findByRole('dialog', { name: 'Note 60' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Go to the note (page 3)' }));

    expect(await screen.findByText(NOTE)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go to a page' }).textContent).toBe('Page 3 of 3 · 100%');
    await userEvent.click(screen.getByRole('button', { name: 'Back to the text' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Go to a page' }).textContent).toBe('Page 1 of 3 · 33%'),
    );
    expect(screen.queryByRole('button', { name: 'Back to the text' })).toBeNull();

    // From the note on its page, its own way back leads to its marker too.
    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    await userEvent.click(screen.getByRole('button', { name: /Next/ }));
    await screen.findByText(NOTE);
    await userEvent.click(screen.getByRole('button', { name: 'Back to the text' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Go to a page' }).textContent).toBe('Page 1 of 3 · 33%'),
    );
  }, 60_000);

  it('asks before paying for the note’s page in confirmation mode, then shows the translation', async () => {
    const { calls } = fakeFetch(
      handlers((call) => {
        const n = Number(call.query.get('page'));
        if (n === 3 && call.query.get('confirm') !== 'true')
          return fail(409, 'pointsConfirmationRequired', { points: 4, characters: 1800 });
        return ok(page(n));
      }),
    );
    renderRoutes(routes, '/tabs/read/pepys/zh');
    const [marker] = await screen.findAllByRole('link', { name: '60' }, { timeout: 20_000 });
    await userEvent.click(marker!);
    const dialog = await screen.findByRole('dialog', { name: 'Note 60' });
    expect(within(dialog).getByText(NOTE)).toBeTruthy();
    expect(
      await within(dialog).findByText(
        'The note is translated with its page (page 3) for 4 points, charged once for the page and every other note on it.',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText('谢普利是蒙塔古爵士的仆人。')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Translate' }));
    expect(await within(dialog).findByText('谢普利是蒙塔古爵士的仆人。')).toBeTruthy();
    expect(pageCalls(calls)).toContain('3+confirm');
  }, 60_000);

  it('shows verse as lines, in the original and in the translation', async () => {
    fakeFetch(handlers((call) => ok(page(Number(call.query.get('page'))))));
    renderRoutes(routes, '/tabs/read/pepys/zh');
    const original = await screen.findByText(/Little Harry Hughes/, {}, { timeout: 20_000 });
    expect(original.textContent).toBe('Little Harry Hughes and his schoolfellows all\nWent out for to play ball.');
    expect(original.closest('.yd-block')!.classList.contains('has-lines')).toBe(true);
    expect(screen.getByText(/小哈里·休斯/).textContent).toBe('小哈里·休斯和他的同学们\n出去玩球。');
  }, 60_000);
});
