/**
 * Parses one file in a fresh process and prints {ms, maxRssMb, ...} as JSON: a separate process per
 * file so that peak memory belongs to that file alone. Used by parse.ts. The first parse (`ms`)
 * includes loading the parser (pdf.js and its font data) and starting PDF helper threads. A PDF is
 * then parsed again in the same process, as a running worker does: `warmMs` is the best of three
 * with the default helper threads (and `warmCpuMs` the CPU time of all threads for it), and
 * `warmOneThreadMs` the best of two with no helper thread (files too large for helpers: best of two,
 * once).
 *
 * With `--after-boot`, pdf.js is first warmed up as a worker does when it starts (boot.ts), and only
 * the first parse is timed: what the first PDF uploaded to a freshly started worker costs.
 */
import { readFile, stat } from 'node:fs/promises';
import { disposeSharedOcrEngine } from '../apps/server/src/engines/ocr/tesseract.ts';
import { warmUpPdfJs } from '../apps/server/src/engines/parsers/pdf/pdf-text.ts';
import { disposePdfThreads, pdfHelpers } from '../apps/server/src/engines/parsers/pdf/pdf-threads.ts';
import { parseBook } from '../apps/server/src/engines/parsers/registry.ts';
import type { ParseOptions } from '../apps/server/src/engines/parsers/types.ts';

const file = process.argv[2]!;
const bytes = (await stat(file)).size;
const afterBoot = process.argv.includes('--after-boot');
if (afterBoot) await warmUpPdfJs();
const started = performance.now();
try {
  // As the upload service does: the bytes read are the parser's to keep (a PDF's go to pdf.js uncopied).
  const book = await parseBook(await readFile(file), { ocrLanguages: ['en'], handOverInput: true });
  const ms = performance.now() - started;
  // Peak memory of one parse in a fresh process: taken before the warm parses below pile up garbage.
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  let warm: { warmMs: number; warmCpuMs: number; warmOneThreadMs: number } | undefined;
  if (file.endsWith('.pdf') && !afterBoot) {
    const data = await readFile(file);
    const best = async (runs: number, options: ParseOptions) => {
      let fastest = { ms: Infinity, cpuMs: 0 };
      for (let i = 0; i < runs; i++) {
        const cpu = process.cpuUsage();
        const again = performance.now();
        await parseBook(data, { ocrLanguages: ['en'], ...options });
        const ms = performance.now() - again;
        const used = process.cpuUsage(cpu);
        if (ms < fastest.ms) fastest = { ms, cpuMs: (used.user + used.system) / 1000 };
      }
      return fastest;
    };
    // Files too large for helper threads (pdfHelpers) are parsed the same way either way.
    const helped = pdfHelpers(bytes) > 0;
    const shared = await best(helped ? 3 : 2, {});
    const alone = helped ? await best(2, { pdfHelperThreads: 0 }) : shared;
    warm = { warmMs: shared.ms, warmCpuMs: shared.cpuMs, warmOneThreadMs: alone.ms };
  }
  console.log(
    JSON.stringify({
      ok: true,
      ms,
      ...warm,
      bytes,
      chapters: book.chapters.length,
      blocks: book.stats.blocks,
      characters: book.stats.characters,
      maxRssMb,
    }),
  );
} catch (error) {
  console.log(
    JSON.stringify({
      ok: false,
      ms: performance.now() - started,
      bytes,
      error: (error as Error).message,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
}
await disposeSharedOcrEngine();
await disposePdfThreads();
