import type {
  BatchBody,
  BookDetail,
  BookSummary,
  LibraryPage,
  LibraryQuery,
  SaveNewBody,
  StageState,
  UnfinishedUpload,
  UpdateBookBody,
  UploadCount,
  UploadedFile,
} from '@yidu/shared/books';
import { api, request } from './client.ts';
import { uploadFile, type UploadOptions } from './upload.ts';

export type LibraryParams = Partial<LibraryQuery>;
export type BatchResult = { done: string[]; failed: { bookCode: string; key: string }[] };
export type SyncDirection = 'fromPublic' | 'toPublic';
export type CoverScope = 'user' | 'public';
/** The four Path B stage calls (SPEC §7.6). */
export type WorkStage = 'parsingFile' | 'detectingLanguage' | 'translatingTitle' | 'saving';

const STAGE_PATHS: Record<WorkStage, string> = {
  parsingFile: '/book/analysis',
  detectingLanguage: '/book/languageDetection',
  translatingTitle: '/book/translationBookName',
  saving: '/book/saveBookById',
};

/** The list call of a library kind (SPEC §7.5): 'all' and 'user' have their own paths. */
export function libraryPath(kind: string): string {
  if (kind === 'all') return '/book/library';
  if (kind === 'user') return '/book/user/library';
  return `/book/${encodeURIComponent(kind)}/library`;
}

/** SPEC §7.5 and the calls the spec leaves out (cover, sync, batch). */
export const booksApi = {
  library: (kind: string, query: LibraryParams, signal?: AbortSignal) =>
    api.get<LibraryPage>(libraryPath(kind), { query, signal }),
  detail: (bookCode: string, readLanguage?: string) =>
    api.get<BookDetail>('/book/user/getBookByCode', { query: { bookCode, readLanguage } }),
  add: (bookCode: string) => api.post<BookSummary>('/book/user/add', { bookCode }),
  updateCopy: (body: UpdateBookBody) => api.post<BookSummary>('/book/user/updateBook', body),
  updatePublic: (body: UpdateBookBody) => api.post<BookSummary>('/book/updateBook', body),
  removeCopy: (bookCode: string, keepPublic: boolean) =>
    request<null>(`/book/user/${encodeURIComponent(bookCode)}`, {
      method: 'DELETE',
      query: { keepPublic: String(keepPublic) },
    }),
  sync: (bookCode: string, direction: SyncDirection) =>
    api.post<BookSummary>('/book/user/sync', { bookCode, direction }),
  batch: (body: BatchBody) => api.post<BatchResult>('/book/user/batch', body),
  cover: (bookCode: string, scope: CoverScope, file: File) =>
    uploadFile<BookSummary>('/book/cover', file, { query: { bookCode, scope } }),
};

/** The upload pipeline, Path B (SPEC §7.6). */
export const uploadApi = {
  count: () => api.get<UploadCount>('/book/upload/count'),
  upload: (file: File, options: Pick<UploadOptions, 'onProgress' | 'signal'> = {}) =>
    uploadFile<UploadedFile>('/book/upload', file, options),
  saveNew: (body: SaveNewBody) => api.post<{ requestId: string }>('/book/saveNew', body),
  /** Starts the stage once; calling it again polls it. */
  stage: (stage: WorkStage, requestId: string, extra: { userLanguage?: string; bookName?: string } = {}) =>
    api.get<StageState>(STAGE_PATHS[stage], { query: { requestId, ...extra } }),
  retry: (requestId: string) => api.post<StageState>('/book/upload/retry', undefined, { query: { requestId } }),
  /** The caller's uploads that are not a book yet, to continue or discard. */
  unfinished: () => api.get<UnfinishedUpload[]>('/book/upload/unfinished'),
  discard: (requestId: string) => api.post<null>('/book/upload/discard', undefined, { query: { requestId } }),
};
