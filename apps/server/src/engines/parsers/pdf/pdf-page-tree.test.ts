/**
 * pdf.js finds page n by walking the page tree from its root. When every page hangs from the root
 * (LibreOffice, Word and pdfunite write such flat trees) that walk is as long as the book, so
 * reading every page cost time in the square of its length: a third of the parse of a 2,956-page
 * PDF. patches/pdfjs-dist+*.patch (applied by `npm install`) looks a page up directly in a tree it
 * has checked to be flat. These tests hold the pages in their order whatever the tree looks like.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { openPdf, PageReader } from './pdf-text.ts';

/**
 * A PDF whose page n says "Leaf n holds this sentence.", its pages all kids of the root (`flat`) or as many kids as pages
 * of which two are not pages (`mixed`). Pages name no parent: pdf.js does not need one to find them.
 */
function bookPdf(pageCount: number, layout: 'flat' | 'mixed'): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) && objects.length;
  const catalog = add('');
  const root = add('');
  const font = add('<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>');
  const pages: number[] = [];
  for (let n = 1; n <= pageCount; n++) {
    const text = `BT /F1 12 Tf 72 700 Td (Leaf ${n} holds this sentence.) Tj ET`;
    const content = add(`<</Length ${text.length}>>stream\n${text}\nendstream`);
    pages.push(
      add(`<</Type/Page/MediaBox[0 0 612 792]/Contents ${content} 0 R/Resources<</Font<</F1 ${font} 0 R>>>>>>`),
    );
  }
  let kids = pages;
  if (layout === 'mixed') {
    // As many kids as pages, as in a flat tree, but the first holds two pages and the second none.
    const inner = add(`<</Type/Pages/Kids[${pages[0]} 0 R ${pages[1]} 0 R]/Count 2>>`);
    const empty = add('<</Type/Pages/Kids[]/Count 0>>');
    kids = [inner, empty, ...pages.slice(2)];
  }
  objects[catalog - 1] = `<</Type/Catalog/Pages ${root} 0 R>>`;
  objects[root - 1] = `<</Type/Pages/Kids[${kids.map((k) => `${k} 0 R`).join(' ')}]/Count ${pageCount}>>`;

  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<</Size ${objects.length + 1}/Root ${catalog} 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

async function pageTexts(pdf: Uint8Array, order: number[]): Promise<string[]> {
  const doc = await openPdf(pdf);
  try {
    const reader = new PageReader(doc);
    const texts: string[] = [];
    for (const n of order) texts.push((await reader.read(n)).lines.map((line) => line.text).join(' '));
    return texts;
  } finally {
    await doc.destroy();
  }
}

describe('pages of a PDF found in their order', () => {
  const count = 120;
  const inOrder = Array.from({ length: count }, (_, i) => i + 1);
  const expected = (order: number[]) => order.map((n) => `Leaf ${n} holds this sentence.`);

  it('in a flat page tree, read in order and out of it', async () => {
    const pdf = bookPdf(count, 'flat');
    expect(await pageTexts(pdf, inOrder)).toEqual(expected(inOrder));
    const shuffled = [count, 1, 64, 2, 119, 63, 65];
    expect(await pageTexts(pdf, shuffled)).toEqual(expected(shuffled));
  });

  it('in a tree as wide as the book whose kids are not all pages', async () => {
    const pdf = bookPdf(count, 'mixed');
    expect(await pageTexts(pdf, inOrder)).toEqual(expected(inOrder));
    expect(await pageTexts(pdf, [3, 1, 2, count])).toEqual(expected([3, 1, 2, count]));
  });

  it('pdf.js carries the flat page tree patch (npm install applies patches/)', () => {
    const worker = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
    expect(readFileSync(worker, 'utf8')).toContain('#getFlatPageRefs');
  });
});
