import type { FastifyRequest } from 'fastify';
import { fail } from './errors.ts';
import { hasUnsafeText, unsafeTextError } from './input-checks.ts';

/** Reads the single file part of a multipart request, with the server's size limit, and its text fields. */
export async function readSingleFile(
  request: FastifyRequest,
  field = 'file',
): Promise<{ filename: string; data: Buffer; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw fail('fileMissing');
  let file: { filename: string; data: Buffer } | undefined;
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname === field && !file) file = { filename: part.filename, data: await part.toBuffer() };
      else await part.toBuffer();
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  if (!file) throw fail('fileMissing');
  if (hasUnsafeText(fields) || hasUnsafeText(file.filename)) throw unsafeTextError('body');
  return { ...file, fields };
}
