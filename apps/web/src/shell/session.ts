import { useEffect } from 'react';
import { create } from 'zustand';
import { userApi } from '../api/user.ts';
import { ApiError } from '../api/client.ts';
import { useAuth } from '../stores/auth.ts';

/** Whether the user info for the stored token has been fetched (SPEC §4.4 "app start"). */
export const useSessionStatus = create<{ status: 'idle' | 'loading' | 'ready' | 'error' }>(() => ({
  status: 'idle',
}));

/** Fetches the user info for the stored token and keeps it in the auth store. */
export async function loadCurrentUser(): Promise<void> {
  const token = useAuth.getState().token;
  if (!token) return;
  useSessionStatus.setState({ status: 'loading' });
  try {
    const user = await userApi.getUserinfo();
    if (useAuth.getState().token === token) useAuth.getState().setUser(user);
    useSessionStatus.setState({ status: 'ready' });
  } catch (error) {
    // A 401 has already cleared the token and gone to /login (api client).
    if (!(error instanceof ApiError && error.status === 401)) console.warn('Could not load the user info', error);
    useSessionStatus.setState({ status: 'error' });
  }
}

/** Fetches the user info again without a loading state (a fresh signed avatar URL); failures are ignored. */
export async function refreshCurrentUser(): Promise<void> {
  const token = useAuth.getState().token;
  if (!token) return;
  try {
    const user = await userApi.getUserinfo();
    if (useAuth.getState().token === token) useAuth.getState().setUser(user);
  } catch {
    // The next call that matters reports it (a 401 has already logged out).
  }
}

/** On app start and whenever a token appears without a user, fetch the user. */
export function useSessionBootstrap(): void {
  const token = useAuth((s) => s.token);
  const hasUser = useAuth((s) => s.user !== null);
  useEffect(() => {
    if (token && !hasUser) void loadCurrentUser();
  }, [token, hasUser]);
}
