import type { BlockLocation, PageData } from '@yidu/shared/reader';
import type { Mark, MarkKind, Position, ReaderSettings, TabsState } from '@yidu/shared/marks';
import type { AnnotateResult, SearchResult } from '@yidu/shared/ai';
import type { BookSummary } from '@yidu/shared/books';
import type { OriginalFile, PdfPlace } from '@yidu/shared/original-pages';
import i18n from '../i18n/index.ts';
import { useAuth } from '../stores/auth.ts';
import { API_BASE, ApiError, api, handleUnauthorized, request, unwrapResponse } from './client.ts';
import { readSse, type SseEvent } from './sse.ts';

export type Charge = { points: number; charged: boolean };
export type RecentBook = Position & { bookName: string; pageCount: number };
export type HighlightStyle = 'highlight' | 'underline';
export interface Anchor {
  bookCode: string;
  blockId: string;
  start: number;
  end: number;
  quote: string;
  inTranslation: boolean;
  language: string;
}
export interface AiTextBody {
  bookCode: string;
  blockId: string;
  selection: string;
  language: string;
  confirm?: boolean;
  requestId?: string;
}
export type RestateLevel = 'simple' | 'intermediate' | 'advanced';

/**
 * Opens a server-sent-event stream with fetch (the Authorization header is needed, which EventSource
 * cannot send). An answer that is not a stream (an error envelope) becomes an ApiError.
 */
export async function openStream(
  path: string,
  init: { method?: 'GET' | 'POST'; query?: Record<string, string | number | boolean>; body?: unknown },
  signal?: AbortSignal,
): Promise<AsyncGenerator<SseEvent>> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(init.query ?? {})) params.set(k, String(v));
  const search = params.toString();
  const headers: Record<string, string> = { Accept: 'text/event-stream' };
  const token = useAuth.getState().token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}${search ? `?${search}` : ''}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({ status: 0, code: -1, key: 'network', message: i18n.t('errors.network') });
  }
  if (response.status === 401) handleUnauthorized();
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.includes('text/event-stream') || !response.body) {
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      json = undefined;
    }
    // A JSON success (stream=false) is wrapped as one 'done' event so callers handle one shape.
    const data = unwrapResponse<unknown>(response.status, response.statusText, json);
    return (async function* () {
      yield { event: 'done', data };
    })();
  }
  return readSse(response.body, signal);
}

const enc = encodeURIComponent;

/** The reader's calls (issue "The reader and the tab bar"). */
export const readerApi = {
  page: (
    q: { bookCode: string; language: string; page: number; confirm?: boolean; retry?: string },
    signal?: AbortSignal,
  ) => api.get<PageData>('/reader/getPageData', { query: q, signal }),
  events: (q: { bookCode: string; language: string; page: number; confirm?: boolean }, signal?: AbortSignal) =>
    openStream('/reader/events', { query: q }, signal),
  /** A block wherever it is (a note in another file), its original and its page; free. */
  block: (q: { bookCode: string; language: string; blockId: string }, signal?: AbortSignal) =>
    api.get<BlockLocation>('/reader/block', { query: q, signal }),

  marks: (bookCode: string, kind?: MarkKind) => api.get<Mark[]>('/reader/marks', { query: { bookCode, kind } }),
  addAnnotation: (anchor: Anchor, content: string) => api.post<Mark>('/reader/annotation', { ...anchor, content }),
  editAnnotation: (id: number, content: string) =>
    request<Mark>(`/reader/annotation/${id}`, { method: 'PUT', body: { content } }),
  deleteAnnotation: (id: number) => request<null>(`/reader/annotation/${id}`, { method: 'DELETE' }),
  addHighlight: (anchor: Anchor, style: HighlightStyle, color: string) =>
    api.post<Mark>('/reader/highlight', { ...anchor, style, color }),
  deleteHighlight: (id: number) => request<null>(`/reader/highlight/${id}`, { method: 'DELETE' }),
  addBookmark: (body: { bookCode: string; page: number; blockId?: string; note?: string }) =>
    api.post<Mark>('/reader/bookmark', body),
  deleteBookmark: (id: number) => request<null>(`/reader/bookmark/${id}`, { method: 'DELETE' }),
  /** The notes as Markdown, labelled in the interface language. */
  exportNotes: (bookCode: string, uiLanguage: string) =>
    request<Blob>('/reader/notes/export', { query: { bookCode, uiLanguage }, responseType: 'blob' }),

  position: (bookCode: string) => api.get<Position | null>('/reader/position', { query: { bookCode } }),
  savePosition: (
    body: { bookCode: string; page: number; blockId?: string | null; blockOffset?: number | null; language: string },
    options: { keepalive?: boolean } = {},
  ) => request<Position>('/reader/position', { method: 'PUT', body, keepalive: options.keepalive }),
  recent: () => api.get<RecentBook[]>('/reader/recent'),
  userBooks: () => api.get<BookSummary[]>('/book/user/list'),

  settings: () => api.get<ReaderSettings>('/user/reader-settings'),
  saveSettings: (body: Partial<ReaderSettings>) =>
    request<ReaderSettings>('/user/reader-settings', { method: 'PUT', body }),

  tabs: () => api.get<TabsState>('/user/tabs'),
  saveTabs: (body: TabsState) => request<TabsState>('/user/tabs', { method: 'PUT', body, authRedirect: false }),

  explain: (body: AiTextBody & { advanced: boolean }, signal?: AbortSignal) =>
    openStream('/reader/ai/explain', { method: 'POST', body: { ...body, stream: true } }, signal),
  restate: (body: AiTextBody & { level: RestateLevel }, signal?: AbortSignal) =>
    openStream('/reader/ai/restate', { method: 'POST', body: { ...body, stream: true } }, signal),
  annotate: (body: { bookCode: string; language: string; page: number; confirm?: boolean }) =>
    api.post<AnnotateResult>('/reader/ai/annotate', body),
  search: (body: { bookCode: string; language: string; query: string; ai: boolean; confirm?: boolean }) =>
    api.post<SearchResult>('/reader/search', body),

  /** The page view of a PDF book: its original file (a signed URL), and where a PDF page is in the text. */
  original: (bookCode: string) => api.get<OriginalFile>('/reader/original', { query: { bookCode } }),
  pdfLocate: (q: { bookCode: string; pdfPage: number; x?: number; y?: number }) =>
    api.get<PdfPlace>('/reader/pdfLocate', { query: q }),
};

export const readerPath = (bookCode: string, language: string) => `/tabs/read/${enc(bookCode)}/${enc(language)}`;
