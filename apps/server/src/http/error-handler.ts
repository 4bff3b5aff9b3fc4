import { ERRORS, type ErrorKey } from '@yidu/shared';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { errorsTotal } from '../lib/metrics.ts';
import { AppError } from './errors.ts';

function send(reply: FastifyReply, key: ErrorKey, details: Record<string, unknown> = {}, code?: number, msg?: string) {
  const status = ERRORS[key].status;
  errorsTotal({ key });
  if (typeof details.retryAfter === 'number') reply.header('retry-after', String(details.retryAfter));
  return reply
    .status(status)
    .send({ code: code ?? status, data: { key, ...details }, msg: msg ?? ERRORS[key].message });
}

/**
 * One error vocabulary for the whole API: every failure leaves as the envelope with a key from the
 * shared catalogue. Unknown errors are logged in full and answered with a generic message.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return send(reply, error.key, error.details, error.code, error.message);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: [error.validationContext, v.instancePath.replace(/^\//, '').replaceAll('/', '.')]
          .filter(Boolean)
          .join('.'),
        message: v.message ?? 'invalid',
      }));
      return send(reply, 'badRequest', { issues });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      const retryAfter = Number(reply.getHeader('retry-after')) || 60;
      return send(reply, 'tooManyRequests', { retryAfter });
    }
    if (status === 413) return send(reply, 'fileTooLarge');
    if (status === 415) return send(reply, 'unsupportedFileType');
    if (status === 404) return send(reply, 'notFound');
    if (status >= 400 && status < 500) {
      return send(reply, 'badRequest', { reason: error.code ?? error.message });
    }
    if (isUnstorableText(error)) {
      // Text PostgreSQL cannot keep (a NUL) that came in some way the input checks do not read.
      request.log.info({ code: (error as { code?: string }).code }, 'text refused by the database');
      return send(reply, 'badRequest', { reason: 'invalidText' });
    }
    if (isBrokenMultipart(error)) {
      // A body cut short or without its boundary: the client sent it wrong (or the connection broke).
      request.log.info({ message: error.message }, 'malformed multipart body');
      return send(reply, 'badRequest', { reason: 'malformedMultipart' });
    }
    if (isValueOutOfRange(error)) {
      // A number or date the database cannot hold, that came past the schemas: the request is wrong.
      request.log.info({ code: (error as { code?: string }).code }, 'value refused by the database');
      return send(reply, 'badRequest', { reason: 'outOfRange' });
    }
    if (isDatabaseUnavailable(error)) {
      // A database restart or failover: say so briefly and let the client retry, without a stack per request.
      request.log.warn({ code: (error as { code?: string }).code }, 'database unavailable');
      return send(reply, 'serviceUnavailable', { retryAfter: 5 });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 'internalError');
  });
}

export function sendNotFound(reply: FastifyReply) {
  return send(reply, 'notFound');
}

/** A failure Fastify answers before any route or hook (a path whose percent-encoding is broken). */
export function sendFrameworkError(error: FastifyError, reply: FastifyReply) {
  return send(reply, 'badRequest', { reason: error.code ?? 'badUrl' });
}

/** The multipart parser's refusals of a body that is not well-formed multipart (busboy's errors). */
function isBrokenMultipart(error: Error): boolean {
  return (
    /^(Multipart: Boundary not found|Unexpected end of (multipart data|form)|Malformed part header)$|terminated early due to unexpected end of multipart data$/.test(
      error.message,
    ) || /[\\/]@fastify[\\/]busboy[\\/]/.test(error.stack ?? '')
  );
}

/**
 * PostgreSQL's refusals of values out of their type's range: a number too large for its column
 * (22003), a date that does not exist or overflows (22008, 22007), text that is no number (22P02).
 * The route schemas bound what they know; this keeps any other from becoming a 500.
 */
function isValueOutOfRange(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '22003' || code === '22008' || code === '22007' || code === '22P02';
}

/** PostgreSQL's refusals of text it cannot store: a NUL in text (22021) or in JSON (22P05). */
function isUnstorableText(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '22021' || code === '22P05';
}
