import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage, S3Storage, type FileStorage } from './storage.ts';

/** The same contract for every storage: what goes in comes out, under server-made keys only. */
function contract(name: string, make: () => FileStorage) {
  describe(name, () => {
    it('stores, reads, streams, checks and deletes a file', async () => {
      const storage = make();
      const data = Buffer.from('第一回 甄士隐梦幻识通灵 — chapter one');
      await storage.put('books/1/img-abc.png', data);
      expect(await storage.exists('books/1/img-abc.png')).toBe(true);
      expect((await storage.get('books/1/img-abc.png')).equals(data)).toBe(true);
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.stream('books/1/img-abc.png'))
        chunks.push(Buffer.from(chunk as Uint8Array));
      expect(Buffer.concat(chunks).equals(data)).toBe(true);
      await storage.put('books/1/img-abc.png', Buffer.from('replaced'));
      expect((await storage.get('books/1/img-abc.png')).toString()).toBe('replaced');
      await storage.delete('books/1/img-abc.png');
      expect(await storage.exists('books/1/img-abc.png')).toBe(false);
      expect(await storage.exists('never/there.png')).toBe(false);
    });

    it('gives the size and an entity tag that changes with the content, and streams byte ranges', async () => {
      const storage = make();
      const data = Buffer.from('0123456789abcdefghij');
      await storage.put('uploads/ab/range-test.pdf', data);
      const first = await storage.stat('uploads/ab/range-test.pdf');
      expect(first?.size).toBe(20);
      expect(first?.etag).toMatch(/^".+"$/);
      const read = async (range: { start: number; end: number }) => {
        const chunks: Buffer[] = [];
        for await (const chunk of await storage.stream('uploads/ab/range-test.pdf', range))
          chunks.push(Buffer.from(chunk as Uint8Array));
        return Buffer.concat(chunks).toString();
      };
      expect(await read({ start: 0, end: 0 })).toBe('0');
      expect(await read({ start: 5, end: 9 })).toBe('56789');
      expect(await read({ start: 15, end: 19 })).toBe('fghij');
      await storage.put('uploads/ab/range-test.pdf', Buffer.from('ABCDEFGHIJ0123456789'));
      const second = await storage.stat('uploads/ab/range-test.pdf');
      expect(second?.size).toBe(20);
      expect(second?.etag).not.toBe(first?.etag);
      expect(await storage.stat('uploads/ab/never-there.pdf')).toBeUndefined();
    });

    it('refuses keys that could leave its space', async () => {
      const storage = make();
      for (const key of ['../secret', 'a/../../b', '/etc/passwd', 'a//b', 'UPPER/case', 'a b']) {
        await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow(/unsafe storage key/);
      }
    });
  });
}

let localDir = '';
let s3Dir = '';
let s3: S3rver;
let s3Port = 0;
beforeAll(async () => {
  localDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-storage-'));
  s3Dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-s3-'));
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'yidu-test' }],
  });
  s3Port = (await s3.run()).port;
});
afterAll(async () => {
  await s3?.close();
  await rm(localDir, { recursive: true, force: true });
  await rm(s3Dir, { recursive: true, force: true });
});

contract('local disk', () => new LocalStorage(localDir));
contract(
  'S3-compatible (s3rver on 127.0.0.1)',
  () =>
    new S3Storage({
      bucket: 'yidu-test',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${s3Port}`,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    }),
);
