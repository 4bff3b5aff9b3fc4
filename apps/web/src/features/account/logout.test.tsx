import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UserInfoPopover } from './UserInfoPopover.tsx';
import { useAuth } from '../../stores/auth.ts';
import { NEW_TAB, useTabs } from '../../stores/tabs.ts';
import { fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';

afterEach(() => vi.unstubAllGlobals());

async function openPopover(role: 'user' | 'admin' = 'user') {
  useAuth.getState().setSession('tok', makeUser({ role, points: 1234 }));
  useTabs.getState().addBook({ bookCode: 'b1', name: 'Moby Dick' });
  const user = userEvent.setup();
  const view = renderPage(<UserInfoPopover />, '/books/all');
  await user.click(screen.getByRole('button', { name: 'Account' }));
  return { user, view };
}

describe('user info popover', () => {
  it('shows name, points balance and a top-up that is not available yet', async () => {
    await openPopover();
    expect(await screen.findByTestId('points-balance')).toHaveProperty('textContent', '1,234');
    expect(screen.getByText('Not available yet')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Top up/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText('Admin')).toBeNull();
  });

  it('tags admins', async () => {
    await openPopover('admin');
    expect(await screen.findByText('Admin')).toBeTruthy();
  });

  it('asks first, then logs out in the order of SPEC §4.4', async () => {
    const seen: { tabs: number; token: string | null }[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    fakeFetch({
      'POST /api/user/logout': () => {
        seen.push({ tabs: useTabs.getState().tabs.length, token: useAuth.getState().token });
        return new Error('offline');
      },
    });
    const { user, view } = await openPopover();
    await user.click(await screen.findByRole('button', { name: /Log out/ }));
    expect(await screen.findAllByText('Are you sure you want to log out?', {}, { timeout: 5000 })).not.toHaveLength(0);
    expect(seen).toHaveLength(0);

    const buttons = screen.getAllByRole('button', { name: /Log out/ });
    await user.click(buttons[buttons.length - 1]!);
    expect(await screen.findByText('You have logged out', {}, { timeout: 5000 })).toBeTruthy();
    // The call came first, while tabs and token were still there; its failure was only logged.
    expect(seen).toEqual([{ tabs: 2, token: 'tok' }]);
    expect(log).toHaveBeenCalled();
    expect(useTabs.getState().tabs).toEqual([NEW_TAB]);
    expect(useAuth.getState().token).toBeNull();
    expect(localStorage.getItem('authToken')).toBeNull();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/login'));
  });

  it('logs out normally when the server answers', async () => {
    const { calls } = fakeFetch({ 'POST /api/user/logout': ok(null) });
    const { user, view } = await openPopover();
    await user.click(await screen.findByRole('button', { name: /Log out/ }));
    await screen.findAllByText('Are you sure you want to log out?', {}, { timeout: 5000 });
    const buttons = screen.getAllByRole('button', { name: /Log out/ });
    await user.click(buttons[buttons.length - 1]!);
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/login'));
    expect(calls[0]!.headers.Authorization).toBe('Bearer tok');
  });
});
