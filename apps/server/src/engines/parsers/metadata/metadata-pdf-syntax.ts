/**
 * PDF object syntax for the metadata reader (metadata-pdf.ts): a tokenizer-parser over a byte range
 * that never reads past its limit, refuses nesting deeper than MAX_DEPTH and collections larger than
 * MAX_ITEMS, and the decoding of PDF text strings.
 */

/** Bytes one object's parse may look at. */
const MAX_SCAN = 256 * 1024;
const MAX_DEPTH = 12;
export const MAX_ITEMS = 4096;

export interface PdfName {
  kind: 'name';
  name: string;
}
export interface PdfString {
  kind: 'string';
  bytes: Buffer;
}
export interface PdfRef {
  kind: 'ref';
  num: number;
  gen: number;
}
export interface PdfKeyword {
  kind: 'keyword';
  word: string;
}
export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | PdfName | PdfString | PdfRef | PdfKeyword | PdfValue[] | PdfDict;

const isWhite = (c: number | undefined) => c === 0 || c === 9 || c === 10 || c === 12 || c === 13 || c === 32;
const isDelimiter = (c: number | undefined) =>
  c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x2f || c === 0x25;
export const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

export const asDict = (v: PdfValue | undefined): PdfDict | undefined => (v instanceof Map ? v : undefined);
export const asRef = (v: PdfValue | undefined): PdfRef | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && v.kind === 'ref' ? v : undefined;
export const asName = (v: PdfValue | undefined): string | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && v.kind === 'name' ? v.name : undefined;
export const asString = (v: PdfValue | undefined): Buffer | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && v.kind === 'string' ? v.bytes : undefined;

/** A tokenizer-parser of PDF objects over a byte range; never reads past `limit`. */
export class Parser {
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
// prettier-ignore
const PDF_DOC: Record<number, string> = {
  0x18: '˘', 0x19: 'ˇ', 0x1a: 'ˆ', 0x1b: '˙', 0x1c: '˝', 0x1d: '˛', 0x1e: '˚', 0x1f: '˜',
  0x80: '•', 0x81: '†', 0x82: '‡', 0x83: '…', 0x84: '—', 0x85: '–', 0x86: 'ƒ', 0x87: '⁄',
  0x88: '‹', 0x89: '›', 0x8a: '−', 0x8b: '‰', 0x8c: '„', 0x8d: '“', 0x8e: '”', 0x8f: '‘',
  0x90: '’', 0x91: '‚', 0x92: '™', 0x93: 'ﬁ', 0x94: 'ﬂ', 0x95: 'Ł', 0x96: 'Œ', 0x97: 'Š',
  0x98: 'Ÿ', 0x99: 'Ž', 0x9a: 'ı', 0x9b: 'ł', 0x9c: 'œ', 0x9d: 'š', 0x9e: 'ž', 0xa0: '€',
};

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
