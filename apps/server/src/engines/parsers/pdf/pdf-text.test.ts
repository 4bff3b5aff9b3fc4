/**
 * Long PDFs are read in stretches, pdf.js's caches emptied after each (pdf-text.ts), and a parse may
 * take the caller's bytes instead of copying them: both only to keep the peak memory down, so both
 * must give exactly the book a plain parse gives.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfParser } from './pdf.ts';
import { openPdf, PageReader } from './pdf-text.ts';
import { disposePdfThreads, startPdfHelpers } from './pdf-threads.ts';
import type { ParsedBook } from '../types.ts';

const CORPUS =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');
const read = (file: string) => readFileSync(path.join(CORPUS, 'pdf', file));
/** The book without its timing. */
const comparable = (book: ParsedBook) => ({ ...book, stats: { ...book.stats, durationMs: 0 } });

// Figures are not cropped here: what is compared is the text read, not the pictures (pdf-figures.test.ts).
describe.skipIf(!existsSync(CORPUS))('PDFs read in stretches', () => {
  afterAll(() => disposePdfThreads());

  for (const file of ['en-free-culture-book.pdf', 'zh-debian-reference-cjk.pdf']) {
    it(`${file}: emptying pdf.js's caches every few dozen pages changes nothing in the book`, async () => {
      const input = read(file);
      const whole = comparable(await pdfParser.parse(input, { pdfHelperThreads: 0, pdfFigures: false }));
      expect(whole.stats.pages).toBeGreaterThan(200);
      const stretched = await pdfParser.parse(input, { pdfHelperThreads: 0, pdfStretchPages: 45, pdfFigures: false });
      expect(comparable(stretched)).toEqual(whole);
    });
  }

  it('names each font once, however many stretches it is used in', async () => {
    const doc = await openPdf(read('zh-debian-reference-cjk.pdf'));
    try {
      const reader = new PageReader(doc, '', 45);
      const asked: string[] = [];
      const nameFonts = reader.nameFonts.bind(reader);
      reader.nameFonts = (only) => {
        asked.push(...(only ?? ['every font']));
        return nameFonts(only);
      };
      const used = new Set<string>();
      for (let n = 1; n <= doc.numPages; n++) {
        for (const line of (await reader.read(n)).lines) if (line.font) used.add(line.font);
      }
      const faces = await reader.namedFonts();
      expect(reader.emptiedCaches).toBe(true);
      expect(asked.length).toBe(new Set(asked).size);
      expect(new Set(asked)).toEqual(used);
      expect(Object.keys(faces).sort()).toEqual([...used].sort());
    } finally {
      await doc.destroy();
    }
  });

  it('a helper thread reading in stretches too gives the same book', async () => {
    const input = read('zh-debian-reference-cjk.pdf');
    const whole = comparable(await pdfParser.parse(input, { pdfHelperThreads: 0, pdfFigures: false }));
    await startPdfHelpers(1);
    const shared = await pdfParser.parse(input, { pdfHelperThreads: 1, pdfStretchPages: 30, pdfFigures: false });
    expect(comparable(shared)).toEqual(whole);
    expect(shared.warnings.join('\n')).not.toMatch(/helper/);
  });
});

describe.skipIf(!existsSync(CORPUS))('PDF bytes handed over', () => {
  afterAll(() => disposePdfThreads());

  it('pdf.js takes the bytes instead of a copy, and the book is the same', async () => {
    const whole = comparable(
      await pdfParser.parse(read('en-pdkids-public-domain-stories.pdf'), { pdfHelperThreads: 0 }),
    );
    const input = read('en-pdkids-public-domain-stories.pdf');
    const handedOver = await pdfParser.parse(input, { pdfHelperThreads: 0, handOverInput: true });
    expect(comparable(handedOver)).toEqual(whole);
    expect(input.length).toBe(0);
  });

  it('keeps the bytes when helper threads need copies of them', async () => {
    const input = read('en-pdkids-public-domain-stories.pdf');
    const size = input.length;
    await startPdfHelpers(1);
    const book = await pdfParser.parse(input, { pdfHelperThreads: 1, handOverInput: true });
    expect(book.stats.pages).toBe(55);
    expect(input.length).toBe(size);
  });

  it('without handOverInput the caller keeps its bytes', async () => {
    const input = read('en-tracemonkey-two-column-footnotes.pdf');
    const size = input.length;
    await pdfParser.parse(input, { pdfHelperThreads: 0, pdfFigures: false });
    expect(input.length).toBe(size);
  });
});
