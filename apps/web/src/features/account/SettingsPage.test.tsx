import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuth } from '../../stores/auth.ts';
import { fail, fakeFetch, makeUser, ok, renderPage } from '../../test/utils.tsx';
import SettingsPage from './SettingsPage.tsx';

const SESSIONS = [
  {
    id: 1,
    kind: 'login',
    current: true,
    ip: '127.0.0.1',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-02T00:00:00.000Z',
    expiresAt: '2026-02-01T00:00:00.000Z',
  },
  {
    id: 2,
    kind: 'impersonation',
    current: false,
    ip: '10.0.0.1',
    userAgent: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-02T00:00:00.000Z',
    expiresAt: '2026-01-02T00:30:00.000Z',
  },
];

const base = () => ({
  'GET /api/user/sessions': ok(SESSIONS),
  'GET /api/translation/engines': ok({ engines: ['microsoft'] }),
});

beforeEach(() => useAuth.getState().setSession('t', makeUser({ pendingEmail: 'new@example.com' })));
afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
});

describe('personal center', () => {
  it('shows the pending email and the support session clearly', async () => {
    fakeFetch(base());
    renderPage(<SettingsPage />);
    expect(await screen.findByText('Waiting for confirmation: new@example.com')).toBeTruthy();
    const support = (await screen.findByText('Support session')).closest('li')!;
    expect(within(support).getByText('Administrator')).toBeTruthy();
    expect(within(support).getByRole('button', { name: 'Sign out' })).toBeTruthy();
  });

  it("shows the user's own invitation code, to copy for friends", async () => {
    fakeFetch(base());
    renderPage(<SettingsPage />);
    const code = await screen.findByTestId('own-invite-code');
    expect(code.textContent).toContain('ABC123');
    expect(within(code.closest('.ant-form-item') as HTMLElement).getByText('My invitation code')).toBeTruthy();
    expect(within(code).getByRole('button', { name: /copy/i })).toBeTruthy();
  });

  it('checks the new password, then says whether the change worked', async () => {
    let attempt = 0;
    const { calls } = fakeFetch({
      ...base(),
      'POST /api/user/changePassword': () => (++attempt === 1 ? fail(400, 'wrongPassword') : ok(null)),
    });
    renderPage(<SettingsPage />);
    const section = (await screen.findByRole('region', { name: 'Password' })) as HTMLElement;
    const user = userEvent.setup();
    await user.type(within(section).getByLabelText('Current password'), 'OldPass123');
    await user.type(within(section).getByLabelText('New password'), 'short');
    await user.type(within(section).getByLabelText('Confirm new password'), 'other');
    await user.click(within(section).getByRole('button', { name: /Change password/ }));
    expect(await within(section).findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(within(section).getByText('The two passwords do not match')).toBeTruthy();

    await user.clear(within(section).getByLabelText('New password'));
    await user.type(within(section).getByLabelText('New password'), 'NewPass1234');
    await user.clear(within(section).getByLabelText('Confirm new password'));
    await user.type(within(section).getByLabelText('Confirm new password'), 'NewPass1234');
    await user.click(within(section).getByRole('button', { name: /Change password/ }));
    expect(await screen.findByText('Password change failed: The current password is incorrect')).toBeTruthy();
    await user.click(within(section).getByRole('button', { name: /Change password/ }));
    expect(await screen.findByText('Password changed; your other devices have been signed out')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/user/changePassword').at(-1)!.body).toEqual({
      oldPassword: 'OldPass123',
      password: 'NewPass1234',
    });
  });

  it('saves the privacy switch with its own message and keeps the new user', async () => {
    const { calls } = fakeFetch({
      ...base(),
      'POST /api/user/updateUserinfo': ok(makeUser({ showNameOnShares: false })),
    });
    renderPage(<SettingsPage />);
    await userEvent.setup().click(await screen.findByRole('switch', { name: 'Show my name on share pages' }));
    expect(await screen.findByText('Privacy setting saved')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/user/updateUserinfo')!.body).toEqual({ showNameOnShares: false });
    await waitFor(() => expect(useAuth.getState().user?.showNameOnShares).toBe(false));
  });
});
