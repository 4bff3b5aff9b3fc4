/**
 * Compound File Binary ([MS-CFB], "OLE2"): the container of Word 6-2003 .doc files and of encrypted
 * OOXML packages. Only what a reader of the root storage's streams needs: header, FAT (through the
 * DIFAT), mini FAT, mini stream and the root's directory entries.
 *
 * Every structure is hostile until checked: sector numbers are bounded by the file, chains are
 * followed at most once per sector (a loop is a corrupted file, not a hang) and stream sizes are
 * bounded by their chains. Anything impossible is ParseError('fileCorrupted').
 */
import { ParseError } from '../errors.ts';

const SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const HEADER_DIFAT_ENTRIES = 109;
/** Sector numbers at and above this are markers (free, end of chain, FAT, DIFAT). */
const MAX_REGULAR_SECTOR = 0xfffffffa;
const END_OF_CHAIN = 0xfffffffe;
const DIRECTORY_ENTRY_BYTES = 128;
const STREAM_OBJECT = 2;
const ROOT_OBJECT = 5;
const NO_STREAM = 0xffffffff;

export function isCompoundFile(input: Buffer): boolean {
  return input.length >= 512 && input.subarray(0, 8).equals(SIGNATURE);
}

function corrupt(message: string): ParseError {
  return new ParseError('fileCorrupted', `Not a readable compound file: ${message}`);
}

interface DirectoryEntry {
  name: string;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

export class CompoundFile {
  private readonly input: Buffer;
  private readonly sectorSize: number;
  private readonly miniSectorSize: number;
  private readonly miniCutoff: number;
  private readonly fat: Uint32Array;
  private readonly entries: DirectoryEntry[];
  private readonly rootStreams = new Map<string, DirectoryEntry>();
  private miniFat?: Uint32Array;
  private miniStream?: Buffer;
  private readonly miniFatStart: number;

  constructor(input: Buffer) {
    if (!isCompoundFile(input)) throw corrupt('no compound file signature');
    this.input = input;
    const sectorShift = input.readUInt16LE(0x1e);
    const miniShift = input.readUInt16LE(0x20);
    if (sectorShift !== 9 && sectorShift !== 12) throw corrupt(`sector shift ${sectorShift}`);
    if (miniShift !== 6) throw corrupt(`mini sector shift ${miniShift}`);
    this.sectorSize = 1 << sectorShift;
    this.miniSectorSize = 1 << miniShift;
    this.miniCutoff = input.readUInt32LE(0x38) || 4096;
    this.miniFatStart = input.readUInt32LE(0x3c);
    this.fat = this.readFat(input.readUInt32LE(0x2c), input.readUInt32LE(0x44), input.readUInt32LE(0x48));
    this.entries = this.readDirectory(input.readUInt32LE(0x30));
    const root = this.entries[0];
    if (!root || root.type !== ROOT_OBJECT) throw corrupt('no root entry');
    this.collectRootStreams(root.child);
  }

  /** Sectors the file can hold: a sector number beyond them points outside the file. */
  private get sectorCount(): number {
    return Math.ceil(this.input.length / this.sectorSize) - 1;
  }

  private sector(n: number): Buffer {
    if (n >= this.sectorCount) throw corrupt(`sector ${n} is beyond the end of the file`);
    const start = (n + 1) * this.sectorSize;
    // A file cut short inside its last sector keeps what it has.
    return this.input.subarray(start, Math.min(start + this.sectorSize, this.input.length));
  }

  private readFat(fatSectors: number, difatStart: number, difatSectors: number): Uint32Array {
    if (fatSectors > this.sectorCount) throw corrupt(`${fatSectors} FAT sectors in a smaller file`);
    const fatSectorIds: number[] = [];
    for (let i = 0; i < HEADER_DIFAT_ENTRIES && fatSectorIds.length < fatSectors; i++) {
      fatSectorIds.push(this.input.readUInt32LE(0x4c + i * 4));
    }
    // The rest of the DIFAT is a chain of sectors, each ending with the next one's number.
    const perDifatSector = this.sectorSize / 4 - 1;
    let next = difatStart;
    const seen = new Set<number>();
    for (let d = 0; d < difatSectors && fatSectorIds.length < fatSectors; d++) {
      if (next > MAX_REGULAR_SECTOR || seen.has(next)) throw corrupt('broken DIFAT chain');
      seen.add(next);
      const data = this.sector(next);
      for (let i = 0; i < perDifatSector && fatSectorIds.length < fatSectors; i++) {
        fatSectorIds.push(data.readUInt32LE(i * 4));
      }
      next = data.readUInt32LE(perDifatSector * 4);
    }
    if (fatSectorIds.length < fatSectors) throw corrupt('the DIFAT lists too few FAT sectors');
    const perSector = this.sectorSize / 4;
    const fat = new Uint32Array(fatSectors * perSector).fill(NO_STREAM);
    fatSectorIds.forEach((id, i) => {
      if (id > MAX_REGULAR_SECTOR) throw corrupt('a FAT sector number is a marker');
      const data = this.sector(id);
      for (let j = 0; j + 4 <= data.length; j += 4) fat[i * perSector + j / 4] = data.readUInt32LE(j);
    });
    return fat;
  }

  /** The sectors of a chain, in order; a loop or a sector outside the table is corruption. */
  private chain(start: number, table: Uint32Array, what: string): number[] {
    const sectors: number[] = [];
    const seen = new Uint8Array(table.length);
    for (let n = start; n !== END_OF_CHAIN; n = table[n]!) {
      // Free or other markers end a chain early in some writers' files: take it as the end.
      if (n > MAX_REGULAR_SECTOR) break;
      if (n >= table.length) throw corrupt(`${what} chain leaves the allocation table`);
      if (seen[n]) throw corrupt(`${what} chain loops`);
      seen[n] = 1;
      sectors.push(n);
    }
    return sectors;
  }

  private readChain(start: number, size: number | undefined, what: string): Buffer {
    const sectors = this.chain(start, this.fat, what);
    const available = sectors.length * this.sectorSize;
    const length = Math.min(size ?? available, available);
    const out = Buffer.alloc(length);
    let at = 0;
    for (const n of sectors) {
      if (at >= length) break;
      const data = this.sector(n);
      at += data.copy(out, at, 0, Math.min(data.length, length - at));
    }
    return at < length ? out.subarray(0, at) : out;
  }

  private readDirectory(start: number): DirectoryEntry[] {
    const data = this.readChain(start, undefined, 'directory');
    const entries: DirectoryEntry[] = [];
    for (let at = 0; at + DIRECTORY_ENTRY_BYTES <= data.length; at += DIRECTORY_ENTRY_BYTES) {
      const nameBytes = Math.min(data.readUInt16LE(at + 64), 64);
      const name = data
        .subarray(at, at + Math.max(0, nameBytes - 2))
        .toString('utf16le')
        .replace(/\0+$/, '');
      entries.push({
        name,
        type: data[at + 66]!,
        left: data.readUInt32LE(at + 68),
        right: data.readUInt32LE(at + 72),
        child: data.readUInt32LE(at + 76),
        start: data.readUInt32LE(at + 116),
        // Version 3 files may leave garbage in the high half of the size: only the low half counts.
        size: data.readUInt32LE(at + 120),
      });
    }
    return entries;
  }

  /** The root's children form a tree of siblings (left/right); each is visited once. */
  private collectRootStreams(first: number): void {
    const pending = [first];
    const seen = new Set<number>();
    while (pending.length) {
      const id = pending.pop()!;
      if (id === NO_STREAM || id >= this.entries.length || seen.has(id)) continue;
      seen.add(id);
      const entry = this.entries[id]!;
      if (entry.type === STREAM_OBJECT && !this.rootStreams.has(entry.name)) this.rootStreams.set(entry.name, entry);
      pending.push(entry.left, entry.right);
    }
  }

  /** Names of the streams directly in the root storage. */
  streamNames(): string[] {
    return [...this.rootStreams.keys()];
  }

  has(name: string): boolean {
    return this.rootStreams.has(name);
  }

  /** A root-level stream's bytes, or undefined when there is no such stream. */
  stream(name: string): Buffer | undefined {
    const entry = this.rootStreams.get(name);
    if (!entry) return undefined;
    if (entry.size < this.miniCutoff) return this.readMini(entry);
    return this.readChain(entry.start, entry.size, name);
  }

  private readMini(entry: DirectoryEntry): Buffer {
    if (entry.size === 0) return Buffer.alloc(0);
    if (!this.miniFat || !this.miniStream) {
      const root = this.entries[0]!;
      const table = this.readChain(this.miniFatStart, undefined, 'mini FAT');
      const miniFat = new Uint32Array(table.length / 4);
      for (let i = 0; i < miniFat.length; i++) miniFat[i] = table.readUInt32LE(i * 4);
      this.miniFat = miniFat;
      this.miniStream = this.readChain(root.start, root.size, 'mini stream');
    }
    const sectors = this.chain(entry.start, this.miniFat, entry.name);
    const out = Buffer.alloc(Math.min(entry.size, sectors.length * this.miniSectorSize));
    let at = 0;
    for (const n of sectors) {
      if (at >= out.length) break;
      const from = n * this.miniSectorSize;
      if (from >= this.miniStream.length) throw corrupt(`${entry.name} lies beyond the mini stream`);
      at += this.miniStream.copy(out, at, from, Math.min(from + this.miniSectorSize, this.miniStream.length));
    }
    return at < out.length ? out.subarray(0, at) : out;
  }
}
