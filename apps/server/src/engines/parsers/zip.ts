/**
 * Safe ZIP access for EPUB and DOCX. Zip bombs are refused from the central directory's declared sizes
 * before anything is inflated, and every read is also capped while inflating, because declared sizes
 * can lie.
 */
import JSZip from 'jszip';
import { ParseError } from './errors.ts';

export interface ZipLimits {
  /** Sum of declared uncompressed sizes. */
  maxTotalBytes: number;
  /** One entry's uncompressed size. */
  maxEntryBytes: number;
  /** Uncompressed/compressed ratio allowed for entries above `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxTotalBytes: 500 * 1024 * 1024,
  maxEntryBytes: 200 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
  maxEntries: 20_000,
};

interface ZipStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): ZipStream;
  on(event: 'error', listener: (error: Error) => void): ZipStream;
  on(event: 'end', listener: () => void): ZipStream;
  pause(): ZipStream;
  resume(): ZipStream;
}

interface EntrySizes {
  compressedSize: number;
  uncompressedSize: number;
}

/** JSZip keeps the central directory sizes on a private field; it is stable across 3.x. */
function declaredSizes(file: JSZip.JSZipObject): EntrySizes | undefined {
  const data = (file as unknown as { _data?: Partial<EntrySizes> })._data;
  if (data && typeof data.compressedSize === 'number' && typeof data.uncompressedSize === 'number') {
    return { compressedSize: data.compressedSize, uncompressedSize: data.uncompressedSize };
  }
  return undefined;
}

export class SafeZip {
  readonly zip: JSZip;
  private readonly limits: ZipLimits;
  private readonly lowerNames: Map<string, string>;

  private constructor(zip: JSZip, limits: ZipLimits) {
    this.zip = zip;
    this.limits = limits;
    this.lowerNames = new Map(Object.keys(zip.files).map((n) => [n.toLowerCase(), n]));
  }

  static async open(input: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<SafeZip> {
    let zip: JSZip;
    try {
      zip = await JSZip.loadAsync(input, { checkCRC32: false, createFolders: false });
    } catch (error) {
      throw new ParseError('fileCorrupted', `Not a readable ZIP archive: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const names = Object.keys(zip.files);
    if (names.length > limits.maxEntries) throw new ParseError('fileTooComplex', `ZIP has ${names.length} entries`);
    let total = 0;
    for (const name of names) {
      const file = zip.files[name]!;
      if (file.dir) continue;
      const sizes = declaredSizes(file);
      if (!sizes) continue;
      total += sizes.uncompressedSize;
      if (sizes.uncompressedSize > limits.maxEntryBytes) {
        throw new ParseError('fileTooComplex', `ZIP entry ${name} declares ${sizes.uncompressedSize} bytes`);
      }
      if (
        sizes.uncompressedSize > limits.ratioFloorBytes &&
        sizes.uncompressedSize > sizes.compressedSize * limits.maxRatio
      ) {
        throw new ParseError('fileTooComplex', `ZIP entry ${name} has a suspicious compression ratio`);
      }
    }
    if (total > limits.maxTotalBytes) throw new ParseError('fileTooComplex', `ZIP expands to ${total} bytes`);
    return new SafeZip(zip, limits);
  }

  names(): string[] {
    return Object.keys(this.zip.files).filter((n) => !this.zip.files[n]!.dir);
  }

  /** Finds an entry by exact path, falling back to a case-insensitive match (common in sloppy EPUBs). */
  resolve(path: string): string | undefined {
    if (this.zip.files[path] && !this.zip.files[path]!.dir) return path;
    return this.lowerNames.get(path.toLowerCase());
  }

  /** The uncompressed size the central directory declares for an entry. */
  declaredSize(path: string): number | undefined {
    const name = this.resolve(path);
    return name ? declaredSizes(this.zip.files[name]!)?.uncompressedSize : undefined;
  }

  has(path: string): boolean {
    return this.resolve(path) !== undefined;
  }

  /** Inflates one entry, aborting as soon as it produces more than the entry cap. */
  async read(path: string): Promise<Buffer | undefined> {
    const name = this.resolve(path);
    if (!name) return undefined;
    const file = this.zip.files[name]!;
    const max = this.limits.maxEntryBytes;
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Uint8Array[] = [];
      let size = 0;
      let settled = false;
      // internalStream is JSZip's public-but-untyped streaming reader; it lets us stop inflating early.
      const stream = (file as unknown as { internalStream(type: 'uint8array'): ZipStream }).internalStream(
        'uint8array',
      );
      stream
        .on('data', (chunk: Uint8Array) => {
          if (settled) return;
          size += chunk.length;
          if (size > max) {
            settled = true;
            stream.pause();
            reject(new ParseError('fileTooComplex', `ZIP entry ${name} inflates beyond ${max} bytes`));
            return;
          }
          chunks.push(chunk);
        })
        .on('error', (error: Error) => {
          if (settled) return;
          settled = true;
          reject(new ParseError('fileCorrupted', `Cannot inflate ${name}: ${error.message}`, { cause: error }));
        })
        .on('end', () => {
          if (settled) return;
          settled = true;
          resolve(Buffer.concat(chunks, size));
        })
        .resume();
    });
  }

  async readText(path: string): Promise<string | undefined> {
    const data = await this.read(path);
    if (!data) return undefined;
    return decodeXmlBytes(data);
  }
}

/** XML files are UTF-8 unless a BOM or the declaration says otherwise. */
export function decodeXmlBytes(data: Buffer): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data.subarray(2));
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data.subarray(2));
  const head = data.subarray(0, 200).toString('latin1');
  const declared = /encoding=["']([\w.:-]+)["']/i.exec(head)?.[1]?.toLowerCase();
  if (declared && declared !== 'utf-8' && declared !== 'utf8') {
    try {
      return new TextDecoder(declared).decode(data);
    } catch {
      // Unknown label: fall through to UTF-8, which is what most such files really are.
    }
  }
  return new TextDecoder('utf-8').decode(data).replace(/^\ufeff/, '');
}

/** Joins a relative href to the directory of a base path inside the archive, decoding %xx. */
export function resolveZipPath(base: string, href: string): string {
  let target = href.split('#')[0]!.split('?')[0]!;
  try {
    target = decodeURIComponent(target);
  } catch {
    // Keep the raw href: some EPUBs have literal '%' in file names.
  }
  if (target === '') return base;
  const parts = target.startsWith('/') ? [] : base.split('/').slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}
