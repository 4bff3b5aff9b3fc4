import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../../../test/small-disk.ts';
import { appendWhole, isStorageFull, spaceOf, storageStatus, sweepTemporaryFiles, writeFileAtomic } from './disk.ts';
import { LocalStorage } from './storage.ts';

if (smallDiskUnavailable) console.warn(`disk.test.ts: full-disk cases skipped: ${smallDiskUnavailable}`);

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe.skipIf(smallDiskUnavailable)('writing on a disk that fills', () => {
  let disk: SmallDisk;
  beforeAll(async () => {
    disk = await mountSmallDisk(1024);
  });
  afterAll(async () => disk?.unmount());

  it('refuses a write larger than the room left with ENOSPC, and leaves no temporary file', async () => {
    await disk.fill(100 * 1024);
    const storage = new LocalStorage(path.join(disk.dir, 'files'));
    const error = await storage.put('uploads/ab/book.pdf', Buffer.alloc(300 * 1024, 1)).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('ENOSPC');
    expect(isStorageFull(error)).toBe(true);
    // Nothing half written remains: neither the target nor the temporary file it was written through.
    expect((await filesUnder(disk.dir)).filter((f) => f !== '.filler')).toEqual([]);
    // What fits is still written, whole.
    await storage.put('uploads/ab/small.txt', Buffer.from('fits'));
    expect(await storage.get('uploads/ab/small.txt')).toEqual(Buffer.from('fits'));
    await disk.free();
    await storage.put('uploads/ab/book.pdf', Buffer.alloc(300 * 1024, 1));
    expect((await storage.get('uploads/ab/book.pdf')).length).toBe(300 * 1024);
  });

  it('takes back a line appended in part', async () => {
    const log = path.join(disk.dir, 'sms.log');
    await appendWhole(log, '{"first":true}\n');
    await disk.fill(2 * 1024);
    const error = await appendWhole(log, JSON.stringify({ text: 'x'.repeat(64 * 1024) }) + '\n').catch((e) => e);
    expect(isStorageFull(error)).toBe(true);
    expect(await readFile(log, 'utf8')).toBe('{"first":true}\n');
    await disk.free();
    await rm(log);
  });

  it('writes a whole file atomically or not at all (the outbox)', async () => {
    const target = path.join(disk.dir, 'mail.eml');
    await disk.fill(8 * 1024);
    await expect(writeFileAtomic(target, Buffer.alloc(64 * 1024, 2))).rejects.toMatchObject({ code: 'ENOSPC' });
    expect((await readdir(disk.dir)).filter((name) => name.startsWith('mail.eml'))).toEqual([]);
    await disk.free();
  });
});

describe('what counts as a full storage', () => {
  it('knows the system codes, PostgreSQL disk_full and a full S3 store, also as a cause, and nothing else', () => {
    expect(isStorageFull(Object.assign(new Error('x'), { code: 'EDQUOT' }))).toBe(true);
    expect(isStorageFull(Object.assign(new Error('x'), { code: 'EFBIG' }))).toBe(true);
    expect(isStorageFull(Object.assign(new Error('could not extend file'), { code: '53100' }))).toBe(true);
    expect(isStorageFull(Object.assign(new Error('full'), { $metadata: { httpStatusCode: 507 } }))).toBe(true);
    expect(isStorageFull(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ENOSPC' }) }))).toBe(
      true,
    );
    expect(isStorageFull(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false);
    expect(isStorageFull(Object.assign(new Error('x'), { code: '53200' }))).toBe(false); // out of memory
    expect(isStorageFull('ENOSPC')).toBe(false);
    expect(isStorageFull(undefined)).toBe(false);
  });
});

describe("the admins' storage check", () => {
  const MB = 1024 * 1024;
  const disk = (freeMb: number, totalMb = 100_000) => ({ freeBytes: freeMb * MB, totalBytes: totalMb * MB });
  it('fails when the next uploads may not fit, warns when little is left, and reads a real disk', async () => {
    expect(storageStatus(disk(200), 50 * MB)).toBe('failing');
    expect(storageStatus(disk(300), 200 * MB)).toBe('failing'); // two of the largest upload do not fit
    expect(storageStatus(disk(1000), 50 * MB)).toBe('warning');
    expect(storageStatus(disk(5000, 100_000), 50 * MB), 'less than a tenth of the disk').toBe('warning');
    expect(storageStatus(disk(5000, 20_000), 50 * MB)).toBe('ok');
    expect(storageStatus(null, 50 * MB)).toBe('unknown');
    const space = await spaceOf(os.tmpdir());
    expect(space!.freeBytes).toBeGreaterThan(0);
    expect(space!.totalBytes).toBeGreaterThanOrEqual(space!.freeBytes);
    expect(await spaceOf(path.join(os.tmpdir(), 'no-such-dir-' + process.pid))).toBeNull();
  });
});

describe('the sweep of temporary files', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'yidu-sweep-'));
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it('removes our old temporary files only: not fresh ones, not other names, not through links', async () => {
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
    const make = async (relative: string, age: number) => {
      const file = path.join(root, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, 'x'.repeat(100));
      await utimes(file, hoursAgo(age), hoursAgo(age));
    };
    await make('files/uploads/ab/abc.pdf.0123456789ab.tmp', 2); // a killed write: removed
    await make('files/books/7/img-1.png.fedcba987654.tmp', 30); // removed
    await make('files/uploads/cd/def.epub.00112233aabb.tmp', 0); // a write going on now: kept
    await make('files/uploads/ab/abc.pdf', 5); // a stored file: kept
    await make('files/notes.tmp', 5); // not our name: kept
    await make('files/x.0123456789ab.tmp.bak', 5); // kept
    await make('files/x.0123456789AB.tmp', 5); // not ours (upper case): kept
    await make('elsewhere/y.0123456789ab.tmp', 5); // outside the root: kept
    await symlink(path.join(root, 'elsewhere'), path.join(root, 'files', 'link'));

    const swept = await sweepTemporaryFiles(path.join(root, 'files'));
    expect(swept).toEqual({ removed: 2, bytes: 200 });
    expect((await filesUnder(root)).sort()).toEqual(
      [
        'elsewhere/y.0123456789ab.tmp',
        'files/notes.tmp',
        'files/uploads/ab/abc.pdf',
        'files/uploads/cd/def.epub.00112233aabb.tmp',
        'files/x.0123456789AB.tmp',
        'files/x.0123456789ab.tmp.bak',
      ].sort(),
    );
    expect(await sweepTemporaryFiles(path.join(root, 'missing'))).toEqual({ removed: 0, bytes: 0 });
  });
});
