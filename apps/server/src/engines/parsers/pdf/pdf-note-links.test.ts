import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOTE_LINK_MARK } from '../blocks.ts';
import { pdfParser } from './pdf.ts';
import { linkNoteMarks } from './pdf-note-links.ts';

const CORPUS =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');
const link = (key: string, label: string) =>
  `<sup><a href="#${NOTE_LINK_MARK}${key}${NOTE_LINK_MARK}">${label}</a></sup>`;

describe('PDF note calls', () => {
  it('links each raised mark where it was printed, never a digit of a number', () => {
    const keys = new Map([
      ['1', 'n1'],
      ['2', 'n2'],
    ]);
    expect(linkNoteMarks('In 1660 the double.1 Then 2 more, and done 2', ['1', '2'], keys)).toBe(
      `In 1660 the double.${link('n1', '1')} Then ${link('n2', '2')} more, and done 2`,
    );
    expect(linkNoteMarks('glued2 first, spaced 2 later', ['2'], keys)).toBe(
      `glued${link('n2', '2')} first, spaced 2 later`,
    );
    expect(linkNoteMarks('No marks here.', ['3'], keys)).toBeUndefined();
  });

  it('makes TraceMonkey’s footnote call a link to its note (autoSplitFootnote)', async () => {
    const book = await pdfParser.parse(readFileSync(path.join(CORPUS, 'pdf/en-tracemonkey-two-column-footnotes.pdf')), {
      autoSplitFootnote: true,
    });
    const blocks = book.chapters.flatMap((c) => c.blocks);
    const calling = blocks.find((b) => b.noteRefs?.length)!;
    const note = blocks.find((b) => b.id === calling.noteRefs![0])!;
    expect(note.text).toMatch(/^1 Arrays are actually worse than this/);
    expect(calling.html).toContain(`back to a double.<sup><a href="#${note.id}">1</a></sup> Clearly`);
    expect(note.referencedBy).toEqual([calling.id]);
  });
});
