import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.ts';

/** A NUL, or half of a surrogate pair (what invalid UTF-8 in JSON's \u escapes becomes). */
// eslint-disable-next-line no-control-regex -- finding the NUL is the point
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string, or any string key or value inside an object or array, is text PostgreSQL cannot keep. */
export function hasUnsafeText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSAFE_TEXT.test(value);
  if (value === null || typeof value !== 'object' || depth > 32 || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((item) => hasUnsafeText(item, depth + 1));
  return Object.entries(value).some(([key, item]) => UNSAFE_TEXT.test(key) || hasUnsafeText(item, depth + 1));
}

export const unsafeTextError = (where: string) => new AppError('badRequest', { reason: 'invalidText', where });

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes one component of a URL the strict way: undefined when its percent-encoding is not valid UTF-8. */
function decodeComponent(component: string): string | undefined {
  try {
    return decodeURIComponent(component.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/**
 * Text that cannot be text never reaches a service: a NUL, bad percent-encoding or invalid UTF-8
 * in the path, the query or a JSON body answers 400 `badRequest` (PostgreSQL refuses a NUL in text,
 * which answered 500; other parsers silently turned bad bytes into U+FFFD). Multipart fields are
 * read by their routes, which check them with `hasUnsafeText`.
 */
export function registerInputChecks(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const [path = '', query = ''] = splitOnce(request.url, '?');
    const pathText = decodeComponent(path);
    if (pathText === undefined || UNSAFE_TEXT.test(pathText)) throw unsafeTextError('path');
    for (const part of query.split('&')) {
      const text = decodeComponent(part);
      if (text === undefined || UNSAFE_TEXT.test(text)) throw unsafeTextError('query');
    }
  });

  // JSON bodies are decoded strictly, then parsed as Fastify does (prototype poisoning refused).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(unsafeTextError('body'), undefined);
      return;
    }
    parseJson(request, text, done);
  });

  app.addHook('preValidation', async (request) => {
    if (hasUnsafeText(request.params)) throw unsafeTextError('path');
    if (hasUnsafeText(request.query)) throw unsafeTextError('query');
    if (hasUnsafeText(request.body)) throw unsafeTextError('body');
  });
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
}
