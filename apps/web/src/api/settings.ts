import type { CodeSentResult, UserInfo } from '@yidu/shared/auth';
import { api, request } from './client.ts';
import { uploadFile } from './upload.ts';

export interface UserSession {
  id: number;
  /** 'impersonation' = a support session an admin opened. */
  kind: 'login' | 'impersonation';
  current: boolean;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

/** The personal center calls beyond SPEC §7.3 (avatar, email, sessions, deletion, engines). */
export const settingsApi = {
  avatar: (file: Blob) => uploadFile<UserInfo>('/user/avatar', file),
  changeEmail: (body: { email: string; password: string; uiLanguage?: string }) =>
    api.post<CodeSentResult>('/user/changeEmail', body),
  deleteAccount: (password: string) => api.post<null>('/user/deleteAccount', { password }),
  sessions: () => api.get<UserSession[]>('/user/sessions'),
  revokeSession: (id: number) => request<null>(`/user/sessions/${id}`, { method: 'DELETE' }),
  engines: () => api.get<{ engines: string[] }>('/translation/engines'),
};
