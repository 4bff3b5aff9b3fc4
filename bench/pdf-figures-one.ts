/**
 * Parses one PDF in a fresh process, with figure cropping (`--figures`), without it (`--no-figures`),
 * or cropping only the first N figures as uploads do (`--in-parse=N`), and prints {ms, warmMs,
 * maxRssMb, images, pending, laterMs} as JSON. `ms` is the first parse (pdf.js loaded with it);
 * `maxRssMb` the process's peak after it; `warmMs` the parse again in the same process, as a running
 * worker does (not with `--once`: the large PDFs). With `--in-parse`, `laterMs` is the time the
 * book.crops job takes to render the figures left for later (renderPendingCrops, in this process).
 * Used by pdf-figures.ts.
 */
import { readFile } from 'node:fs/promises';
import { CROPS_PER_BATCH } from '../apps/server/src/modules/books/book-crops.ts';
import { renderPendingCrops } from '../apps/server/src/engines/parsers/pdf/pdf.ts';
import { disposePdfThreads } from '../apps/server/src/engines/parsers/pdf/pdf-threads.ts';
import { parseBook } from '../apps/server/src/engines/parsers/registry.ts';

const file = process.argv[2]!;
const pdfFigures = !process.argv.includes('--no-figures');
const inParseFlag = process.argv.find((a) => a.startsWith('--in-parse='));
const pdfCropsInParse = inParseFlag ? Number(inParseFlag.split('=')[1]) : undefined;
const started = performance.now();
const book = await parseBook(await readFile(file), { handOverInput: true, pdfFigures, pdfCropsInParse });
const ms = performance.now() - started;
const maxRssMb = process.resourceUsage().maxRSS / 1024;
let warmMs = NaN;
if (!process.argv.includes('--once')) {
  const again = performance.now();
  await parseBook(await readFile(file), { pdfFigures, pdfCropsInParse });
  warmMs = performance.now() - again;
}
let laterMs = 0;
const pending = book.pendingCrops ?? [];
if (pending.length) {
  const later = performance.now();
  // As the job does: in its batches, each opening the stored file afresh.
  for (let i = 0; i < pending.length; i += CROPS_PER_BATCH) {
    await renderPendingCrops(await readFile(file), pending.slice(i, i + CROPS_PER_BATCH));
  }
  laterMs = performance.now() - later;
}
const imageBytes = book.images.reduce((sum, image) => sum + image.data.length, 0);
console.log(
  JSON.stringify({ ms, warmMs, maxRssMb, images: book.images.length, imageBytes, pending: pending.length, laterMs }),
);
await disposePdfThreads();
