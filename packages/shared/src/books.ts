import { INT4_MAX } from './validation.ts';
import { z } from 'zod';

/** The upload pipeline stages in order (SPEC §4.1). */
export const UPLOAD_STAGES = [
  'waitingUpload',
  'uploading',
  'uploaded',
  'infoSaving',
  'parsingFile',
  'detectingLanguage',
  'translatingTitle',
  'saving',
  'completed',
] as const;
export type UploadStage = (typeof UPLOAD_STAGES)[number];

/** The message of a failed stage (SPEC §4.1); the web app translates by stage. */
export const STAGE_FAILURE_MESSAGES: Partial<Record<UploadStage, string>> = {
  uploading: 'Failed to upload this file',
  infoSaving: 'Failed to save book information',
  parsingFile: 'Failed to parse the file',
  detectingLanguage: "Failed to detect book's language",
  translatingTitle: "Failed to translate book's title",
  saving: 'Failed to save',
};

export const BOOK_FORMATS = ['pdf', 'txt', 'docx', 'doc', 'epub'] as const;
export type BookFormatName = (typeof BOOK_FORMATS)[number];
export const BOOK_FILE_EXTENSIONS = BOOK_FORMATS.map((f) => `.${f}`);

/**
 * The title a file name suggests: the name without its extension, underscores read as spaces. The
 * wizard's and Path A's fallback when the file says nothing usable about itself (SPEC §5.4).
 */
export function titleFromFileName(name: string): string {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  return base.replace(/_+/g, ' ').trim() || name;
}

/** What an uploaded file says about itself; null where it says nothing usable. */
export const FileMetadata = z.object({
  title: z.string().nullable(),
  author: z.string().nullable(),
  description: z.string().nullable(),
  /** The cover found in the file (a signed thumbnail URL). */
  coverUrl: z.string().nullable(),
});
export type FileMetadata = z.infer<typeof FileMetadata>;

/** The answer of an upload (Path B `/book/upload`); `metadata` pre-fills the wizard's info step. */
export const UploadedFile = z.object({
  fileId: z.string(),
  format: z.string(),
  metadata: FileMetadata,
});
export type UploadedFile = z.infer<typeof UploadedFile>;

/** 1 = public, 0 = private (SPEC §3.2). */
export const BookStatus = z.union([z.literal(0), z.literal(1)]);

/** The state of one stage call of Path B: poll the same call until `done` or `failed`. */
export const StageState = z.object({
  requestId: z.string(),
  stage: z.enum(UPLOAD_STAGES),
  status: z.enum(['running', 'done', 'failed']),
  /** 0..1 while running, when the stage can tell. */
  progress: z.number().optional(),
  /** The stage's failure message (SPEC §4.1). */
  message: z.string().optional(),
  /** Why it failed, as an error key (fileEncrypted, fileCorrupted, emptyFile, ...). */
  errorKey: z.string().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
});
export type StageState = z.infer<typeof StageState>;

/** An upload that is not a book yet, listed on the upload page with "continue" and "discard". */
export const UnfinishedUpload = z.object({
  requestId: z.string(),
  bookName: z.string(),
  /** Where it is: the stage running, finished last (waiting for the next), or failed. */
  stage: z.enum(UPLOAD_STAGES),
  status: z.enum(['running', 'done', 'failed']),
  errorKey: z.string().optional(),
  /** The reading language chosen in the wizard. */
  language: z.string().nullable(),
  fileName: z.string(),
  format: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UnfinishedUpload = z.infer<typeof UnfinishedUpload>;

export const SaveNewBody = z.object({
  fileId: z.string().min(1).max(64),
  bookName: z.string().trim().min(1).max(300),
  bookAuthor: z.string().trim().max(200).optional(),
  bookDescribe: z.string().trim().max(5000).optional(),
  bookStatus: z.coerce.number().pipe(BookStatus).default(0),
  forceOCR: z.boolean().optional(),
  autoSplitFootnote: z.boolean().optional(),
  /** The reading (target) language code chosen in the wizard. */
  language: z.string().max(10).optional(),
  /** The original language, when the user corrected the detected one. */
  originalLanguage: z.string().max(10).optional(),
});
export type SaveNewBody = z.infer<typeof SaveNewBody>;

/**
 * Path A's `/book/save/{id}` data: as saveNew, but the title may be left out, and then is the file's
 * own (else its name), as a title left at the file-name default is in both paths.
 */
export const SaveBookBody = SaveNewBody.extend({ bookName: z.string().trim().max(300).optional() });
export type SaveBookBody = z.infer<typeof SaveBookBody>;

export const UploadCount = z.object({
  today: z.number(),
  thisMonth: z.number(),
  dailyLimit: z.number(),
  monthlyLimit: z.number(),
  maxFileMb: z.number(),
  contactEmail: z.string(),
});
export type UploadCount = z.infer<typeof UploadCount>;

export const LIBRARY_SECTIONS = ['new', 'popular', 'recommended'] as const;
export type LibrarySection = (typeof LIBRARY_SECTIONS)[number];

export const LibraryQuery = z.object({
  section: z.enum(LIBRARY_SECTIONS).default('new'),
  keyword: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  sort: z.enum(['default', 'updated', 'title', 'added']).default('default'),
});
export type LibraryQuery = z.infer<typeof LibraryQuery>;

/** A book as lists and the detail popup show it (SPEC §2.4 Library list). */
export const BookSummary = z.object({
  bookCode: z.string(),
  bookName: z.string(),
  bookAuthor: z.string(),
  bookDescribe: z.string(),
  category: z.string().nullable(),
  /** 1 public, 0 private. */
  bookStatus: z.number(),
  coverUrl: z.string().nullable(),
  format: z.string(),
  originalLanguage: z.string().nullable(),
  readLanguage: z.string().nullable(),
  pageCount: z.number(),
  chapterCount: z.number(),
  readers: z.number(),
  /** The user uploaded it (may edit the public book). */
  isOwner: z.boolean(),
  /** It is in the user's personal library. */
  inLibrary: z.boolean(),
  updateAt: z.string(),
  createdAt: z.string(),
});
export type BookSummary = z.infer<typeof BookSummary>;

export const LibraryPage = z.object({
  items: z.array(BookSummary),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type LibraryPage = z.infer<typeof LibraryPage>;

export const BookChapter = z.object({ index: z.number(), title: z.string(), level: z.number(), page: z.number() });

export const BookDetail = BookSummary.extend({
  chapters: z.array(BookChapter),
  sourcePages: z.number().nullable(),
  /** The AI features the user has on this book: all, or those granted by the share links that brought it. */
  features: z.array(z.string()),
});
export type BookDetail = z.infer<typeof BookDetail>;

export const UpdateBookBody = z.object({
  bookCode: z.string().min(1).max(40),
  bookName: z.string().trim().min(1).max(300).optional(),
  bookAuthor: z.string().trim().max(200).optional(),
  bookDescribe: z.string().trim().max(5000).optional(),
  category: z.string().trim().max(60).nullable().optional(),
  bookStatus: BookStatus.optional(),
  readLanguage: z.string().max(10).optional(),
});
export type UpdateBookBody = z.infer<typeof UpdateBookBody>;

export const BatchBody = z.object({
  bookCodes: z.array(z.string().min(1).max(40)).min(1).max(200),
  action: z.enum(['delete', 'setVisibility']),
  bookStatus: BookStatus.optional(),
  keepPublic: z.boolean().default(true),
});
export type BatchBody = z.infer<typeof BatchBody>;
