/**
 * Word 6.0 and Word 95 (nFib 101-105) binary documents, which word-extractor does not read. Their
 * FIB differs from Word 97's: no table stream (every structure is in WordDocument), 32-bit fc/lcb
 * pairs at other offsets, one-byte sprm opcodes. Text is 8-bit in the code page of the font each run
 * uses (a Russian document may say "English" in its language id and still be Windows-1251 through
 * its "Times New Roman Cyr" font), except in the Far East editions (fExtChar), which write UTF-16.
 * Fast-saved (complex) files keep their text in a piece table whose order is not the stream's.
 */
import { codePageOfCharset, codePageOfFontName, codePageOfLanguage } from './doc-codepages.ts';
import type { NotePlcs, Piece, StoryLengths, WordStories } from './word-binary.ts';
import { corruptWord, readPieceTable, readPlc, readStories, textOfRange } from './word-binary.ts';

/** FIB offsets of Word 6/95 ([MS-DOC] predecessors; the same layout for nFib 101-105). */
const FIB = {
  lid: 0x06,
  flags: 0x0a,
  chse: 0x14,
  fcMin: 0x18,
  fcMac: 0x1c,
  ccpText: 0x34,
  fcStshf: 0x60,
  fcPlcffndRef: 0x68,
  fcPlcffndTxt: 0x70,
  fcPlcfbteChpx: 0xb8,
  fcSttbfffn: 0xd0,
  fcClx: 0x160,
  cpnBteChp: 0x18e,
  fcPlcfendRef: 0x1d2,
  fcPlcfendTxt: 0x1da,
} as const;
const F_COMPLEX = 0x0004;
const F_EXT_CHAR = 0x1000;
const MAC_CHARSET = 256;
const FKP_BYTES = 512;
const SPRM_FONT = 93;
const SPRM_LANGUAGE = 97;

export function isWord6Fib(nFib: number): boolean {
  return nFib >= 101 && nFib <= 105;
}

/** Reads the stories of a Word 6/95 WordDocument stream. */
export function readWord6(stream: Buffer): WordStories {
  if (stream.length < FIB.fcClx + 8) throw corruptWord('the Word 6 FIB is truncated');
  // Fields past the end of a short FIB read as 0 (absent), never past the stream.
  const u16 = (at: number) => (at + 2 <= stream.length ? stream.readUInt16LE(at) : 0);
  const u32 = (at: number) => (at + 4 <= stream.length ? stream.readUInt32LE(at) : 0);
  const span = (at: number): [number, number] => [u32(at), u32(at + 4)];
  const flags = u16(FIB.flags);
  const wide = (flags & F_EXT_CHAR) !== 0;
  const lengths: StoryLengths = {
    main: u32(FIB.ccpText),
    footnotes: u32(FIB.ccpText + 4),
    headers: u32(FIB.ccpText + 8),
    macros: u32(FIB.ccpText + 12),
    annotations: u32(FIB.ccpText + 16),
    endnotes: u32(FIB.ccpText + 20),
    textBoxes: u32(FIB.ccpText + 24),
    headerTextBoxes: u32(FIB.ccpText + 28),
  };
  const totalCps = Object.values(lengths).reduce((a, b) => a + b, 0);
  // Every character takes at least one byte of the stream.
  if (totalCps > stream.length) throw corruptWord('more characters than the file has bytes');

  const [clxAt, clxLength] = span(FIB.fcClx);
  let pieces: Piece[];
  if ((flags & F_COMPLEX) !== 0 || clxLength > 0) {
    if (clxAt + clxLength > stream.length || clxLength === 0) throw corruptWord('the piece table is missing');
    pieces = readPieceTable(stream.subarray(clxAt, clxAt + clxLength), wide);
  } else {
    // A plain file: the text is one stretch from fcMin.
    pieces = [{ cpStart: 0, cpEnd: totalCps + 1, fc: u32(FIB.fcMin), wide }];
  }

  const decodeNarrow = narrowDecoder(stream, {
    lid: u16(FIB.lid),
    mac: u16(FIB.chse) === MAC_CHARSET,
    fonts: span(FIB.fcSttbfffn),
    styles: span(FIB.fcStshf),
    charBins: span(FIB.fcPlcfbteChpx),
    charPageCount: u16(FIB.cpnBteChp),
    farEastSprms: u16(0) >= 0xa697 && u16(0) <= 0xa699,
  });
  const text = (from: number, to: number) => textOfRange(stream, pieces, from, to, decodeNarrow);
  const notePlcs = (refAt: number, textAt: number): NotePlcs => {
    const [refOffset, refLength] = span(refAt);
    const [textOffset, textLength] = span(textAt);
    return {
      references: readPlc(stream, refOffset, refLength, 2),
      texts: readPlc(stream, textOffset, textLength, 0),
    };
  };
  return readStories(text, lengths, {
    footnotes: notePlcs(FIB.fcPlcffndRef, FIB.fcPlcffndTxt),
    endnotes: notePlcs(FIB.fcPlcfendRef, FIB.fcPlcfendTxt),
  });
}

interface CodePageSources {
  /** The document's language id (often just the author's Word: a Russian text can say English). */
  lid: number;
  /** Written by Word for the Macintosh. */
  mac: boolean;
  fonts: [number, number];
  styles: [number, number];
  charBins: [number, number];
  charPageCount: number;
  /** Files with wIdent 0xA697-0xA699 give sprms 111-113 two-byte operands (Far East editions). */
  farEastSprms: boolean;
}

interface CharacterRun {
  fcStart: number;
  fcEnd: number;
  codePage: string | undefined;
}

/**
 * 8-bit text is decoded run by run in the code page of the run's font (its charset, else what its
 * name says: "Arial Cyr"), else of the run's language, else the document's default font, language,
 * and platform.
 */
function narrowDecoder(stream: Buffer, sources: CodePageSources): (bytes: Buffer, fc: number) => string {
  const fonts = readFontCodePages(stream, sources.fonts);
  const styles = readDefaultCharacterStyle(stream, sources.styles, sources.farEastSprms);
  const codePageOf = (font: number | undefined, language: number | undefined) =>
    (font !== undefined ? fonts[font] : undefined) ??
    (language !== undefined ? codePageOfLanguage(language) : undefined);
  // Text that names no font is in its paragraph style's, nearly always the Normal style's.
  const fallback =
    codePageOf(styles.font, styles.language) ??
    codePageOf(styles.standardFont, sources.lid) ??
    (sources.mac ? 'macintosh' : 'windows-1252');
  const runs = readCharacterRuns(stream, sources, codePageOf);
  const decoders = new Map<string, TextDecoder>();
  const decode = (bytes: Buffer, codePage: string) => {
    let decoder = decoders.get(codePage);
    if (!decoder) {
      decoder = new TextDecoder(codePage);
      decoders.set(codePage, decoder);
    }
    return decoder.decode(bytes);
  };
  return (bytes, fc) => {
    // The first run ending after fc (runs are sorted and do not overlap).
    let r = 0;
    for (let hi = runs.length; r < hi;) {
      const mid = (r + hi) >>> 1;
      if (runs[mid]!.fcEnd <= fc) r = mid + 1;
      else hi = mid;
    }
    let out = '';
    for (let at = 0; at < bytes.length;) {
      const run = runs[r];
      if (run && run.fcStart <= fc + at) {
        const end = Math.min(bytes.length, run.fcEnd - fc);
        out += decode(bytes.subarray(at, end), run.codePage ?? fallback);
        at = end;
        r++;
      } else {
        // Bytes no run covers, up to the next run.
        const end = run ? Math.min(bytes.length, run.fcStart - fc) : bytes.length;
        out += decode(bytes.subarray(at, end), fallback);
        at = end;
      }
    }
    return out;
  };
}

/** The font table (STTBFFN): a byte count, then FFNs, each `cbFfnM1, flags, weight(2), chs, ...name`. */
function readFontCodePages(stream: Buffer, [offset, length]: [number, number]): (string | undefined)[] {
  const codePages: (string | undefined)[] = [];
  const end = Math.min(offset + length, stream.length);
  for (let at = offset + 2; at < end;) {
    const size = stream[at]! + 1;
    if (size < 7 || at + size > end) break;
    const charset = stream[at + 4]!;
    const name = stream
      .subarray(at + 6, at + size)
      .toString('latin1')
      .split('\0')[0]!;
    codePages.push(codePageOfCharset(charset) ?? codePageOfFontName(name));
    at += size;
  }
  return codePages;
}

interface DefaultCharacterStyle {
  /** The Normal style's font and language, when it sets them. */
  font?: number;
  language?: number;
  /** The style sheet's standard font (STSHI.ftcStandardChpStsh), under every style. */
  standardFont?: number;
}

/**
 * The style sheet (STSH): `cbStshi`, the STSHI, then one STD per style, each `cbStd` bytes. The
 * Normal style (istd 0) is a paragraph style whose second UPX holds its character sprms. A Word 6
 * STD is its fixed part (cbSTDBaseInFile bytes), a Pascal-string name with a NUL, then UPXs at even
 * offsets, each `cbUpx` and its bytes.
 */
function readDefaultCharacterStyle(
  stream: Buffer,
  [offset, length]: [number, number],
  farEast: boolean,
): DefaultCharacterStyle {
  const style: DefaultCharacterStyle = {};
  const end = Math.min(offset + length, stream.length);
  if (length < 16 || offset + 16 > end) return style;
  const stshiLength = stream.readUInt16LE(offset);
  if (stshiLength >= 14) style.standardFont = stream.readUInt16LE(offset + 14);
  const baseLength = stream.readUInt16LE(offset + 4);
  const stdAt = offset + 2 + stshiLength;
  if (stdAt + 2 > end) return style;
  const std = stream.subarray(stdAt + 2, Math.min(end, stdAt + 2 + stream.readUInt16LE(stdAt)));
  if (std.length < Math.max(baseLength, 6) + 1 || (std.readUInt16LE(2) & 0x0f) !== 1) return style;
  let at = baseLength + 1 + std[baseLength]! + 1;
  for (let upx = 0; upx < 2; upx++) {
    if (at % 2) at++;
    if (at + 2 > std.length) return style;
    const size = std.readUInt16LE(at);
    if (upx === 1) {
      for (const [sprm, operand] of word6Sprms(std.subarray(at + 2, at + 2 + size), farEast)) {
        if (sprm === SPRM_FONT && operand.length >= 2) style.font = operand.readUInt16LE(0);
        else if (sprm === SPRM_LANGUAGE && operand.length >= 2) style.language = operand.readUInt16LE(0);
      }
    }
    at += 2 + size;
  }
  return style;
}

/**
 * Character runs from the CHPX pages (FKPs) the bin table lists. Word 6 may list fewer pages than
 * it has (cpnBteChp): the missing ones follow the last listed page.
 */
function readCharacterRuns(
  stream: Buffer,
  sources: CodePageSources,
  codePageOf: (font: number | undefined, language: number | undefined) => string | undefined,
): CharacterRun[] {
  const [offset, length] = sources.charBins;
  const bins = readPlc(stream, offset, length, 2);
  if (!bins) return [];
  const pages = bins.data.map((pn) => pn.readUInt16LE(0));
  for (let pn = (pages[pages.length - 1] ?? 0) + 1; pages.length > 0 && pages.length < sources.charPageCount; pn++) {
    pages.push(pn);
  }
  const runs: CharacterRun[] = [];
  for (const pn of pages) {
    const start = pn * FKP_BYTES;
    if (start + FKP_BYTES > stream.length) continue;
    const page = stream.subarray(start, start + FKP_BYTES);
    const count = page[FKP_BYTES - 1]!;
    if ((count + 1) * 4 + count > FKP_BYTES - 1) continue;
    for (let i = 0; i < count; i++) {
      const fcStart = page.readUInt32LE(i * 4);
      const fcEnd = page.readUInt32LE(i * 4 + 4);
      const at = page[(count + 1) * 4 + i]! * 2;
      let font: number | undefined;
      let language: number | undefined;
      if (at > 0 && at < FKP_BYTES - 1) {
        const grpprl = page.subarray(at + 1, Math.min(at + 1 + page[at]!, FKP_BYTES - 1));
        for (const [sprm, operand] of word6Sprms(grpprl, sources.farEastSprms)) {
          if (sprm === SPRM_FONT && operand.length >= 2) font = operand.readUInt16LE(0);
          else if (sprm === SPRM_LANGUAGE && operand.length >= 2) language = operand.readUInt16LE(0);
        }
      }
      if (fcEnd > fcStart) runs.push({ fcStart, fcEnd, codePage: codePageOf(font, language) });
    }
  }
  runs.sort((a, b) => a.fcStart - b.fcStart);
  // Overlapping runs (damaged bin tables) would make the lookup ambiguous: later starts win.
  for (let i = 0; i + 1 < runs.length; i++) runs[i]!.fcEnd = Math.min(runs[i]!.fcEnd, runs[i + 1]!.fcStart);
  return runs.filter((r) => r.fcEnd > r.fcStart);
}

/** Operand sizes of Word 6/95 sprms (one-byte opcodes); VARIABLE ones carry a length byte. */
const VARIABLE = 255;
const VARIABLE_WORD = 254;
const SPRM_SIZES = new Uint8Array(256).fill(VARIABLE);
const sizes: [number[], number][] = [
  [[0, 52, 83, 163], 0],
  [
    [
      4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 24, 25, 29, 37, 44, 50, 51, 65, 66, 67, 71, 75, 85, 86, 87, 88, 89, 90, 91, 92,
      94, 98, 100, 102, 104, 117, 118, 119, 131, 132, 138, 139, 142, 143, 146, 147, 150, 151, 152, 153, 158, 159, 162,
      185, 186,
    ],
    1,
  ],
  [
    [
      2, 16, 17, 18, 19, 21, 22, 26, 27, 28, 30, 31, 32, 33, 34, 35, 36, 38, 39, 40, 41, 42, 43, 45, 46, 47, 48, 49, 69,
      72, 80, 93, 96, 97, 99, 101, 107, 109, 110, 121, 122, 123, 124, 140, 141, 144, 145, 148, 149, 154, 155, 156, 157,
      160, 161, 164, 165, 166, 167, 168, 169, 170, 171, 182, 183, 184, 189, 195, 197, 198,
    ],
    2,
  ],
  [[73, 95, 136, 137], 3],
  [[20, 70, 192, 194, 196, 200], 4],
  [[193, 199], 5],
  [[187], 12],
];
for (const [opcodes, size] of sizes) for (const opcode of opcodes) SPRM_SIZES[opcode] = size;
SPRM_SIZES[190] = VARIABLE_WORD;

/** The sprms of a Word 6 grpprl with their operands; stops at the first one that does not fit. */
export function* word6Sprms(grpprl: Buffer, farEast = false): Generator<[number, Buffer]> {
  let at = 0;
  while (at < grpprl.length) {
    const sprm = grpprl[at]!;
    let size = farEast && sprm >= 111 && sprm <= 113 ? 2 : SPRM_SIZES[sprm]!;
    let operandAt = at + 1;
    if (size === VARIABLE) {
      if (operandAt >= grpprl.length) return;
      size = grpprl[operandAt]!;
      operandAt++;
    } else if (size === VARIABLE_WORD) {
      if (operandAt + 2 > grpprl.length) return;
      size = grpprl.readUInt16LE(operandAt);
      operandAt += 2;
    }
    if (operandAt + size > grpprl.length) return;
    yield [sprm, grpprl.subarray(operandAt, operandAt + size)];
    at = operandAt + size;
  }
}
