import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBook } from '../registry.ts';
import type { Block, ParsedBook } from '../types.ts';
import { columnRuns, pdfFixture } from './pdf-fixture.ts';
import { addBox, toPdfRegions } from './pdf-regions.ts';
import type { PageBox } from './pdf-regions.ts';
import { openPdf } from './pdf-text.ts';
import { disposePdfThreads } from './pdf-threads.ts';

const CORPUS = process.env.YIDU_CORPUS_DIR ?? path.resolve(import.meta.dirname, '../../../../../../../shared/corpus');

afterAll(() => disposePdfThreads());

const blocks = (book: ParsedBook): Block[] => book.chapters.flatMap((c) => c.blocks);

describe('pdf regions', () => {
  it('grows one box per page and column, and starts a piece at the next column or page', () => {
    const boxes: PageBox[] = [];
    addBox(boxes, { page: 1, col: 0, x0: 50, x1: 290, bottom: 700, top: 710 });
    addBox(boxes, { page: 1, col: 0, x0: 60, x1: 280, bottom: 688, top: 698 });
    addBox(boxes, { page: 1, col: 1, x0: 320, x1: 560, bottom: 740, top: 750 });
    addBox(boxes, { page: 2, col: 0, x0: 50, x1: 290, bottom: 740, top: 750 });
    expect(boxes).toEqual([
      { page: 1, col: 0, x0: 50, x1: 290, bottom: 688, top: 710 },
      { page: 1, col: 1, x0: 320, x1: 560, bottom: 740, top: 750 },
      { page: 2, col: 0, x0: 50, x1: 290, bottom: 740, top: 750 },
    ]);
  });

  // The rectangle a text run covers, as pdf.js's own viewport places it on the displayed page.
  it.each([0, 90, 180, 270])(
    'places blocks on a page rotated %i degrees with a crop box as pdf.js displays it',
    async (rotate) => {
      const cropBox: [number, number, number, number] = [36, 72, 576, 756];
      const runs = [
        { text: 'A heading that stands alone', x: 100, y: 650, size: 18 },
        ...columnRuns(['The first line of a paragraph of text', 'and the second line of the paragraph.'], 100, 600),
      ];
      const file = pdfFixture([{ runs, rotate, cropBox }]);
      const book = await parseBook(Buffer.from(file));
      const paragraph = blocks(book).find((b) => b.text.startsWith('The first line'))!;
      expect(paragraph.pdfRegions).toHaveLength(1);
      const region = paragraph.pdfRegions![0]!;

      const doc = await openPdf(file);
      const page = await doc.getPage(1);
      const viewport = page.getViewport({ scale: 1 });
      // The lines' box in PDF user space: from their left to the end of the longer one,
      // from below the last baseline to above the first (10 pt type).
      const lineWidths = (await page.getTextContent()).items.map((item) =>
        'str' in item && item.transform[0] === 10 ? item.width : 0,
      );
      const longest = Math.max(...lineWidths);
      const [ax, ay, bx, by] = viewport.convertToViewportRectangle([100, 588 - 2.5, 100 + longest, 600 + 8.5]);
      await doc.destroy();
      const expected = {
        x: Math.min(ax!, bx!) / viewport.width,
        y: Math.min(ay!, by!) / viewport.height,
        w: Math.abs(bx! - ax!) / viewport.width,
        h: Math.abs(by! - ay!) / viewport.height,
      };
      expect(region.page).toBe(1);
      for (const key of ['x', 'y', 'w', 'h'] as const) expect(region[key]).toBeCloseTo(expected[key], 3);
    },
  );

  it('leaves out boxes of pages it knows nothing of and keeps regions inside the page', () => {
    const boxes: PageBox[] = [
      { page: 1, col: 0, x0: -20, x1: 700, bottom: -5, top: 900 },
      { page: 9, col: 0, x0: 0, x1: 10, bottom: 0, top: 10 },
    ];
    const regions = toPdfRegions(boxes, (n) =>
      n === 1 ? { width: 612, height: 792, rotate: 0, turned: false } : undefined,
    );
    expect(regions).toEqual([{ page: 1, x: 0, y: 0, w: 1, h: 1 }]);
  });

  it('gives every block of a two-column paper its place, in reading order down each column', async () => {
    const book = await parseBook(await readFile(path.join(CORPUS, 'pdf/en-tracemonkey-two-column-footnotes.pdf')));
    const all = blocks(book);
    expect(all.every((b) => b.pdfRegions?.length)).toBe(true);
    for (const b of all) {
      expect(b.pdfRegions![0]!.page).toBe(b.pdfPage);
      for (const r of b.pdfRegions!) {
        expect(r.x).toBeGreaterThanOrEqual(0);
        expect(r.y).toBeGreaterThanOrEqual(0);
        expect(r.x + r.w).toBeLessThanOrEqual(1);
        expect(r.y + r.h).toBeLessThanOrEqual(1);
      }
    }
    // Page 2's left column: the paragraphs follow one another down the page, in the left half.
    const left = all.filter((b) => b.type === 'paragraph' && b.pdfRegions![0]!.page === 2 && b.pdfRegions![0]!.x < 0.3);
    expect(left.length).toBeGreaterThan(2);
    for (let i = 1; i < left.length; i++) {
      expect(left[i]!.pdfRegions![0]!.y).toBeGreaterThan(left[i - 1]!.pdfRegions![0]!.y);
    }
    // The introduction's first paragraph runs from the bottom of the left column to the top of the right.
    const intro = all.find((b) => b.text.startsWith('Dynamic languages such as JavaScript, Python'))!;
    expect(intro.pdfRegions).toHaveLength(2);
    const [first, second] = intro.pdfRegions!;
    expect(first!.x + first!.w).toBeLessThan(0.5);
    expect(second!.x).toBeGreaterThan(0.5);
    expect(second!.y).toBeLessThan(first!.y);
  });
});
