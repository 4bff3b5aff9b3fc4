import type { BookSummary } from '@yidu/shared/books';
import type { Share, ShareCreateBody, ShareInfo } from '@yidu/shared/social';
import { api, request } from './client.ts';

/** Share links (SPEC §2.4 Share, §3.9). */
export const sharingApi = {
  create: (body: ShareCreateBody) => api.post<Share>('/book/share/create', body),
  mine: (bookCode?: string) => api.get<Share[]>('/book/share/mine', { query: { bookCode } }),
  info: (id: string) => api.get<ShareInfo>(`/book/share/${encodeURIComponent(id)}`),
  accept: (id: string) => request<BookSummary>(`/book/share/accept/${encodeURIComponent(id)}`, { method: 'PUT' }),
  revoke: (id: string) => request<null>(`/book/share/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};
