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
import { createDecipheriv, createHash } from 'node:crypto';
import { constants, inflateSync } from 'node:zlib';
import type { RawMetadata } from './metadata-clean.ts';

const MAX_INFLATED = 4 * 1024 * 1024;
const MAX_XMP = 1024 * 1024;
const MAX_SCAN = 256 * 1024;
const MAX_DEPTH = 12;
const MAX_ITEMS = 4096;
const MAX_SECTIONS = 16;

interface PdfName {
  kind: 'name';
  name: string;
}
interface PdfString {
  kind: 'string';
  bytes: Buffer;
}
interface PdfRef {
  kind: 'ref';
  num: number;
  gen: number;
}
interface PdfKeyword {
  kind: 'keyword';
  word: string;
}
type PdfDict = Map<string, PdfValue>;
type PdfValue = number | boolean | null | PdfName | PdfString | PdfRef | PdfKeyword | PdfValue[] | PdfDict;

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

const isWhite = (c: number | undefined) => c === 0 || c === 9 || c === 10 || c === 12 || c === 13 || c === 32;
const isDelimiter = (c: number | undefined) =>
  c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x2f || c === 0x25;
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

const asDict = (v: PdfValue | undefined): PdfDict | undefined => (v instanceof Map ? v : undefined);
const asRef = (v: PdfValue | undefined): PdfRef | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && v.kind === 'ref' ? v : undefined;
const asName = (v: PdfValue | undefined): string | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && v.kind === 'name' ? v.name : undefined;
const asString = (v: PdfValue | undefined): Buffer | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && v.kind === 'string' ? v.bytes : undefined;

/** A tokenizer-parser of PDF objects over a byte range; never reads past `limit`. */
class Parser {
  pos: number;
  private readonly data: Buffer;
  private readonly limit: number;
  constructor(data: Buffer, pos: number, limit = Math.min(data.length, pos + MAX_SCAN)) {
    this.data = data;
    this.pos = pos;
    this.limit = limit;
  }

  skipWhite(): void {
    while (this.pos < this.limit) {
      const c = this.data[this.pos];
      if (isWhite(c)) this.pos++;
      else if (c === 0x25) {
        while (this.pos < this.limit && this.data[this.pos] !== 10 && this.data[this.pos] !== 13) this.pos++;
      } else break;
    }
  }

  value(depth = 0): PdfValue {
    this.skipWhite();
    if (this.pos >= this.limit || depth > MAX_DEPTH) throw new RangeError('PDF object too deep or cut');
    const c = this.data[this.pos]!;
    if (c === 0x3c && this.data[this.pos + 1] === 0x3c) return this.dict(depth);
    if (c === 0x3c) return this.hexString();
    if (c === 0x28) return this.literalString();
    if (c === 0x5b) {
      this.pos++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skipWhite();
        if (this.data[this.pos] === 0x5d) {
          this.pos++;
          return items;
        }
        if (items.length >= MAX_ITEMS) throw new RangeError('PDF array too long');
        items.push(this.value(depth + 1));
      }
    }
    if (c === 0x2f) return { kind: 'name', name: this.word(this.pos + 1).replace(/#([0-9a-f]{2})/gi, hexChar) };
    const word = this.word(this.pos);
    if (word === '') {
      this.pos++;
      return { kind: 'keyword', word: String.fromCharCode(c) };
    }
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) {
      // "12 0 R" is a reference; look ahead without consuming anything else.
      if (/^\d+$/.test(word)) {
        const saved = this.pos;
        this.skipWhite();
        const gen = this.word(this.pos);
        if (/^\d+$/.test(gen)) {
          this.skipWhite();
          if (this.word(this.pos) === 'R') return { kind: 'ref', num: Number(word), gen: Number(gen) };
        }
        this.pos = saved;
      }
      return Number(word);
    }
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    return { kind: 'keyword', word };
  }

  /** Reads a run of regular characters starting at `from` and moves past it. */
  private word(from: number): string {
    let end = from;
    while (end < this.limit && !isWhite(this.data[end]) && !isDelimiter(this.data[end])) end++;
    this.pos = end;
    return this.data.toString('latin1', from, end);
  }

  private dict(depth: number): PdfDict {
    this.pos += 2;
    const dict: PdfDict = new Map();
    for (;;) {
      this.skipWhite();
      if (this.data[this.pos] === 0x3e && this.data[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return dict;
      }
      if (dict.size >= MAX_ITEMS) throw new RangeError('PDF dictionary too large');
      const key = asName(this.value(depth + 1));
      if (key === undefined) throw new RangeError('PDF dictionary key is not a name');
      dict.set(key, this.value(depth + 1));
    }
  }

  private hexString(): PdfString {
    const end = this.data.indexOf(0x3e, this.pos);
    if (end === -1 || end >= this.limit) throw new RangeError('PDF hex string cut');
    const hex = this.data.toString('latin1', this.pos + 1, end).replace(/[^0-9a-f]/gi, '');
    this.pos = end + 1;
    return { kind: 'string', bytes: Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex') };
  }

  private literalString(): PdfString {
    const out: number[] = [];
    let depth = 0;
    let i = this.pos + 1;
    for (; i < this.limit; i++) {
      const c = this.data[i]!;
      if (c === 0x5c) {
        const n = this.data[++i];
        if (n === undefined) break;
        const escapes: Record<number, number> = { 0x6e: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12 };
        if (escapes[n] !== undefined) out.push(escapes[n]);
        else if (n >= 0x30 && n <= 0x37) {
          let octal = n - 0x30;
          for (let k = 0; k < 2 && this.data[i + 1]! >= 0x30 && this.data[i + 1]! <= 0x37; k++)
            octal = octal * 8 + (this.data[++i]! - 0x30);
          out.push(octal & 0xff);
        } else if (n === 13) {
          if (this.data[i + 1] === 10) i++;
        } else if (n !== 10) out.push(n);
      } else if (c === 0x28) {
        depth++;
        out.push(c);
      } else if (c === 0x29) {
        if (depth === 0) break;
        depth--;
        out.push(c);
      } else out.push(c);
    }
    if (i >= this.limit) throw new RangeError('PDF string cut');
    this.pos = i + 1;
    return { kind: 'string', bytes: Buffer.from(out) };
  }
}

function hexChar(_match: string, hex: string): string {
  return String.fromCharCode(parseInt(hex, 16));
}

/** PDFDocEncoding's differences from Latin-1 (0x18-0x1F, 0x80-0xA0). */
const PDF_DOC: Record<number, string> = {
  0x18: '˘', 0x19: 'ˇ', 0x1a: 'ˆ', 0x1b: '˙', 0x1c: '˝', 0x1d: '˛', 0x1e: '˚', 0x1f: '˜',
  0x80: '•', 0x81: '†', 0x82: '‡', 0x83: '…', 0x84: '—', 0x85: '–', 0x86: 'ƒ', 0x87: '⁄',
  0x88: '‹', 0x89: '›', 0x8a: '−', 0x8b: '‰', 0x8c: '„', 0x8d: '“', 0x8e: '”', 0x8f: '‘',
  0x90: '’', 0x91: '‚', 0x92: '™', 0x93: 'ﬁ', 0x94: 'ﬂ', 0x95: 'Ł', 0x96: 'Œ', 0x97: 'Š',
  0x98: 'Ÿ', 0x99: 'Ž', 0x9a: 'ı', 0x9b: 'ł', 0x9c: 'œ', 0x9d: 'š', 0x9e: 'ž', 0xa0: '€',
}; // prettier-ignore

/** A PDF text string: UTF-16 with a byte-order mark, UTF-8 with one (PDF 2.0), else PDFDocEncoding. */
export function decodePdfText(bytes: Buffer): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  // Some producers write UTF-8 without saying so; valid UTF-8 with multi-byte sequences is taken as such.
  if (bytes.some((b) => b >= 0x80)) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      // PDFDocEncoding below.
    }
  }
  let text = '';
  for (const b of bytes) text += PDF_DOC[b] ?? String.fromCharCode(b);
  return text;
}

/** RC4, which OpenSSL 3 no longer offers by default. */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();

/** Decrypts strings and streams of the standard security handler, revisions 2-4, empty user password. */
interface Decryptor {
  decrypt(data: Buffer, num: number, gen: number): Buffer;
}

function standardDecryptor(encrypt: PdfDict, fileId: Buffer | undefined): Decryptor | undefined {
  if (asName(encrypt.get('Filter')) !== 'Standard') return undefined;
  const v = Number(encrypt.get('V') ?? 0);
  const r = Number(encrypt.get('R') ?? 0);
  const o = asString(encrypt.get('O'));
  const u = asString(encrypt.get('U'));
  const p = Number(encrypt.get('P'));
  if (!o || !u || !Number.isFinite(p) || r < 2 || r > 4) return undefined;
  let aes = false;
  if (v === 4) {
    const stdCf = asDict(asDict(encrypt.get('CF'))?.get(asName(encrypt.get('StrF')) ?? 'StdCF'));
    const method = asName(stdCf?.get('CFM'));
    if (method === 'AESV2') aes = true;
    else if (method !== 'V2') return undefined;
  } else if (v !== 1 && v !== 2) return undefined;
  const encryptsMetadata = encrypt.get('EncryptMetadata') !== false;
  // Length is in bits; a few writers give bytes.
  const declared = Number(encrypt.get('Length') ?? 40);
  const length = r === 2 ? 5 : Math.min(16, Math.max(5, declared <= 16 ? declared : declared / 8));
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p | 0);
  const id = fileId ?? Buffer.alloc(0);
  // Algorithm 2 of ISO 32000 with the empty password.
  let key = md5(
    PASSWORD_PAD,
    o.subarray(0, 32),
    pBytes,
    id,
    r >= 4 && !encryptsMetadata ? Buffer.from([255, 255, 255, 255]) : Buffer.alloc(0),
  );
  if (r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, length));
  key = key.subarray(0, length);
  // Algorithms 4 and 5: the empty password is the user password only if U comes out right.
  let check: Buffer;
  if (r === 2) check = rc4(key, PASSWORD_PAD);
  else {
    check = rc4(key, md5(PASSWORD_PAD, id));
    for (let i = 1; i <= 19; i++) check = rc4(Buffer.from(key.map((b) => b ^ i)), check);
  }
  const compared = r === 2 ? 32 : 16;
  if (!check.subarray(0, compared).equals(u.subarray(0, compared))) return undefined;
  return {
    decrypt(data, num, gen) {
      const salt = Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]);
      const objectKey = md5(key, salt, aes ? Buffer.from('sAlT') : Buffer.alloc(0)).subarray(
        0,
        Math.min(16, length + 5),
      );
      if (!aes) return rc4(objectKey, data);
      if (data.length < 32 || data.length % 16) return Buffer.alloc(0);
      const decipher = createDecipheriv('aes-128-cbc', objectKey, data.subarray(0, 16));
      try {
        return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
      } catch {
        return Buffer.alloc(0);
      }
    },
  };
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

function decodePdfXml(data: Buffer): string {
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data.subarray(2));
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data.subarray(2));
  return data.toString('utf8');
}

/** The inner text of the first element named `name` (prefix included), found with indexOf (linear). */
function inner(xml: string, name: string, from = 0): string | undefined {
  const open = new RegExp(`<${name}(?=[\\s/>])`, 'g');
  open.lastIndex = from;
  const start = open.exec(xml);
  if (!start) return undefined;
  const tagEnd = xml.indexOf('>', start.index);
  if (tagEnd === -1 || xml[tagEnd - 1] === '/') return undefined;
  const close = xml.indexOf(`</${name}>`, tagEnd);
  return close === -1 ? undefined : xml.slice(tagEnd + 1, close);
}

const xmlText = (text: string) =>
  text
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_m, h: string) => safeCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => safeCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
const safeCodePoint = (code: number) =>
  code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '';

/** The items of an rdf:Alt/Seq/Bag, x-default first (found with indexOf: linear on any input). */
function rdfItems(block: string | undefined): string[] {
  if (block === undefined) return [];
  const items: { lang: string; text: string }[] = [];
  for (let at = 0; items.length < 64;) {
    const open = block.indexOf('<rdf:li', at);
    const tagEnd = open === -1 ? -1 : block.indexOf('>', open);
    const close = tagEnd === -1 ? -1 : block.indexOf('</rdf:li>', tagEnd);
    if (close === -1) break;
    const lang = /xml:lang=["']([^"']*)["']/.exec(block.slice(open, tagEnd))?.[1] ?? '';
    items.push({ lang, text: xmlText(block.slice(tagEnd + 1, close)) });
    at = close + 9;
  }
  if (items.length === 0 && !block.includes('<')) return [xmlText(block)];
  return [...items.filter((i) => i.lang === 'x-default'), ...items.filter((i) => i.lang !== 'x-default')].map(
    (i) => i.text,
  );
}

/** A simple XMP property, as an element or as an attribute of rdf:Description. */
function xmpProperty(xml: string, name: string): string | undefined {
  const element = inner(xml, name);
  if (element !== undefined) return xmlText(element);
  const attribute = new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(xml);
  return attribute ? xmlText(attribute[1]!) : undefined;
}

export function readXmp(xml: string): RawMetadata {
  return {
    titles: rdfItems(inner(xml, 'dc:title')).slice(0, 1),
    authors: [rdfItems(inner(xml, 'dc:creator')).join(', ')],
    descriptions: rdfItems(inner(xml, 'dc:description')).slice(0, 1),
    producers: [xmpProperty(xml, 'xmp:CreatorTool'), xmpProperty(xml, 'pdf:Producer')],
  };
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
