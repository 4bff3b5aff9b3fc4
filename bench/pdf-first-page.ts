/**
 * The page view's first page of a 30 MB PDF, in headless Chromium against a local Yidu (started like
 * the browser journeys): pdf.js reading the signed URL by range requests, with the page view's options
 * (128 kB chunks, no auto-fetch, no stream), against the reference measured in the same run, the
 * same pdf.js downloading the whole file first. Both render page 1 at 1.5x into a canvas, in a fresh
 * browser profile each run, on loopback and on a throttled line (40 Mbit/s, 20 ms). The reader itself
 * (a cold load of the book's reader URL until page 1 of the page view is drawn) is measured too.
 *
 *   npm run build && node bench/pdf-first-page.ts
 *
 * The PDF is generated (the two-column corpus paper joined 30 times with poppler's pdfunite, 434
 * pages), never committed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type * as PdfJsModule from 'pdfjs-dist';
import { launchBrowser, newPage } from '../apps/web/e2e/browser.ts';
import { activatedReader, api, startServer } from '../apps/web/e2e/fixtures.ts';

type PdfJs = typeof PdfJsModule;

const RUNS = 5;
const CHUNK = 128 * 1024;
const LINES = [
  { name: 'loopback', conditions: null },
  { name: '40 Mbit/s, 20 ms', conditions: { latency: 20, downloadThroughput: 40e6 / 8, uploadThroughput: 10e6 / 8 } },
] as const;
const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
if (!existsSync(path.join(dist, 'index.html'))) {
  console.error('Build the web app first: npm run build');
  process.exit(1);
}
const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../shared/corpus');
const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// A 30 MB file (under the 30 MiB upload limit): the paper 30 times.
const work = await mkdtemp(path.join(os.tmpdir(), 'yidu-bench-pdf-'));
const file = path.join(work, 'large.pdf');
const paper = path.join(corpus, 'pdf/en-tracemonkey-two-column-footnotes.pdf');
await promisify(execFile)('pdfunite', [...Array<string>(30).fill(paper), file]);
const size = (await stat(file)).size;

const server = await startServer();
const browser = await launchBrowser();
try {
  const { token } = await activatedReader(server.baseUrl, server.dataDir, server.admin, 'en');
  const bookCode = await uploadLarge(server.baseUrl, token, file);
  const readerUrl = `/tabs/read/${bookCode}/zh`;

  /** A fresh profile on an app page (the app's origin and content security policy), bytes of the file counted. */
  async function open(line: (typeof LINES)[number]) {
    const { context, page } = await newPage(browser, 'en', server.baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    // The bench's own copy of pdf.js, at paths of the app's origin.
    await context.route('**/bench-pdfjs/**', (route) =>
      route.fulfill({
        path: path.join(pdfjsRoot, 'build', path.basename(new URL(route.request().url()).pathname)),
        contentType: 'text/javascript',
      }),
    );
    const cdp = await context.newCDPSession(page);
    const bytes = await countMediaBytes(cdp);
    if (line.conditions) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...line.conditions });
    return { context, page, bytes };
  }

  const results: { line: string; mode: string; ms: number[]; bytes: number[] }[] = [];
  for (const line of LINES) {
    const whole = {
      line: line.name,
      mode: 'whole file, then page 1 (reference)',
      ms: [] as number[],
      bytes: [] as number[],
    };
    const ranged = {
      line: line.name,
      mode: 'range requests (page view options)',
      ms: [] as number[],
      bytes: [] as number[],
    };
    const reader = {
      line: line.name,
      mode: 'the reader: cold load → page 1 drawn',
      ms: [] as number[],
      bytes: [] as number[],
    };
    for (let run = 0; run < RUNS; run++) {
      for (const target of [whole, ranged]) {
        const { url } = await api<{ url: string }>(
          server.baseUrl,
          'GET',
          `/reader/original?bookCode=${bookCode}`,
          undefined,
          token,
        );
        const { context, page, bytes } = await open(line);
        await page.goto('/tabs/new');
        await page.locator('.yd-tabs').waitFor();
        target.ms.push(await firstPage(page, url, target === ranged));
        target.bytes.push(bytes());
        await context.close();
      }
      const { context, page, bytes } = await open(line);
      reader.ms.push(await readerFirstPage(context, page, readerUrl));
      reader.bytes.push(bytes());
      const canvases = await page.locator('.yd-pdf-pane canvas').count();
      if (canvases > 3) throw new Error(`${canvases} canvases for the first page of 434`);
      await context.close();
    }
    results.push(whole, ranged, reader);
  }

  const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
  console.log(`\nFile: ${mb(size)}, ${434} pages. Median of ${RUNS} runs each.\n`);
  console.log('| line | loading | first page | ratio | bytes of the file fetched |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const line of LINES) {
    const rows = results.filter((r) => r.line === line.name);
    const reference = median(rows[0]!.ms);
    for (const r of rows)
      console.log(
        `| ${r.line} | ${r.mode} | ${median(r.ms).toFixed(0)} ms | ${(median(r.ms) / reference).toFixed(2)}x | ${mb(median(r.bytes))} |`,
      );
  }
  for (const r of results) console.log(`${r.line} / ${r.mode}: ${r.ms.map((v) => v.toFixed(0)).join(', ')} ms`);
} finally {
  await browser.close();
  await server.stop();
  await rm(work, { recursive: true, force: true });
}

/** Page 1 rendered at 1.5x by pdf.js, from the signed URL by ranges or from the whole file (ms). */
function firstPage(page: Page, url: string, byRanges: boolean): Promise<number> {
  return page.evaluate(
    async ({ url, size, byRanges, chunk }) => {
      const module = '/bench-pdfjs/pdf.min.mjs';
      const pdfjs = (await import(module)) as PdfJs;
      pdfjs.GlobalWorkerOptions.workerSrc = '/bench-pdfjs/pdf.worker.min.mjs';
      const started = performance.now();
      const options = { isEvalSupported: false, useWasm: false };
      const source = byRanges
        ? { url, length: size, rangeChunkSize: chunk, disableAutoFetch: true, disableStream: true, ...options }
        : { data: new Uint8Array(await (await fetch(url)).arrayBuffer()), ...options };
      const doc = await pdfjs.getDocument(source).promise;
      const first = await doc.getPage(1);
      const viewport = first.getViewport({ scale: 1.5 });
      const canvas = document.createElement('canvas');
      canvas.width = viewport.width;
      canvas.height = viewport.height;
      await first.render({ canvas, viewport }).promise;
      const elapsed = performance.now() - started;
      await doc.destroy();
      return elapsed;
    },
    { url, size, byRanges, chunk: CHUNK },
  );
}

/** A cold load of the reader URL until the page view has drawn page 1 (ms since the navigation began). */
async function readerFirstPage(context: BrowserContext, page: Page, readerUrl: string): Promise<number> {
  await context.addInitScript(() => {
    const seen = () =>
      document.querySelector('.yd-pdf-page[data-pdf-page="1"] .yd-pdf-canvas-holder[data-rendered=true]');
    new MutationObserver((_, observer) => {
      if (!seen()) return;
      (window as unknown as { firstPageAt: number }).firstPageAt = performance.now();
      observer.disconnect();
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(readerUrl);
  await page.waitForFunction(() => (window as unknown as { firstPageAt?: number }).firstPageAt, undefined, {
    timeout: 120_000,
  });
  return page.evaluate(() => (window as unknown as { firstPageAt: number }).firstPageAt);
}

/** Counts the bytes received for the stored file (requests to /api/media/), aborted answers included. */
async function countMediaBytes(cdp: CDPSession): Promise<() => number> {
  const media = new Set<string>();
  let total = 0;
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.url.includes('/api/media/')) media.add(event.requestId);
  });
  cdp.on('Network.dataReceived', (event) => {
    if (media.has(event.requestId)) total += event.dataLength;
  });
  await cdp.send('Network.enable');
  return () => total;
}

/** Uploads the generated PDF and runs its pipeline; returns the book code. */
async function uploadLarge(baseUrl: string, token: string, pdf: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const form = new FormData();
  form.append('file', new Blob([await readFile(pdf)]), 'large.pdf');
  const res = await fetch(`${baseUrl}/api/book/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const uploaded = (await res.json()) as { code: number; data: { fileId: string }; msg: string };
  if (uploaded.code !== 0) throw new Error(`upload: ${uploaded.msg}`);
  const { requestId } = await api<{ requestId: string }>(
    baseUrl,
    'POST',
    '/book/saveNew',
    { fileId: uploaded.data.fileId, bookName: 'Large PDF', bookStatus: 0, language: 'zh' },
    token,
  );
  for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
    for (const deadline = Date.now() + 600_000; ;) {
      let state: { status: string; result?: { bookCode?: string } };
      try {
        state = await api(
          baseUrl,
          'GET',
          `/book/${stage}?requestId=${requestId}&userLanguage=zh&bookName=Large%20PDF`,
          undefined,
          token,
        );
      } catch (error) {
        if (stage === 'translationBookName') break;
        throw error;
      }
      if (state.status === 'done') {
        if (stage === 'saveBookById') return String(state.result?.bookCode);
        break;
      }
      if (state.status === 'failed' && stage !== 'translationBookName') throw new Error(`${stage} failed`);
      if (state.status === 'failed' || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  throw new Error('the large PDF was not saved');
}
