/**
 * Parses one file in a fresh process and prints {ms, maxRssMb, ...} as JSON: a separate process per
 * file so that peak memory belongs to that file alone. Used by parse.ts. A PDF is parsed a second time
 * in the same process (`warmMs`): a running worker loads pdf.js once, so that is what an upload waits
 * for; the first parse (`ms`) includes loading pdf.js and its font data.
 */
import { readFile } from 'node:fs/promises';
import { disposeSharedOcrEngine } from '../apps/server/src/engines/ocr/tesseract.ts';
import { parseBook } from '../apps/server/src/engines/parsers/registry.ts';

const file = process.argv[2]!;
const data = await readFile(file);
const started = performance.now();
try {
  const book = await parseBook(data, { ocrLanguages: ['en'] });
  const ms = performance.now() - started;
  let warmMs: number | undefined;
  if (file.endsWith('.pdf')) {
    const again = performance.now();
    await parseBook(data, { ocrLanguages: ['en'] });
    warmMs = performance.now() - again;
  }
  console.log(
    JSON.stringify({
      ok: true,
      ms,
      warmMs,
      bytes: data.length,
      chapters: book.chapters.length,
      blocks: book.stats.blocks,
      characters: book.stats.characters,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
} catch (error) {
  console.log(
    JSON.stringify({
      ok: false,
      ms: performance.now() - started,
      bytes: data.length,
      error: (error as Error).message,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
}
await disposeSharedOcrEngine();
