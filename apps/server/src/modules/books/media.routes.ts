import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { sendNotFound } from '../../http/error-handler.ts';
import type { UrlSigner } from '../../lib/signing.ts';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
};

/**
 * Covers and book images by signed URL (see lib/signing.ts). Keys never come from user input: a
 * signature only exists for keys the server made. Files never change under a key, so they are cached.
 */
export const mediaRoutes: FastifyPluginAsync<{ storage: FileStorage; signer: UrlSigner }> = async (
  app,
  { storage, signer },
) => {
  app.get('/media/*', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    const pathname = request.url.split('?')[0]!;
    const key = decodeURIComponent(pathname.slice('/api/media/'.length));
    const { sig } = request.query as { sig?: string };
    if (!signer.verify(pathname, sig) || !(await storage.exists(key))) return sendNotFound(reply);
    return (
      reply
        .header('content-type', TYPES[path.extname(key)] ?? 'application/octet-stream')
        .header('cache-control', 'private, max-age=31536000, immutable')
        // An SVG opened directly must not run scripts.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(await storage.stream(key))
    );
  });
};
