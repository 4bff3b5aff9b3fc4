/**
 * PDF text layers read with helper threads (pdf-threads.ts) must give exactly the book one thread
 * gives — same blocks, same headings by bold face although each thread numbers fonts its own way —
 * and must lose no page when a helper dies or the parse is cancelled.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bookText } from '../builder.ts';
import { pdfParser } from './pdf.ts';
import { disposePdfThreads, pdfHelpers, pdfHelperThreadCount, startPdfHelpers } from './pdf-threads.ts';
import type { ParsedBook } from '../types.ts';

const CORPUS =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');
const read = (file: string) => readFileSync(path.join(CORPUS, 'pdf', file));
/** The book without its timing. */
const comparable = (book: ParsedBook) => ({ ...book, stats: { ...book.stats, durationMs: 0 } });
const pagesWithText = (book: ParsedBook) =>
  [...new Set(book.chapters.flatMap((c) => c.blocks.map((b) => b.pdfPage)))].sort((a, b) => a! - b!);

// Figures are not cropped here: what threads share is the text layer (pdf-figures.test.ts crops).
describe('PDF helper threads by default', () => {
  it('helps with PDFs up to 10 MB, by default one thread per further core, never with larger ones', () => {
    const spare = Math.min(3, os.availableParallelism() - 1);
    expect(pdfHelpers(2 * 1024 * 1024)).toBe(spare);
    expect(pdfHelpers(10 * 1024 * 1024)).toBe(spare);
    expect(pdfHelpers(10 * 1024 * 1024 + 1)).toBe(0);
    expect(pdfHelpers(2 * 1024 * 1024, 0)).toBe(0);
    expect(pdfHelpers(2 * 1024 * 1024, 2)).toBe(2);
    expect(pdfHelpers(20 * 1024 * 1024, 2)).toBe(0);
  });
});

describe.skipIf(!existsSync(CORPUS))('PDF text layer shared with helper threads', () => {
  afterAll(() => disposePdfThreads());

  for (const file of [
    'zh-debian-reference-cjk.pdf',
    'en-free-culture-book.pdf',
    'en-tracemonkey-two-column-footnotes.pdf',
    'en-pdkids-public-domain-stories.pdf',
  ]) {
    it(`${file}: one, two or three threads give the same book`, async () => {
      const input = read(file);
      const alone = comparable(await pdfParser.parse(input, { pdfHelperThreads: 0, pdfFigures: false }));
      expect(alone.stats.pages).toBeGreaterThan(8);
      await startPdfHelpers(2);
      for (const helpers of [1, 2]) {
        expect(comparable(await pdfParser.parse(input, { pdfHelperThreads: helpers, pdfFigures: false }))).toEqual(
          alone,
        );
      }
    });
  }

  it('a CJK book keeps its headings in bold body type when helpers read part of it', async () => {
    await startPdfHelpers(1);
    const book = await pdfParser.parse(read('zh-debian-reference-cjk.pdf'), { pdfHelperThreads: 1, pdfFigures: false });
    const headings = book.chapters.flatMap((c) => c.blocks.filter((b) => b.type === 'heading').map((b) => b.text));
    expect(headings).toContain('Abstract');
  });

  it('parses running at once share at most three helper threads and each gets its own book', async () => {
    const books = ['zh-debian-reference-cjk.pdf', 'en-free-culture-book.pdf', 'en-pdkids-public-domain-stories.pdf'];
    const alone = await Promise.all(
      books.map(async (f) => comparable(await pdfParser.parse(read(f), { pdfHelperThreads: 0, pdfFigures: false }))),
    );
    await startPdfHelpers(3);
    let most = 0;
    const onProgress = () => (most = Math.max(most, pdfHelperThreadCount()));
    const shared = await Promise.all(
      [...books, ...books].map(async (f) =>
        comparable(await pdfParser.parse(read(f), { pdfHelperThreads: 3, onProgress, pdfFigures: false })),
      ),
    );
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(3);
    expect(shared).toEqual([...alone, ...alone]);
  });

  it('reads the pages of a helper that dies in the middle of a parse', async () => {
    const input = read('zh-debian-reference-cjk.pdf');
    const alone = await pdfParser.parse(input, { pdfHelperThreads: 0, pdfFigures: false });
    await startPdfHelpers(1);
    let killed: Promise<void> | undefined;
    const book = await pdfParser.parse(input, {
      pdfHelperThreads: 1,
      pdfFigures: false,
      onProgress: (fraction) => {
        if (fraction > 0.05 && !killed) killed = disposePdfThreads();
      },
    });
    await killed;
    expect(killed).toBeDefined();
    expect(book.warnings.some((w) => w.includes('helper thread stopped'))).toBe(true);
    expect(pagesWithText(book)).toEqual(pagesWithText(alone));
    expect(bookText(book).replace(/\s/g, '')).toBe(bookText(alone).replace(/\s/g, ''));
  });

  it('stops a shared parse when the signal is aborted, stops the helper still reading, and parses the next', async () => {
    await disposePdfThreads();
    await startPdfHelpers(1);
    const input = read('en-free-culture-book.pdf');
    const controller = new AbortController();
    const error = await pdfParser
      .parse(input, {
        pdfHelperThreads: 1,
        signal: controller.signal,
        onProgress: (fraction) => {
          if (fraction > 0.1) controller.abort();
        },
      })
      .catch((e: unknown) => e);
    expect((error as { key?: string }).key).toBe('aborted');
    // The helper was still reading: it is stopped, not kept (a stuck one would hold up later parses).
    await expect.poll(() => pdfHelperThreadCount()).toBe(0);
    const book = await pdfParser.parse(input, { pdfHelperThreads: 1, pdfFigures: false });
    expect(book.stats.pages).toBe(352);
    expect(pagesWithText(book).length).toBeGreaterThan(300);
  });

  it('never waits for a helper to start: with none ready a parse reads alone and starts one for the next', async () => {
    await disposePdfThreads();
    const input = read('zh-debian-reference-cjk.pdf');
    const alone = comparable(await pdfParser.parse(input, { pdfHelperThreads: 0, pdfFigures: false }));
    expect(pdfHelperThreadCount()).toBe(0);
    expect(comparable(await pdfParser.parse(input, { pdfHelperThreads: 1, pdfFigures: false }))).toEqual(alone);
    expect(pdfHelperThreadCount()).toBe(1);
    await startPdfHelpers(1);
    expect(comparable(await pdfParser.parse(input, { pdfHelperThreads: 1, pdfFigures: false }))).toEqual(alone);
  });
});
