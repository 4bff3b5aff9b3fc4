import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { answerRange } from '../../http/byte-ranges.ts';
import { sendNotFound } from '../../http/error-handler.ts';
import { fail } from '../../http/errors.ts';
import type { SignedQuery } from '../../lib/signing.ts';
import type { MediaService } from './media.service.ts';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
  '.pdf': 'application/pdf',
};

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);

/**
 * Covers, book images and original files by signed URL (see MediaService). Keys never come from user
 * input: a signature only exists for keys the server made. Files never change under a key, so a
 * browser keeps them as long as their URL lives. Byte ranges are served (206, see byte-ranges.ts), so
 * that the page view reads the pages of a large PDF it shows without downloading the whole file.
 */
export const mediaRoutes: FastifyPluginAsync<{ media: MediaService }> = async (app, { media }) => {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    schema: { hide: true },
    config: { rateLimit: false },
    handler: async (request, reply) => {
      const file = await media.open(request.url.split('?')[0]!, request.query as SignedQuery);
      if (!file) return sendNotFound(reply);
      const answer = answerRange(
        {
          range: header(request.headers.range),
          ifRange: header(request.headers['if-range']),
          ifNoneMatch: header(request.headers['if-none-match']),
        },
        file,
      );
      reply
        .header('cache-control', `private, max-age=${file.maxAge}`)
        .header('accept-ranges', 'bytes')
        .header('etag', file.etag);
      if (answer.status === 304) return reply.code(304).send();
      if (answer.status === 416) {
        reply.header('content-range', `bytes */${file.size}`);
        throw fail('rangeNotSatisfiable', { size: file.size });
      }
      const range = answer.status === 206 ? { start: answer.start, end: answer.end } : undefined;
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
      reply
        .header('content-type', TYPES[path.extname(file.key)] ?? 'application/octet-stream')
        .header('content-length', range ? range.end - range.start + 1 : file.size)
        // An SVG opened directly must not run scripts.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      if (request.method === 'HEAD') return reply.send();
      return reply.send(await media.stream(file.key, range));
    },
  });
};
