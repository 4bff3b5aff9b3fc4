import { ERRORS, type ErrorKey } from '@yidu/shared';

/**
 * A failure the client should see: a stable key from the shared catalogue, the HTTP status that
 * goes with it, and optional details (retryAfter, issues...). Services throw these; the error handler
 * turns them into the envelope.
 */
export class AppError extends Error {
  readonly key: ErrorKey;
  readonly status: number;
  /** The envelope `code`; the HTTP status unless a call keeps its own codes (login: 1 and 2). */
  readonly code: number;
  readonly details: Record<string, unknown>;

  constructor(key: ErrorKey, details: Record<string, unknown> = {}, options: { code?: number; message?: string } = {}) {
    super(options.message ?? ERRORS[key].message);
    this.key = key;
    this.status = ERRORS[key].status;
    this.code = options.code ?? this.status;
    this.details = details;
  }
}

export const fail = (key: ErrorKey, details?: Record<string, unknown>): AppError => new AppError(key, details);
