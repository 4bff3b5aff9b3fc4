/**
 * Parsing in separate processes: the book that comes back is the book the parser made, and hostile
 * files — the ones reported to take the server down — are refused with a key while the host process
 * stays small and its event loop free.
 */
import { refusal } from '../testing/refusal.ts';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { disposeSharedOcrEngine } from '../../ocr/tesseract.ts';
import { parseBook } from '../registry.ts';
import {
  deeplyNestedDocx,
  deeplyNestedEpub,
  flateBombPdf,
  hugePagePdf,
  paragraphFloodEpub,
  tinyLinesTxt,
} from '../testing/hostile-files.ts';
import type { ParsedBook } from '../types.ts';
import { ParseHost } from './parse-host.ts';
import { BLOCKS_PER_MESSAGE, BookAssembler, bookMessages, IMAGE_BYTES_PER_MESSAGE } from './protocol.ts';

const CORPUS =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../..', '../shared/corpus');
const MEMORY_LIMIT_MB = 640;

const hosts: ParseHost[] = [];
function newHost(options: Partial<ConstructorParameters<typeof ParseHost>[0]> = {}): ParseHost {
  const host = new ParseHost({ memoryLimitMb: MEMORY_LIMIT_MB, maxProcesses: 1, ...options });
  hosts.push(host);
  return host;
}

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  await disposeSharedOcrEngine();
});

/** A book without its timing, for comparing two parses of one file. */
function comparable(book: ParsedBook) {
  return { ...book, stats: { ...book.stats, durationMs: 0 } };
}

describe('book messages', () => {
  it('cut a book into bounded pieces and put it together again, large chapters and images included', () => {
    const blocks = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        id: `${prefix}-b${i + 1}`,
        type: 'paragraph' as const,
        text: `${prefix} ${i}`,
      }));
    const book: ParsedBook = {
      format: 'epub',
      metadata: { title: 'T' },
      cover: { data: Buffer.from([1, 2, 3]), mediaType: 'image/png' },
      chapters: [
        { title: 'empty', blocks: [] },
        { title: 'small', blocks: blocks(3, 'c2') },
        { title: 'huge', level: 2, blocks: blocks(BLOCKS_PER_MESSAGE * 2 + 5, 'c3') },
        { title: 'after', blocks: blocks(BLOCKS_PER_MESSAGE - 1, 'c4') },
      ],
      contents: [
        { title: 'small', level: 1, blockId: 'c2-b1' },
        { title: 'huge', level: 2, blockId: 'c3-b1' },
      ],
      images: Array.from({ length: 5 }, (_, i) => ({
        id: `img${i}`,
        data: Buffer.alloc(IMAGE_BYTES_PER_MESSAGE / 2 + 1, i),
        mediaType: 'image/jpeg',
      })),
      warnings: ['w'],
      stats: { format: 'epub', chapters: 4, blocks: 0, characters: 0, images: 5, footnotes: 0, durationMs: 1 },
    };
    const detection = { code: 'en', detected: 'en', confidence: 1, reliable: true, scores: [] } as const;
    const messages = [...bookMessages(book, { ...detection, scores: [] })];
    for (const m of messages) {
      if (m.type === 'chapters')
        expect(m.chapters.reduce((n, c) => n + c.blocks.length, 0)).toBeLessThanOrEqual(BLOCKS_PER_MESSAGE);
      if (m.type === 'images') expect(m.images.length).toBeLessThanOrEqual(2);
    }
    const assembler = new BookAssembler();
    // As structured clone delivers them: Buffers become plain Uint8Arrays.
    for (const m of messages) assembler.accept(structuredClone(m));
    const again = assembler.book();
    expect(again.chapters.map((c) => [c.title, c.blocks.length])).toEqual(
      book.chapters.map((c) => [c.title, c.blocks.length]),
    );
    expect(again.chapters).toEqual(book.chapters);
    expect(again.images.map((i) => i.data.equals(book.images.find((j) => j.id === i.id)!.data))).toEqual(
      book.images.map(() => true),
    );
    expect({ ...again, chapters: [], images: [] }).toEqual({ ...book, chapters: [], images: [] });
    expect(Buffer.isBuffer(again.images[0]!.data)).toBe(true);
    expect(Buffer.isBuffer(again.cover!.data)).toBe(true);
  });
});

describe.skipIf(!existsSync(CORPUS))('ParseHost', () => {
  it('gives the book the parser makes, images and all', async () => {
    const host = newHost();
    for (const file of [
      'epub/en-dante-vision-of-hell-epub2-images.epub',
      'pdf/en-tracemonkey-two-column-footnotes.pdf',
    ]) {
      const input = readFileSync(path.join(CORPUS, file));
      const direct = await parseBook(Buffer.from(input));
      const { book, peakRssMb } = await host.parseWhole(input, { timeoutMs: 60_000 });
      expect(comparable(book)).toEqual(comparable(direct));
      expect(peakRssMb).toBeLessThan(MEMORY_LIMIT_MB);
    }
  });

  it('refuses the hostile files with a key, its own memory small and its event loop never held up', async () => {
    const host = newHost();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    // Made one at a time, before each parse: the generators themselves take memory here.
    const files: [string, () => Buffer | Promise<Buffer>, boolean][] = [
      ['21 million paragraphs in an EPUB', () => paragraphFloodEpub(), false],
      ['a flate bomb PDF', () => flateBombPdf(), false],
      ['a huge page under forced OCR', () => hugePagePdf(), true],
      ['29 MB of tiny TXT lines', () => tinyLinesTxt(), false],
      ['deeply nested XHTML', () => deeplyNestedEpub(), false],
      ['deeply nested DOCX', () => deeplyNestedDocx(), false],
    ];
    for (const [what, make, forceOCR] of files) {
      const input = await make();
      const before = process.memoryUsage();
      loop.enable();
      const error = await refusal(host.parseWhole(input, { timeoutMs: 120_000, forceOCR, ocrLanguages: ['en'] }));
      loop.disable();
      // The parses ran elsewhere: nothing here waited on them (a liveness bound, not a speed figure).
      expect(loop.max / 1e6, what).toBeLessThan(1000);
      loop.reset();
      const after = process.memoryUsage();
      expect(['fileTooComplex', 'noTextFound', 'fileCorrupted'], `${what}: ${error.message}`).toContain(error.key);
      // The parse's memory was the parse process's, not this one's.
      expect(after.heapUsed - before.heapUsed, what).toBeLessThan(64 * 1024 * 1024);
      expect(after.rss - before.rss, what).toBeLessThan(128 * 1024 * 1024);
    }
  });

  it('a parse that passes the memory limit is stopped, and the next parse gets a fresh process', async () => {
    const died: string[] = [];
    // A process reading Moby-Dick peaks at ~170 MB; a 40 MB Chinese novel needs several times that.
    const host = newHost({ memoryLimitMb: 280, onProcessDied: ({ reason }) => died.push(reason) });
    const novel = readFileSync(path.join(CORPUS, 'txt/zh-sanguo-yanyi-gbk.txt'));
    const big = Buffer.concat(Array.from({ length: Math.ceil((40 * 1024 * 1024) / novel.length) }, () => novel));
    const error = await refusal(host.parseWhole(big, { timeoutMs: 60_000 }));
    expect(error.key).toBe('fileTooComplex');
    expect(error.message).toMatch(/more than 280 MB|process ended/);
    const { book } = await host.parseWhole(readFileSync(path.join(CORPUS, 'epub/en-moby-dick-epub3.epub')), {
      timeoutMs: 60_000,
    });
    expect(book.metadata.title).toBe('Moby-Dick');
    expect(died).toEqual([expect.stringMatching(/more than 280 MB/)]);
  });

  it("a process that kept a large book's memory is replaced before the next book, which is read", async () => {
    const died: string[] = [];
    const host = newHost({ onProcessDied: ({ reason }) => died.push(reason) });
    // A million elements of one web page: refused at the cap, after the tree took hundreds of MB.
    const flood = Buffer.from(`<html><body>${'<p>a</p>'.repeat(1_100_000)}</body></html>`);
    expect((await refusal(host.parseWhole(flood, { timeoutMs: 60_000 }))).key).toBe('fileTooComplex');
    // A large, real book next (28 MB of text in a web page saved as .doc): it needs a process of its own.
    const page = `<p>${'The tide came in over the flats and the boats lifted. '.repeat(20)}</p>`;
    const large = Buffer.from(
      `<html><body><h1>One</h1>${page.repeat(13_000)}<h1>Two</h1>${page.repeat(13_000)}</body></html>`,
    );
    const { book, peakRssMb } = await host.parseWhole(large, { timeoutMs: 60_000 });
    expect(book.chapters.map((c) => c.title)).toEqual(['One', 'Two']);
    expect(peakRssMb).toBeLessThan(MEMORY_LIMIT_MB);
    expect(died).toEqual([]);
  });

  it('a parse past its time limit is stopped with fileTooComplex; a cancelled one ends at once', async () => {
    const host = newHost();
    const scanned = readFileSync(path.join(CORPUS, 'pdf/en-scanned-huckfinn-page-image-only.pdf'));
    const slow = await refusal(host.parseWhole(scanned, { timeoutMs: 1, ocrLanguages: ['en'] }));
    expect(slow.key).toBe('fileTooComplex');
    const controller = new AbortController();
    const parse = host.parseWhole(scanned, { timeoutMs: 60_000, ocrLanguages: ['en'], signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    expect((await refusal(parse)).key).toBe('aborted');
  });

  it('runs at most maxProcesses parses at once; the others wait their turn', async () => {
    const host = newHost({ maxProcesses: 2 });
    const input = readFileSync(path.join(CORPUS, 'epub/en-moby-dick-epub3.epub'));
    const pids = new Set<number>();
    const spy = setInterval(() => {
      for (const w of (host as unknown as { workers: Set<{ child: { pid: number } }> }).workers) pids.add(w.child.pid);
    }, 5);
    const books = await Promise.all(Array.from({ length: 5 }, () => host.parseWhole(input, { timeoutMs: 60_000 })));
    clearInterval(spy);
    expect(books.every((b) => b.book.metadata.title === 'Moby-Dick')).toBe(true);
    expect(pids.size).toBeLessThanOrEqual(2);
  });

  it('leaves the figures past pdfCropsInParse for later, and renders them from the file as the parse would have', async () => {
    const host = newHost();
    const input = readFileSync(path.join(CORPUS, 'pdf/en-tracemonkey-two-column-footnotes.pdf'));
    const whole = (await host.parseWhole(input, { timeoutMs: 120_000 })).book;
    const { book } = await host.parseWhole(input, { timeoutMs: 120_000, pdfCropsInParse: 3 });
    const imageBlocks = (b: ParsedBook) => b.chapters.flatMap((c) => c.blocks).filter((x) => x.type === 'image');
    // The same blocks with the same ids, whether their pictures were made now or are left for later.
    expect(imageBlocks(book).map((b) => [b.id, b.imageId])).toEqual(imageBlocks(whole).map((b) => [b.id, b.imageId]));
    expect(whole.pendingCrops).toBeUndefined();
    expect(book.images.map((i) => i.id)).toEqual(whole.images.slice(0, 3).map((i) => i.id));
    const pending = book.pendingCrops!;
    expect(pending.map((c) => c.imageId)).toEqual(whole.images.slice(3).map((i) => i.id));
    // In page order, each region on its page.
    expect(pending.map((c) => c.region.page)).toEqual([...pending.map((c) => c.region.page)].sort((a, b) => a - b));

    const made = await host.crop(input, pending, { timeoutMs: 120_000 });
    const byId = new Map(whole.images.map((i) => [i.id, i]));
    expect(made.map((i) => i.id)).toEqual(pending.map((c) => c.imageId));
    for (const image of made) {
      const same = byId.get(image.id)!;
      expect([image.mediaType, image.width, image.height]).toEqual([same.mediaType, same.width, same.height]);
      expect(image.data.equals(same.data)).toBe(true);
    }
    // A file that is no PDF is refused as a parse is.
    expect((await refusal(host.crop(Buffer.from('not a pdf at all'), pending, { timeoutMs: 10_000 }))).key).toBe(
      'fileCorrupted',
    );
  });
});
