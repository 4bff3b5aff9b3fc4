import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuth } from '../../stores/auth.ts';
import { useTabs } from '../../stores/tabs.ts';
import { fakeFetch, makeUser, ok, renderRoutes } from '../../test/utils.tsx';
import ShareRecipientPage from './ShareRecipientPage.tsx';

const info = (over: Record<string, unknown> = {}) => ({
  id: 'abc123',
  state: 'active',
  features: ['explanation', 'search'],
  sharedBy: 'alice',
  expiresAt: null,
  accepted: false,
  isOwner: false,
  book: {
    bookCode: 'BK1',
    bookName: 'Moby-Dick',
    bookAuthor: 'Herman Melville',
    bookDescribe: 'A whale of a tale.',
    coverUrl: null,
    format: 'epub',
    pageCount: 120,
    originalLanguage: 'en',
  },
  ...over,
});

const routes = [
  { path: '/book/share/:id', element: <ShareRecipientPage /> },
  { path: '/tabs/read/:code/:language', element: <div data-testid="reader" /> },
  { path: '*', element: <div data-testid="elsewhere" /> },
];

beforeEach(() => useAuth.getState().setSession('t', makeUser({ languageCode: 'zh' })));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
  useTabs.getState().clear();
});

describe('the recipient of a share link', () => {
  it('sees the book, the sharer and the features in plain words, accepts, then reads', async () => {
    const { calls } = fakeFetch({
      'GET /api/book/share/abc123': ok(info()),
      'PUT /api/book/share/accept/abc123': ok({ bookCode: 'BK1' }),
    });
    const { router } = renderRoutes(routes, '/book/share/abc123');
    expect(await screen.findByText('alice shared a book with you')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Moby-Dick' })).toBeTruthy();
    expect(screen.getByText('Explains a selected passage in plain words')).toBeTruthy();
    expect(screen.queryByText('Annotation')).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Accept and add to my library/ }));
    expect(await screen.findByText('Added to your library')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(true);
    await user.click(screen.getByRole('button', { name: /Read now/ }));
    await screen.findByTestId('reader');
    expect(router.state.location.pathname).toBe('/tabs/read/BK1/zh');
    expect(useTabs.getState().tabs.some((t) => t.id === 'book-BK1')).toBe(true);
  });

  it('explains an expired link and offers no Accept', async () => {
    fakeFetch({ 'GET /api/book/share/abc123': ok(info({ state: 'expired', sharedBy: null })) });
    renderRoutes(routes, '/book/share/abc123');
    expect(await screen.findByText('This link has expired')).toBeTruthy();
    expect(screen.getByText('A reader shared a book with you')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
  });

  it('explains a revoked link', async () => {
    fakeFetch({ 'GET /api/book/share/abc123': ok(info({ state: 'revoked' })) });
    renderRoutes(routes, '/book/share/abc123');
    expect(await screen.findByText('This link has been revoked')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Accept/ })).toBeNull();
  });

  it('shows only the state of a dead link to a book the reader cannot see', async () => {
    fakeFetch({ 'GET /api/book/share/abc123': ok(info({ state: 'revoked', book: null })) });
    renderRoutes(routes, '/book/share/abc123');
    expect(await screen.findByText('This link has been revoked')).toBeTruthy();
    expect(screen.queryByText('Moby-Dick')).toBeNull();
    expect(screen.queryByRole('button', { name: /accept/i })).toBeNull();
    expect(screen.getByRole('button', { name: 'Go to my library' })).toBeTruthy();
  });

  it('shows the state when the link was revoked while the page was open', async () => {
    let revoked = false;
    fakeFetch({
      'GET /api/book/share/abc123': () => ok(info(revoked ? { state: 'revoked' } : {})),
      'PUT /api/book/share/accept/abc123': () => {
        revoked = true;
        return { status: 410, body: { code: 410, data: { key: 'shareRevoked' }, msg: 'revoked' } };
      },
    });
    renderRoutes(routes, '/book/share/abc123');
    await userEvent.setup().click(await screen.findByRole('button', { name: /Accept and add/ }));
    await waitFor(() => expect(screen.getByText('This link has been revoked')).toBeTruthy());
  });

  it('tells an owner that the link is theirs', async () => {
    fakeFetch({ 'GET /api/book/share/abc123': ok(info({ isOwner: true, accepted: true })) });
    renderRoutes(routes, '/book/share/abc123');
    expect(await screen.findByText('This is your own share link')).toBeTruthy();
  });
});
