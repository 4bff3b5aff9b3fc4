/**
 * What cropping figures, tables and formulas from PDF pages costs (issue 24): each PDF parsed in fresh
 * processes with cropping and without it (ParseOptions.pdfFigures), alternately, best of two each;
 * time of the first parse, of a warm parse, and peak RSS, with the ratios. The bar: at most twice the
 * time without cropping, inside PARSE_MEMORY_MB.
 *
 *   npx node bench/pdf-figures.ts          (corpus PDFs with figures and the generated 434-page large.pdf)
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { generateLargePdfs } from './generate-large.ts';

interface Result {
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
});

const { large } = await generateLargePdfs(corpus, path.join(os.tmpdir(), 'yidu-bench'));
const files = [
  path.join(corpus, 'pdf/en-tracemonkey-two-column-footnotes.pdf'),
  path.join(corpus, 'pdf/en-free-culture-book.pdf'),
  path.join(corpus, 'pdf/zh-debian-reference-cjk.pdf'),
  path.join(wild, 'pdf/en-ieee-paper-two-column-tex-control-chars.pdf'),
  path.join(wild, 'pdf/fr-transport-plan-65-pages-word.pdf'),
  large,
];

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
