import { create } from 'zustand';
import type { UserInfo } from '@yidu/shared/auth';

/** SPEC §3.14: the token lives in localStorage under exactly this key. */
export const TOKEN_STORAGE_KEY = 'authToken';

function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

interface AuthState {
  token: string | null;
  user: UserInfo | null;
  setSession: (token: string, user?: UserInfo | null) => void;
  setUser: (user: UserInfo | null) => void;
  /** Forgets the token and the user (401, logout). */
  clear: (options?: { sessionEnded?: boolean }) => void;
  /** The last session ended by the server's refusal (a 401), not by the user: the login page says so. */
  sessionEnded: boolean;
}

export const useAuth = create<AuthState>((set) => ({
  token: readToken(),
  user: null,
  sessionEnded: false,
  setSession: (token, user = null) => {
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    set({ token, user, sessionEnded: false });
  },
  setUser: (user) => set({ user }),
  clear: (options = {}) => {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
    set({ token: null, user: null, sessionEnded: options.sessionEnded ?? false });
  },
}));

/** Re-reads the token from storage (tests, other tabs). */
export function syncTokenFromStorage(): void {
  useAuth.setState({ token: readToken() });
}

export const isAdmin = (user: UserInfo | null | undefined): boolean => user?.role === 'admin';
