import type { OfflinePages } from '@yidu/shared/offline';
import type { AnkiWord, ReadwiseStatus } from '@yidu/shared/integrations';
import { api, request } from './client.ts';

/** Pages to keep for reading offline (only those the reader may already read; nothing is charged). */
export const offlineApi = {
  pages: (q: { bookCode: string; language: string; from: number; to: number }, signal?: AbortSignal) =>
    api.get<OfflinePages>('/offline/pages', { query: q, signal }),
};

/** Highlights and notes to Readwise and Obsidian; words to Anki. */
export const integrationsApi = {
  readwise: () => api.get<ReadwiseStatus>('/integrations/readwise'),
  saveReadwise: (body: { token?: string; autoPush?: boolean }) =>
    request<ReadwiseStatus>('/integrations/readwise', { method: 'PUT', body }),
  disconnectReadwise: () => request<null>('/integrations/readwise', { method: 'DELETE' }),
  pushReadwise: () => api.post<ReadwiseStatus>('/integrations/readwise/push', {}),
  obsidian: (bookCode: string) =>
    request<Blob>('/reader/notes/obsidian', { query: { bookCode }, responseType: 'blob' }),
  ankiWords: (q: { bookCode?: string; unsent?: boolean }) =>
    api.get<AnkiWord[]>('/vocabulary/anki', { query: { ...q, unsent: q.unsent ? 'true' : undefined } }),
  ankiSent: (ids: number[]) => api.post<{ marked: number }>('/vocabulary/anki/sent', { ids }),
};
