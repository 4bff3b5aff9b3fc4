/**
 * A PDF's own title, author and subject (the Info dictionary and the catalog's XMP packet), read at
 * upload time without pdf.js: only the trailer, the cross-reference sections and the three or four
 * objects needed are looked at, so that a 30 MB book answers in milliseconds and a hostile one cannot
 * make the API work for long. Every read is bounded (bytes scanned per object, nesting, inflated
 * sizes, trailer chain length); anything unexpected gives up on that part and returns what it has.
 *
 * Handles classic xref tables, xref streams (PNG predictors), objects inside object streams (where
 * xdvipdfmx and Word put the Info dictionary) and the standard security handler with an empty user
 * password (revisions 2-4: RC4 and AES-128), which is how "protected" PDFs that open without a
 * password are written. Other encryption leaves the strings unread.
 */
import { constants, inflateSync } from 'node:zlib';
import type { RawMetadata } from './metadata-clean.ts';
import { standardDecryptor, type Decryptor } from './metadata-pdf-crypt.ts';
import {
  asDict,
  decodePdfText,
  asName,
  asRef,
  asString,
  isDigit,
  MAX_ITEMS,
  Parser,
  type PdfDict,
  type PdfKeyword,
  type PdfValue,
} from './metadata-pdf-syntax.ts';
import { decodePdfXml, readXmp } from './metadata-xmp.ts';

const MAX_INFLATED = 4 * 1024 * 1024;
const MAX_XMP = 1024 * 1024;
const MAX_SECTIONS = 16;

/** An object as found: its value, its stream's raw bytes, and whether its strings are encrypted. */
interface PdfObject {
  num: number;
  gen: number;
  value: PdfValue;
  stream?: Buffer;
  /** Objects inside an object stream were decrypted with it: their strings are in clear. */
  inObjectStream: boolean;
}

type XrefEntry = { type: 0 } | { type: 1; offset: number; gen: number } | { type: 2; stream: number; index: number };

interface XrefSection {
  trailer: PdfDict;
  lookup(num: number): XrefEntry | undefined;
}

/** PNG predictors (2 = TIFF is not used by xref streams): undoes the per-row filter in place. */
function unpredict(data: Buffer, columns: number): Buffer {
  const rowLength = columns + 1;
  const rows = Math.floor(data.length / rowLength);
  const out = Buffer.alloc(rows * columns);
  for (let r = 0; r < rows; r++) {
    const filter = data[r * rowLength]!;
    for (let c = 0; c < columns; c++) {
      const raw = data[r * rowLength + 1 + c]!;
      const left = c > 0 ? out[r * columns + c - 1]! : 0;
      const up = r > 0 ? out[(r - 1) * columns + c]! : 0;
      const upLeft = r > 0 && c > 0 ? out[(r - 1) * columns + c - 1]! : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      out[r * columns + c] = (raw + predicted) & 0xff;
    }
  }
  return out;
}

class PdfFile {
  private readonly data: Buffer;
  private readonly sections: XrefSection[] = [];
  private decryptor: Decryptor | undefined;
  private encrypted = false;
  /** EncryptMetadata false: the XMP stream is in clear even when we cannot decrypt the rest. */
  private metadataInClear = false;
  private readonly objectStreams = new Map<number, { offsets: Map<number, number>; body: Buffer } | null>();

  constructor(data: Buffer) {
    this.data = data;
    this.readSections();
    const encrypt = this.trailerValue('Encrypt');
    if (encrypt !== undefined) {
      this.encrypted = true;
      const ref = asRef(encrypt);
      const dict = asDict(ref ? this.object(ref.num)?.value : encrypt);
      const ids = this.trailerValue('ID');
      if (dict) {
        this.metadataInClear = dict.get('EncryptMetadata') === false;
        this.decryptor = standardDecryptor(dict, Array.isArray(ids) ? asString(ids[0]) : undefined);
      }
    }
  }

  /** The newest trailer's value for `key` (older trailers of an incrementally updated file as fallback). */
  trailerValue(key: string): PdfValue | undefined {
    for (const section of this.sections) if (section.trailer.has(key)) return section.trailer.get(key);
    return undefined;
  }

  private readSections(): void {
    const tail = this.data.subarray(Math.max(0, this.data.length - 64 * 1024));
    const at = tail.lastIndexOf('startxref');
    let offset: number | undefined;
    if (at !== -1) {
      const match = /^startxref\s+(\d+)/.exec(tail.toString('latin1', at, at + 40));
      if (match) offset = Number(match[1]);
    }
    const seen = new Set<number>();
    while (offset !== undefined && this.sections.length < MAX_SECTIONS && !seen.has(offset)) {
      seen.add(offset);
      const section = this.sectionAt(offset);
      if (!section) break;
      this.sections.push(section);
      // A hybrid file's classic trailer points at a stream with the entries of its compressed objects.
      const hybrid = section.trailer.get('XRefStm');
      if (typeof hybrid === 'number' && !seen.has(hybrid)) {
        seen.add(hybrid);
        const stream = this.sectionAt(hybrid);
        if (stream) this.sections.push(stream);
      }
      const prev = section.trailer.get('Prev');
      offset = typeof prev === 'number' ? prev : undefined;
    }
    if (this.sections.length === 0) {
      // No usable startxref (a damaged file): the last trailer keyword, if any; objects are then found by search.
      const trailer = this.data.lastIndexOf('trailer');
      if (trailer !== -1) {
        try {
          const dict = asDict(new Parser(this.data, trailer + 7).value());
          if (dict) this.sections.push({ trailer: dict, lookup: () => undefined });
        } catch {
          // Nothing to go on.
        }
      }
    }
  }

  private sectionAt(offset: number): XrefSection | undefined {
    if (offset < 0 || offset >= this.data.length) return undefined;
    try {
      if (this.data.toString('latin1', offset, offset + 4) === 'xref') return this.classicSection(offset);
      const object = this.objectAt(offset);
      const dict = asDict(object?.value);
      if (!object?.stream || !dict || asName(dict.get('Type')) !== 'XRef') return undefined;
      return this.streamSection(dict, object.stream);
    } catch {
      return undefined;
    }
  }

  private classicSection(offset: number): XrefSection | undefined {
    const trailerAt = this.data.indexOf('trailer', offset);
    if (trailerAt === -1) return undefined;
    const trailer = asDict(new Parser(this.data, trailerAt + 7).value());
    if (!trailer) return undefined;
    const table = this.data.toString('latin1', offset + 4, trailerAt);
    return {
      trailer,
      lookup: (num) => {
        // Subsections "first count" followed by 20-byte entries "oooooooooo ggggg n".
        const header = /(\d+)\s+(\d+)\s*[\r\n]+/g;
        let match: RegExpExecArray | null;
        let guard = 0;
        while ((match = header.exec(table)) !== null && guard++ < 10_000) {
          const first = Number(match[1]);
          const count = Number(match[2]);
          const entriesAt = match.index + match[0].length;
          if (num >= first && num < first + count) {
            const entry = /^(\d{10})\s(\d{5})\s([nf])/.exec(
              table.slice(entriesAt + (num - first) * 20, entriesAt + (num - first) * 20 + 20),
            );
            if (!entry) return undefined;
            return entry[3] === 'f' ? { type: 0 } : { type: 1, offset: Number(entry[1]), gen: Number(entry[2]) };
          }
          header.lastIndex = entriesAt + count * 20;
        }
        return undefined;
      },
    };
  }

  private streamSection(dict: PdfDict, raw: Buffer): XrefSection | undefined {
    const body = this.decodeStream(dict, raw, undefined);
    const widths = dict.get('W');
    if (
      !body ||
      !Array.isArray(widths) ||
      widths.length !== 3 ||
      !widths.every((w) => typeof w === 'number' && w >= 0 && w <= 8)
    )
      return undefined;
    const [w1, w2, w3] = widths as number[];
    const rowLength = w1! + w2! + w3!;
    const size = Number(dict.get('Size') ?? 0);
    const index = dict.get('Index');
    const ranges = Array.isArray(index) ? (index.filter((n) => typeof n === 'number') as number[]) : [0, size];
    const field = (at: number, width: number, fallback: number) => {
      if (width === 0) return fallback;
      let value = 0;
      for (let i = 0; i < width; i++) value = value * 256 + body[at + i]!;
      return value;
    };
    return {
      trailer: dict,
      lookup: (num) => {
        let row = 0;
        for (let i = 0; i + 1 < ranges.length; i += 2) {
          const [first, count] = [ranges[i]!, ranges[i + 1]!];
          if (num >= first && num < first + count) {
            const at = (row + num - first) * rowLength;
            if (at + rowLength > body.length) return undefined;
            const type = field(at, w1!, 1);
            const two = field(at + w1!, w2!, 0);
            const three = field(at + w1! + w2!, w3!, 0);
            if (type === 1) return { type: 1, offset: two, gen: three };
            if (type === 2) return { type: 2, stream: two, index: three };
            return { type: 0 };
          }
          row += count;
        }
        return undefined;
      },
    };
  }

  /** The object "num gen obj" at `offset`, with its stream's raw bytes. */
  private objectAt(offset: number, expected?: number): PdfObject | undefined {
    const parser = new Parser(this.data, offset);
    const num = parser.value();
    const gen = parser.value();
    const keyword = parser.value();
    if (typeof num !== 'number' || typeof gen !== 'number' || (keyword as PdfKeyword)?.word !== 'obj') return undefined;
    if (expected !== undefined && num !== expected) return undefined;
    const value = parser.value();
    const object: PdfObject = { num, gen, value, inObjectStream: false };
    const dict = asDict(value);
    if (dict) {
      parser.skipWhite();
      if (this.data.toString('latin1', parser.pos, parser.pos + 6) === 'stream') {
        let start = parser.pos + 6;
        if (this.data[start] === 13) start++;
        if (this.data[start] === 10) start++;
        let length = dict.get('Length');
        const lengthRef = asRef(length);
        if (lengthRef && lengthRef.num !== num) length = this.object(lengthRef.num)?.value;
        let end = typeof length === 'number' && length >= 0 ? start + length : -1;
        if (end < 0 || end > this.data.length || this.data.indexOf('endstream', end) - end > 16) {
          end = this.data.indexOf('endstream', start);
        }
        if (end !== -1) object.stream = this.data.subarray(start, end);
      }
    }
    return object;
  }

  /** Object `num` by the cross-reference sections, else by searching for "num 0 obj". */
  object(num: number, depth = 0): PdfObject | undefined {
    if (depth > 2) return undefined;
    for (const section of this.sections) {
      const entry = section.lookup(num);
      if (!entry) continue;
      if (entry.type === 0) return undefined;
      if (entry.type === 2) return this.fromObjectStream(num, entry.stream, depth);
      try {
        const found = this.objectAt(entry.offset, num);
        if (found) return found;
      } catch {
        // A wrong offset: search below.
      }
      break;
    }
    return this.search(num);
  }

  private search(num: number): PdfObject | undefined {
    const needle = Buffer.from(` ${num} 0 obj`.slice(1));
    let from = this.data.length;
    for (let tries = 0; tries < 64; tries++) {
      const at = this.data.lastIndexOf(needle, from);
      if (at === -1) return undefined;
      if (at === 0 || !isDigit(this.data[at - 1])) {
        try {
          return this.objectAt(at, num);
        } catch {
          return undefined;
        }
      }
      from = at - 1;
    }
    return undefined;
  }

  private fromObjectStream(num: number, streamNum: number, depth: number): PdfObject | undefined {
    let stream = this.objectStreams.get(streamNum);
    if (stream === undefined) {
      stream = null;
      const container = this.object(streamNum, depth + 1);
      const dict = asDict(container?.value);
      if (container?.stream && dict && asName(dict.get('Type')) === 'ObjStm') {
        const body = this.decodeStream(dict, container.stream, container);
        const first = Number(dict.get('First'));
        const count = Math.min(Number(dict.get('N')), MAX_ITEMS * 4);
        if (body && Number.isFinite(first) && Number.isFinite(count)) {
          const numbers = body.toString('latin1', 0, Math.min(first, body.length)).trim().split(/\s+/).map(Number);
          const offsets = new Map<number, number>();
          for (let i = 0; i + 1 < numbers.length && i < count * 2; i += 2)
            offsets.set(numbers[i]!, first + numbers[i + 1]!);
          stream = { offsets, body };
        }
      }
      this.objectStreams.set(streamNum, stream);
    }
    const offset = stream?.offsets.get(num);
    if (!stream || offset === undefined) return undefined;
    try {
      return { num, gen: 0, value: new Parser(stream.body, offset).value(), inObjectStream: true };
    } catch {
      return undefined;
    }
  }

  /** A stream's data: decrypted (unless it is an xref stream), inflated, predictors undone; bounded. */
  decodeStream(dict: PdfDict, raw: Buffer, owner: PdfObject | undefined): Buffer | undefined {
    if (raw.length > MAX_INFLATED) return undefined;
    let data = raw;
    if (owner && this.encrypted) {
      if (!this.decryptor) return undefined;
      data = this.decryptor.decrypt(data, owner.num, owner.gen);
    }
    const filter = dict.get('Filter');
    const filters = Array.isArray(filter) ? filter.map(asName) : filter === undefined ? [] : [asName(filter)];
    if (filters.length > 1 || (filters[0] !== undefined && filters[0] !== 'FlateDecode')) return undefined;
    if (filters[0] === 'FlateDecode') {
      try {
        // Z_SYNC_FLUSH keeps what a stream cut short gives instead of failing on it.
        data = inflateSync(data, { maxOutputLength: MAX_INFLATED, finishFlush: constants.Z_SYNC_FLUSH });
      } catch {
        return undefined;
      }
      const parms = asDict(dict.get('DecodeParms'));
      const predictor = Number(parms?.get('Predictor') ?? 1);
      if (predictor >= 10) data = unpredict(data, Math.max(1, Math.min(64, Number(parms?.get('Columns') ?? 1))));
    }
    return data;
  }

  /** A text string of an object, decrypted when the object's strings are encrypted. */
  text(value: PdfValue | undefined, owner: PdfObject): string | undefined {
    let holder = owner;
    const ref = asRef(value);
    if (ref) {
      const target = this.object(ref.num);
      if (!target) return undefined;
      holder = target;
      value = target.value;
    }
    let bytes = asString(value);
    if (!bytes) return undefined;
    if (this.encrypted && !holder.inObjectStream) {
      if (!this.decryptor) return undefined;
      bytes = this.decryptor.decrypt(bytes, holder.num, holder.gen);
    }
    return decodePdfText(bytes);
  }

  /** The catalog's XMP packet as text, when it can be read. */
  xmp(): string | undefined {
    const root = asRef(this.trailerValue('Root'));
    const catalog = root ? this.object(root.num) : undefined;
    const ref = asRef(asDict(catalog?.value)?.get('Metadata'));
    const metadata = ref ? this.object(ref.num) : undefined;
    const dict = asDict(metadata?.value);
    if (!metadata?.stream || !dict) return undefined;
    const data = this.decodeStream(dict, metadata.stream, this.metadataInClear ? undefined : metadata);
    if (!data || data.length > MAX_XMP) return undefined;
    return decodePdfXml(data);
  }
}

/** What a PDF says about itself; the Info dictionary before XMP, each kept only if acceptable. */
export function readPdfMetadata(data: Buffer): RawMetadata {
  const pdf = new PdfFile(data);
  const raw: Required<RawMetadata> = { titles: [], authors: [], descriptions: [], producers: [] };
  const infoRef = asRef(pdf.trailerValue('Info'));
  const info = infoRef ? pdf.object(infoRef.num) : undefined;
  const infoDict = asDict(info?.value);
  if (info && infoDict) {
    const field = (key: string) => pdf.text(infoDict.get(key), info);
    raw.titles.push(field('Title'));
    raw.authors.push(field('Author'));
    raw.descriptions.push(field('Subject'));
    raw.producers.push(field('Creator'), field('Producer'));
  }
  let xml: string | undefined;
  try {
    xml = pdf.xmp();
  } catch {
    xml = undefined;
  }
  if (xml) {
    const xmp = readXmp(xml);
    raw.titles.push(...xmp.titles!);
    raw.authors.push(...xmp.authors!);
    raw.descriptions.push(...xmp.descriptions!);
    raw.producers.push(...xmp.producers!);
  }
  return raw;
}
