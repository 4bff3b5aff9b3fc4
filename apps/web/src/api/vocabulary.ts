import type {
  LookupBody,
  LookupResult,
  ReadingStats,
  ReviewResult,
  SaveWordBody,
  VocabularyPage,
  VocabularyWord,
} from '@yidu/shared/vocabulary';
import { api, request } from './client.ts';

export type { LookupEntry, LookupResult, ReadingStats, VocabularyWord } from '@yidu/shared/vocabulary';

/** The reader's time zone: statistics count days on the reader's own calendar. */
export const localTimeZone = (): string | undefined => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
};

/** Words to learn: lookups, the vocabulary book, its export, and reading statistics. */
export const vocabularyApi = {
  lookup: (body: LookupBody) => api.post<LookupResult>('/reader/lookup', body),

  list: (q: { bookCode?: string; due?: boolean; q?: string; page?: number; pageSize?: number }) =>
    api.get<VocabularyPage>('/vocabulary', {
      query: {
        bookCode: q.bookCode || undefined,
        due: q.due ? 'true' : undefined,
        q: q.q || undefined,
        page: q.page,
        pageSize: q.pageSize,
      },
    }),
  save: (body: SaveWordBody) => api.post<VocabularyWord>('/vocabulary', body),
  edit: (id: number, body: { meaning?: string; pronunciation?: string; note?: string }) =>
    request<VocabularyWord>(`/vocabulary/${id}`, { method: 'PUT', body }),
  remove: (id: number) => request<null>(`/vocabulary/${id}`, { method: 'DELETE' }),
  review: (id: number, result: ReviewResult) => api.post<VocabularyWord>(`/vocabulary/${id}/review`, { result }),
  export: (format: 'csv' | 'tsv', bookCode?: string) =>
    request<Blob>('/vocabulary/export', { query: { format, bookCode: bookCode || undefined }, responseType: 'blob' }),

  heartbeat: (body: { bookCode: string; page: number }) =>
    api.post<{ credited: number }>(
      '/reader/activity',
      { ...body, timeZone: localTimeZone() },
      // A heartbeat that fails is dropped: it never sends the reader to the login page or shows an error.
      { authRedirect: false },
    ),
  stats: (days?: number) => api.get<ReadingStats>('/reading-stats', { query: { days, timeZone: localTimeZone() } }),
};
