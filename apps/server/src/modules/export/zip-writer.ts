import { promisify } from 'node:util';
import { crc32, deflateRaw } from 'node:zlib';

const deflate = promisify(deflateRaw);

/** Zip's 32-bit sizes and offsets: an export never comes near them (books are at most tens of MB). */
const ZIP32_LIMIT = 0xffff_ffff;
const STORED = 0;
const DEFLATED = 8;

interface CentralEntry {
  /**
   * The path as a string, encoded again for the central directory: a small Buffer kept here would be
   * a view of Node's shared 8 KB buffer pool, and keep alive the whole slab with the compressed
   * documents allocated around it (30 MB for a 30 MB book, measured in bench/export.ts).
   */
  path: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/**
 * A zip archive written entry by entry: each call returns the bytes to send now (local header and
 * data), and `finish` the central directory. Nothing but the directory's few bytes per entry is kept,
 * so an archive streams with the memory of its largest entry. Sizes and CRC sit in the local header
 * (no data descriptors), which every reader understands, and EPUB's `mimetype` entry needs.
 */
export class ZipWriter {
  private offset = 0;
  private readonly entries: CentralEntry[] = [];
  private readonly time: number;
  private readonly date: number;

  /** `modified` is written in UTC: the same moment makes the same bytes whatever the server's time zone. */
  constructor(modified: Date = new Date()) {
    this.time =
      (modified.getUTCHours() << 11) | (modified.getUTCMinutes() << 5) | Math.floor(modified.getUTCSeconds() / 2);
    this.date =
      ((Math.max(1980, modified.getUTCFullYear()) - 1980) << 9) |
      ((modified.getUTCMonth() + 1) << 5) |
      modified.getUTCDate();
  }

  /** An entry, deflated unless `store` (EPUB's mimetype; pictures, which are compressed already). */
  async entry(path: string, data: Buffer, options: { store?: boolean } = {}): Promise<Buffer[]> {
    const body = options.store ? data : await deflate(data, { level: 6 });
    // Deflating what does not shrink (a tiny file) only costs the reader time.
    const stored = options.store || body.length >= data.length;
    const payload = stored ? data : body;
    const name = Buffer.from(path, 'utf8');
    if (this.offset + payload.length + 30 + name.length > ZIP32_LIMIT) throw new Error('archive too large for zip32');
    const entry: CentralEntry = {
      path,
      method: stored ? STORED : DEFLATED,
      crc: crc32(data),
      compressedSize: payload.length,
      size: data.length,
      offset: this.offset,
    };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: 2.0
    header.writeUInt16LE(this.flags(name), 6);
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt16LE(this.time, 10);
    header.writeUInt16LE(this.date, 12);
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(0, 28); // no extra field (EPUB requires none on mimetype)
    this.entries.push(entry);
    this.offset += header.length + name.length + payload.length;
    return [header, name, payload];
  }

  /** The central directory and its end record: the archive is complete after these bytes. */
  finish(): Buffer {
    const parts: Buffer[] = [];
    let size = 0;
    for (const entry of this.entries) {
      const name = Buffer.from(entry.path, 'utf8');
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4); // made by: 2.0, MS-DOS attributes
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(this.flags(name), 8);
      header.writeUInt16LE(entry.method, 10);
      header.writeUInt16LE(this.time, 12);
      header.writeUInt16LE(this.date, 14);
      header.writeUInt32LE(entry.crc, 16);
      header.writeUInt32LE(entry.compressedSize, 20);
      header.writeUInt32LE(entry.size, 24);
      header.writeUInt16LE(name.length, 28);
      header.writeUInt32LE(entry.offset, 42);
      parts.push(header, name);
      size += header.length + name.length;
    }
    if (this.entries.length > 0xffff) throw new Error('too many entries for zip32');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(this.offset, 16);
    parts.push(end);
    return Buffer.concat(parts);
  }

  /** Bit 11: the name is UTF-8 (only set when it is not plain ASCII, which is every name Yidu makes). */
  private flags(name: Buffer): number {
    return name.some((byte) => byte > 0x7f) ? 0x0800 : 0;
  }
}
