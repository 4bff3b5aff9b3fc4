/**
 * Each cap of PARSE_LIMITS at its boundary: the largest input it allows is read, one step more is
 * refused with fileTooComplex (or, for block length and OCR pixels, handled the documented way).
 */
import { refusal } from './testing/refusal.ts';
import { describe, expect, it } from 'vitest';
import { BookBuilder } from './builder.ts';
import { ParseError } from './errors.ts';
import { PARSE_LIMITS } from './limits.ts';
import { parseMarkup } from './markup.ts';
import { ocrScale } from './pdf/pdf-ocr.ts';
import { parseBook } from './registry.ts';
import { deeplyNestedDocx, deeplyNestedEpub, flateBombPdf, manyPagesPdf } from './testing/hostile-files.ts';
import { XmlStreamReader } from './xml-stream.ts';
import { zip } from './docx/docx-fixture.ts';
import { makeEpub } from './testing/contents-books.ts';
import { SafeZip } from './zip.ts';

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as ParseError;
  }
  throw new Error('not refused');
};

describe('PARSE_LIMITS', () => {
  it('elementsPerDocument: a tree of exactly the cap is built, one more element is refused', () => {
    const cap = PARSE_LIMITS.elementsPerDocument;
    expect(() => parseMarkup('<b/>'.repeat(cap))).not.toThrow();
    const error = refused(() => parseMarkup('<b/>'.repeat(cap + 1)));
    expect(error).toBeInstanceOf(ParseError);
    expect(error.key).toBe('fileTooComplex');
  });

  it('nestingDepth: elements nested to the cap are read, one level deeper is refused (trees and streams)', () => {
    const cap = PARSE_LIMITS.nestingDepth;
    const nested = (depth: number) => `${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}`;
    expect(() => parseMarkup(nested(cap))).not.toThrow();
    expect(refused(() => parseMarkup(nested(cap + 1))).key).toBe('fileTooComplex');

    const handler = { open() {}, close() {}, text() {}, wantsText: () => true };
    const stream = (depth: number) => {
      const reader = new XmlStreamReader(handler);
      reader.write(nested(depth));
      reader.end();
    };
    expect(() => stream(cap)).not.toThrow();
    expect(refused(() => stream(cap + 1)).key).toBe('fileTooComplex');
    // Elements that close themselves, or that the handler skips, do not nest.
    expect(() => stream(0)).not.toThrow();
  });

  it('nestingDepth: a deeply nested EPUB and DOCX are refused with fileTooComplex', async () => {
    expect((await refusal(parseBook(deeplyNestedEpub()))).key).toBe('fileTooComplex');
    expect((await refusal(parseBook(deeplyNestedDocx()))).key).toBe('fileTooComplex');
  });

  it('contentsEntries: contents of exactly the cap are kept whole, past it the rest is left out (the book is read)', async () => {
    const cap = PARSE_LIMITS.contentsEntries;
    const epub = (entries: number) =>
      makeEpub([{ name: 'a.xhtml', body: `<h1>A</h1>${'<p>Some text of the one document.</p>'.repeat(5)}` }], {
        nav: `<ol>${Array.from({ length: entries }, (_, i) => `<li><a href="a.xhtml">E${i}</a></li>`).join('')}</ol>`,
      });
    const atCap = await parseBook(await epub(cap));
    expect(atCap.contents).toHaveLength(cap);
    expect(atCap.warnings.some((w) => /contents have/.test(w))).toBe(false);
    const over = await parseBook(await epub(cap + 1));
    expect(over.contents).toHaveLength(cap);
    expect(over.contents.at(-1)!.title).toBe(`E${cap - 1}`);
    expect(over.warnings).toContain(`The contents have ${cap + 1} entries; the first ${cap} are kept`);
  });

  it('blocksPerBook: a book of exactly the cap is built, the next block is refused at once', () => {
    const book = new BookBuilder();
    for (let i = 0; i < PARSE_LIMITS.blocksPerBook; i++) book.add({ type: 'paragraph', text: 'a' });
    const error = refused(() => book.add({ type: 'paragraph', text: 'one too many' }));
    expect(error.key).toBe('fileTooComplex');
  });

  it('linesPerText: a text of exactly the cap is read, one more line is refused', async () => {
    // Paragraphs of one line between blank lines; n lines, n - 1 line feeds.
    const lines = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i % 2 ? '' : 'ab cd')).join('\n'));
    const atCap = lines(PARSE_LIMITS.linesPerText);
    expect(atCap.toString().split('\n')).toHaveLength(PARSE_LIMITS.linesPerText);
    const error = await parseBook(atCap).catch((e: unknown) => e);
    // At the cap the text is read (its 1,000,000 paragraphs pass the lines cap; the blocks cap, lower
    // than that, refuses them: what matters is that the lines cap does not).
    if (error instanceof ParseError) expect(error.message).not.toMatch(/lines/);
    const over = await refusal(parseBook(lines(PARSE_LIMITS.linesPerText + 1)));
    expect(over.key).toBe('fileTooComplex');
    expect(over.message).toMatch(/lines/);
  });

  it('blockChars: a block of exactly the cap stays whole, a longer one is cut at sentence ends', () => {
    const max = PARSE_LIMITS.blockChars;
    const sentence = 'This sentence is exactly fifty characters long ok. ';
    expect(sentence).toHaveLength(51);
    const whole = 'x'.repeat(max);
    const book = new BookBuilder();
    book.startChapter('One');
    book.add({ type: 'paragraph', text: whole, html: `<em>${whole}</em>` });
    const long = sentence.repeat(Math.ceil((max * 2.5) / sentence.length)).trim();
    book.add({ type: 'quote', text: long, html: '<em>x</em>', noteRefKeys: [] });
    const blocks = book.finish('txt', performance.now()).chapters[0]!.blocks;
    expect(blocks[0]!.text).toBe(whole);
    expect(blocks[0]!.html).toBe(`<em>${whole}</em>`);
    const parts = blocks.slice(1);
    expect(parts.length).toBe(3);
    for (const part of parts) {
      expect(part.type).toBe('quote');
      expect(part.text.length).toBeLessThanOrEqual(max);
      expect(part.text.endsWith('ok.')).toBe(true); // cut after a sentence, never inside a word
      expect(part.html).toBeUndefined();
    }
    expect(parts.map((p) => p.text).join(' ')).toBe(long);
  });

  it('blockChars: a block without sentences or spaces is cut anyway, never inside a surrogate pair', () => {
    const max = PARSE_LIMITS.blockChars;
    const text = `${'字'.repeat(max - 1)}😀${'字'.repeat(10)}`;
    const book = new BookBuilder();
    book.add({ type: 'paragraph', text });
    const blocks = book.finish('txt', performance.now()).chapters[0]!.blocks;
    expect(blocks.map((b) => b.text).join('')).toBe(text);
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    for (const b of blocks) expect(loneSurrogate.test(b.text)).toBe(false);
  });

  it('pdfPages: a PDF over the cap is refused before any page is read', async () => {
    const error = await refusal(parseBook(Buffer.from(manyPagesPdf(PARSE_LIMITS.pdfPages + 1))));
    expect(error.key).toBe('fileTooComplex');
    expect(error.message).toContain(String(PARSE_LIMITS.pdfPages + 1));
  });

  it('pdfStreamBytes: a flate bomb fails its page instead of filling the memory', async () => {
    const bomb = await flateBombPdf(PARSE_LIMITS.pdfStreamBytes * 4);
    const before = process.memoryUsage().rss;
    const error = await refusal(parseBook(bomb));
    expect(['noTextFound', 'fileCorrupted']).toContain(error.key);
    // Without the cap pdf.js holds the 1 GB it inflated (and more while growing its buffer).
    expect(process.memoryUsage().rss - before).toBeLessThan(PARSE_LIMITS.pdfStreamBytes * 2.5);
  });

  it('ocrCanvasPixels: pages up to the cap render at the OCR scale, larger ones smaller, never over it', () => {
    const a4 = ocrScale(595, 842);
    expect(a4).toBe(2);
    const side = Math.sqrt(PARSE_LIMITS.ocrCanvasPixels) / 2;
    expect(ocrScale(side, side)).toBe(2);
    for (const [w, h] of [
      [14400, 14400],
      [14400, 1000],
      [side + 1, side],
    ] as const) {
      const scale = ocrScale(w, h);
      expect(scale).toBeLessThan(2);
      expect(w * scale * h * scale).toBeLessThanOrEqual(PARSE_LIMITS.ocrCanvasPixels * 1.0001);
    }
  });

  it('zipEntryBytes and zipTotalBytes: declared sizes over the caps are refused before inflating', async () => {
    const declared = (sizes: number[]) => {
      const file = zip(sizes.map((_, i) => ({ name: `e${i}.txt`, data: 'x' })));
      // Rewrite each central directory record's sizes (offsets 20 and 24 of a 0x02014b50 record),
      // compressed at 100:1 so that only the size caps can object.
      let at = file.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      for (const size of sizes) {
        file.writeUInt32LE(Math.ceil(size / 100), at + 20);
        file.writeUInt32LE(size, at + 24);
        at = file.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4);
      }
      return file;
    };
    await expect(SafeZip.open(declared([PARSE_LIMITS.zipEntryBytes]))).resolves.toBeDefined();
    expect((await refusal(SafeZip.open(declared([PARSE_LIMITS.zipEntryBytes + 1])))).key).toBe('fileTooComplex');
    const parts = Math.ceil(PARSE_LIMITS.zipTotalBytes / PARSE_LIMITS.zipEntryBytes);
    const share = Math.floor(PARSE_LIMITS.zipTotalBytes / parts);
    const total = Array.from({ length: parts }, () => share);
    total[0]! += PARSE_LIMITS.zipTotalBytes - share * parts;
    await expect(SafeZip.open(declared(total))).resolves.toBeDefined();
    total[0]! += 1;
    expect((await refusal(SafeZip.open(declared(total)))).key).toBe('fileTooComplex');
  });
});
