import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * KOReader's "partial MD5" of a document (koreader frontend/util.lua, `partialMD5`), the id its
 * progress sync gives a book by default: one MD5 over 1024-byte samples read at offsets
 * `lshift(1024, 2*i)` for i = -1 … 10, stopping at the first offset at or past the end of the file
 * (a short last sample counts). For i = -1 LuaJIT's 32-bit shift by -2 is a shift by 30, which wraps
 * 1024 to 0: the first two samples are at 0 and 1 KiB (servers that take 256 get every book wrong).
 */
export const PARTIAL_MD5_OFFSETS: readonly number[] = [0, ...Array.from({ length: 11 }, (_, i) => 1024 * 4 ** i)];
const SAMPLE = 1024;

/** The partial MD5 of bytes held in memory. */
export function partialMd5(data: Buffer): string {
  const hash = createHash('md5');
  for (const offset of PARTIAL_MD5_OFFSETS) {
    if (offset >= data.length) break;
    hash.update(data.subarray(offset, offset + SAMPLE));
  }
  return hash.digest('hex');
}

/** What a stream of a document turned out to be once it ended. */
export interface StreamDigest {
  partialMd5: string;
  size: number;
}

/**
 * A pass-through stream that takes KOReader's samples from the bytes going by and, when they have
 * all gone by, reports the partial MD5 and the size: an export written while it is sent is named as
 * the device will name it, without holding it.
 */
export class PartialMd5Stream extends Transform {
  private position = 0;
  private readonly samples = PARTIAL_MD5_OFFSETS.map(() => [] as Buffer[]);
  private readonly onDigest: (digest: StreamDigest) => void;

  constructor(onDigest: (digest: StreamDigest) => void) {
    super();
    this.onDigest = onDigest;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const start = this.position;
    const end = start + chunk.length;
    PARTIAL_MD5_OFFSETS.forEach((offset, i) => {
      const from = Math.max(offset, start);
      const to = Math.min(offset + SAMPLE, end);
      // Copied: a view would keep the whole chunk (a picture of megabytes) alive until the end.
      if (from < to) this.samples[i]!.push(Buffer.from(chunk.subarray(from - start, to - start)));
    });
    this.position = end;
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    const hash = createHash('md5');
    PARTIAL_MD5_OFFSETS.forEach((offset, i) => {
      if (offset < this.position) for (const piece of this.samples[i]!) hash.update(piece);
    });
    this.onDigest({ partialMd5: hash.digest('hex'), size: this.position });
    done();
  }
}
