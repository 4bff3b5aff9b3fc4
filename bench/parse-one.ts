/**
 * Parses one file in a fresh process and prints {ms, maxRssMb, ...} as JSON: a separate process per
 * file so that peak memory belongs to that file alone. Used by parse.ts.
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
  console.log(
    JSON.stringify({
      ok: true,
      ms,
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
