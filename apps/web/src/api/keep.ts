import type { BookTranslationQuote, BookTranslationStatus, ExportMode } from '@yidu/shared/keep';
import { api, request } from './client.ts';

/** A book to keep: whole-book translation (quote, start, progress, cancel) and the EPUB export. */
export const keepApi = {
  quote: (bookCode: string, language: string) =>
    api.get<BookTranslationQuote>('/book/translation/quote', { query: { bookCode, language } }),
  start: (bookCode: string, language: string, points: number) =>
    api.post<BookTranslationStatus>('/book/translation/start', { bookCode, language, points }),
  status: (bookCode: string, language: string) =>
    api.get<BookTranslationStatus | null>('/book/translation/status', { query: { bookCode, language } }),
  cancel: (bookCode: string, language: string) =>
    api.post<BookTranslationStatus | null>('/book/translation/cancel', { bookCode, language }),
  exportEpub: (bookCode: string, language: string, mode: ExportMode) =>
    request<Blob>('/book/export', { query: { bookCode, language, mode }, responseType: 'blob' }),
};
