/**
 * Parse time and peak RSS per corpus file, each in its own process so peaks do not add up.
 *   node apps/server/src/engines/parsers/measure.ts [corpus dir]
 * Prints a table: file, result (chapters/blocks or error key), detected language, ms, peak RSS MB.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Row {
  file: string;
  ok: boolean;
  result: string;
  language: string;
  ms: number;
  rssMb: number;
}

async function measureOne(file: string): Promise<Row> {
  const { parseBook } = await import('./registry.ts');
  const { detectBookLanguage } = await import('../language/detect.ts');
  const { disposeSharedOcrEngine } = await import('../ocr/tesseract.ts');
  const input = readFileSync(file);
  const started = performance.now();
  let row: Row;
  try {
    const book = await parseBook(input);
    const ms = performance.now() - started;
    row = {
      file,
      ok: true,
      result: `${book.chapters.length} ch / ${book.stats.blocks} blocks${book.stats.ocrPages ? ` / OCR ${book.stats.ocrPages}p` : ''}`,
      language: detectBookLanguage(book).code,
      ms,
      rssMb: 0,
    };
  } catch (error) {
    row = {
      file,
      ok: false,
      result: (error as { key?: string }).key ?? String(error),
      language: '-',
      ms: performance.now() - started,
      rssMb: 0,
    };
  }
  await disposeSharedOcrEngine();
  row.rssMb = process.resourceUsage().maxRSS / 1024;
  return row;
}

const args = process.argv.slice(2);
if (args[0] === '--one') {
  console.log(JSON.stringify(await measureOne(args[1]!)));
} else {
  const corpus = path.resolve(args[0] ?? path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus'));
  const files = readdirSync(corpus, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/MANIFEST|SHA256SUMS/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  console.log('| file | result | lang | ms | peak RSS MB |');
  console.log('|---|---|---|---:|---:|');
  for (const file of files) {
    const child = spawnSync(process.execPath, [import.meta.filename, '--one', file], { encoding: 'utf8' });
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    try {
      const row = JSON.parse(line) as Row;
      console.log(
        `| ${path.relative(corpus, file)} | ${row.result} | ${row.language} | ${Math.round(row.ms)} | ${Math.round(row.rssMb)} |`,
      );
    } catch {
      console.log(
        `| ${path.relative(corpus, file)} | crashed: ${child.stderr.trim().split('\n').at(-1)} | - | - | - |`,
      );
    }
  }
}
