/**
 * Lines of real (generated) PDFs through the parser: columns read one after the other, right-to-left
 * lines in reading order, the characters of presentation forms and accents made ordinary text.
 */
import { describe, expect, it } from 'vitest';
import { bookText } from '../builder.ts';
import { pdfFixture } from './pdf-fixture.ts';
import type { FixtureRun } from './pdf-fixture.ts';
import { buildLines } from './pdf-lines.ts';
import { normalizeItemText } from './pdf-unicode.ts';
import { pdfParser } from './pdf.ts';

const SENTENCES = [
  'Rivers carry water from the hills down to the sea.',
  'Farmers plant wheat in autumn and harvest it in summer.',
  'The old mill turned for two hundred years before it stopped.',
  'Children learn to swim in the shallow bend below the bridge.',
  'Merchants once crossed the valley with mules and carts.',
  'A storm in the spring of that year took the roof off the barn.',
  'Nobody could say when the road over the pass would open again.',
  'Letters arrived twice a week with the coach from the city.',
];

/** `text` cut into lines of exactly `width` characters (words broken, Courier: 0.6 em each). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += width) lines.push(text.slice(i, i + width).padEnd(width, ' '));
  return lines;
}

/** Columns of monospaced lines `gutter` points apart, each column one paragraph that fills it. */
function columnsPage(columns: string[], width: number, gutter: number): FixtureRun[] {
  const runs: FixtureRun[] = [];
  columns.forEach((text, c) => {
    const x = 50 + c * (width * 6 + gutter);
    wrap(text, width).forEach((line, i) => runs.push({ text: line, x, y: 740 - i * 12, font: 'mono' }));
  });
  return runs;
}

/** A second line of Hebrew (a page with fewer than 20 characters is taken for a scan). */
const HEBREW_LINE: FixtureRun = { text: 'םלוכ םולש המ םלוע םולש', x: 100, y: 680, font: 'named' };

async function parseText(runs: FixtureRun[]): Promise<string> {
  const book = await pdfParser.parse(Buffer.from(pdfFixture([{ runs }])), { pdfHelperThreads: 0 });
  return bookText(book);
}

const squash = (text: string) => text.replace(/\s+/g, '');

describe('PDF columns', () => {
  it('reads two columns with a narrow gutter one after the other', async () => {
    const left = SENTENCES.slice(0, 4).join(' ');
    const right = SENTENCES.slice(4).join(' ');
    // 40 characters of 6 pt, 12 pt apart: the gutter (1.2 em) is narrower than a gap that cuts a line.
    const text = await parseText(columnsPage([left, right], 40, 12));
    expect(squash(text)).toBe(squash(left + right));
  });

  it('reads three columns one after the other', async () => {
    const columns = [SENTENCES.slice(0, 3), SENTENCES.slice(3, 6), SENTENCES.slice(6)].map((s) => s.join(' '));
    const text = await parseText(columnsPage(columns, 26, 12));
    expect(squash(text)).toBe(squash(columns.join('')));
  });

  it('keeps a table of contents with tab stops in rows', async () => {
    const chapters = ['Creators', 'Mere Copyists', 'Catalogs', 'Pirates', 'Piracy', 'Founders', 'Recorders'];
    const runs: FixtureRun[] = chapters.flatMap((title, i) => [
      { text: 'CHAPTER', x: 72, y: 700 - i * 14 },
      { text: `${['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN'][i]}: ${title}`, x: 130, y: 700 - i * 14 },
      { text: String(20 + i * 10), x: 400, y: 700 - i * 14 },
    ]);
    const text = await parseText(runs);
    expect(text).toContain('CHAPTER ONE: Creators 20');
    expect(text).toContain('CHAPTER SEVEN: Recorders 80');
  });
});

describe('PDF right-to-left lines', () => {
  it('reads a Hebrew line from its right end, numbers and brackets in place', async () => {
    // Drawn as a PDF draws it: in visual order, left to right (here in three runs).
    const runs: FixtureRun[] = [
      { text: 'ןידה תיבל', x: 100, y: 700, font: 'named' },
      { text: '15', x: 160, y: 700, font: 'named' },
      { text: 'ףיעס יפל', x: 180, y: 700, font: 'named' },
      HEBREW_LINE,
    ];
    expect((await parseText(runs)).split('\n')[0]).toBe('לפי סעיף 15 לבית הדין');
  });

  it('reads Arabic presentation forms as letters, ligatures in their order', async () => {
    // "الخطوط" drawn with the lam-khah ligature (U+FCCB), in visual order.
    const runs: FixtureRun[] = [{ text: 'ﻁﻮﻄ\ufccbا ﻉاﻮﻧا', x: 100, y: 700, font: 'named' }, HEBREW_LINE];
    expect((await parseText(runs)).split('\n')[0]).toBe('انواع الخطوط');
  });
});

describe('PDF vertical text', () => {
  it('reads Japanese columns top to bottom and right to left, with ordinary punctuation', async () => {
    const columns = [
      '吾輩は猫である︒名前はまだ無い︒',
      'どこで生れたかとんと見当がつかぬ︒',
      '何でも薄暗いじめじめした所で泣いていた︒',
    ];
    // One glyph per run, each column under the previous glyph, the first column on the right.
    const runs: FixtureRun[] = columns.flatMap((column, c) =>
      [...column].map((ch, i) => ({ text: ch, x: 400 - c * 16, y: 700 - i * 10, font: 'named' as const })),
    );
    const text = await parseText(runs);
    expect(squash(text)).toBe(squash(columns.join('')).replaceAll('︒', '。'));
  });
});

describe('PDF characters', () => {
  it('makes presentation forms, vertical punctuation and accent glyphs ordinary text', () => {
    expect(normalizeItemText('ﻟﻌﺮﺑﻴﺔ')).toBe('لعربية');
    expect(normalizeItemText('﹁含む︒︶﹂を︑')).toBe('「含む。）」を、');
    expect(normalizeItemText('na¨ıve r´esum´e')).toBe('naïve résumé');
    expect(normalizeItemText('oﬃce')).toBe('office');
  });

  it('turns control characters into spaces, so the words they stood between stay apart', () => {
    expect(normalizeItemText('the law\u0003the people')).toBe('the law the people');
  });

  it('puts accents given as items of their own back on their letters', () => {
    const lines = buildLines({
      page: 1,
      width: 600,
      height: 800,
      items: [
        { str: 'resume', x: 100, y: 700, width: 30, size: 10 },
        // The acute over the first "e" (the second letter), drawn after the word.
        { str: '\u0301', x: 106, y: 700, width: 0, size: 10 },
        { str: 'cafe', x: 140, y: 700, width: 20, size: 10 },
        { str: '\u0301', x: 156, y: 700, width: 2, size: 10 },
      ],
    });
    expect(lines.map((l) => l.text)).toEqual(['résume café']);
  });
});
