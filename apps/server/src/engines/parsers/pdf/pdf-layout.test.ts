import { describe, expect, it } from 'vitest';
import {
  bodyFontSize,
  closeParagraph,
  isWeightHeadingLine,
  linesToParagraphs,
  splitFootnotes,
  footnoteParagraphs,
} from './pdf-layout.ts';
import { removeRunningLines } from './pdf-running.ts';
import type { ParagraphState, PdfLine, PdfPageText, PdfParagraph, PdfTextItem } from './pdf-layout.ts';
import { orderLines } from './pdf-columns.ts';
import { buildLexicon, joinParagraphLines } from './pdf-join.ts';
import { buildLines } from './pdf-lines.ts';
import { ocrParagraphs } from './pdf-ocr.ts';
import { bylineChapters } from './pdf-chapters.ts';

const CHAR = 5; // average glyph width at size 10

function item(str: string, x: number, y: number, size = 10): PdfTextItem {
  return { str, x, y, width: str.length * CHAR * (size / 10), size };
}

function page(n: number, items: PdfTextItem[]): PdfPageText {
  return { page: n, width: 600, height: 800, items };
}

function paragraphsOf(pages: PdfPageText[]): PdfParagraph[] {
  const perPage = pages.map((p) => ({ height: p.height, lines: buildLines(p) }));
  removeRunningLines(perPage);
  const all = perPage.flatMap((p) => p.lines);
  const body = bodyFontSize(all);
  const state: ParagraphState = {};
  const out: PdfParagraph[] = [];
  for (const p of perPage) {
    const ordered = orderLines(p.lines);
    const { body: lines, notes } = splitFootnotes(ordered, body);
    linesToParagraphs(lines, body, [], state, out);
    out.push(...footnoteParagraphs(notes));
  }
  if (state.open) {
    state.open.para.text = joinParagraphLines(state.open.lines);
    out.push(state.open.para);
  }
  return out;
}

describe('PDF layout', () => {
  it('repairs hyphenation and joins CJK lines without spaces', () => {
    expect(joinParagraphLines(['the trans-', 'lation of', 'words'])).toBe('the translation of words');
    expect(joinParagraphLines(['Trace-', 'Monkey runs'])).toBe('Trace-Monkey runs');
    expect(joinParagraphLines(['中文的第一', '行和第二行'])).toBe('中文的第一行和第二行');
    // A space at a line end except between CJK characters (or at CJK punctuation).
    expect(joinParagraphLines(['mixed English', '和中文'])).toBe('mixed English 和中文');
    expect(joinParagraphLines(['the law', 'the people'])).toBe('the law the people');
    expect(joinParagraphLines(['系统，', 'Debian 用户'])).toBe('系统，Debian 用户');
    expect(joinParagraphLines(['「吾輩は', '猫である」'])).toBe('「吾輩は猫である」');
  });

  it('keeps a line-end hyphen only where the document writes the word with one', () => {
    const lexicon = buildLexicon([
      'a translation and a self-esteem issue,',
      'more self-esteem than Trace-Monkey and co-',
      'operation, cooperation everywhere',
    ]);
    expect(joinParagraphLines(['the trans-', 'lation of'], lexicon)).toBe('the translation of');
    expect(joinParagraphLines(['low self-', 'esteem here'], lexicon)).toBe('low self-esteem here');
    // Never seen either way: one word.
    expect(joinParagraphLines(['an unbe-', 'lievable story'], lexicon)).toBe('an unbelievable story');
    // Both seen: the more frequent form ("co-" at a line end is not counted as "co-operation").
    expect(joinParagraphLines(['co-', 'operation'], lexicon)).toBe('cooperation');
    expect(joinParagraphLines(['Trace-', 'Monkey runs'], lexicon)).toBe('Trace-Monkey runs');
  });

  it('recognizes body-size bold heading lines, not run-in headings, captions or sentences', () => {
    const line = (text: string, fontShare = 1): PdfLine => ({
      page: 1,
      text,
      x0: 0,
      x1: 100,
      y: 0,
      size: 10,
      marks: [],
      col: 0,
      font: 'f2',
      fontShare,
    });
    expect(isWeightHeadingLine(line('3.1 Traces'), 10)).toBe(true);
    expect(isWeightHeadingLine(line('A. GENERAL INFORMATION'), 10)).toBe(true);
    expect(isWeightHeadingLine(line('Numbers. JavaScript has no', 0.6), 10)).toBe(false);
    expect(isWeightHeadingLine(line('Figure 1. Sample program'), 10)).toBe(false);
    expect(isWeightHeadingLine(line('This is a whole sentence.'), 10)).toBe(false);
    expect(isWeightHeadingLine(line('executed by inter-'), 10)).toBe(false);
  });

  it('holds page notes back until the paragraph running onto the next page ends', () => {
    const out: PdfParagraph[] = [];
    const note: PdfParagraph = { kind: 'footnote', text: '1 A note.', page: 1, top: 0, size: 8, marks: [], boxes: [] };
    const state: ParagraphState = { pending: [note] };
    const last: PdfLine = { page: 1, text: 'runs on', x0: 0, x1: 100, y: 0, size: 10, marks: [], col: 0 };
    state.open = {
      para: { kind: 'paragraph', text: '', page: 1, top: 0, size: 10, marks: [], boxes: [] },
      lines: ['A paragraph that', 'runs on'],
      last,
      colRight: 100,
    };
    closeParagraph(state, out);
    expect(out.map((p) => p.text)).toEqual(['A paragraph that runs on', '1 A note.']);
    expect(state.pending).toEqual([]);
  });

  it('builds lines from items, with spaces from gaps and superscript note marks', () => {
    const lines = buildLines(
      page(1, [item('Hello', 50, 700), item('world', 80, 700), item('1', 106, 704, 6), item('again', 120, 700)]),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toBe('Hello world1 again');
    expect(lines[0]!.marks).toEqual(['1']);
  });

  it("gives a footnote its raised label when the other column's line stands at the label's height", () => {
    const lines = buildLines(
      page(1, [
        item('2', 54, 98.2, 6),
        item(' ', 57, 98.2, 6),
        item('Instead of aborting the outer recording, we could', 58.5, 95.3, 8),
        item('This section explains how a recorded trace is translated', 317, 98.3, 9),
      ]),
    );
    const note = lines.find((l) => l.text.includes('Instead'))!;
    expect(note.text).toBe('2 Instead of aborting the outer recording, we could');
    expect(note.leadingMark).toBe('2');
    expect(lines.map((l) => l.text)).not.toContain('2');
  });

  it('removes running headers, footers and page numbers', () => {
    const pages = [1, 2, 3, 4, 5, 6].map((n) =>
      page(n, [
        item(`FREE CULTURE ${n * 2}`, 50, 770),
        item(`Body text of page ${n} that is long enough to be a line.`, 50, 600),
        item(`Second body line on page ${n}, also quite long indeed.`, 50, 586),
        item(String(n + 10), 290, 30),
      ]),
    );
    const text = paragraphsOf(pages)
      .map((p) => p.text)
      .join('\n');
    expect(text).not.toMatch(/FREE CULTURE/);
    expect(text).not.toMatch(/^\d+$/m);
    expect(text).toContain('Body text of page 3');
  });

  it('removes page numbers standing in the outer margin, and keeps the numbers of a table', () => {
    // A journal's page number sits in the outer margin a quarter of the way down, left and right in
    // turn; a table of figures on every page has numbers too, at other heights and values.
    const pages = [1, 2, 3, 4, 5, 6].map((n) =>
      page(n, [
        item(`Body text of page ${n} that is long enough to be a line of the article.`, 50, 700),
        item(String(161 + n), n % 2 ? 20 : 470, 600 - (n % 3)),
        item(`Second body line on page ${n}, it goes on to the end of the column.`, 50, 586),
        item(String(40 + n * 7), 300, 400 + n * 20),
        item('Table totals', 50, 300),
      ]),
    );
    const text = paragraphsOf(pages).map((p) => p.text);
    expect(text.filter((t) => /^16\d$/.test(t))).toEqual([]);
    expect(text.filter((t) => /^\d+$/.test(t))).toEqual(['47', '54', '61', '68', '75', '82']);
  });

  it('reads two columns left then right, and continues a paragraph across the column break', () => {
    const items: PdfTextItem[] = [item('A Title Spanning The Whole Page Width In Large Type Here', 60, 760, 16)];
    const left = [
      'The left column starts here and',
      'runs down the page with text that',
      'continues until the bottom of the',
      'column where it breaks mid-',
    ];
    const right = [
      'sentence and goes on in the right',
      'column until it is finished now.',
      'A second paragraph is short.',
    ];
    left.forEach((t, i) => items.push({ ...item(t, 50, 700 - i * 12), width: 180 }));
    right.forEach((t, i) => items.push({ ...item(t, 320, 700 - i * 12), width: [180, 150, 140][i]! }));
    const paras = paragraphsOf([page(1, items)]);
    const texts = paras.map((p) => p.text);
    expect(texts[0]).toMatch(/^A Title Spanning/);
    expect(texts[1]).toBe(
      'The left column starts here and runs down the page with text that continues until the bottom of the column where it breaks midsentence and goes on in the right column until it is finished now.',
    );
    expect(texts[2]).toBe('A second paragraph is short.');
  });

  it('keeps a hanging indent in its item, and starts a paragraph at a first-line indent', () => {
    const full = 400;
    const at = (t: string, x: number, y: number, width = full - (x - 50)) => ({ ...item(t, x, y), width });
    const items = [
      // A reference list: each entry runs to the margin mid-sentence, its next lines indented.
      at('Baltes, B. and Heydens-Gahir, H. (2003), “Reduction of work-family conflict through the use of', 50, 700),
      at('selection, optimization and compensation behaviours”, Journal of Applied Psychology.', 70, 688, 300),
      at('Bohle, P. and Quinlan, M. (2000), Managing Occupational Health and Safety: A Multidisciplinary', 50, 676),
      at('Approach, Macmillan Publishers, South Yarra.', 70, 664, 200),
      // Body text with first-line indents: a paragraph ends, the next one is indented.
      at('The first paragraph of the body runs over two lines of text here and it', 50, 640),
      at('ends on this shorter line.', 50, 628, 150),
      at('An indented line begins the second paragraph, which goes on to the margin', 70, 616),
      at('and ends here, with a full stop at the margin, as justified text may do.', 50, 604),
      at('Another indented line begins a third paragraph, after a full line that ended.', 70, 592),
      at('Plain text at the margin follows it to make the column left aligned.', 50, 580),
      at('More plain text at the margin follows it to make the column left aligned.', 50, 568),
    ];
    const texts = paragraphsOf([page(1, items)]).map((p) => p.text);
    expect(texts).toEqual([
      'Baltes, B. and Heydens-Gahir, H. (2003), “Reduction of work-family conflict through the use of selection, optimization and compensation behaviours”, Journal of Applied Psychology.',
      'Bohle, P. and Quinlan, M. (2000), Managing Occupational Health and Safety: A Multidisciplinary Approach, Macmillan Publishers, South Yarra.',
      'The first paragraph of the body runs over two lines of text here and it ends on this shorter line.',
      'An indented line begins the second paragraph, which goes on to the margin and ends here, with a full stop at the margin, as justified text may do.',
      'Another indented line begins a third paragraph, after a full line that ended. Plain text at the margin follows it to make the column left aligned. More plain text at the margin follows it to make the column left aligned.',
    ]);
  });

  it('splits small-font footnotes at the bottom of the page', () => {
    const items = [
      item('Body paragraph with a reference to a note here and more', 50, 700),
      item('1', 330, 704, 6),
      item('text to fill the line properly for the test case.', 50, 688),
      item('1', 50, 84, 6),
      item('This is the footnote text, set in a smaller font size.', 54, 80, 8),
    ];
    const paras = paragraphsOf([page(1, items)]);
    const note = paras.find((p) => p.kind === 'footnote');
    expect(note).toMatchObject({ label: '1', text: '1 This is the footnote text, set in a smaller font size.' });
    expect(paras.find((p) => p.kind === 'paragraph')!.marks).toEqual(['1']);
  });

  it('turns OCR text into paragraphs', () => {
    const text =
      'We went tip-toeing along a path amongst\nthe trees back towards the end of the\nwidow’s garden.\nHe listened some more; then he\ncome tip-toe-\ning down.';
    const paras = ocrParagraphs(text, 1).map((p) => p.text);
    expect(paras[0]).toBe(
      'We went tip-toeing along a path amongst the trees back towards the end of the widow’s garden.',
    );
    expect(paras[1]).toBe('He listened some more; then he come tip-toeing down.');
  });

  it('finds anthology pieces from by-lines', () => {
    const d = (text: string) => ({ type: 'paragraph' as const, text });
    const drafts = [
      d('The Buried Moon'),
      d('by Edmund Dulac'),
      d('a.'),
      d('b.'),
      d('c.'),
      d('The Pot Of Gold, By Mary E Wilkins'),
      d('x.'),
      d('y.'),
      d('z.'),
    ];
    expect(bylineChapters(drafts)).toEqual([
      { index: 0, title: 'The Buried Moon' },
      { index: 5, title: 'The Pot Of Gold' },
    ]);
  });

  it('keeps single-column pages in top-to-bottom order', () => {
    const lines: PdfLine[] = Array.from({ length: 10 }, (_, i) => ({
      page: 1,
      text: `line ${i}`,
      x0: 50,
      x1: 540,
      y: 700 - i * 12,
      size: 10,
      marks: [],
      col: 0,
    }));
    expect(orderLines([...lines].reverse()).map((l) => l.text)).toEqual(lines.map((l) => l.text));
  });
});

describe('PDF parser options', () => {
  it('stops when the signal is aborted', async () => {
    const { readFileSync, existsSync } = await import('node:fs');
    const path = await import('node:path');
    const { pdfParser } = await import('./pdf.ts');
    const corpus =
      process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');
    const file = path.join(corpus, 'pdf/en-tracemonkey-two-column-footnotes.pdf');
    if (!existsSync(file)) return;
    const error = await pdfParser.parse(readFileSync(file), { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((error as { key?: string }).key).toBe('aborted');
  });
});
