import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuth } from '../stores/auth.ts';
import { fakeFetch, makeUser, ok, renderPage } from '../test/utils.tsx';
import { SetupBanner } from './SetupBanner.tsx';
import type { SetupReport } from '../api/setup.ts';

const report = (attention: boolean): SetupReport => ({
  attention,
  probeMinutes: 10,
  health: [],
  items: [
    {
      id: 'translation',
      essential: true,
      status: attention ? 'failing' : 'ok',
      detail: { engines: 'microsoft', working: 0 },
    },
    {
      id: 'explanationModel',
      essential: true,
      status: attention ? 'missing' : 'ok',
      detail: { source: 'none', model: null },
    },
    { id: 'mail', essential: false, status: 'warning', detail: { mode: 'outbox' } },
  ],
});

afterEach(() => {
  vi.unstubAllGlobals();
  useAuth.getState().clear();
  sessionStorage.clear();
});

describe('the setup banner', () => {
  it('tells admins anywhere what essential thing is missing, until hidden for the session', async () => {
    useAuth.getState().setSession('t', makeUser({ role: 'admin' }));
    fakeFetch({ 'GET /api/admin/setup': ok(report(true)) });
    renderPage(<SetupBanner />, '/books/all');
    const banner = await screen.findByTestId('setup-banner');
    expect(banner.textContent).toContain('Setup is not complete.');
    expect(banner.textContent).toContain('Translation engine: Not working');
    expect(banner.textContent).toContain('AI model for explanations: Missing');
    expect(banner.textContent).not.toContain('Mail');
    expect(screen.getByRole('link', { name: 'Open the setup checklist' }).getAttribute('href')).toBe(
      '/admin/test?tab=setup',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Hide for now' }));
    await waitFor(() => expect(screen.queryByTestId('setup-banner')).toBeNull());
  });

  it('stays away when all is set up, and from readers, who never ask for the checklist', async () => {
    useAuth.getState().setSession('t', makeUser({ role: 'admin' }));
    fakeFetch({ 'GET /api/admin/setup': ok(report(false)) });
    renderPage(<SetupBanner />, '/books/all');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('setup-banner')).toBeNull();

    vi.unstubAllGlobals();
    useAuth.getState().setSession('t', makeUser({ role: 'user' }));
    const { calls } = fakeFetch({ 'GET /api/admin/setup': ok(report(true)) });
    renderPage(<SetupBanner />, '/books/all');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('setup-banner')).toBeNull();
    expect(calls.filter((c) => c.path === '/api/admin/setup')).toHaveLength(0);
  });
});
