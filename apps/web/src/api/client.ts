import { ERRORS, type ErrorData } from '@yidu/shared/errors';
import type { Envelope } from '@yidu/shared/envelope';
import i18n from '../i18n/index.ts';
import { useAuth } from '../stores/auth.ts';

export const API_BASE = '/api';
/** SPEC §7.1 */
export const API_TIMEOUT_MS = 300_000;

/** Keys the client itself gives to failures that never reached a server answer. */
export type ClientErrorKey = 'network' | 'timeout' | 'unknown';

/** A failed call: HTTP status (0 when no answer), envelope code, error key and the server's details. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  readonly key: string;
  readonly data: Partial<ErrorData> | null;

  constructor(init: { status: number; code: number; key: string; message: string; data?: Partial<ErrorData> | null }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.key = init.key;
    this.data = init.data ?? null;
  }

  /** Seconds to wait, when the server said so (cooldowns, rate limits). */
  get retryAfter(): number | undefined {
    const value = this.data?.retryAfter;
    return typeof value === 'number' && value > 0 ? value : undefined;
  }
}

let onUnauthorized: () => void = () => {
  if (typeof window !== 'undefined' && window.location.pathname !== '/login') window.location.assign('/login');
};

/** The router installs a handler that navigates to /login without a full page load. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/**
 * How calls behave without a network (features/offline): `prepare` gives creates their client id,
 * `answer` answers from the device what it can when Yidu cannot be reached, `answered` keeps the
 * device's copy of downloaded books current. Installed by the offline feature at start.
 */
export interface OfflineHooks {
  prepare(method: string, path: string, body: unknown): unknown;
  answer(
    method: string,
    path: string,
    query: RequestOptions['query'],
    body: unknown,
  ): Promise<{ value: unknown } | undefined>;
  answered(method: string, path: string, query: RequestOptions['query'], body: unknown, data: unknown): void;
}
let offlineHooks: OfflineHooks | undefined;
export function setOfflineHooks(hooks: OfflineHooks | undefined): void {
  offlineHooks = hooks;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  signal?: AbortSignal;
  /** false for calls where 401 means "wrong credentials", not "session gone" (login). */
  authRedirect?: boolean;
  /** 'blob' passes binary answers through unchanged (SPEC §7.1). */
  responseType?: 'json' | 'blob';
  timeoutMs?: number;
  /** false: straight to the network, never answered from the device (the offline queue's own sends). */
  offline?: false;
  /** Sent even when the page is being closed (a small body: the reading position). */
  keepalive?: boolean;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const url = `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function isEnvelope(value: unknown): value is Envelope<unknown> & { message?: string } {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number';
}

/** One fetch wrapper for every call: base path, Bearer token, time-out, envelope, errors (SPEC §7.1, §8.1). */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query, authRedirect = true, responseType = 'json' } = options;
  const hooks = options.offline === false ? undefined : offlineHooks;
  const body = hooks && !(options.body instanceof FormData) ? hooks.prepare(method, path, options.body) : options.body;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? API_TIMEOUT_MS);
  const abortFromCaller = () => controller.abort();
  options.signal?.addEventListener('abort', abortFromCaller);

  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = useAuth.getState().token;
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      body: payload,
      signal: controller.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
  } catch (error) {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', abortFromCaller);
    if (options.signal?.aborted) throw error;
    const key: ClientErrorKey = timedOut ? 'timeout' : 'network';
    if (key === 'network' && hooks) {
      const offline = await hooks.answer(method, path, query, body);
      if (offline) return offline.value as T;
    }
    throw new ApiError({ status: 0, code: -1, key, message: i18n.t(`errors.${key}`) });
  }
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', abortFromCaller);

  if (response.status === 401 && authRedirect) handleUnauthorized();

  if (responseType === 'blob' && response.ok) return (await response.blob()) as T;

  let json: unknown = undefined;
  try {
    json = await response.json();
  } catch {
    json = undefined;
  }
  const data = unwrapResponse<T>(response.status, response.statusText, json);
  hooks?.answered(method, path, query, body, data);
  return data;
}

/** What every call does on a 401 (SPEC §4.4): forget the token and go to /login. */
export function handleUnauthorized(): void {
  // A user who was logged in lost their session (expired, or ended elsewhere): the login page says so.
  useAuth.getState().clear({ sessionEnded: useAuth.getState().token !== null });
  onUnauthorized();
}

/** The envelope rules of SPEC §7.1 for a parsed answer: its data, or an ApiError (also used by uploads). */
export function unwrapResponse<T>(status: number, statusText: string, json: unknown): T {
  const ok = status >= 200 && status < 300;
  if (isEnvelope(json)) {
    if (json.code === 0 && ok) return json.data as T;
    const data = (typeof json.data === 'object' && json.data !== null ? json.data : null) as Partial<ErrorData> | null;
    throw new ApiError({
      status,
      code: json.code,
      key: typeof data?.key === 'string' ? data.key : statusKey(status),
      message: json.msg || json.message || statusText || i18n.t('errors.unknown'),
      data,
    });
  }
  if (ok) return json as T;
  throw new ApiError({
    status,
    code: -1,
    key: statusKey(status),
    message: statusText || i18n.t('errors.unknown'),
  });
}

/** A key for answers without one, from the HTTP status. */
function statusKey(status: number): string {
  const match = Object.entries(ERRORS).find(([key, value]) => value.status === status && isGenericKey(key));
  return match ? match[0] : 'unknown';
}

const GENERIC_KEYS = new Set([
  'badRequest',
  'unauthorized',
  'insufficientPermissions',
  'notFound',
  'tooManyRequests',
  'internalError',
]);
const isGenericKey = (key: string) => GENERIC_KEYS.has(key);

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
};
