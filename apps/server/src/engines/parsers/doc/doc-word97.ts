/**
 * Word 97-2003 binary documents ([MS-DOC]): the FIB in WordDocument points into the table stream
 * (0Table or 1Table) for the piece table and the note PLCs; text is UTF-16 or, in "compressed"
 * pieces, Windows-1252. Read with the structures word-binary.ts shares with Word 6/95, so field
 * results, note references and text boxes come out the same way for every version.
 */
import type { CompoundFile } from './cfb.ts';
import type { NotePlcs, StoryLengths, WordStories } from './word-binary.ts';
import { corruptWord, readPieceTable, readPlc, readStories, textOfRange } from './word-binary.ts';

const F_WHICH_TABLE_STREAM = 0x0200;
/** FibBase is 32 bytes; then csw and fibRgW, cslw and fibRgLw, cbRgFcLcb and the fc/lcb pairs. */
const FIB_BASE_BYTES = 32;
/** Indexes of fc/lcb pairs in FibRgFcLcb97. */
const PAIR = {
  plcffndRef: 2,
  plcffndTxt: 3,
  clx: 33,
  plcfendRef: 46,
  plcfendTxt: 47,
} as const;

const windows1252 = new TextDecoder('windows-1252');

export function readWord97(file: CompoundFile, stream: Buffer): WordStories {
  const u16 = (at: number) => {
    if (at + 2 > stream.length) throw corruptWord('the FIB is truncated');
    return stream.readUInt16LE(at);
  };
  const u32 = (at: number) => {
    if (at + 4 > stream.length) throw corruptWord('the FIB is truncated');
    return stream.readUInt32LE(at);
  };
  const rgLw = FIB_BASE_BYTES + 2 + u16(FIB_BASE_BYTES) * 2 + 2;
  const cslw = u16(rgLw - 2);
  const pairsAt = rgLw + cslw * 4 + 2;
  const pairCount = u16(pairsAt - 2);
  const pair = (index: number): [number, number] =>
    index < pairCount ? [u32(pairsAt + index * 8), u32(pairsAt + index * 8 + 4)] : [0, 0];
  const ccp = (index: number) => (index < cslw ? u32(rgLw + index * 4) : 0);
  const lengths: StoryLengths = {
    main: ccp(3),
    footnotes: ccp(4),
    headers: ccp(5),
    macros: ccp(6),
    annotations: ccp(7),
    endnotes: ccp(8),
    textBoxes: ccp(9),
    headerTextBoxes: ccp(10),
  };
  const totalCps = Object.values(lengths).reduce((a, b) => a + b, 0);
  if (totalCps > stream.length) throw corruptWord('more characters than the file has bytes');

  const tableName = u16(0x0a) & F_WHICH_TABLE_STREAM ? '1Table' : '0Table';
  const table = file.stream(tableName);
  if (!table) throw corruptWord(`no ${tableName} stream`);
  const [clxAt, clxLength] = pair(PAIR.clx);
  if (clxLength === 0 || clxAt + clxLength > table.length) throw corruptWord('the piece table is missing');
  const pieces = readPieceTable(table.subarray(clxAt, clxAt + clxLength), true);
  const text = (from: number, to: number) =>
    textOfRange(stream, pieces, from, to, (bytes) => windows1252.decode(bytes));
  const notePlcs = (references: number, texts: number): NotePlcs => ({
    references: readPlc(table, ...pair(references), 2),
    texts: readPlc(table, ...pair(texts), 0),
  });
  return readStories(text, lengths, {
    footnotes: notePlcs(PAIR.plcffndRef, PAIR.plcffndTxt),
    endnotes: notePlcs(PAIR.plcfendRef, PAIR.plcfendTxt),
  });
}
