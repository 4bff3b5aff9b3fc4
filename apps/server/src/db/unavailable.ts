const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);
// PostgreSQL SQLSTATEs meaning "the server is going away or not ready": admin/crash shutdown, starting up.
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);

/**
 * True when an error means the database cannot be reached right now (restart, failover, network),
 * as opposed to a bug or a bad query. Such requests answer 503 and the caller may retry shortly.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (CONNECTION_CODES.has(code) || SHUTDOWN_STATES.has(code) || code.startsWith('08')) return true;
  }
  if (typeof message === 'string' && /^Connection terminated|timeout exceeded when trying to connect/.test(message))
    return true;
  // Node reports a refused connection to several addresses as an AggregateError.
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable);
}
