/**
 * Parse time and peak RSS per corpus file, each in its own process so peaks do not add up.
 *   node apps/server/src/engines/parsers/measure.ts [corpus dir]
 *   node apps/server/src/engines/parsers/measure.ts --large-docx [MB] [corpus dir]
 * Prints a table: file, result (chapters/blocks or error key), detected language, ms, MB/s, peak RSS
 * MB. `--large-docx` first writes a generated DOCX of real corpus prose (default 30 MB, see
 * docx-fixture.ts) to the temp directory and measures that file alone.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
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
const defaultCorpus =
  process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../..', '../shared/corpus');

function printRows(files: string[], base: string): void {
  console.log('| file | result | lang | ms | MB/s | peak RSS MB |');
  console.log('|---|---|---|---:|---:|---:|');
  for (const file of files) {
    const child = spawnSync(process.execPath, [import.meta.filename, '--one', file], { encoding: 'utf8' });
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    const name = path.relative(base, file);
    try {
      const row = JSON.parse(line) as Row;
      const mbps = statSync(file).size / 1024 / 1024 / (row.ms / 1000);
      console.log(
        `| ${name} | ${row.result} | ${row.language} | ${Math.round(row.ms)} | ${mbps.toFixed(1)} | ${Math.round(row.rssMb)} |`,
      );
    } catch {
      console.log(`| ${name} | crashed: ${child.stderr.trim().split('\n').at(-1)} | - | - | - | - |`);
    }
  }
}

if (args[0] === '--one') {
  console.log(JSON.stringify(await measureOne(args[1]!)));
} else if (args[0] === '--large-docx') {
  const { writeLargeDocx } = await import('./docx/docx-fixture.ts');
  const megabytes = Number(args[1] ?? 30);
  const file = path.join(os.tmpdir(), `yidu-large-${megabytes}mb.docx`);
  await writeLargeDocx(file, path.resolve(args[2] ?? defaultCorpus), megabytes * 1024 * 1024);
  printRows([file], os.tmpdir());
} else {
  const corpus = path.resolve(args[0] ?? defaultCorpus);
  const files = readdirSync(corpus, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !/MANIFEST|SHA256SUMS/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  printRows(files, corpus);
}
