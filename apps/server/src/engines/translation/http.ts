import { EngineError, kindFromStatus, parseRetryAfter } from './errors.ts';
import type { EngineErrorKind } from './errors.ts';

export interface HttpRequest {
  engine: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  /**
   * Turns an error answer into a message and (optionally) a kind. Each API words its errors
   * differently; the message must be the service's own so that logs show the real cause.
   */
  describeError?: (status: number, body: string, json: unknown) => { message?: string; kind?: EngineErrorKind };
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A signal that fires on the caller's abort or after timeoutMs, remembering which one fired so the
 * error can say 'aborted' (the caller gave up: do not retry) or 'timeout' (try again or elsewhere).
 */
export function deadline(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): {
  signal: AbortSignal;
  timedOut: () => boolean;
  /** The caller's signal fired (whatever reason it gave). */
  aborted: () => boolean;
  /** Restarts the timer: streaming reads use it as an idle time-out. */
  touch: () => void;
  clear: () => void;
} {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let fired = false;
  const arm = () => {
    if (timer) clearTimeout(timer);
    if (timeoutMs === undefined || timeoutMs <= 0 || !Number.isFinite(timeoutMs)) return;
    timer = setTimeout(() => {
      fired = true;
      controller.abort(new DOMException('The request timed out', 'TimeoutError'));
    }, timeoutMs);
  };
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  arm();
  return {
    signal: controller.signal,
    timedOut: () => fired,
    aborted: () => signal?.aborted === true,
    touch: arm,
    clear: () => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** Maps what fetch threw (abort, time-out, refused connection, reset...) onto an EngineError. */
export function errorFromThrown(
  engine: string,
  err: unknown,
  state: { timedOut?: boolean; aborted?: boolean } = {},
  timeoutMs?: number,
): EngineError {
  if (err instanceof EngineError) return err;
  if (state.timedOut) {
    return new EngineError({ engine, kind: 'timeout', message: `No answer within ${timeoutMs ?? '?'} ms`, cause: err });
  }
  const name = err instanceof Error ? err.name : '';
  // fetch rejects with whatever reason the caller aborted with (possibly a string), so check the signal too.
  if (state.aborted || name === 'AbortError' || name === 'TimeoutError') {
    return new EngineError({ engine, kind: 'aborted', message: 'The request was aborted', cause: err });
  }
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : undefined;
  const code = (cause as { code?: string } | undefined)?.code;
  const detail = cause ? `${cause.message}${code && !cause.message.includes(code) ? ` (${code})` : ''}` : '';
  const message = err instanceof Error ? (detail ? `${err.message}: ${detail}` : err.message) : String(err);
  return new EngineError({ engine, kind: 'network', message, cause: err });
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Most APIs answer `{error: {message}}`, `{error: "..."}` or `{message}`; take whichever is there. */
export function genericErrorMessage(json: unknown): string | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const o = json as Record<string, unknown>;
  const error = o.error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  if (typeof o.message === 'string') return o.message;
  if (typeof o.detail === 'string') return o.detail;
  return undefined;
}

export function errorFromResponse(req: HttpRequest, status: number, headers: Headers, body: string): EngineError {
  const json = tryJson(body);
  const described = req.describeError?.(status, body, json) ?? {};
  const message =
    described.message ?? genericErrorMessage(json) ?? (body.trim().slice(0, 300) || `HTTP ${status} without a body`);
  const retryAfterMs = parseRetryAfter(headers);
  return new EngineError({
    engine: req.engine,
    kind: described.kind ?? kindFromStatus(status),
    message,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** Sends one request and reads the whole body; any non-2xx answer becomes an EngineError. */
export async function httpRequest(req: HttpRequest): Promise<HttpResponse> {
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const d = deadline(req.signal, timeoutMs);
  try {
    const response = await fetch(req.url, {
      method: req.method ?? 'GET',
      headers: req.headers,
      body: req.body,
      signal: d.signal,
    });
    const text = await response.text();
    if (!response.ok) throw errorFromResponse(req, response.status, response.headers, text);
    return { status: response.status, headers: response.headers, text };
  } catch (err) {
    throw errorFromThrown(req.engine, err, { timedOut: d.timedOut(), aborted: d.aborted() }, timeoutMs);
  } finally {
    d.clear();
  }
}

/** httpRequest + JSON.parse; an unparsable 2xx body is 'badResponse'. */
export async function httpJson(req: HttpRequest): Promise<unknown> {
  const response = await httpRequest(req);
  const json = tryJson(response.text);
  if (json === undefined) {
    throw new EngineError({
      engine: req.engine,
      kind: 'badResponse',
      message: `Expected JSON, got: ${response.text.slice(0, 200)}`,
      status: response.status,
    });
  }
  return json;
}

export function badResponse(engine: string, message: string): EngineError {
  return new EngineError({ engine, kind: 'badResponse', message });
}

/** Billable characters as the services count them: Unicode code points, not UTF-16 units. */
export function countChars(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function sumChars(texts: readonly string[]): number {
  let n = 0;
  for (const t of texts) n += countChars(t);
  return n;
}

/** Runs fn over items with at most `limit` in flight, keeping results in input order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
) {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/**
 * Engines must return one translation per input; blank inputs are passed through without a
 * request (some APIs reject empty strings, and nobody should pay for them).
 */
export async function translateNonBlank(
  texts: readonly string[],
  run: (texts: string[]) => Promise<string[]>,
): Promise<string[]> {
  const indexes: number[] = [];
  const send: string[] = [];
  texts.forEach((t, i) => {
    if (t.trim() !== '') {
      indexes.push(i);
      send.push(t);
    }
  });
  const out = [...texts];
  if (send.length === 0) return out;
  const translated = await run(send);
  indexes.forEach((at, k) => {
    out[at] = translated[k] as string;
  });
  return out;
}

/** Characters a service bills for one request: blank segments are never sent. */
export function billableChars(texts: readonly string[]): number {
  let n = 0;
  for (const t of texts) if (t.trim() !== '') n += countChars(t);
  return n;
}
