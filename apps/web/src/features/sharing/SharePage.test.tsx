import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuth } from '../../stores/auth.ts';
import { fail, fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import SharePage from './SharePage.tsx';

const BOOK = {
  bookCode: 'BK1',
  bookName: 'Moby-Dick',
  bookAuthor: 'Herman Melville',
  features: ['annotation', 'explanation', 'advancedExplanation', 'restatement', 'search'],
  contents: [],
};
const share = (over: Record<string, unknown> = {}) => ({
  id: 'abc123',
  bookCode: 'BK1',
  bookName: 'Moby-Dick',
  features: ['explanation'],
  url: 'http://localhost/book/share/abc123',
  state: 'active',
  expiresAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  accepted: 0,
  ...over,
});

function setClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
}

beforeEach(() => useAuth.getState().setSession('t', makeUser()));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('share page', () => {
  it('sends only the checked features; Deselect All then one feature', async () => {
    const { calls } = fakeFetch({
      'GET /api/book/user/getBookByCode': ok(BOOK),
      'GET /api/book/share/mine': ok([]),
      'POST /api/book/share/create': ok(share()),
    });
    renderPage(<SharePage />, '/book/share', '/book/share?bookCode=BK1');
    await screen.findByText('Moby-Dick');
    // user-event installs its own clipboard: replace it afterwards.
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    setClipboard(writeText);
    // All five start checked.
    expect(screen.getAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked)).toHaveLength(5);
    await user.click(screen.getByRole('button', { name: 'Deselect All' }));
    expect(screen.getAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked)).toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: /^Explanation/ }));
    await user.click(screen.getByRole('button', { name: /Generate link/ }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/book/share/create')).toBe(true));
    expect(calls.find((c) => c.path === '/api/book/share/create')!.body).toEqual({
      bookCode: 'BK1',
      features: ['explanation'],
      expiresInDays: null,
    });
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('http://localhost/book/share/abc123'));
    expect(await screen.findByText(/The link is ready and has been copied/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Select All' }));
    expect(screen.getAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked)).toHaveLength(5);
  });

  it('shows the link to copy by hand when the clipboard is refused', async () => {
    fakeFetch({
      'GET /api/book/user/getBookByCode': ok(BOOK),
      'GET /api/book/share/mine': ok([]),
      'POST /api/book/share/create': ok(share()),
    });
    renderPage(<SharePage />, '/book/share', '/book/share?bookCode=BK1');
    await screen.findByText('Moby-Dick');
    const user = userEvent.setup();
    setClipboard(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    await user.click(screen.getByRole('button', { name: /Generate link/ }));
    const result = await screen.findByTestId('share-result');
    expect(within(result).getByText('Copy manually and open in the browser')).toBeTruthy();
    expect((screen.getByTestId('share-link') as HTMLInputElement).value).toBe('http://localhost/book/share/abc123');
  });

  it("says 'Link error' when the link cannot be created", async () => {
    fakeFetch({
      'GET /api/book/user/getBookByCode': ok(BOOK),
      'GET /api/book/share/mine': ok([]),
      'POST /api/book/share/create': fail(403, 'insufficientPermissions'),
    });
    renderPage(<SharePage />, '/book/share', '/book/share?bookCode=BK1');
    await screen.findByText('Moby-Dick');
    await userEvent.setup().click(screen.getByRole('button', { name: /Generate link/ }));
    expect((await screen.findAllByText(/Link error/)).length).toBeGreaterThan(0);
    expect(screen.getAllByText(/Insufficient permissions/).length).toBeGreaterThan(0);
  });

  it('lists the links with their state and revokes one', async () => {
    const { calls } = fakeFetch({
      'GET /api/book/user/getBookByCode': ok(BOOK),
      'GET /api/book/share/mine': ok([share({ accepted: 2 }), share({ id: 'old999', state: 'revoked' })]),
      'DELETE /api/book/share/abc123': ok(null),
    });
    renderPage(<SharePage />, '/book/share', '/book/share?bookCode=BK1');
    const row = await screen.findByTestId('share-abc123');
    expect(within(row).getByText('Accepted by 2')).toBeTruthy();
    expect(within(screen.getByTestId('share-old999')).getByText('Revoked')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: /Revoke/ }));
    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
  });
});
