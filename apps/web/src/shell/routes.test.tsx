import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { routes } from './routes.tsx';
import { useAuth } from '../stores/auth.ts';
import { useSessionStatus } from './session.ts';
import { PUBLIC_CONFIG, fail, fakeFetch, makeUser, ok, renderRoutes } from '../test/utils.tsx';

beforeEach(() => {
  useAuth.getState().clear();
  useSessionStatus.setState({ status: 'idle' });
});
afterEach(() => vi.unstubAllGlobals());

describe('routes and guards', () => {
  it("'/' goes to /login for guests and /books/all when logged in", async () => {
    fakeFetch({ 'GET /api/config/public': ok(PUBLIC_CONFIG) });
    const guest = renderRoutes(routes, '/');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(guest.router.state.location.pathname).toBe('/login');
    guest.unmount();

    useAuth.getState().setSession('t', makeUser());
    const member = renderRoutes(routes, '/');
    await screen.findByRole('heading', { name: 'Public library' });
    expect(member.router.state.location.pathname).toBe('/books/all');
  });

  it('sends guests from a guarded page to /login and back there after login', async () => {
    const { calls } = fakeFetch({
      'POST /api/auth/login': ok({ token: 'fresh', user: makeUser() }),
    });
    const { router } = renderRoutes(routes, '/integral?x=1');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/integral?x=1')}`);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Please enter your account')).toBeTruthy();
    expect(screen.getByText('Please enter your password')).toBeTruthy();

    await user.type(screen.getByLabelText('Account'), 'reader');
    await user.type(screen.getByLabelText('Password'), 'GoodPass1');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await screen.findByRole('heading', { name: 'Points details' });
    expect(router.state.location.pathname + router.state.location.search).toBe('/integral?x=1');
    expect(localStorage.getItem('authToken')).toBe('fresh');
    expect(calls.find((c) => c.path === '/api/auth/login')!.body).toEqual({ account: 'reader', password: 'GoodPass1' });
    expect(document.title).toBe('Points details · Yidu');
  });

  it('shows the login error of SPEC §8.2', async () => {
    fakeFetch({ 'POST /api/auth/login': fail(400, 'noSuchAccount', {}, 2) });
    renderRoutes(routes, '/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Account'), 'ghost');
    await user.type(screen.getByLabelText('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('User does not exist');
  });

  it('shows 403 to non-admins on admin pages and the page to admins', async () => {
    useAuth.getState().setSession('t', makeUser({ role: 'user' }));
    const first = renderRoutes(routes, '/admin/statistics');
    expect(await screen.findByText('No access')).toBeTruthy();
    first.unmount();

    useAuth.getState().setSession('t', makeUser({ role: 'admin' }));
    renderRoutes(routes, '/admin/statistics');
    expect(await screen.findByRole('heading', { name: 'Statistics' })).toBeTruthy();
  });

  it('admin pages send guests to /login', async () => {
    fakeFetch({});
    const { router } = renderRoutes(routes, '/admin22/tongji');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('has a not-found page with a way home', async () => {
    renderRoutes(routes, '/no/such/page');
    expect(await screen.findByText('Page not found')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back to home' })).toBeTruthy();
  });

  it('/tabs opens the New Tab with its title', async () => {
    useAuth.getState().setSession('t', makeUser());
    const { router } = renderRoutes(routes, '/tabs');
    await waitFor(() => expect(router.state.location.pathname).toBe('/tabs/new'));
    await waitFor(() => expect(document.title).toBe('New Tab'));
  });

  it('a 401 on a guarded page clears the session and goes to /login', async () => {
    useAuth.getState().setSession('stale', null);
    fakeFetch({ 'GET /api/user/getUserinfo': fail(401, 'unauthorized') });
    const { router } = renderRoutes(routes, '/admin/statistics');
    const { loadCurrentUser } = await import('./session.ts');
    await loadCurrentUser();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('authToken')).toBeNull();
    // The login page says why the user is there.
    expect((await screen.findByRole('status', {}, { timeout: 5000 })).textContent).toBe(
      'Your session has expired or was ended on another device. Please log in again.',
    );
  });

  it('a guest sent to /login is not told that a session ended', async () => {
    renderRoutes(routes, '/admin/statistics');
    await screen.findByRole('button', { name: /Log in/ }, { timeout: 5000 });
    expect(screen.queryByRole('status')).toBeNull();
  });
});
