import type { FastifyReply } from 'fastify';
import { ERRORS } from '@yidu/shared';
import { AppError } from './errors.ts';

/**
 * Sends an async sequence as server-sent events. Errors before the first event still become a normal
 * error envelope (the caller awaits the first step before hijacking); later ones an `error` event.
 */
export async function streamEvents<T>(
  reply: FastifyReply,
  events: AsyncIterator<T>,
  name: (event: T) => [string, unknown],
): Promise<void> {
  const first = await events.next();
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let closed = false;
  raw.on('close', () => {
    closed = true;
    void events.return?.(undefined);
  });
  const write = (event: T) => {
    const [type, data] = name(event);
    raw.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  try {
    if (!first.done) write(first.value);
    for (let next = await events.next(); !next.done && !closed; next = await events.next()) write(next.value);
  } catch (error) {
    const key = error instanceof AppError ? error.key : 'internalError';
    raw.write(`event: error\ndata: ${JSON.stringify({ key, msg: ERRORS[key].message })}\n\n`);
  } finally {
    raw.end();
  }
}
