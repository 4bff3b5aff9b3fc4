import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bookText } from '../builder.ts';
import { columnRuns, pdfFixture } from './pdf-fixture.ts';
import { pdfParser } from './pdf.ts';

const CORPUS =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');

const PLACES = ['lake', 'river', 'harbour', 'forest'];

/** A page of its own (lines repeated on every page, digits aside, are running heads). */
function chapterPage(n: number) {
  const place = PLACES[n - 1]!;
  const lines = [
    `The ${place} lies still on a winter evening`,
    `where the ferryman of the ${place} waits for the last boat`,
    `and the lights by the ${place} go out one after another`,
  ];
  return { runs: columnRuns(lines, 72, 700) };
}

describe('PDFs cut short', () => {
  it('are read as far as they go', async () => {
    const whole = pdfFixture([1, 2, 3, 4].map(chapterPage));
    const text = new TextDecoder('latin1').decode(whole);
    // Cut in the middle of the last page's content: no page tree entry, no cross-reference table, no trailer.
    const cut = whole.subarray(0, text.lastIndexOf('The forest') + 12);
    const book = await pdfParser.parse(Buffer.from(cut), { pdfHelperThreads: 0 });
    const got = bookText(book);
    for (const place of PLACES.slice(0, 3)) expect(got).toContain(`where the ferryman of the ${place} waits`);
    expect(got).not.toContain('forest');
  });

  it.skipIf(!existsSync(path.join(CORPUS, 'pdf')))('a two-column paper cut in half keeps its first pages', async () => {
    const whole = readFileSync(path.join(CORPUS, 'pdf/en-tracemonkey-two-column-footnotes.pdf'));
    const book = await pdfParser.parse(whole.subarray(0, whole.length / 2), { pdfHelperThreads: 0 });
    expect(book.stats.pages).toBeGreaterThanOrEqual(8);
    expect(bookText(book)).toContain('Trace-based Just-in-Time Type Specialization');
  });
});
