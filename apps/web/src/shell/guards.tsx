import { useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isAdmin, useAuth } from '../stores/auth.ts';
import { useSessionStatus } from './session.ts';
import { PageFallback } from './PageFallback.tsx';
import { ForbiddenPage } from '../features/system/ForbiddenPage.tsx';

/** The path to come back to after login; only same-site paths are accepted. */
export function safeRedirect(value: string | null | undefined, fallback = '/books/all'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return fallback;
  return value;
}

export function loginPathFor(location: { pathname: string; search: string; hash: string }): string {
  const back = `${location.pathname}${location.search}${location.hash}`;
  return back && back !== '/' ? `/login?redirect=${encodeURIComponent(back)}` : '/login';
}

/** Routes that require login (SPEC §2.2): no token → /login, remembering where to return. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const token = useAuth((s) => s.token);
  const location = useLocation();
  if (!token) return <Navigate to={loginPathFor(location)} replace />;
  return children ?? <Outlet />;
}

/** Admin pages: guests log in first; other users see a 403 page. The server checks again on every call. */
export function RequireAdmin() {
  const { t } = useTranslation();
  const token = useAuth((s) => s.token);
  const user = useAuth((s) => s.user);
  const status = useSessionStatus((s) => s.status);
  const location = useLocation();
  if (!token) return <Navigate to={loginPathFor(location)} replace />;
  if (!user) {
    if (status === 'error') {
      return (
        <Result
          status="error"
          title={t('app.errorTitle')}
          subTitle={t('errors.unknown')}
          extra={<Button onClick={() => window.location.reload()}>{t('app.reload')}</Button>}
        />
      );
    }
    return <PageFallback />;
  }
  if (!isAdmin(user)) return <ForbiddenPage />;
  return <Outlet />;
}

/** '/' → /books/all when logged in, else /login (SPEC §2.2). */
export function RootRedirect() {
  const token = useAuth((s) => s.token);
  return <Navigate to={token ? '/books/all' : '/login'} replace />;
}

/**
 * /login and /register are for guests: a user who arrives logged in goes on to the library. Only the
 * state on arrival counts, so that the page's own navigation after a successful login is not raced.
 */
export function GuestOnly({ children }: { children: ReactNode }) {
  const [loggedInOnArrival] = useState(() => useAuth.getState().token !== null);
  if (loggedInOnArrival) return <Navigate to="/books/all" replace />;
  return children;
}
