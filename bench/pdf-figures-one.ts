/**
 * Parses one PDF in a fresh process, with figure cropping (`--figures`) or without it (`--no-figures`),
 * and prints {ms, warmMs, maxRssMb, images} as JSON. `ms` is the first parse (pdf.js loaded with it);
 * `maxRssMb` the process's peak after it; `warmMs` the parse again in the same process, as a running
 * worker does (not with `--once`: the 434-page PDF). Used by pdf-figures.ts.
 */
import { readFile } from 'node:fs/promises';
import { disposePdfThreads } from '../apps/server/src/engines/parsers/pdf/pdf-threads.ts';
import { parseBook } from '../apps/server/src/engines/parsers/registry.ts';

const file = process.argv[2]!;
const pdfFigures = !process.argv.includes('--no-figures');
const started = performance.now();
const book = await parseBook(await readFile(file), { handOverInput: true, pdfFigures });
const ms = performance.now() - started;
const maxRssMb = process.resourceUsage().maxRSS / 1024;
let warmMs = NaN;
if (!process.argv.includes('--once')) {
  const again = performance.now();
  await parseBook(await readFile(file), { pdfFigures });
  warmMs = performance.now() - again;
}
const imageBytes = book.images.reduce((sum, image) => sum + image.data.length, 0);
console.log(JSON.stringify({ ms, warmMs, maxRssMb, images: book.images.length, imageBytes }));
await disposePdfThreads();
