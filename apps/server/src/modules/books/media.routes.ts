import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { sendNotFound } from '../../http/error-handler.ts';
import type { SignedQuery } from '../../lib/signing.ts';
import type { MediaService } from './media.service.ts';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
};

/**
 * Covers and book images by signed URL (see MediaService). Keys never come from user input: a
 * signature only exists for keys the server made. Files never change under a key, so a browser keeps
 * them as long as their URL lives.
 */
export const mediaRoutes: FastifyPluginAsync<{ media: MediaService }> = async (app, { media }) => {
  app.get('/media/*', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    const file = await media.open(request.url.split('?')[0]!, request.query as SignedQuery);
    if (!file) return sendNotFound(reply);
    return (
      reply
        .header('content-type', TYPES[path.extname(file.key)] ?? 'application/octet-stream')
        .header('cache-control', `private, max-age=${file.maxAge}`)
        // An SVG opened directly must not run scripts.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(await media.stream(file.key))
    );
  });
};
