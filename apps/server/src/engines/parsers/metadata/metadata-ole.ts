/**
 * The title, subject and author of a Word 97-2003 document: its "\u0005SummaryInformation" property
 * set, found through the OLE compound file's directory. Only the sectors on the way are read, and every
 * chain is bounded by the number of sectors the file can hold, so a looping or lying table ends.
 */
import type { RawMetadata } from './metadata-clean.ts';

const MAGIC = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const END_OF_CHAIN = 0xfffffffe;
const MAX_STREAM = 256 * 1024;
/** Directories and mini streams of real documents are far smaller; a lying header gets no more. */
const MAX_TABLE = 4 * 1024 * 1024;

/** Windows code pages of the property set → WHATWG labels. */
function decoderFor(codePage: number): TextDecoder {
  const labels: Record<number, string> = {
    1200: 'utf-16le',
    65001: 'utf-8',
    936: 'gbk',
    950: 'big5',
    932: 'shift_jis',
    949: 'euc-kr',
    874: 'windows-874',
    10000: 'macintosh',
  };
  const label = labels[codePage] ?? (codePage >= 1250 && codePage <= 1258 ? `windows-${codePage}` : 'windows-1252');
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('windows-1252');
  }
}

class CompoundFile {
  private readonly data: Buffer;
  private readonly sectorSize: number;
  private readonly sectorCount: number;
  private readonly fat: number[] = [];

  constructor(data: Buffer) {
    if (data.length < 512 || !data.subarray(0, 8).equals(MAGIC)) throw new RangeError('not an OLE file');
    this.data = data;
    const shift = data.readUInt16LE(0x1e);
    if (shift !== 9 && shift !== 12) throw new RangeError('bad sector size');
    this.sectorSize = 1 << shift;
    this.sectorCount = Math.floor((data.length - this.sectorSize) / this.sectorSize) + 1;
    // The FAT's own sectors: 109 listed in the header, the rest in a chain of DIFAT sectors.
    const fatSectors: number[] = [];
    // No more FAT sectors than it takes to map every sector of the file, whatever the header says.
    const fatCount = Math.min(data.readUInt32LE(0x2c), Math.ceil(this.sectorCount / (this.sectorSize / 4)) + 1);
    for (let i = 0; i < 109 && fatSectors.length < fatCount; i++) fatSectors.push(data.readUInt32LE(0x4c + i * 4));
    let difat = data.readUInt32LE(0x44);
    for (let hops = 0; fatSectors.length < fatCount && difat < this.sectorCount && hops < this.sectorCount; hops++) {
      const at = this.offset(difat);
      const per = this.sectorSize / 4 - 1;
      for (let i = 0; i < per && fatSectors.length < fatCount; i++) fatSectors.push(data.readUInt32LE(at + i * 4));
      difat = data.readUInt32LE(at + per * 4);
    }
    for (const sector of fatSectors) {
      if (sector >= this.sectorCount) break;
      const at = this.offset(sector);
      for (let i = 0; i < this.sectorSize / 4; i++) this.fat.push(data.readUInt32LE(at + i * 4));
    }
  }

  private offset(sector: number): number {
    const at = (sector + 1) * this.sectorSize;
    if (at + this.sectorSize > this.data.length) throw new RangeError('sector beyond the end');
    return at;
  }

  /** The bytes of a FAT chain, at most `max`. */
  chain(
    start: number,
    max: number,
    table = this.fat,
    unit = this.sectorSize,
    read = (s: number) => this.offset(s),
    source = this.data,
  ): Buffer {
    const parts: Buffer[] = [];
    let size = 0;
    for (let sector = start, hops = 0; sector !== END_OF_CHAIN && size < max; hops++) {
      if (hops > table.length || sector >= table.length) throw new RangeError('broken chain');
      const at = read(sector);
      parts.push(source.subarray(at, at + unit));
      size += unit;
      sector = table[sector]!;
    }
    return Buffer.concat(parts).subarray(0, max);
  }

  /** A stream by name, from the root storage's entries. */
  stream(name: string): Buffer | undefined {
    const directory = this.chain(this.data.readUInt32LE(0x30), MAX_TABLE);
    const entries = [];
    for (let at = 0; at + 128 <= directory.length; at += 128) {
      const nameLength = Math.min(64, directory.readUInt16LE(at + 0x40));
      entries.push({
        name: directory.toString('utf16le', at, at + Math.max(0, nameLength - 2)),
        type: directory[at + 0x42],
        start: directory.readUInt32LE(at + 0x74),
        size: directory.readUInt32LE(at + 0x78),
      });
    }
    const entry = entries.find((e) => e.type === 2 && e.name === name);
    const root = entries[0];
    if (!entry || !root || entry.size > MAX_STREAM) return undefined;
    if (entry.size >= this.data.readUInt32LE(0x38)) return this.chain(entry.start, entry.size);
    // Small streams live in the mini stream (the root's chain), in 64-byte sectors with their own table.
    const miniUnit = 1 << this.data.readUInt16LE(0x20);
    const miniStream = this.chain(root.start, Math.min(root.size, MAX_TABLE));
    const miniFatBytes = this.chain(
      this.data.readUInt32LE(0x3c),
      Math.min(this.data.readUInt32LE(0x40) * this.sectorSize, MAX_TABLE),
    );
    const miniFat: number[] = [];
    for (let i = 0; i + 4 <= miniFatBytes.length; i += 4) miniFat.push(miniFatBytes.readUInt32LE(i));
    return this.chain(
      entry.start,
      entry.size,
      miniFat,
      miniUnit,
      (s) => {
        if ((s + 1) * miniUnit > miniStream.length) throw new RangeError('mini sector beyond the mini stream');
        return s * miniUnit;
      },
      miniStream,
    );
  }
}

/** The string properties of the first section of a property set, by id. */
function properties(stream: Buffer): Map<number, string> {
  const out = new Map<number, string>();
  if (stream.length < 48 || stream.readUInt16LE(0) !== 0xfffe) return out;
  const section = stream.readUInt32LE(44);
  if (section + 8 > stream.length) return out;
  const count = Math.min(stream.readUInt32LE(section + 4), 256);
  const offsets = new Map<number, number>();
  for (let i = 0; i < count && section + 16 + i * 8 <= stream.length; i++) {
    offsets.set(stream.readUInt32LE(section + 8 + i * 8), section + stream.readUInt32LE(section + 12 + i * 8));
  }
  const codePageAt = offsets.get(1);
  const codePage =
    codePageAt !== undefined && codePageAt + 6 <= stream.length ? stream.readUInt16LE(codePageAt + 4) : 1252;
  const decoder = decoderFor(codePage);
  for (const [id, at] of offsets) {
    if (at + 8 > stream.length) continue;
    const type = stream.readUInt16LE(at);
    const length = stream.readUInt32LE(at + 4);
    if (type === 0x1e && at + 8 + length <= stream.length) {
      out.set(id, decoder.decode(stream.subarray(at + 8, at + 8 + length)).replace(/\0+$/, ''));
    } else if (type === 0x1f && at + 8 + length * 2 <= stream.length) {
      out.set(id, stream.toString('utf16le', at + 8, at + 8 + length * 2).replace(/\0+$/, ''));
    }
  }
  return out;
}

/** PIDSI_TITLE, PIDSI_SUBJECT, PIDSI_AUTHOR; the template and the program are producers. */
export function readOleMetadata(data: Buffer): RawMetadata {
  const summary = new CompoundFile(data).stream('\u0005SummaryInformation');
  if (!summary) return {};
  const props = properties(summary);
  return {
    titles: [props.get(2)],
    descriptions: [props.get(3)],
    authors: [props.get(4)],
    producers: [props.get(7), props.get(18)],
  };
}
