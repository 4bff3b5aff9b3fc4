import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Reads a secret kept under DATA_DIR, creating it on first use. Used for APP_SECRET when it is not
 * set (so sessions and encrypted settings survive restarts) and for the embedded database password.
 */
export async function readOrCreateSecret(dataDir: string, fileName: string): Promise<string> {
  const file = path.join(dataDir, fileName);
  try {
    const existing = (await readFile(file, 'utf8')).trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  // Written whole under a temporary name, then linked into place: a process starting at the same
  // moment on a shared DATA_DIR finds either no file or the complete secret, never a half-written one.
  // The link fails when another process made the secret first; then theirs is the one.
  const secret = randomBytes(48).toString('base64url');
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, secret + '\n', { mode: 0o600 });
  try {
    await link(temp, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(temp, { force: true });
  }
  const theirs = (await readFile(file, 'utf8')).trim();
  if (theirs.length < 32) throw new Error(`${file} holds less than 32 characters: remove it to have a new one made`);
  return theirs;
}
