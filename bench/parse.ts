/**
 * Parse benchmark (issue 3): time, throughput and peak memory per corpus file and for generated
 * ~30 MB books, each parsed in its own process; PDF text extraction compared with poppler's
 * pdftotext on the same files in the same run.
 *
 *   node bench/parse.ts            (from the repository root; needs ../shared/corpus and poppler-utils)
 *   node bench/parse.ts --pdf      (PDFs only)   --large (generated books only)
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generateLargeBooks, generateLargePdfs } from './generate-large.ts';

const root = path.resolve(import.meta.dirname, '..');
const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(root, '../shared/corpus');
const run = promisify(execFile);

interface Result {
  ok: boolean;
  ms: number;
  /** PDFs, parsed again in the same process as a running worker does (see parse-one.ts). */
  warmMs?: number;
  warmCpuMs?: number;
  warmOneThreadMs?: number;
  /** PDFs: the first parse in a process whose pdf.js was warmed up as a worker's is at boot. */
  afterBootMs?: number;
  bytes: number;
  maxRssMb: number;
  chapters?: number;
  characters?: number;
  error?: string;
}

async function parseInChild(file: string, ...flags: string[]): Promise<Result> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'parse-one.ts'), file, ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  return JSON.parse(out.trim().split('\n').at(-1)!) as Result;
}

async function pdftotextMs(file: string): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await run('pdftotext', ['-q', file, '-'], { maxBuffer: 256 * 1024 * 1024 });
    runs.push(performance.now() - started);
  }
  return Math.min(...runs);
}

const files: string[] = [];
for (const dir of ['epub', 'pdf', 'docx', 'doc', 'txt']) {
  for (const name of (await readdir(path.join(corpus, dir))).sort()) {
    if (!name.startsWith('broken') && !name.startsWith('encrypted')) files.push(path.join(corpus, dir, name));
  }
}
const large = await generateLargeBooks(corpus, path.join(os.tmpdir(), 'yidu-bench'));
const largePdfs = await generateLargePdfs(corpus, path.join(os.tmpdir(), 'yidu-bench'));
files.push(large.epub, large.txt, large.docx, largePdfs.large, largePdfs.long);

const rows: string[] = [];
const json: Record<string, unknown>[] = [];
rows.push(
  '| file | size | parse ms | MB/s | peak RSS MB | chapters | pdftotext ms | ratio | after boot ms | ratio | warm ms | ratio (warm) | warm CPU ms | warm, one thread | ratio |',
);
rows.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
// `--large` measures only the generated books, `--pdf` only the PDFs (quicker runs).
const only = process.argv.includes('--large')
  ? [large.epub, large.txt, large.docx, largePdfs.large, largePdfs.long]
  : process.argv.includes('--pdf')
    ? files.filter((f) => f.endsWith('.pdf'))
    : files;
for (const file of only) {
  const best: Result[] = [];
  for (let i = 0; i < 2; i++) best.push(await parseInChild(file));
  const result = best.sort((a, b) => a.ms - b.ms)[0]!;
  const mb = (await stat(file)).size / 1024 / 1024;
  let reference = '';
  let ratio = '';
  let warm = '';
  let warmRatio = '';
  let warmCpu = '';
  let oneThread = '';
  let oneThreadRatio = '';
  let afterBoot = '';
  let afterBootRatio = '';
  if (file.endsWith('.pdf') && !file.includes('scanned')) {
    const booted = [await parseInChild(file, '--after-boot'), await parseInChild(file, '--after-boot')];
    result.afterBootMs = Math.min(...booted.map((b) => b.ms));
    const ms = await pdftotextMs(file);
    reference = ms.toFixed(0);
    ratio = (result.ms / ms).toFixed(2) + 'x';
    afterBoot = result.afterBootMs.toFixed(0);
    afterBootRatio = (result.afterBootMs / ms).toFixed(2) + 'x';
    const fastest = best.filter((b) => b.warmMs !== undefined).sort((a, b) => a.warmMs! - b.warmMs!)[0];
    if (fastest) {
      warm = fastest.warmMs!.toFixed(0);
      warmRatio = (fastest.warmMs! / ms).toFixed(2) + 'x';
      warmCpu = fastest.warmCpuMs!.toFixed(0);
      const alone = Math.min(...best.map((b) => b.warmOneThreadMs ?? Infinity));
      oneThread = alone.toFixed(0);
      oneThreadRatio = (alone / ms).toFixed(2) + 'x';
    }
  }
  const name = path.relative(corpus, file).startsWith('..')
    ? `generated/${path.basename(file)}`
    : path.relative(corpus, file);
  rows.push(
    `| ${name} | ${mb.toFixed(2)} MB | ${result.ok ? result.ms.toFixed(0) : 'error'} | ${result.ok ? (mb / (result.ms / 1000)).toFixed(1) : '-'} | ${result.maxRssMb.toFixed(0)} | ${result.chapters ?? '-'} | ${reference} | ${ratio} | ${afterBoot} | ${afterBootRatio} | ${warm} | ${warmRatio} | ${warmCpu} | ${oneThread} | ${oneThreadRatio} |`,
  );
  json.push({ file: name, mb, ...result, pdftotextMs: reference ? Number(reference) : undefined });
  console.error(rows.at(-1));
}
const table = rows.join('\n');
console.log(table);
await mkdir(path.join(root, 'bench/results'), { recursive: true });
await writeFile(
  path.join(root, 'bench/results/parse.json'),
  JSON.stringify(
    { at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, results: json },
    null,
    2,
  ),
);
