/**
 * Writing files when the disk may be full: what counts as "full", a write that leaves nothing half
 * written behind, and the sweep of temporary files a killed process left.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, opendir, rename, rm, stat, statfs, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../lib/logger.ts';

/**
 * The system's words for "this cannot be written here": no space left (ENOSPC), the user's quota
 * used up (EDQUOT), a file past what the file system or the process's file-size limit allows (EFBIG).
 */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
/** PostgreSQL's disk_full: its own files could not grow. */
const POSTGRES_DISK_FULL = '53100';
/** What an S3-compatible store answers when it is full (MinIO's XMinioStorageFull). */
const HTTP_INSUFFICIENT_STORAGE = 507;

/** Whether a failure (or what caused it) is the storage being full rather than a fault of ours or the input's. */
export function isStorageFull(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, $metadata } = current as { code?: unknown; $metadata?: { httpStatusCode?: number } };
    if (typeof code === 'string' && (FULL_CODES.has(code) || code === POSTGRES_DISK_FULL)) return true;
    if ($metadata?.httpStatusCode === HTTP_INSUFFICIENT_STORAGE) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Our temporary names: the target's name, a dot, 12 random hex digits, `.tmp`. Nothing else is ever swept. */
const TEMP_NAME = /\.[0-9a-f]{12}\.tmp$/;

export function temporaryNameFor(target: string): string {
  return `${target}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Writes a file whole or not at all: into a temporary file beside it, renamed over the target once
 * written. When the write fails (a full disk) the temporary file is removed, so a failed write never
 * leaves bytes behind to fill the disk again.
 */
export async function writeFileAtomic(target: string, data: Buffer | string): Promise<void> {
  const temporary = temporaryNameFor(target);
  try {
    await writeFile(temporary, data, { flag: 'wx' });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Appends to a log file whole or not at all: a line cut short by a full disk is taken back. */
export async function appendWhole(file: string, data: string): Promise<void> {
  const before = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  try {
    await appendFile(file, data);
  } catch (error) {
    await truncate(file, before).catch(() => undefined);
    throw error;
  }
}

/** A temporary file this old belongs to no live write (the largest book is written in seconds). */
export const STALE_TEMP_MS = 60 * 60_000;

/**
 * Removes, under `root`, the temporary files of writes that never finished (a process killed in the
 * middle): files named as `temporaryNameFor` names them, older than `olderThanMs`, so that a write
 * another process is making right now is left alone. Symbolic links are not followed.
 */
export async function sweepTemporaryFiles(
  root: string,
  olderThanMs = STALE_TEMP_MS,
): Promise<{ removed: number; bytes: number }> {
  const result = { removed: 0, bytes: 0 };
  const before = Date.now() - olderThanMs;
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await opendir(dir);
    } catch {
      return; // missing (nothing written yet) or removed meanwhile
    }
    for await (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && TEMP_NAME.test(entry.name)) {
        const info = await stat(full).catch(() => undefined);
        if (!info || info.mtimeMs > before) continue;
        await rm(full, { force: true });
        result.removed++;
        result.bytes += info.size;
      }
    }
  };
  await walk(path.resolve(root));
  return result;
}

/** The folders under DATA_DIR where Yidu writes through temporary files. */
export const TEMPORARY_FILE_FOLDERS = ['files', 'outbox'];

/** Sweeps DATA_DIR's folders (see sweepTemporaryFiles) and logs what it removed; never throws. */
export async function sweepDataDirTemporaryFiles(dataDir: string, logger: Logger): Promise<number> {
  let removed = 0;
  for (const folder of TEMPORARY_FILE_FOLDERS) {
    try {
      const swept = await sweepTemporaryFiles(path.join(dataDir, folder));
      if (swept.removed > 0) logger.warn({ folder, ...swept }, 'removed temporary files of unfinished writes');
      removed += swept.removed;
    } catch (error) {
      logger.warn({ err: error, folder }, 'sweep of temporary files failed');
    }
  }
  return removed;
}

/** Free and total bytes of the file system holding `dir` (free: what an unprivileged user may use), or null. */
export async function spaceOf(dir: string): Promise<{ freeBytes: number; totalBytes: number } | null> {
  try {
    const fs = await statfs(dir);
    return { freeBytes: fs.bavail * fs.bsize, totalBytes: fs.blocks * fs.bsize };
  } catch {
    return null;
  }
}

const MB = 1024 * 1024;

/**
 * How the space left under DATA_DIR looks for the admins' checklist: failing when the next uploads
 * may not fit (less than 256 MB, or than two of the largest file accepted), a warning below 2 GB or a
 * tenth of the disk.
 */
export function storageStatus(
  space: { freeBytes: number; totalBytes: number } | null,
  largestUploadBytes: number,
): 'ok' | 'warning' | 'failing' | 'unknown' {
  if (!space) return 'unknown';
  if (space.freeBytes < Math.max(256 * MB, 2 * largestUploadBytes)) return 'failing';
  if (space.freeBytes < Math.max(2048 * MB, space.totalBytes / 10)) return 'warning';
  return 'ok';
}
