export type EngineErrorKind =
  | 'rateLimited'
  | 'timeout'
  | 'auth'
  | 'server'
  | 'badRequest'
  | 'badResponse'
  | 'unsupportedLanguage'
  | 'network'
  | 'aborted'
  | 'quota';

/** Kinds where the same request may succeed a moment later; the others need a different engine or a fix. */
const RETRYABLE: ReadonlySet<EngineErrorKind> = new Set(['rateLimited', 'timeout', 'server', 'network']);

export function isRetryableKind(kind: EngineErrorKind): boolean {
  return RETRYABLE.has(kind);
}

export interface EngineErrorInit {
  engine: string;
  kind: EngineErrorKind;
  /** The engine's own error message (what its API said), so logs show the real cause. */
  message: string;
  status?: number;
  retryAfterMs?: number;
  /** Defaults to isRetryableKind(kind). */
  retryable?: boolean;
  cause?: unknown;
}

export class EngineError extends Error {
  readonly engine: string;
  readonly kind: EngineErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly retryable: boolean;

  constructor(init: EngineErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'EngineError';
    this.engine = init.engine;
    this.kind = init.kind;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.retryable = init.retryable ?? isRetryableKind(init.kind);
  }
}

export function isEngineError(value: unknown): value is EngineError {
  return value instanceof EngineError;
}

/** The usual meaning of an HTTP status; engines refine it where their API differs (DeepL 456, OpenAI quota 429...). */
export function kindFromStatus(status: number): EngineErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status === 429 || status === 529) return 'rateLimited';
  if (status === 456) return 'quota';
  if (status >= 500) return 'server';
  return 'badRequest';
}

/**
 * Retry-After as milliseconds: delta-seconds (decimals accepted, some proxies send them), an HTTP
 * date, or the `retry-after-ms` header that Azure OpenAI and the OpenAI SDKs use.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}
