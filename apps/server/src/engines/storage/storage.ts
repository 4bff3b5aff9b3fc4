import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

/**
 * Where files live (books, covers, extracted images, avatars). Keys are made by the server, never by
 * users: lowercase letters, digits, '-', '_' and '/' only, so no user input can reach a file path.
 */
export interface FileStorage {
  readonly name: string;
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** The file, or the bytes `range.start`..`range.end` of it (both included, as HTTP counts them). */
  stream(key: string, range?: ByteRange): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  /** Size and a strong validator of the stored bytes, or undefined when there is no such file. */
  stat(key: string): Promise<StoredFileStat | undefined>;
  delete(key: string): Promise<void>;
}

/** Bytes `start` to `end` of a file, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredFileStat {
  size: number;
  /** A quoted strong entity tag: it changes whenever the bytes under the key do. */
  etag: string;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_-]{0,200}(\.[a-z0-9]{1,8})?$/;

export function assertSafeKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..') || key.includes('//')) throw new Error(`unsafe storage key: ${key}`);
}

/** Files on the local disk under DATA_DIR/files, written atomically (temp file + rename). */
export class LocalStorage implements FileStorage {
  readonly name = 'local';
  private readonly root: string;
  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`unsafe storage key: ${key}`);
    return full;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, data);
    await rename(temp, target);
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async stream(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    await stat(file);
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<StoredFileStat | undefined> {
    const file = this.pathOf(key);
    try {
      const info = await stat(file);
      if (!info.isFile()) return undefined;
      // Files are replaced by rename (put), never written in place: a new content is a new inode.
      const tag = [info.ino, info.size, Math.floor(info.mtimeMs)].map((n) => n.toString(16)).join('-');
      return { size: info.size, etag: `"${tag}"` };
    } catch {
      return undefined;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}

/** Files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, OSS...), for several machines sharing files. */
export class S3Storage implements FileStorage {
  readonly name = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: {
    bucket: string;
    region: string;
    endpoint?: string | undefined;
    accessKeyId?: string | undefined;
    secretAccessKey?: string | undefined;
    forcePathStyle?: boolean;
  }) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
    });
  }

  async put(key: string, data: Buffer): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data }));
  }

  async get(key: string): Promise<Buffer> {
    assertSafeKey(key);
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    const bytes = await object.Body!.transformToByteArray();
    // A view, not a copy: a 30 MB book would otherwise be held twice while it is read.
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async stream(key: string, range?: ByteRange): Promise<Readable> {
    assertSafeKey(key);
    const object = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    const body = object.Body as Readable;
    if (!range) return body;
    // Some S3-compatible stores serve more than was asked (the whole object, or to its end for a
    // range ending at byte 0): cut the range out of what came, so the HTTP answer holds its length.
    const served = /^bytes (\d+)-(\d+)\//.exec(object.ContentRange ?? '');
    const servedStart = served ? Number(served[1]) : 0;
    const servedEnd = served ? Number(served[2]) : Number.POSITIVE_INFINITY;
    if (servedStart === range.start && servedEnd === range.end) return body;
    const slice = sliceBytes(range.start - servedStart, range.end - range.start + 1);
    body.on('error', (error) => slice.destroy(error));
    return body.pipe(slice);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  async stat(key: string): Promise<StoredFileStat | undefined> {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      const etag = head.ETag ?? `"${(head.ContentLength ?? 0).toString(16)}-${head.LastModified?.getTime() ?? 0}"`;
      return { size: head.ContentLength ?? 0, etag: etag.startsWith('"') ? etag : `"${etag}"` };
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (error as { name?: string }).name === 'NotFound') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}

/** A stream of `length` bytes of its input after the first `skip`. */
function sliceBytes(skip: number, length: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const from = Math.max(0, skip - seen);
      const to = Math.min(chunk.length, skip + length - seen);
      seen += chunk.length;
      done(null, from < to ? chunk.subarray(from, to) : undefined);
    },
  });
}
