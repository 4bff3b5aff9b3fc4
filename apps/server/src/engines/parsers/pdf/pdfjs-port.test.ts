/**
 * pdf.js's worker side talks to us through a port that passes text content on without a deep copy
 * (pdfjs-port.ts). What arrives must be exactly what pdf.js's own loopback port delivers, page after
 * page, and a document destroyed must leave nothing listening behind.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pdfParser } from './pdf.ts';
import { openPdf, PDFJS_DOCUMENT_OPTIONS } from './pdf-text.ts';
import { inThreadWorker } from './pdfjs-port.ts';
import { isPaintItem } from './pdf-graphics.ts';

const CORPUS =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');
const read = (file: string) => readFileSync(path.join(CORPUS, 'pdf', file));
const loadPdfJs = () => import('pdfjs-dist/legacy/build/pdf.mjs');

/** Font ids name their document (`g_d3_f1`), and the two reads are two documents. */
const withoutDocumentIds = (content: unknown) => JSON.parse(JSON.stringify(content).replace(/"g_d\d+_/g, '"g_d_'));

/** The text content of every page, read through pdf.js's own loopback port. */
async function textThroughLoopback(data: Uint8Array) {
  const pdfjs = await loadPdfJs();
  const doc = await pdfjs.getDocument({ data, ...PDFJS_DOCUMENT_OPTIONS }).promise;
  try {
    const pages = [];
    for (let n = 1; n <= doc.numPages; n++) {
      pages.push(withoutDocumentIds(await (await doc.getPage(n)).getTextContent()));
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

describe.skipIf(!existsSync(CORPUS))('pdf.js behind the in-thread port', () => {
  for (const file of ['zh-debian-reference-cjk.pdf', 'en-tracemonkey-two-column-footnotes.pdf']) {
    it(`${file}: every page's text content is what pdf.js's own port delivers`, async () => {
      const expected = await textThroughLoopback(new Uint8Array(read(file)));
      const doc = await openPdf(read(file));
      try {
        expect(doc.numPages).toBe(expected.length);
        for (let n = 1; n <= doc.numPages; n++) {
          const content = await (await doc.getPage(n)).getTextContent();
          // What a page paints besides text is reported by Yidu's patch in our port only (pdf-graphics.ts).
          // Paints among the text end pdf.js's runs of text where a drawing comes between two (the
          // items are cut differently): the text itself is the same.
          const text = content.items.filter((item) => !isPaintItem(item));
          const strings = (items: unknown[]) => items.map((item) => (item as { str: string }).str).join('');
          expect(withoutDocumentIds(strings(text))).toEqual(strings(expected[n - 1].items));
        }
      } finally {
        await doc.destroy();
      }
    });
  }

  it('a document destroyed leaves no listener on the shared port', async () => {
    const { port } = await inThreadWorker(await loadPdfJs());
    const before = port.listenerCount;
    const docs = await Promise.all([1, 2, 3].map(() => openPdf(read('en-encrypted-owner-password-only.pdf'))));
    await Promise.all(docs.map(async (doc) => (await doc.getPage(1)).getTextContent()));
    expect(port.listenerCount).toBeGreaterThan(before);
    await Promise.all(docs.map((doc) => doc.destroy()));
    expect(port.listenerCount).toBe(before);
  });

  it('a parse cancelled half-way leaves the shared worker side serving the next documents', async () => {
    const { port } = await inThreadWorker(await loadPdfJs());
    const before = port.listenerCount;
    const cancelled = new AbortController();
    const parse = pdfParser.parse(read('en-free-culture-book.pdf'), {
      pdfHelperThreads: 0,
      signal: cancelled.signal,
      onProgress: (fraction) => fraction > 0.1 && cancelled.abort(),
    });
    await expect(parse).rejects.toThrow();
    expect(port.listenerCount).toBe(before);
    const book = await pdfParser.parse(read('en-tracemonkey-two-column-footnotes.pdf'), { pdfHelperThreads: 0 });
    expect(book.stats.pages).toBe(14);
  });
});
