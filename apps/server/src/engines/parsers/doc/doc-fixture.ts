/**
 * Builds binary Word test documents: a compound file (version 3, 512-byte sectors) holding the
 * streams, and the WordDocument / table streams of Word 6 and Word 97 files with exactly the
 * structures a test needs (piece tables in any order, fonts and their runs, note PLCs). Tests only.
 */

const SECTOR = 512;
const END_OF_CHAIN = 0xfffffffe;
const FAT_SECTOR = 0xfffffffd;
const DIFAT_SECTOR = 0xfffffffc;
const FREE = 0xffffffff;

export interface CompoundFileOptions {
  /** Makes the chain of the first stream point back to its own start: a loop. */
  loopFirstStream?: boolean;
}

/**
 * A compound file whose root holds these streams. Every stream is padded to 4,096 bytes so it lives
 * in regular sectors (the mini stream is exercised by the real files of the corpus).
 */
export function compoundFile(streams: Record<string, Buffer>, options: CompoundFileOptions = {}): Buffer {
  const entries = Object.entries(streams).map(([name, data]) => {
    const padded = Buffer.alloc(Math.max(4096, Math.ceil(data.length / SECTOR) * SECTOR));
    data.copy(padded);
    return { name, data: padded, size: Math.max(4096, data.length), start: 0 };
  });
  const fat: number[] = [];
  const sectors: Buffer[] = [];
  for (const entry of entries) {
    entry.start = sectors.length;
    const count = entry.data.length / SECTOR;
    for (let i = 0; i < count; i++) {
      sectors.push(entry.data.subarray(i * SECTOR, (i + 1) * SECTOR));
      fat.push(i + 1 < count ? sectors.length : END_OF_CHAIN);
    }
  }
  if (options.loopFirstStream && entries[0]) {
    const first = entries[0];
    fat[first.start + first.data.length / SECTOR - 1] = first.start;
  }
  const directory = Buffer.alloc(Math.ceil((entries.length + 1) / 4) * 128 * 4);
  const writeEntry = (
    index: number,
    name: string,
    type: number,
    child: number,
    right: number,
    start: number,
    size: number,
  ) => {
    const at = index * 128;
    directory.write(name, at, 'utf16le');
    directory.writeUInt16LE((name.length + 1) * 2, at + 64);
    directory[at + 66] = type;
    directory[at + 67] = 1;
    directory.writeUInt32LE(FREE, at + 68);
    directory.writeUInt32LE(right, at + 72);
    directory.writeUInt32LE(child, at + 76);
    directory.writeUInt32LE(start, at + 116);
    directory.writeUInt32LE(size, at + 120);
  };
  writeEntry(0, 'Root Entry', 5, entries.length ? 1 : FREE, FREE, END_OF_CHAIN, 0);
  entries.forEach((entry, i) =>
    writeEntry(i + 1, entry.name, 2, FREE, i + 1 < entries.length ? i + 2 : FREE, entry.start, entry.size),
  );
  const directoryStart = sectors.length;
  for (let i = 0; i < directory.length / SECTOR; i++) {
    sectors.push(directory.subarray(i * SECTOR, (i + 1) * SECTOR));
    fat.push(i + 1 < directory.length / SECTOR ? sectors.length : END_OF_CHAIN);
  }
  // The FAT covers every sector, its own and the DIFAT's; the header lists 109 FAT sectors and
  // DIFAT sectors list the rest, 127 each plus the next DIFAT sector's number.
  let fatSectors = 1;
  let difatSectors = 0;
  for (;;) {
    const total = fat.length + fatSectors + difatSectors;
    const neededFat = Math.ceil(total / (SECTOR / 4));
    const neededDifat = Math.ceil(Math.max(0, neededFat - 109) / (SECTOR / 4 - 1));
    if (neededFat === fatSectors && neededDifat === difatSectors) break;
    fatSectors = neededFat;
    difatSectors = neededDifat;
  }
  const fatStart = sectors.length;
  const difatStart = fatStart + fatSectors;
  for (let i = 0; i < fatSectors; i++) fat.push(FAT_SECTOR);
  for (let i = 0; i < difatSectors; i++) fat.push(DIFAT_SECTOR);
  const fatBytes = Buffer.alloc(fatSectors * SECTOR, 0xff);
  fat.forEach((value, i) => fatBytes.writeUInt32LE(value, i * 4));
  for (let i = 0; i < fatSectors; i++) sectors.push(fatBytes.subarray(i * SECTOR, (i + 1) * SECTOR));
  for (let d = 0; d < difatSectors; d++) {
    const difat = Buffer.alloc(SECTOR, 0xff);
    for (let i = 0; i < SECTOR / 4 - 1; i++) {
      const fatIndex = 109 + d * (SECTOR / 4 - 1) + i;
      if (fatIndex < fatSectors) difat.writeUInt32LE(fatStart + fatIndex, i * 4);
    }
    difat.writeUInt32LE(d + 1 < difatSectors ? difatStart + d + 1 : END_OF_CHAIN, SECTOR - 4);
    sectors.push(difat);
  }

  const header = Buffer.alloc(SECTOR);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(fatSectors, 0x2c);
  header.writeUInt32LE(directoryStart, 0x30);
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(END_OF_CHAIN, 0x3c);
  header.writeUInt32LE(difatSectors ? difatStart : END_OF_CHAIN, 0x44);
  header.writeUInt32LE(difatSectors, 0x48);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i < fatSectors ? fatStart + i : FREE, 0x4c + i * 4);
  return Buffer.concat([header, ...sectors]);
}

/** Encodes text in a single-byte code page (tests need 8-bit Cyrillic; Node only encodes UTF-8). */
export function encodeSingleByte(text: string, codePage: string): Buffer {
  const decoder = new TextDecoder(codePage);
  const byChar = new Map<string, number>();
  for (let b = 0; b < 256; b++) byChar.set(decoder.decode(Buffer.from([b])), b);
  return Buffer.from([...text].map((c) => byChar.get(c) ?? 0x3f));
}

export interface WordSpec {
  /** Main text: `\r` ends paragraphs, `\x13 \x14 \x15` are field marks, `\x02` note references. */
  main: string;
  /** Footnote texts, one per `\x02` of the main text, in order. */
  footnotes?: string[];
  /** Store the main text as two pieces, the second one first in the stream (a fast save). */
  fastSaved?: boolean;
  flags?: number;
  nFib?: number;
}

export interface Word6Spec extends WordSpec {
  /** How 8-bit text is written; windows-1252 by default. */
  codePage?: string;
  /** Font table: name and Windows charset. */
  fonts?: { name: string; charset: number }[];
  /** The Normal style's font (an index into `fonts`) and language, written as its character sprms. */
  normalStyle?: { font?: number; lid?: number };
  /** Character runs with their font (an index into `fonts`), as CP ranges of the main text. */
  fontRuns?: { from: number; to: number; font: number }[];
  lid?: number;
}

interface Layout {
  text: Buffer;
  /** Piece table entries: CP range and byte offset of the text in the stream. */
  pieces: { cpStart: number; cpEnd: number; fc: number }[];
  lengths: { main: number; footnotes: number };
}

/** Main text and notes laid out as Word does: stories one after the other, a guard \r at the end. */
function storiesOf(spec: WordSpec): { all: string; main: number; footnotes: number; noteStarts: number[] } {
  const notes = (spec.footnotes ?? []).map((t) => `\u0002 ${t}\r`);
  const noteStarts: number[] = [];
  let at = 0;
  for (const note of notes) {
    noteStarts.push(at);
    at += note.length;
  }
  noteStarts.push(at);
  const footnotes = notes.join('');
  return { all: spec.main + footnotes + (footnotes ? '\r' : ''), main: spec.main.length, footnotes: at, noteStarts };
}

function layOut(spec: WordSpec, textAt: number, encode: (text: string) => Buffer): Layout {
  const stories = storiesOf(spec);
  const all = stories.all;
  if (!spec.fastSaved) {
    return {
      text: encode(all),
      pieces: [{ cpStart: 0, cpEnd: all.length, fc: textAt }],
      lengths: { main: stories.main, footnotes: stories.footnotes },
    };
  }
  // The second half is written first, as an edit appended before the original would be.
  const cut = Math.floor(all.length / 2);
  const second = encode(all.slice(cut));
  const first = encode(all.slice(0, cut));
  return {
    text: Buffer.concat([second, first]),
    pieces: [
      { cpStart: 0, cpEnd: cut, fc: textAt + second.length },
      { cpStart: cut, cpEnd: all.length, fc: textAt },
    ],
    lengths: { main: stories.main, footnotes: stories.footnotes },
  };
}

function plc(cps: number[], data: Buffer[]): Buffer {
  const out = Buffer.alloc(cps.length * 4);
  cps.forEach((cp, i) => out.writeUInt32LE(cp, i * 4));
  return Buffer.concat([out, ...data]);
}

function clx(pieces: Layout['pieces'], fcOf: (fc: number) => number): Buffer {
  const table = plc(
    [...pieces.map((p) => p.cpStart), pieces[pieces.length - 1]!.cpEnd],
    pieces.map((p) => {
      const pcd = Buffer.alloc(8);
      pcd.writeUInt32LE(fcOf(p.fc), 2);
      return pcd;
    }),
  );
  const head = Buffer.alloc(5);
  head[0] = 2;
  head.writeUInt32LE(table.length, 1);
  return Buffer.concat([head, table]);
}

function notePlcs(spec: WordSpec): { references: Buffer; texts: Buffer } | undefined {
  if (!spec.footnotes?.length) return undefined;
  const refs: number[] = [];
  for (let i = spec.main.indexOf('\u0002'); i !== -1; i = spec.main.indexOf('\u0002', i + 1)) refs.push(i);
  const frd = refs.map(() => Buffer.from([1, 0]));
  return { references: plc([...refs, spec.main.length], frd), texts: plc(storiesOf(spec).noteStarts, []) };
}

/** A Word 6 WordDocument stream (FIB, 8-bit text, fonts, runs, notes, piece table when fast-saved). */
export function word6Stream(spec: Word6Spec): Buffer {
  const codePage = spec.codePage ?? 'windows-1252';
  const textAt = 0x300;
  const layout = layOut(spec, textAt, (t) => encodeSingleByte(t, codePage));
  const parts: Buffer[] = [Buffer.alloc(textAt), layout.text];
  let size = textAt + layout.text.length;
  const place = (data: Buffer, align = 1): number => {
    const pad = (align - (size % align)) % align;
    if (pad) parts.push(Buffer.alloc(pad));
    const at = size + pad;
    parts.push(data);
    size = at + data.length;
    return at;
  };
  const fib = parts[0]!;
  fib.writeUInt16LE(0xa5dc, 0);
  fib.writeUInt16LE(spec.nFib ?? 101, 2);
  fib.writeUInt16LE(spec.lid ?? 0x409, 6);
  fib.writeUInt16LE((spec.flags ?? 0) | (spec.fastSaved ? 0x0004 : 0), 0x0a);
  fib.writeUInt32LE(textAt, 0x18);
  fib.writeUInt32LE(textAt + layout.text.length, 0x1c);
  fib.writeUInt32LE(layout.lengths.main, 0x34);
  fib.writeUInt32LE(layout.lengths.footnotes, 0x38);
  const span = (at: number, offset: number, length: number) => {
    fib.writeUInt32LE(offset, at);
    fib.writeUInt32LE(length, at + 4);
  };
  if (spec.fonts) {
    const ffns = spec.fonts.map(({ name, charset }) => {
      const ffn = Buffer.alloc(6 + name.length + 1);
      ffn[0] = ffn.length - 1;
      ffn[4] = charset;
      ffn.write(name, 6, 'latin1');
      return ffn;
    });
    const table = Buffer.concat([Buffer.alloc(2), ...ffns]);
    table.writeUInt16LE(table.length, 0);
    span(0xd0, place(table), table.length);
  }
  if (spec.normalStyle) {
    // STSH: cbStshi, STSHI (one style, 8-byte STD bases), then the Normal style's STD: fixed part,
    // name "Normal", a PAPX UPX (istd 0) and a CHPX UPX with sprmCFtc / sprmCLid.
    const sprms: number[] = [];
    if (spec.normalStyle.font !== undefined) sprms.push(93, spec.normalStyle.font & 0xff, spec.normalStyle.font >> 8);
    if (spec.normalStyle.lid !== undefined) sprms.push(97, spec.normalStyle.lid & 0xff, spec.normalStyle.lid >> 8);
    const std = Buffer.concat([
      Buffer.from([0, 0, 0xf1, 0xff, 0x02, 0x00, 0, 0, 6, ...Buffer.from('Normal'), 0]),
      Buffer.from([2, 0, 0, 0, sprms.length, 0, ...sprms]),
    ]);
    const stshi = Buffer.from([14, 0, 1, 0, 8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const stsh = Buffer.concat([stshi, Buffer.from([std.length & 0xff, std.length >> 8]), std]);
    span(0x60, place(stsh), stsh.length);
  }
  if (spec.fontRuns?.length) {
    // One CHPX page (FKP): fc boundaries, offsets of the CHPXs, each a sprmCFtc.
    const page = Buffer.alloc(SECTOR);
    const runs = spec.fontRuns;
    const fcOf = (cp: number) => {
      const piece = layout.pieces.find((p) => cp >= p.cpStart && cp <= p.cpEnd)!;
      return piece.fc + cp - piece.cpStart;
    };
    runs.forEach((run, i) => {
      page.writeUInt32LE(fcOf(run.from), i * 4);
      page.writeUInt32LE(fcOf(run.to), i * 4 + 4);
      const chpxAt = 400 - i * 4;
      page[(runs.length + 1) * 4 + i] = chpxAt / 2;
      page[chpxAt] = 3;
      page[chpxAt + 1] = 93;
      page.writeUInt16LE(run.font, chpxAt + 2);
    });
    page[SECTOR - 1] = runs.length;
    const pn = place(page, SECTOR) / SECTOR;
    const bins = plc([fcOf(runs[0]!.from), fcOf(runs[runs.length - 1]!.to)], [Buffer.from([pn, 0])]);
    span(0xb8, place(bins), bins.length);
    fib.writeUInt16LE(1, 0x18e);
  }
  const notes = notePlcs(spec);
  if (notes) {
    span(0x68, place(notes.references), notes.references.length);
    span(0x70, place(notes.texts), notes.texts.length);
  }
  if (spec.fastSaved) {
    const table = clx(layout.pieces, (fc) => fc);
    span(0x160, place(table), table.length);
  }
  return Buffer.concat(parts);
}

/** A Word 97 document's WordDocument and 1Table streams; text is UTF-16 unless `compressed`. */
export function word97Streams(spec: WordSpec & { compressed?: boolean }): Record<string, Buffer> {
  const textAt = 0x400;
  const encode = (t: string) => (spec.compressed ? Buffer.from(t, 'latin1') : Buffer.from(t, 'utf16le'));
  const layout = layOut(spec, textAt, encode);
  const fib = Buffer.alloc(textAt);
  fib.writeUInt16LE(0xa5ec, 0);
  fib.writeUInt16LE(spec.nFib ?? 0xc1, 2);
  fib.writeUInt16LE((spec.flags ?? 0) | 0x0200 | (spec.fastSaved ? 0x0004 : 0), 0x0a);
  fib.writeUInt16LE(14, 0x20);
  fib.writeUInt16LE(22, 0x3e);
  fib.writeUInt32LE(layout.lengths.main, 0x4c);
  fib.writeUInt32LE(layout.lengths.footnotes, 0x50);
  fib.writeUInt16LE(93, 0x98);
  const pair = (index: number, offset: number, length: number) => {
    fib.writeUInt32LE(offset, 0x9a + index * 8);
    fib.writeUInt32LE(length, 0x9a + index * 8 + 4);
  };
  const table: Buffer[] = [];
  let tableSize = 0;
  const place = (data: Buffer): number => {
    table.push(data);
    tableSize += data.length;
    return tableSize - data.length;
  };
  const notes = notePlcs(spec);
  if (notes) {
    pair(2, place(notes.references), notes.references.length);
    pair(3, place(notes.texts), notes.texts.length);
  }
  // Compressed pieces store twice their byte offset with bit 30 set.
  const pieceTable = clx(layout.pieces, (fc) => (spec.compressed ? (fc * 2) | 0x40000000 : fc));
  pair(33, place(pieceTable), pieceTable.length);
  return { WordDocument: Buffer.concat([fib, layout.text]), '1Table': Buffer.concat(table) };
}
