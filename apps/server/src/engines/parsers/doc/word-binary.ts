/**
 * What the binary Word formats (Word 6, 95 and 97-2003) share once their FIB is read: PLCFs, the
 * piece table that maps character positions (CPs) to bytes of the WordDocument stream, the stories
 * (main text, footnotes, headers, endnotes, text boxes...) that follow each other in CP order, and the
 * special characters in the text (field marks, note references, cell marks).
 *
 * Offsets and counts come from the file and are checked before use: anything impossible is
 * ParseError('fileCorrupted'), never an out-of-bounds read.
 */
import { ParseError } from '../errors.ts';

export function corruptWord(message: string): ParseError {
  return new ParseError('fileCorrupted', `Unreadable Word document: ${message}`);
}

/** A run of consecutive CPs stored together: at `fc` in the WordDocument stream. */
export interface Piece {
  cpStart: number;
  cpEnd: number;
  fc: number;
  /** UTF-16LE (2 bytes a character), else 8-bit text in a code page. */
  wide: boolean;
}

/** A PLC: n+1 ascending CPs and n data items of `dataSize` bytes. */
export interface Plc {
  cps: number[];
  data: Buffer[];
}

/** Reads a PLC at `offset`; an absent one (length 0) is empty, an impossible one undefined. */
export function readPlc(stream: Buffer, offset: number, length: number, dataSize: number): Plc | undefined {
  if (length === 0) return { cps: [], data: [] };
  const count = (length - 4) / (4 + dataSize);
  if (!Number.isInteger(count) || count < 0 || offset + length > stream.length) return undefined;
  const cps: number[] = [];
  for (let i = 0; i <= count; i++) cps.push(stream.readUInt32LE(offset + i * 4));
  const data: Buffer[] = [];
  const dataStart = offset + (count + 1) * 4;
  for (let i = 0; i < count; i++) data.push(stream.subarray(dataStart + i * dataSize, dataStart + (i + 1) * dataSize));
  return { cps, data };
}

const COMPRESSED = 0x40000000;

/**
 * The piece table of a complex (fast-saved) file: its CLX holds property blocks (Prc, skipped) and
 * then the PlcPcd. A piece's fc with bit 30 set is 8-bit text at half that offset (Word 97's
 * "compressed" text); otherwise the text is wide when `wideText`.
 */
export function readPieceTable(clx: Buffer, wideText: boolean): Piece[] {
  let at = 0;
  while (at < clx.length && clx[at] === 0x01) {
    if (at + 3 > clx.length) throw corruptWord('truncated piece table');
    at += 3 + clx.readUInt16LE(at + 1);
  }
  if (at + 5 > clx.length || clx[at] !== 0x02) throw corruptWord('no piece table in the CLX');
  const length = clx.readUInt32LE(at + 1);
  const plc = readPlc(clx, at + 5, length, 8);
  if (!plc) throw corruptWord('impossible piece table');
  const pieces: Piece[] = [];
  plc.data.forEach((descriptor, i) => {
    const cpStart = plc.cps[i]!;
    const cpEnd = plc.cps[i + 1]!;
    if (cpEnd < cpStart) throw corruptWord('piece table out of order');
    const raw = descriptor.readUInt32LE(2);
    const compressed = (raw & COMPRESSED) !== 0;
    const fc = compressed ? (raw & ~COMPRESSED) >>> 1 : raw;
    if (cpEnd > cpStart) pieces.push({ cpStart, cpEnd, fc, wide: !compressed && wideText });
  });
  return pieces;
}

/** Decodes the bytes of one 8-bit stretch; `fc` is where they start, for per-run code pages. */
export type NarrowDecoder = (bytes: Buffer, fc: number) => string;

/**
 * The text of CPs [cpStart, cpEnd). Pieces pointing outside the stream are corruption; CPs no piece
 * covers (a sloppy table) are simply missing.
 */
export function textOfRange(
  stream: Buffer,
  pieces: Piece[],
  cpStart: number,
  cpEnd: number,
  decodeNarrow: NarrowDecoder,
): string {
  const parts: string[] = [];
  // Pieces are in CP order: start at the first one ending after cpStart (a note-heavy document
  // asks for thousands of small ranges).
  let first = 0;
  for (let hi = pieces.length; first < hi;) {
    const mid = (first + hi) >>> 1;
    if (pieces[mid]!.cpEnd <= cpStart) first = mid + 1;
    else hi = mid;
  }
  for (let i = first; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (piece.cpStart >= cpEnd) break;
    const from = Math.max(cpStart, piece.cpStart);
    const to = Math.min(cpEnd, piece.cpEnd);
    if (from >= to) continue;
    const width = piece.wide ? 2 : 1;
    const start = piece.fc + (from - piece.cpStart) * width;
    const end = start + (to - from) * width;
    if (end > stream.length) throw corruptWord('a piece of text lies beyond the end of the stream');
    const bytes = stream.subarray(start, end);
    parts.push(piece.wide ? bytes.toString('utf16le') : decodeNarrow(bytes, start));
  }
  return parts.join('');
}

/** Character counts of the stories, in the order they follow each other in CP space. */
export interface StoryLengths {
  main: number;
  footnotes: number;
  headers: number;
  macros: number;
  annotations: number;
  endnotes: number;
  textBoxes: number;
  headerTextBoxes: number;
}

export interface StoryRanges {
  main: [number, number];
  footnotes: [number, number];
  endnotes: [number, number];
  textBoxes: [number, number];
  headerTextBoxes: [number, number];
}

export function storyRanges(lengths: StoryLengths): StoryRanges {
  const main: [number, number] = [0, lengths.main];
  const footnotes: [number, number] = [main[1], main[1] + lengths.footnotes];
  const endnotesStart = footnotes[1] + lengths.headers + lengths.macros + lengths.annotations;
  const endnotes: [number, number] = [endnotesStart, endnotesStart + lengths.endnotes];
  const textBoxes: [number, number] = [endnotes[1], endnotes[1] + lengths.textBoxes];
  const headerTextBoxes: [number, number] = [textBoxes[1], textBoxes[1] + lengths.headerTextBoxes];
  return { main, footnotes, endnotes, textBoxes, headerTextBoxes };
}

const FIELD_BEGIN = '\u0013';
const FIELD_SEPARATOR = '\u0014';
const FIELD_END = '\u0015';

/**
 * A field is `begin instruction [separator result] end`, and fields nest. Readers see the result
 * only: a character is kept when every open field around it is in its result part.
 */
export function fieldResults(text: string): string {
  if (!text.includes(FIELD_BEGIN)) return text;
  const inInstruction: boolean[] = [];
  let hidden = 0;
  let out = '';
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== FIELD_BEGIN && c !== FIELD_SEPARATOR && c !== FIELD_END) continue;
    if (hidden === 0) out += text.slice(runStart, i);
    runStart = i + 1;
    if (c === FIELD_BEGIN) {
      inInstruction.push(true);
      hidden++;
    } else if (c === FIELD_SEPARATOR) {
      if (inInstruction[inInstruction.length - 1] === true) {
        inInstruction[inInstruction.length - 1] = false;
        hidden--;
      }
    } else if (inInstruction.length) {
      if (inInstruction.pop() === true) hidden--;
    }
  }
  if (hidden === 0) out += text.slice(runStart);
  return out;
}

/** A note reference in the text, replaced by a mark doc.ts turns into a link: `\ue000f3\ue001`. */
export const NOTE_MARK_OPEN = '\ue000';
export const NOTE_MARK_CLOSE = '\ue001';

export interface WordNote {
  /** What the reference shows: Word's automatic number, or the author's custom mark. */
  label: string;
  text: string;
}

export interface WordStories {
  /** Main text with field results only; paragraphs end with \r, note references are marks. */
  main: string;
  footnotes: WordNote[];
  endnotes: WordNote[];
  /** Text of the body's text boxes, in story order. */
  textBoxes: string;
  /** Text of the text boxes anchored in page headers and footers. */
  headerTextBoxes: string;
}

/** Where a kind of note is referenced (CPs in the main text) and where each note's text is. */
export interface NotePlcs {
  references?: Plc;
  texts?: Plc;
}

/** Text of CPs [from, to), whatever the pieces and encodings in between. */
export type CpText = (from: number, to: number) => string;

const AUTO_NUMBER = '\u0002';
/** A note's text starts with its own reference mark again: that is its label, not its text. */
// eslint-disable-next-line no-control-regex -- Word's automatic note number is a control character
const LEADING_NOTE_MARK = /^[\u0002\s]+/;
const ROMAN: [number, string][] = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

/** Word numbers endnotes i, ii, iii... unless told otherwise. */
function lowerRoman(n: number): string {
  let out = '';
  for (const [value, digits] of ROMAN) for (; n >= value; n -= value) out += digits;
  return out;
}

interface Reference {
  cp: number;
  kind: 'f' | 'e';
  index: number;
}

/**
 * Reads the stories a reader needs. Note references in the main text become marks holding the note's
 * index; each note's text is cut from its story at the text PLC's CPs (relative to the story start).
 * Notes whose PLCs are missing or impossible are read as one undivided note rather than lost.
 */
export function readStories(
  text: CpText,
  lengths: StoryLengths,
  notes: { footnotes: NotePlcs; endnotes: NotePlcs },
): WordStories {
  const ranges = storyRanges(lengths);
  const references: Reference[] = [];
  const readNotes = (range: [number, number], plcs: NotePlcs, kind: 'f' | 'e'): WordNote[] => {
    const [start, end] = range;
    if (end <= start) return [];
    const bounds = plcs.texts?.cps ?? [];
    const refs = plcs.references?.cps.slice(0, -1) ?? [];
    if (bounds.length < 2 || refs.length === 0) {
      const whole = fieldResults(text(start, end)).replace(LEADING_NOTE_MARK, '');
      return whole.trim() ? [{ label: '', text: whole }] : [];
    }
    const out: WordNote[] = [];
    for (let i = 0; i + 1 < bounds.length; i++) {
      const from = start + bounds[i]!;
      const to = Math.min(end, start + bounds[i + 1]!);
      if (to <= from) continue;
      const refCp = refs[i];
      if (refCp !== undefined && refCp >= ranges.main[0] && refCp < ranges.main[1]) {
        references.push({ cp: refCp, kind, index: out.length });
      }
      out.push({ label: '', text: fieldResults(text(from, to)).replace(LEADING_NOTE_MARK, '') });
    }
    return out;
  };
  const footnotes = readNotes(ranges.footnotes, notes.footnotes, 'f');
  const endnotes = readNotes(ranges.endnotes, notes.endnotes, 'e');
  references.sort((a, b) => a.cp - b.cp);
  const parts: string[] = [];
  let at = ranges.main[0];
  const counters = { f: 0, e: 0 };
  for (const ref of references) {
    if (ref.cp < at) continue;
    parts.push(text(at, ref.cp));
    const shown = text(ref.cp, ref.cp + 1);
    const note = (ref.kind === 'f' ? footnotes : endnotes)[ref.index]!;
    if (shown === AUTO_NUMBER) {
      const n = ++counters[ref.kind];
      note.label = ref.kind === 'f' ? String(n) : lowerRoman(n);
    } else note.label = shown.trim();
    parts.push(`${NOTE_MARK_OPEN}${ref.kind}${ref.index}${NOTE_MARK_CLOSE}`);
    at = ref.cp + 1;
  }
  parts.push(text(at, ranges.main[1]));
  const story = ([from, to]: [number, number]) => (to > from ? fieldResults(text(from, to)) : '');
  return {
    main: fieldResults(parts.join('')),
    footnotes,
    endnotes,
    textBoxes: story(ranges.textBoxes),
    headerTextBoxes: story(ranges.headerTextBoxes),
  };
}
