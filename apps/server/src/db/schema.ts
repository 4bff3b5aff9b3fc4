import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { GeneratedTitle } from '@yidu/shared/contents';

/** A timestamptz; optional on insert where the column has a default. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** int8 columns come back from pg as strings; we parse them where read. */
type BigIntColumn = ColumnType<string, number | bigint | string, number | bigint | string>;
/** A bigserial id: read as a string, never written. */
type GeneratedBigId = ColumnType<string, undefined, never>;
type DefaultedBigInt = ColumnType<string, number | bigint | string | undefined, number | bigint | string>;

export type UserStatus = 'pending' | 'active' | 'disabled';

export interface UsersTable {
  id: Generated<number>;
  account: string;
  email: string | null;
  phone: string | null;
  password_hash: string;
  username: string;
  nickname: string | null;
  avatar: string | null;
  invite_code: string;
  invited_by: number | null;
  role: Generated<'user' | 'admin'>;
  status: UserStatus;
  language: string;
  ui_language: string | null;
  common_languages: Generated<string[]>;
  default_share_public: Generated<boolean>;
  deduct_mode: Generated<'autoDeduct' | 'deductAfterConfirmation'>;
  translation_engine: Generated<string | null>;
  reader_settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  tabs: ColumnType<unknown[], string | undefined, string>;
  pending_email: Generated<string | null>;
  show_name_on_shares: Generated<boolean>;
  points_balance: DefaultedBigInt;
  /** Points promised to paid actions still running (points_holds); never more than the balance. */
  points_held: DefaultedBigInt;
  login_count: Generated<number>;
  last_login_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  kind: Generated<'login' | 'impersonation'>;
  ip: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export type CodePurpose = 'register' | 'reset' | 'activation' | 'emailChange';

export interface VerificationCodesTable {
  id: Generated<number>;
  purpose: CodePurpose;
  /** A phone number for 'register', a user id for 'reset' and 'activation'. */
  target: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: NullableTimestamp;
  created_at: CreatedAt;
  ip: string | null;
}

export interface InviteCodesTable {
  code: string;
  created_by: number | null;
  max_uses: number | null;
  used_count: Generated<number>;
  expires_at: NullableTimestamp;
  note: string | null;
  created_at: CreatedAt;
}

export interface PointsLedgerTable {
  id: GeneratedBigId;
  user_id: number;
  type: 'income' | 'expenditure';
  points: BigIntColumn;
  balance_before: BigIntColumn;
  reason: string;
  detail: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  idempotency_key: string | null;
  created_at: CreatedAt;
}

export type HoldStatus = 'held' | 'settled' | 'released';

export interface PointsHoldsTable {
  id: GeneratedBigId;
  user_id: number;
  action: string;
  key: string;
  fingerprint: string;
  points: BigIntColumn;
  status: ColumnType<HoldStatus, HoldStatus | undefined, HoldStatus>;
  detail: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  resolved_at: NullableTimestamp;
}

export interface LoginEventsTable {
  id: GeneratedBigId;
  user_id: number | null;
  account: string;
  ip: string | null;
  success: boolean;
  reason: string | null;
  created_at: CreatedAt;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: Timestamp;
}

export interface FilesTable {
  id: string;
  sha256: string;
  size: BigIntColumn;
  format: string;
  storage_key: string;
  original_name: string;
  created_by: number | null;
  created_at: CreatedAt;
  /** What the file says about itself (modules/books/file-metadata.ts); null until read. */
  metadata: ColumnType<StoredFileMetadata | null, string | null | undefined, string | null>;
  /** KOReader's partial MD5 of the file's bytes (lib/partial-md5.ts); null until computed. */
  partial_md5: Generated<string | null>;
  /** MD5 of the file's name as uploaded (KOReader's other way of naming a document). */
  name_md5: Generated<string | null>;
}

export interface StoredFileMetadata {
  title?: string;
  author?: string;
  description?: string;
  /** The cover found in the file, stored by storeCover (a thumbnail beside it). */
  coverKey?: string;
}

export interface UploadEventsTable {
  id: GeneratedBigId;
  ip: string;
  user_id: number | null;
  file_id: string | null;
  /** The upload request this upload was turned into; an upload serves one request. */
  request_id: string | null;
  created_at: CreatedAt;
}

export type BookStatus = 'processing' | 'ready' | 'failed';

export interface BooksTable {
  id: Generated<number>;
  code: string;
  file_id: string | null;
  owner_id: number | null;
  title: string;
  author: string;
  description: Generated<string>;
  category: string | null;
  original_language: string | null;
  declared_language: string | null;
  format: string;
  visibility: number;
  status: Generated<BookStatus>;
  recommended: Generated<boolean>;
  cover_key: string | null;
  chapter_count: Generated<number>;
  block_count: Generated<number>;
  char_count: Generated<number>;
  page_count: Generated<number>;
  source_pages: number | null;
  readers_count: Generated<number>;
  public_deleted: Generated<boolean>;
  glossary_version: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A title Yidu made (jsonb): written as JSON text, read as the marker. */
type GeneratedTitleColumn = ColumnType<GeneratedTitle | null, string | null | undefined, string | null>;

export interface BookChaptersTable {
  book_id: number;
  idx: number;
  /** Empty when `generated` says it. */
  title: string;
  generated: GeneratedTitleColumn;
  level: number;
  first_page: number;
  first_seq: number;
  block_count: number;
}

/** An entry of a book's contents (migration 0022): in the book's order, at its level, leading to block `seq`. */
export interface BookContentsTable {
  book_id: number;
  idx: number;
  level: number;
  title: string;
  generated: GeneratedTitleColumn;
  seq: number;
}

export interface BookBlocksTable {
  book_id: number;
  seq: number;
  block_id: string;
  chapter_idx: number;
  page: number;
  type: string;
  text: string;
  html: string | null;
  level: number | null;
  image_id: string | null;
  note_label: string | null;
  note_refs: string[] | null;
  referenced_by: string[] | null;
  pdf_page: number | null;
  /** PdfRegion[] as JSON (written as a string). */
  pdf_regions: ColumnType<PdfRegionRow[] | null, string | null | undefined, string | null>;
}

/** A rectangle of a PDF page a block covers: fractions of the displayed page, origin top left. */
export interface PdfRegionRow {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface BookImagesTable {
  book_id: number;
  image_id: string;
  storage_key: string;
  media_type: string;
  width: number | null;
  height: number | null;
}

/** A PDF figure whose picture is still to be rendered (migration 0028, modules/books/book-crops.ts). */
export interface BookPendingCropsTable {
  book_id: number;
  image_id: string;
  page: number;
  region: ColumnType<PdfRegionRow, string, string>;
  photo: number | null;
  updated_at: Generated<Date>;
}

export interface UserBooksTable {
  id: Generated<number>;
  user_id: number;
  book_id: number;
  title: string;
  author: string;
  description: Generated<string>;
  category: string | null;
  cover_key: string | null;
  read_language: string | null;
  source: 'upload' | 'library' | 'share' | 'admin';
  added_at: CreatedAt;
  updated_at: Timestamp;
  last_read_at: NullableTimestamp;
}

/** 'discarded': the uploader gave the unfinished request up (it is kept for the statistics). */
export type UploadRequestStatus = 'running' | 'done' | 'failed' | 'discarded';

export interface UploadRequestsTable {
  id: string;
  user_id: number;
  file_id: string;
  book_id: number | null;
  book_name: string;
  book_author: string;
  book_describe: Generated<string>;
  book_status: number;
  force_ocr: Generated<boolean>;
  auto_split_footnote: Generated<boolean>;
  target_language: string | null;
  original_language: string | null;
  auto_chain: Generated<boolean>;
  stage: string;
  status: UploadRequestStatus;
  progress: number | null;
  error_key: string | null;
  error_detail: string | null;
  results: ColumnType<Record<string, unknown>, string | undefined, string>;
  job_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface TranslationMemoryTable {
  id: GeneratedBigId;
  source_hash: string;
  source_lang: string;
  target_lang: string;
  engine: string;
  model: string;
  glossary_version: Generated<number>;
  /** A hash of the glossary entries occurring in the text ('' when none do). */
  glossary_key: Generated<string>;
  translation: string;
  source_chars: number;
  /** A reader chose this translation over another: it is served first. */
  chosen_at: Date | null;
  created_at: CreatedAt;
}

export interface BookTranslationsTable {
  book_id: number;
  target_lang: string;
  seq: number;
  status: 'pending' | 'done' | 'failed';
  translation: string | null;
  engine: string | null;
  model: string | null;
  from_memory: Generated<boolean>;
  requested_by: number | null;
  error: string | null;
  attempts: Generated<number>;
  /** The glossary entries the translation was made with (see TranslationMemoryTable); null: before they were kept. */
  glossary_key: string | null;
  updated_at: Timestamp;
  /** Failed tries since the last success (the automatic retry waits longer after each). */
  failures: Generated<number>;
  /** A failed block is tried again by itself from then on. */
  retry_at: NullableTimestamp;
}

export type BookTranslationJobStatus = 'running' | 'done' | 'cancelled' | 'failed';

export interface BookTranslationJobsTable {
  id: GeneratedBigId;
  user_id: number;
  book_id: number;
  target_lang: string;
  status: BookTranslationJobStatus;
  hold_id: string | null;
  quoted_points: BigIntColumn;
  price_translation: number;
  price_cached: number;
  page_count: number;
  next_page: Generated<number>;
  pages_done: Generated<number>;
  failed_blocks: Generated<number>;
  run_id: string | null;
  lease_until: NullableTimestamp;
  error_key: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface PricesTable {
  action: string;
  points: number;
  updated_at: Timestamp;
  updated_by: number | null;
}

export interface AiAnnotationsTable {
  book_id: number;
  page: number;
  lang: string;
  model: string;
  notes: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

export interface EngineSettingsTable {
  name: string;
  position: number;
  enabled: boolean;
  settings: ColumnType<Record<string, unknown>, string, string>;
  api_key_sealed: string | null;
  updated_at: Timestamp;
  updated_by: number | null;
}

export interface AiModelSettingsTable {
  use: 'explanation' | 'annotation';
  base_url: string;
  model: string;
  api_key_sealed: string | null;
  updated_at: Timestamp;
  updated_by: number | null;
}

export interface EngineHealthTable {
  key: string;
  last_success_at: NullableTimestamp;
  last_failure_at: NullableTimestamp;
  last_error: string | null;
  latency_ms: number | null;
  checked_by: string | null;
  updated_at: Timestamp;
}

export interface BookGlossaryTable {
  book_id: number;
  target_lang: string;
  source: string;
  target: string;
  note: string | null;
  origin: Generated<GlossaryOrigin>;
  created_at: CreatedAt;
}

export type GlossaryOrigin = 'owner' | 'extracted' | 'suggested';

export interface GlossarySuggestionsTable {
  id: GeneratedBigId;
  book_id: number;
  target_lang: string;
  source: string;
  target: string;
  note: string | null;
  user_id: number | null;
  status: Generated<'pending' | 'accepted' | 'rejected'>;
  created_at: CreatedAt;
  decided_at: Date | null;
}

export interface ChapterSummariesTable {
  book_id: number;
  target_lang: string;
  chapter_idx: number;
  page: number;
  summary: string;
  created_at: CreatedAt;
}

export type TranslationReportStatus = 'open' | 'keptOriginal' | 'choseAlternative';

export interface TranslationReportsTable {
  id: GeneratedBigId;
  book_id: number;
  target_lang: string;
  seq: number;
  user_id: number | null;
  original_translation: string;
  original_engine: string | null;
  original_model: string | null;
  alternative_translation: string | null;
  alternative_engine: string | null;
  alternative_model: string | null;
  status: Generated<TranslationReportStatus>;
  created_at: CreatedAt;
  decided_at: Date | null;
}

export type MarkKind = 'annotation' | 'highlight' | 'underline' | 'bookmark';

export interface ReaderMarksTable {
  id: GeneratedBigId;
  user_id: number;
  book_id: number;
  kind: MarkKind;
  block_id: string;
  page: number;
  start_offset: number | null;
  end_offset: number | null;
  in_translation: Generated<boolean>;
  language: string | null;
  quote: Generated<string>;
  content: string | null;
  color: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ReadingPositionsTable {
  user_id: number;
  book_id: number;
  page: number;
  block_id: string | null;
  /** How far into block_id the top of the view was: 0..1 of the block's height. */
  block_offset: number | null;
  language: string;
  updated_at: Timestamp;
}

export interface BookSharesTable {
  id: string;
  book_id: number;
  owner_id: number;
  features: string[];
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface ShareGrantsTable {
  share_id: string;
  user_id: number;
  book_id: number;
  created_at: CreatedAt;
}

export type FeedbackStatus = 'unresolved' | 'inProgress' | 'resolved' | 'closed';
export type FeedbackType = 'systemBug' | 'uiIssue' | 'optimizationSuggestion';

export interface FeedbackTable {
  id: Generated<number>;
  user_id: number | null;
  title: string;
  type: FeedbackType;
  description: string;
  image_key: string | null;
  status: Generated<FeedbackStatus>;
  reply: string | null;
  replied_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface AuditLogTable {
  id: GeneratedBigId;
  admin_id: number | null;
  action: string;
  target: string | null;
  detail: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  ip: string | null;
  created_at: CreatedAt;
}

export interface WordLookupsTable {
  id: GeneratedBigId;
  key_hash: string;
  source_lang: string;
  target_lang: string;
  engine: string;
  model: string;
  text: string;
  entry: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

export interface VocabularyWordsTable {
  id: GeneratedBigId;
  user_id: number;
  book_id: number | null;
  book_title: string;
  chapter_title: Generated<string>;
  text: string;
  text_key: string;
  lemma: Generated<string>;
  meaning: Generated<string>;
  pronunciation: Generated<string>;
  part_of_speech: Generated<string>;
  usage: Generated<string>;
  note: Generated<string>;
  sentence: Generated<string>;
  source_lang: string;
  target_lang: string;
  block_id: string;
  page: number;
  start_offset: number | null;
  end_offset: number | null;
  box: Generated<number>;
  due_at: Timestamp;
  reviews: Generated<number>;
  lapses: Generated<number>;
  last_reviewed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** When the reader sent the word to Anki (AnkiConnect, from their browser). */
  anki_sent_at: NullableTimestamp;
}

export interface ReadingHeartbeatsTable {
  user_id: number;
  last_at: Date | string;
  time_zone: Generated<string>;
}

export interface ReadingDaysTable {
  user_id: number;
  book_id: number;
  /** A date column: read as 'YYYY-MM-DD' (the pg type parser is set for dates). */
  day: ColumnType<string, string, string>;
  seconds: Generated<number>;
  lookups: Generated<number>;
  last_at: Timestamp;
}

export interface ReadingPagesTable {
  user_id: number;
  book_id: number;
  day: ColumnType<string, string, string>;
  page: number;
}

export interface DevicePasswordsTable {
  id: GeneratedBigId;
  user_id: number;
  name: string;
  /** HMAC-SHA256 under the app secret of md5(password), hex (modules/devices/device-keys.ts). */
  key_hmac: string;
  created_at: CreatedAt;
  last_used_at: NullableTimestamp;
  /** 'opds' or 'kosync' and the device's name, as last seen. */
  last_used_by: string | null;
  revoked_at: NullableTimestamp;
}

export interface DeviceProgressTable {
  user_id: number;
  document: string;
  progress: string;
  percentage: number;
  device: string;
  device_id: string | null;
  book_id: number | null;
  web_page: number | null;
  updated_at: Timestamp;
}

export type ServedVariant = 'original' | 'bilingual' | 'translated';

export interface ServedDocumentsTable {
  user_id: number;
  digest: string;
  method: 'binary' | 'filename';
  book_id: number;
  variant: ServedVariant;
  language: Generated<string>;
  size: BigIntColumn | null;
  version: Generated<string>;
  has_cover: Generated<boolean>;
  served_at: Timestamp;
}

export interface FirstShelfTable {
  slug: string;
  book_id: number | null;
  seeded_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  invite_codes: InviteCodesTable;
  points_ledger: PointsLedgerTable;
  points_holds: PointsHoldsTable;
  login_events: LoginEventsTable;
  rate_limits: RateLimitsTable;
  files: FilesTable;
  upload_events: UploadEventsTable;
  books: BooksTable;
  book_chapters: BookChaptersTable;
  book_contents: BookContentsTable;
  book_blocks: BookBlocksTable;
  book_images: BookImagesTable;
  book_pending_crops: BookPendingCropsTable;
  user_books: UserBooksTable;
  upload_requests: UploadRequestsTable;
  translation_memory: TranslationMemoryTable;
  book_translations: BookTranslationsTable;
  book_translation_jobs: BookTranslationJobsTable;
  prices: PricesTable;
  ai_annotations: AiAnnotationsTable;
  engine_settings: EngineSettingsTable;
  ai_model_settings: AiModelSettingsTable;
  engine_health: EngineHealthTable;
  book_glossary: BookGlossaryTable;
  glossary_suggestions: GlossarySuggestionsTable;
  chapter_summaries: ChapterSummariesTable;
  translation_reports: TranslationReportsTable;
  reader_marks: ReaderMarksTable;
  reading_positions: ReadingPositionsTable;
  book_shares: BookSharesTable;
  share_grants: ShareGrantsTable;
  feedback: FeedbackTable;
  audit_log: AuditLogTable;
  word_lookups: WordLookupsTable;
  vocabulary_words: VocabularyWordsTable;
  reading_heartbeats: ReadingHeartbeatsTable;
  reading_days: ReadingDaysTable;
  reading_pages: ReadingPagesTable;
  device_passwords: DevicePasswordsTable;
  device_progress: DeviceProgressTable;
  served_documents: ServedDocumentsTable;
  first_shelf: FirstShelfTable;
  client_writes: ClientWritesTable;
  readwise_accounts: ReadwiseAccountsTable;
  readwise_pushes: ReadwisePushesTable;
}

/** A client-generated id of a mark or word (offline queues send them again until answered). */
export interface ClientWritesTable {
  user_id: number;
  client_id: string;
  kind: 'mark' | 'word';
  target_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  created_at: CreatedAt;
}

export interface ReadwiseAccountsTable {
  user_id: number;
  token_sealed: string;
  token_hint: string;
  auto_push: Generated<boolean>;
  last_push_at: NullableTimestamp;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ReadwisePushesTable {
  mark_id: BigIntColumn;
  user_id: number;
  content_hash: string;
  pushed_at: Timestamp;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type BookRow = Selectable<BooksTable>;
export type UserBookRow = Selectable<UserBooksTable>;
export type UploadRequestRow = Selectable<UploadRequestsTable>;
export type FileRow = Selectable<FilesTable>;
