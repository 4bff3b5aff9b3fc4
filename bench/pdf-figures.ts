/**
 * What cropping figures, tables and formulas from PDF pages costs (issue 24): each PDF parsed in fresh
 * processes with cropping and without it (ParseOptions.pdfFigures), alternately, best of two each;
 * time of the first parse, of a warm parse, and peak RSS, with the ratios. The bar: at most twice the
 * time without cropping, inside PARSE_MEMORY_MB.
 * A second table: the parse as uploads run it (the first 48 figures cropped, PDF_CROPS_IN_PARSE) against
 * the parse without cropping, and the time the book.crops job then takes for the rest, on the large
 * PDFs (434 pages, and 602 pages: the paper joined 43 times).
 *
 *   npx node bench/pdf-figures.ts          (corpus PDFs with figures and the generated large PDFs)
 *   npx node bench/pdf-figures.ts --deferred   (the second table only)
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { generateLargePdfs } from './generate-large.ts';

interface Result {
  pending: number;
  laterMs: number;
  ms: number;
  warmMs: number;
  maxRssMb: number;
  images: number;
  imageBytes: number;
}

const corpus = process.env.YIDU_CORPUS_DIR ?? path.resolve(import.meta.dirname, '../../shared/corpus');
const wild = path.resolve(corpus, '../wild');

async function parseInChild(file: string, ...flags: string[]): Promise<Result> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'pdf-figures-one.ts'), file, ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  return JSON.parse(out.trim().split('\n').at(-1)!) as Result;
}

const best = (runs: Result[]): Result => ({
  ms: Math.min(...runs.map((r) => r.ms)),
  warmMs: Math.min(...runs.map((r) => r.warmMs)),
  maxRssMb: Math.min(...runs.map((r) => r.maxRssMb)),
  images: runs[0]!.images,
  imageBytes: runs[0]!.imageBytes,
  pending: runs[0]!.pending,
  laterMs: Math.min(...runs.map((r) => r.laterMs)),
});

const outDir = path.join(os.tmpdir(), 'yidu-bench');
const { large } = await generateLargePdfs(corpus, outDir);
const illustrated600 = path.join(outDir, 'illustrated-602.pdf');
const paper = path.join(corpus, 'pdf/en-tracemonkey-two-column-footnotes.pdf');
await promisify(execFile)('pdfunite', [...Array<string>(43).fill(paper), illustrated600]);
const files = [
  path.join(corpus, 'pdf/en-tracemonkey-two-column-footnotes.pdf'),
  path.join(corpus, 'pdf/en-free-culture-book.pdf'),
  path.join(corpus, 'pdf/zh-debian-reference-cjk.pdf'),
  path.join(wild, 'pdf/en-ieee-paper-two-column-tex-control-chars.pdf'),
  path.join(wild, 'pdf/fr-transport-plan-65-pages-word.pdf'),
  large,
];

if (!process.argv.includes('--deferred')) await cropEverything();
await cropFirstOnes();

async function cropEverything(): Promise<void> {
  const warm = (ms: number) => (Number.isNaN(ms) ? '' : `${Math.round(ms)} ms`);
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  console.log(
    '| file | crops | crop MB | parse without | parse with | ratio | warm without | warm with | ratio | peak RSS without | with | ratio |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const file of files) {
    const without: Result[] = [];
    const withFigures: Result[] = [];
    // The 434-page PDF: one process each, no warm parse (it takes minutes on a busy machine).
    const once = file === large ? ['--once'] : [];
    for (let i = 0; i < (file === large ? 1 : 2); i++) {
      without.push(await parseInChild(file, '--no-figures', ...once));
      withFigures.push(await parseInChild(file, '--figures', ...once));
    }
    const a = best(without);
    const b = best(withFigures);
    const name = file === large ? 'generated/large.pdf (434 pages)' : path.relative(path.resolve(corpus, '..'), file);
    console.log(
      `| ${name} | ${b.images} | ${(b.imageBytes / 1e6).toFixed(1)} | ${pad(Math.round(a.ms), 6)} ms | ${pad(Math.round(b.ms), 6)} ms | ${(b.ms / a.ms).toFixed(2)}x | ${warm(a.warmMs)} | ${warm(b.warmMs)} | ${once.length ? '' : `${(b.warmMs / a.warmMs).toFixed(2)}x`} | ${Math.round(a.maxRssMb)} MB | ${Math.round(b.maxRssMb)} MB | ${(b.maxRssMb / a.maxRssMb).toFixed(2)}x |`,
    );
  }
}

/** The parse as uploads run it: the first 48 figures cropped, the rest by the job after the book is saved. */
async function cropFirstOnes(): Promise<void> {
  console.log(
    '\n| file | pages | parse without cropping | parse, first 48 cropped | ratio | crops left | the job after | all cropped in the parse | ratio |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const [file, name, pages] of [
    [large, 'generated/large.pdf', 434],
    [illustrated600, 'generated/illustrated-602.pdf', 602],
  ] as const) {
    const without = await parseInChild(file, '--no-figures', '--once');
    const deferred = await parseInChild(file, '--in-parse=48', '--once');
    const all = await parseInChild(file, '--figures', '--once');
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `| ${name} | ${pages} | ${s(without.ms)} | ${s(deferred.ms)} | ${(deferred.ms / without.ms).toFixed(2)}x | ${deferred.pending} | ${s(deferred.laterMs)} | ${s(all.ms)} | ${(all.ms / without.ms).toFixed(2)}x |`,
    );
  }
}
