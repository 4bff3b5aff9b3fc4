import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import LibraryPage from './LibraryPage.tsx';
import { makeBook, makeDetail, page } from './testData.ts';
import { fakeFetch, makeUser, ok, renderRoutes, type FakeCall } from '../../test/utils.tsx';
import { useAuth } from '../../stores/auth.ts';
import { useTabs } from '../../stores/tabs.ts';

beforeEach(() => {
  useAuth.setState({ token: 't1', user: makeUser({ languageCode: 'ja' }) });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
  useTabs.getState().clear();
});

const mine = makeBook({ bookCode: 'b1', bookName: 'Moby-Dick', isOwner: true, bookStatus: 1 });
const theirs = makeBook({
  bookCode: 'b2',
  bookName: '红楼梦',
  bookAuthor: 'Anonymous',
  isOwner: false,
  coverUrl: '/c.jpg',
});
const privateMine = makeBook({ bookCode: 'b3', bookName: 'Notes', isOwner: true, bookStatus: 0 });

function setup(path: string, handlers: Parameters<typeof fakeFetch>[0] = {}) {
  const fetch = fakeFetch({
    'GET /api/book/user/library': ok(page([mine, theirs, privateMine])),
    'GET /api/book/library': ok(page([theirs])),
    'GET /api/book/user/getBookByCode': (call) =>
      ok(makeDetail({ ...[mine, theirs, privateMine].find((b) => b.bookCode === call.query.get('bookCode')) })),
    ...handlers,
  });
  const user = userEvent.setup();
  const view = renderRoutes(
    [
      { path: '/books/:kind', element: <LibraryPage /> },
      { path: '*', element: <div data-testid="elsewhere" /> },
    ],
    path,
  );
  return { ...fetch, user, view };
}
const lastCall = (calls: FakeCall[], path: string) => calls.filter((c) => c.path === path).at(-1)!;

describe('library pages', () => {
  it('names a book language outside the 26 in the interface language', async () => {
    const hebrew = makeBook({ bookCode: 'b4', bookName: 'ירושלים', originalLanguage: 'he' });
    const latin = makeBook({ bookCode: 'b5', bookName: 'Vulgata', originalLanguage: 'la' });
    setup('/books/user', { 'GET /api/book/user/library': ok(page([hebrew, latin])) });
    expect(await within(await screen.findByTestId('book-card-b4')).findByText('Hebrew')).toBeTruthy();
    expect(within(screen.getByTestId('book-card-b5')).getByText('Latin')).toBeTruthy();
  });

  it('counts the books with the plural the number takes', async () => {
    setup('/books/user', { 'GET /api/book/user/library': ok(page([mine])) });
    expect(await screen.findByText('1 book')).toBeTruthy();
  });

  it('shows the personal library as cards with the sort options', async () => {
    const { calls } = setup('/books/user');
    const card = await screen.findByTestId('book-card-b1');
    expect(within(card).getByRole('heading', { name: 'Moby-Dick' })).toBeTruthy();
    expect(card.querySelector('.yd-book-author')!.textContent).toBe('Herman Melville');
    expect(within(card).getByText('Call me Ishmael.')).toBeTruthy();
    expect(within(card).getByText('Public')).toBeTruthy();
    expect(within(card).getByText('Novel')).toBeTruthy();
    expect(within(card).getByText('EPUB')).toBeTruthy();
    expect(within(card).getByText('English')).toBeTruthy();
    expect(screen.getByTestId('book-card-b2').querySelector('.yd-book-author')!.textContent).toBe('Anonymous');
    expect(screen.getByText('Recently read')).toBeTruthy();
    expect(lastCall(calls, '/api/book/user/library').query.get('sort')).toBe('default');
  });

  it('switches the public library sections and searches by title (debounced, CJK)', async () => {
    const { user, calls } = setup('/books/all');
    await screen.findByTestId('book-card-b2');
    expect(lastCall(calls, '/api/book/library').query.get('section')).toBe('new');
    await user.click(screen.getByText('Popular'));
    await waitFor(() => expect(lastCall(calls, '/api/book/library').query.get('section')).toBe('popular'));
    const before = calls.length;
    await user.type(screen.getByLabelText('Search by title'), '红楼');
    await waitFor(() => expect(lastCall(calls, '/api/book/library').query.get('keyword')).toBe('红楼'));
    // One request for the settled text, not one per keystroke.
    expect(calls.slice(before).filter((c) => c.path === '/api/book/library').length).toBe(1);
  });

  it('helps when the personal library is empty', async () => {
    setup('/books/user', { 'GET /api/book/user/library': ok(page([])) });
    expect(await screen.findByText('Your library is empty')).toBeTruthy();
    expect(
      screen.getAllByRole('link', { name: /Upload a book/ }).every((l) => l.getAttribute('href') === '/book/upload'),
    ).toBe(true);
    expect(screen.getAllByRole('link', { name: 'Browse the public library' })[0]!.getAttribute('href')).toBe(
      '/books/all',
    );
  });
});

describe('batch manage', () => {
  it('selects books and changes their visibility, with translated done/failed counts', async () => {
    const { user, calls } = setup('/books/user', {
      'POST /api/book/user/batch': ok({ done: ['b3'], failed: [{ bookCode: 'b2', key: 'insufficientPermissions' }] }),
    });
    await screen.findByTestId('book-card-b1');
    await user.click(screen.getByRole('button', { name: /Batch Manage/ }));
    await user.click(screen.getByTestId('book-card-b3'));
    await user.click(screen.getByTestId('book-card-b2'));
    expect(screen.getByText('2 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /Set private/ }));
    expect(await screen.findByText('Done: 1, failed: 1 (Insufficient permissions)')).toBeTruthy();
    expect(lastCall(calls, '/api/book/user/batch').body).toEqual({
      bookCodes: ['b3', 'b2'],
      action: 'setVisibility',
      bookStatus: 0,
      keepPublic: true,
    });
    // What failed stays selected.
    expect(screen.getByText('1 selected')).toBeTruthy();
  });

  it('asks the keep-public question when an uploaded public book is among those deleted', async () => {
    const { user, calls } = setup('/books/user', {
      'POST /api/book/user/batch': ok({ done: ['b1', 'b2'], failed: [] }),
    });
    await screen.findByTestId('book-card-b1');
    await user.click(screen.getByRole('button', { name: /Batch Manage/ }));
    await user.click(screen.getByRole('button', { name: /Select all on this page/ }));
    expect(screen.getByText('3 selected')).toBeTruthy();
    await user.click(screen.getByTestId('book-card-b3'));
    await user.click(screen.getByRole('button', { name: /Delete/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete 2 books?')).toBeTruthy();
    expect(within(dialog).getByText("Keep the books' info in the public library?")).toBeTruthy();
    await user.click(within(dialog).getByText('No, remove it from the public library too'));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Done: 2')).toBeTruthy();
    expect(lastCall(calls, '/api/book/user/batch').body).toEqual({
      bookCodes: ['b1', 'b2'],
      action: 'delete',
      keepPublic: false,
    });
  });

  it('only confirms when no selected book is an uploaded public one', async () => {
    const { user, calls } = setup('/books/user', { 'POST /api/book/user/batch': ok({ done: ['b2'], failed: [] }) });
    await screen.findByTestId('book-card-b2');
    await user.click(screen.getByRole('button', { name: /Batch Manage/ }));
    await user.click(screen.getByTestId('book-card-b2'));
    await user.click(screen.getByRole('button', { name: /Delete/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Delete “红楼梦”?')).toBeTruthy();
    expect(within(dialog).queryByTestId('keep-public-question')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Done: 1');
    expect(lastCall(calls, '/api/book/user/batch').body).toMatchObject({ action: 'delete', keepPublic: true });
  });
});

describe('book detail popup', () => {
  it('shows the details and table of contents, and deletes with the keep-public question for the uploader', async () => {
    const { user, calls } = setup('/books/user', { 'DELETE /api/book/user/b1': ok(null) });
    await user.click(await screen.findByTestId('book-card-b1'));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Loomings')).toBeTruthy();
    expect(within(dialog).getByText('13')).toBeTruthy();
    expect(within(dialog).getByText('142')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: /Delete/ }));
    const confirm = (await screen.findByText('Delete “Moby-Dick”?')).closest<HTMLElement>('.ant-modal')!;
    expect(within(confirm).getByText("Keep the book's info in the public library?")).toBeTruthy();
    await user.click(within(confirm).getByText('No, remove it from the public library too'));
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Book deleted');
    expect(lastCall(calls, '/api/book/user/b1').query.get('keepPublic')).toBe('false');
  });

  it('deletes a book the user did not upload after a plain confirmation', async () => {
    const { user, calls } = setup('/books/user', { 'DELETE /api/book/user/b2': ok(null) });
    await user.click(await screen.findByTestId('book-card-b2'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /Delete/ }));
    const confirm = (await screen.findByText('Delete “红楼梦”?')).closest<HTMLElement>('.ant-modal')!;
    expect(within(confirm).queryByText("Keep the book's info in the public library?")).toBeNull();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Book deleted');
    expect(lastCall(calls, '/api/book/user/b2').query.get('keepPublic')).toBe('true');
  });

  it('adds a public book to the personal library, or says that it failed', async () => {
    const outside = makeBook({ bookCode: 'b2', bookName: '红楼梦', isOwner: false, inLibrary: false });
    let fails = true;
    const { user } = setup('/books/all', {
      'GET /api/book/library': ok(page([outside])),
      'GET /api/book/user/getBookByCode': ok(makeDetail(outside)),
      'POST /api/book/user/add': () =>
        fails
          ? { status: 404, body: { code: 404, data: { key: 'bookNotFound' }, msg: 'x' } }
          : ok({ ...outside, inLibrary: true }),
    });
    await user.click(await screen.findByTestId('book-card-b2'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('button', { name: /Edit info/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: /Add to my library/ }));
    expect(await screen.findByText('Add to personal library failed: Book not found')).toBeTruthy();
    fails = false;
    await user.click(within(dialog).getByRole('button', { name: /Add to my library/ }));
    expect(await screen.findByText('Added to your personal library')).toBeTruthy();
    expect(await within(dialog).findByText('In my library')).toBeTruthy();
  });

  it('opens the book in the reader in the user language and adds a tab', async () => {
    const { user, view } = setup('/books/user');
    await user.click(await screen.findByTestId('book-card-b1'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /Read/ }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/tabs/read/b1/ja'));
    expect(useTabs.getState().tabs.some((t) => t.id === 'book-b1')).toBe(true);
  });

  it('refuses a cover that is not JPG or PNG before uploading', async () => {
    const { user, calls } = setup('/books/user');
    await user.click(await screen.findByTestId('book-card-b1'));
    const dialog = await screen.findByRole('dialog');
    const input = dialog.querySelector<HTMLInputElement>('input[type=file]')!;
    await userEvent.setup({ applyAccept: false }).upload(input, new File(['x'], 'cover.gif', { type: 'image/gif' }));
    expect(await screen.findByText('Only JPG, JPEG and PNG images can be used as a cover')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/book/cover')).toBe(false);
    expect(user).toBeTruthy();
  });

  it('asks before making a book public and reports a failed permission change', async () => {
    const { user, calls } = setup('/books/user', {
      'POST /api/book/updateBook': {
        status: 403,
        body: { code: 403, data: { key: 'insufficientPermissions' }, msg: 'x' },
      },
    });
    await user.click(await screen.findByTestId('book-card-b3'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('switch'));
    const [confirm] = await screen.findAllByText('Make this book public?');
    await user.click(within(confirm!.closest<HTMLElement>('.ant-modal')!).getByRole('button', { name: 'Make public' }));
    expect(await screen.findByText('Permission change failed: Insufficient permissions')).toBeTruthy();
    expect(lastCall(calls, '/api/book/updateBook').body).toEqual({ bookCode: 'b3', bookStatus: 1 });
  });
});

describe('signed cover URLs', () => {
  it('fetches the list again when a cover fails because its URL expired, and shows the fresh one', async () => {
    const expired = '/api/media/covers/a-thumb.jpg?exp=1000&sig=old';
    const fresh = `/api/media/covers/a-thumb.jpg?exp=${Math.floor(Date.now() / 1000) + 6 * 3600}&sig=new`;
    let lists = 0;
    const { calls } = setup('/books/user', {
      'GET /api/book/user/library': () => ok(page([{ ...theirs, coverUrl: ++lists === 1 ? expired : fresh }])),
    });
    const card = await screen.findByTestId('book-card-b2');
    const img = card.querySelector('img')!;
    expect(img.getAttribute('src')).toBe(expired);
    fireEvent.error(img);
    await waitFor(() =>
      expect(screen.getByTestId('book-card-b2').querySelector('img')?.getAttribute('src')).toBe(fresh),
    );
    expect(calls.filter((c) => c.path === '/api/book/user/library')).toHaveLength(2);
    // A fresh URL that fails (a missing file) shows the title cover and asks nothing more.
    fireEvent.error(screen.getByTestId('book-card-b2').querySelector('img')!);
    expect(screen.getByTestId('book-card-b2').querySelector('img')).toBeNull();
    expect(calls.filter((c) => c.path === '/api/book/user/library')).toHaveLength(2);
  });
});
