import type { StageState } from '@yidu/shared/books';
import { api, request } from './client.ts';

export interface AdminUser {
  id: number;
  account: string;
  username: string;
  email: string | null;
  phone: string | null;
  role: string;
  status: string;
  points: number;
  loginCount: number;
  lastLoginAt: string | null;
  createdAt: string;
}
export interface UploadDay {
  day: string;
  total: number;
  completed: number;
  failed: number;
  running: number;
  public: number;
  private: number;
}
export interface RegistrationDay {
  day: string;
  count: number;
}
export interface LoginDay {
  day: string;
  logins: number;
  users: number;
  failures: number;
}
export interface Retention {
  baseDate: string;
  cohort: number;
  days: { day: number; retained: number; rate: number }[];
}
export interface Usage {
  pointsByFeature: { day: string; feature: string; points: number }[];
  charactersByEngine: { day: string; engine: string; characters: number }[];
}
export interface OldLoginUser {
  id: number;
  account: string;
  username: string;
  email: string | null;
  created_at: string;
  last_login_at: string | null;
  login_count: number;
}
export interface FrequentOperator {
  id: number;
  account: string;
  username: string;
  logins: number;
  uploads: number;
  paidActions: number;
  total: number;
}
export interface FailedUpload {
  requestId: string;
  userId: number;
  bookName: string | null;
  bookCode: string | null;
  stage: string;
  errorKey: string | null;
  detail: string | null;
  at: string;
}
export interface FailedTranslation {
  bookCode: string;
  language: string;
  blocks: number;
  error: string;
  at: string;
}
export interface ErrorReport {
  users: { id: number; account: string; username: string }[];
  uploads: FailedUpload[];
  translations: FailedTranslation[];
}
export interface UploadRow {
  requestId: string;
  username: string;
  account: string;
  bookName: string | null;
  bookCode: string | null;
  bookStatus: number;
  stage: string;
  status: string;
  errorKey: string | null;
  fileId: string;
  fileName: string;
  format: string;
  size: number;
  createdAt: string;
}
export interface QueueEntry {
  name: string;
  states: Record<string, number>;
  oldestWaitingSeconds: number | null;
}
export interface SystemInfo {
  version: string;
  node: string;
  postgres: string;
  role: string;
  uptimeSeconds: number;
  memory: { rssBytes: number; heapUsedBytes: number; systemTotalBytes: number; systemFreeBytes: number };
  cpu: { cores: number; loadAverage: number[] };
  dataDir: string;
  disk: { totalBytes: number; freeBytes: number } | null;
  databaseBytes: number;
  translationEngines: string[];
  llmConfigured: boolean;
  queue: QueueEntry[];
}
export interface AuditEntry {
  id: number;
  action: string;
  target: string | null;
  detail: unknown;
  ip: string | null;
  admin: string | null;
  createdAt: string;
}
export interface InviteCode {
  code: string;
  maxUses: number | null;
  usedCount: number;
  expiresAt: string | null;
  note: string | null;
  createdAt: string;
}
export const ENGINE_NAMES = ['microsoft', 'google', 'deepl', 'llm', 'libretranslate'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];
export interface EngineSettings {
  name: EngineName;
  enabled: boolean;
  endpoint: string | null;
  region: string | null;
  model: string | null;
  timeoutMs: number | null;
  concurrency: number | null;
  requestsPerMinute: number | null;
}
export interface EngineView extends EngineSettings {
  hasApiKey: boolean;
  apiKeyHint: string | null;
}
/** apiKey omitted keeps the stored key, '' removes it, a value replaces it. */
export type EngineSave = EngineSettings & { apiKey?: string };
export interface EngineTest {
  ok: boolean;
  ms: number;
  sample: string | null;
  error: string | null;
}
export const PRICE_KEYS = [
  'translation',
  'translationCached',
  'annotation',
  'explanation',
  'advancedExplanation',
  'restatement',
  'search',
  'lookup',
  'lookupCached',
  'ocrPage',
  'footnoteSplit',
] as const;
export type Prices = Record<string, number>;

type Range = { date?: string; days?: number };

/** The admin calls of SPEC §7.7 and the management calls beside them. Every one is checked by the server. */
export const adminApi = {
  uploads: (q: Range & { bookStatus?: 0 | 1 }) => api.get<UploadDay[]>('/admin/util/bookUploadStatistic', { query: q }),
  registrations: (q: Range) => api.get<RegistrationDay[]>('/admin/util/userRegStatistic', { query: q }),
  logins: (q: Range) => api.get<LoginDay[]>('/admin/util/userLoginStatistic', { query: q }),
  loginCount: (q: Range) => api.get<{ logins: number; users: number }>('/admin/util/getLoginCount', { query: q }),
  retention: (q: { baseDate?: string; nDays?: number }) =>
    api.get<Retention>('/admin/util/getUserRetentionRate', { query: q }),
  usage: (q: Range) => api.get<Usage>('/admin/stats/usage', { query: q }),
  oldLoginUsers: (q: { regDay: number; lastLoginDay: number }) =>
    api.get<OldLoginUser[]>('/admin/util/findOldLoginUser', { query: q }),
  frequentOperators: (q: { date?: string; count: number }) =>
    api.get<FrequentOperator[]>('/admin/util/findFrequentOperators', { query: q }),
  findUsers: (username: string) => api.get<AdminUser[]>('/admin/util/findUserByName', { query: { username } }),
  uploadsOf: (username: string) => api.get<UploadRow[]>('/admin/util/findUploadByUserName', { query: { username } }),
  errorsByUsername: (username: string) =>
    api.get<ErrorReport>('/admin/util/checkErrorByUsername', { query: { username } }),
  errorsByAccount: (account: string) => api.get<ErrorReport>('/admin/util/checkErrorByAccount', { query: { account } }),
  queue: () => api.get<QueueEntry[]>('/admin/util/monitorThreadPool'),
  queueCheck: () => api.get<{ ok: boolean; roundTripMs: number; state: string | null }>('/admin/util/kafkaCheck'),
  systemInfo: () => api.get<SystemInfo>('/admin/util/system-info'),
  userToken: (account: string) =>
    api.get<{ token: string; expiresInSeconds: number; userId: number }>('/admin/util/getUserToken', {
      query: { account },
    }),
  addBook: (bookCode: string, userId: number) =>
    api.post<{ bookCode: string; userId: number }>('/admin/util/addBook', undefined, { query: { bookCode, userId } }),
  download: (fileId: string) =>
    request<Blob>('/admin/util/download', { query: { bookFilePath: fileId }, responseType: 'blob' }),
  retryUpload: (requestId: string) =>
    api.post<StageState>('/admin/util/retryUpload', undefined, { query: { requestId } }),
  setUser: (id: number, body: { status?: 'active' | 'disabled'; role?: 'user' | 'admin' }) =>
    api.post<AdminUser>(`/admin/users/${id}`, body),
  grantPoints: (body: { userId: number; points: number; reason?: string; requestId: string }) =>
    api.post<{ balance: number }>('/admin/points/grant', body),
  audit: () => api.get<AuditEntry[]>('/admin/audit'),
  inviteCodes: () => api.get<InviteCode[]>('/admin/invite-codes'),
  mintInviteCodes: (body: {
    count: number;
    maxUses: number | null;
    expiresInDays: number | null;
    note: string | null;
  }) => api.post<{ codes: string[] }>('/admin/invite-codes', body),
  engines: () => api.get<EngineView[]>('/admin/engines'),
  saveEngines: (engines: EngineSave[]) => request<EngineView[]>('/admin/engines', { method: 'PUT', body: engines }),
  testEngine: (name: EngineName) => api.post<EngineTest>('/admin/engines/test', { name }),
  prices: () => api.get<Prices>('/admin/prices'),
  savePrices: (prices: Prices) => request<Prices>('/admin/prices', { method: 'PUT', body: prices }),
};
