import type {
  AdminTranslationReportPage,
  Glossary,
  GlossaryEntry,
  RetranslationQuote,
  TranslationReport,
} from '@yidu/shared/glossary';
import { request } from './client.ts';

export type EditableEntry = Pick<GlossaryEntry, 'source' | 'target'> & { note?: string | null };

/** A book's glossary per reading language, its readers' suggestions, retranslation, and reports of wrong translations. */
export const glossaryApi = {
  get: (bookCode: string, language: string) => request<Glossary>('/book/glossary', { query: { bookCode, language } }),
  save: (bookCode: string, language: string, entries: EditableEntry[]) =>
    request<Glossary>('/book/glossary', { method: 'PUT', body: { bookCode, language, entries } }),
  extract: (bookCode: string, language: string) =>
    request<Glossary>('/book/glossary/extract', { method: 'POST', body: { bookCode, language } }),
  suggest: (bookCode: string, language: string, entry: EditableEntry) =>
    request<Glossary>('/book/glossary/suggest', { method: 'POST', body: { bookCode, language, entry } }),
  decide: (bookCode: string, id: number, accept: boolean) =>
    request<Glossary>('/book/glossary/decide', { method: 'POST', body: { bookCode, id, accept } }),
  retranslate: (bookCode: string, language: string, points: number) =>
    request<{ quote: RetranslationQuote; held: number }>('/book/glossary/retranslate', {
      method: 'POST',
      body: { bookCode, language, points },
    }),
  report: (bookCode: string, language: string, blockId: string) =>
    request<TranslationReport>('/reader/translation/report', { method: 'POST', body: { bookCode, language, blockId } }),
  choose: (id: number, choice: 'original' | 'alternative') =>
    request<TranslationReport>('/reader/translation/choose', { method: 'POST', body: { id, choice } }),
  adminReports: (page: number, pageSize: number) =>
    request<AdminTranslationReportPage>('/admin/translation-reports', { query: { page, pageSize } }),
};
