/**
 * Safe ZIP access for EPUB and DOCX. Zip bombs are refused from the central directory's declared sizes
 * before anything is inflated, and every read is also capped while inflating, because declared sizes
 * can lie.
 *
 * The archive is read directly (central directory → local headers → node's native zlib) rather than
 * through JSZip: JSZip walks every byte of the input when it opens it (~350 ms for 30 MB) and inflates
 * with pako, several times slower than zlib. Entry data are views into the input, never copies.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { ParseError } from './errors.ts';
import { PARSE_LIMITS } from './limits.ts';

const inflateRaw = promisify(zlib.inflateRaw);

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
  maxTotalBytes: PARSE_LIMITS.zipTotalBytes,
  maxEntryBytes: PARSE_LIMITS.zipEntryBytes,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
  maxEntries: 20_000,
};

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64_LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function corrupt(message: string): ParseError {
  return new ParseError('fileCorrupted', `Not a readable ZIP archive: ${message}`);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Names are UTF-8 when flagged, or in an Info-ZIP Unicode Path field; most tools write UTF-8 anyway. */
function entryName(raw: Buffer, flags: number, extra: Buffer): string {
  if (flags & 0x800) return raw.toString('utf8');
  for (let i = 0; i + 4 <= extra.length;) {
    const id = extra.readUInt16LE(i);
    const size = extra.readUInt16LE(i + 2);
    if (id === 0x7075 && size > 5 && i + 4 + size <= extra.length) {
      return extra.subarray(i + 9, i + 4 + size).toString('utf8');
    }
    i += 4 + size;
  }
  try {
    return strictUtf8.decode(raw);
  } catch {
    return raw.toString('latin1');
  }
}

function readCentralDirectory(input: Buffer, maxEntries: number): ZipEntry[] {
  if (input.length < 22) throw corrupt('too short');
  // The end record sits in the last 22 bytes plus a comment of up to 65,535 bytes.
  let eocd = -1;
  for (let i = input.length - 22; i >= Math.max(0, input.length - 22 - 65535); i--) {
    if (input.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) throw corrupt('no central directory (truncated?)');
  let count = input.readUInt16LE(eocd + 10);
  let size = input.readUInt32LE(eocd + 12);
  let offset = input.readUInt32LE(eocd + 16);
  if (
    (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) &&
    eocd >= 20 &&
    input.readUInt32LE(eocd - 20) === EOCD64_LOCATOR
  ) {
    const at = Number(input.readBigUInt64LE(eocd - 12));
    if (at + 56 > input.length || input.readUInt32LE(at) !== EOCD64) throw corrupt('bad ZIP64 end record');
    count = Number(input.readBigUInt64LE(at + 32));
    size = Number(input.readBigUInt64LE(at + 40));
    offset = Number(input.readBigUInt64LE(at + 48));
  }
  if (count > maxEntries) throw new ParseError('fileTooComplex', `ZIP has ${count} entries`);
  if (offset + size > input.length) throw corrupt('central directory beyond the end of the file');
  const entries: ZipEntry[] = [];
  let p = offset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > input.length || input.readUInt32LE(p) !== CENTRAL) throw corrupt('bad central directory entry');
    const flags = input.readUInt16LE(p + 8);
    const method = input.readUInt16LE(p + 10);
    let compressedSize = input.readUInt32LE(p + 20);
    let uncompressedSize = input.readUInt32LE(p + 24);
    const nameLength = input.readUInt16LE(p + 28);
    const extraLength = input.readUInt16LE(p + 30);
    const commentLength = input.readUInt16LE(p + 32);
    let localOffset = input.readUInt32LE(p + 42);
    const end = p + 46 + nameLength + extraLength + commentLength;
    if (end > input.length) throw corrupt('bad central directory entry');
    const extra = input.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength);
    // ZIP64: the sizes and offset that overflowed 32 bits are in extra field 0x0001, in this order.
    for (let i = 0; i + 4 <= extra.length;) {
      const id = extra.readUInt16LE(i);
      const fieldSize = extra.readUInt16LE(i + 2);
      if (id === 0x0001) {
        let q = i + 4;
        const next = () => {
          const value = q + 8 <= i + 4 + fieldSize ? Number(extra.readBigUInt64LE(q)) : undefined;
          q += 8;
          return value;
        };
        if (uncompressedSize === 0xffffffff) uncompressedSize = next() ?? uncompressedSize;
        if (compressedSize === 0xffffffff) compressedSize = next() ?? compressedSize;
        if (localOffset === 0xffffffff) localOffset = next() ?? localOffset;
      }
      i += 4 + fieldSize;
    }
    const name = entryName(input.subarray(p + 46, p + 46 + nameLength), flags, extra);
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localOffset });
    p = end;
  }
  return entries;
}

export class SafeZip {
  private readonly input: Buffer;
  private readonly files = new Map<string, ZipEntry>();
  private readonly limits: ZipLimits;
  private readonly lowerNames: Map<string, string>;

  private constructor(input: Buffer, entries: ZipEntry[], limits: ZipLimits) {
    this.input = input;
    this.limits = limits;
    // A name listed twice: the later entry wins (what extracting tools do).
    for (const entry of entries) if (!entry.name.endsWith('/')) this.files.set(entry.name, entry);
    // Sloppy archives: names in another case than the package says, or with Windows separators.
    this.lowerNames = new Map([...this.files.keys()].map((n) => [n.toLowerCase().replaceAll('\\', '/'), n]));
  }

  static async open(input: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<SafeZip> {
    const entries = readCentralDirectory(input, limits.maxEntries);
    let total = 0;
    for (const entry of entries) {
      if (entry.name.endsWith('/')) continue;
      if (entry.flags & 1) throw new ParseError('fileEncrypted', `ZIP entry ${entry.name} is encrypted`);
      total += entry.uncompressedSize;
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        throw new ParseError('fileTooComplex', `ZIP entry ${entry.name} declares ${entry.uncompressedSize} bytes`);
      }
      if (
        entry.uncompressedSize > limits.ratioFloorBytes &&
        entry.uncompressedSize > entry.compressedSize * limits.maxRatio
      ) {
        throw new ParseError('fileTooComplex', `ZIP entry ${entry.name} has a suspicious compression ratio`);
      }
    }
    if (total > limits.maxTotalBytes) throw new ParseError('fileTooComplex', `ZIP expands to ${total} bytes`);
    return new SafeZip(input, entries, limits);
  }

  names(): string[] {
    return [...this.files.keys()];
  }

  /**
   * Finds an entry by exact path, else case-insensitively (common in sloppy EPUBs), else under the
   * %-escaped form of its name: some tools store "a%20b.xhtml" literally, which a decoded href
   * ("a b.xhtml") does not match.
   */
  resolve(path: string): string | undefined {
    if (this.files.has(path)) return path;
    const lower = path.toLowerCase();
    const found = this.lowerNames.get(lower);
    if (found !== undefined) return found;
    try {
      return this.lowerNames.get(encodeURI(lower).toLowerCase());
    } catch {
      return undefined; // a lone surrogate cannot be escaped, and names no entry
    }
  }

  /** The uncompressed size the central directory declares for an entry. */
  declaredSize(path: string): number | undefined {
    const name = this.resolve(path);
    return name ? this.files.get(name)!.uncompressedSize : undefined;
  }

  /** The stored (compressed) size of an entry. */
  storedSize(path: string): number | undefined {
    const name = this.resolve(path);
    return name ? this.files.get(name)!.compressedSize : undefined;
  }

  has(path: string): boolean {
    return this.resolve(path) !== undefined;
  }

  /** The entry's bytes as stored (a view into the input), after checking its local header. */
  private stored(name: string): { entry: ZipEntry; content: Buffer } {
    const entry = this.files.get(name)!;
    const at = entry.localOffset;
    if (at + 30 > this.input.length || this.input.readUInt32LE(at) !== LOCAL) {
      throw new ParseError('fileCorrupted', `Cannot read ${name}: bad local header`);
    }
    const start = at + 30 + this.input.readUInt16LE(at + 26) + this.input.readUInt16LE(at + 28);
    const end = start + entry.compressedSize;
    if (end > this.input.length) throw new ParseError('fileCorrupted', `Cannot read ${name}: truncated`);
    if (entry.method !== 0 && entry.method !== 8) {
      throw new ParseError('fileCorrupted', `Cannot read ${name}: compression method ${entry.method}`);
    }
    return { entry, content: this.input.subarray(start, end) };
  }

  /** Inflates one entry, aborting as soon as it produces more than the entry cap (or `maxBytes`). */
  async read(path: string, maxBytes = this.limits.maxEntryBytes): Promise<Buffer | undefined> {
    const name = this.resolve(path);
    if (!name) return undefined;
    const max = Math.min(maxBytes, this.limits.maxEntryBytes);
    const { entry, content } = this.stored(name);
    if (entry.method === 0) {
      if (content.length > max) throw new ParseError('fileTooComplex', `ZIP entry ${name} is beyond ${max} bytes`);
      return content;
    }
    try {
      return await inflateRaw(content, { maxOutputLength: max });
    } catch (error) {
      throw inflateError(name, error, max);
    }
  }

  /**
   * Inflates one entry piece by piece, for parts too large to hold in memory at once (DOCX's
   * word/document.xml). `maxBytes` caps the inflated size (default: the entry cap).
   */
  async *chunks(path: string, maxBytes = this.limits.maxEntryBytes): AsyncGenerator<Buffer> {
    const name = this.resolve(path);
    if (!name) return;
    const { entry, content } = this.stored(name);
    const chunkSize = 64 * 1024;
    if (entry.method === 0) {
      if (content.length > maxBytes) throw inflateError(name, new RangeError('too large'), maxBytes);
      for (let i = 0; i < content.length; i += chunkSize) yield content.subarray(i, i + chunkSize);
      return;
    }
    // A read-ahead of several chunks lets zlib inflate on the thread pool while we tokenize (zlib
    // passes stream options on to its Transform; the typings only list zlib's own).
    const options: zlib.ZlibOptions & { readableHighWaterMark: number } = {
      chunkSize,
      readableHighWaterMark: 8 * chunkSize,
    };
    const inflater = zlib.createInflateRaw(options);
    inflater.end(content);
    let size = 0;
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) throw new RangeError('too large');
        yield chunk;
      }
    } catch (error) {
      throw error instanceof ParseError ? error : inflateError(name, error, maxBytes);
    } finally {
      inflater.destroy();
    }
  }

  async readText(path: string, maxBytes?: number): Promise<string | undefined> {
    const data = await this.read(path, maxBytes);
    if (!data) return undefined;
    return decodeXmlBytes(data);
  }
}

function inflateError(name: string, error: unknown, max: number): ParseError {
  if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
    return new ParseError('fileTooComplex', `ZIP entry ${name} inflates beyond ${max} bytes`, { cause: error });
  }
  return new ParseError('fileCorrupted', `Cannot inflate ${name}: ${(error as Error).message}`, { cause: error });
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
