/**
 * Reader bench: in headless Chromium against a local server (started like the browser journeys do, with
 * the fake Microsoft translator), measures
 *   - time from opening a book to the first readable text, with cached translations;
 *   - page-turn latency (next page, already translated);
 *   - the JavaScript the reader route loads (gzip).
 *
 *   npm run build && node bench/reader.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser, newPage } from '../apps/web/e2e/browser.ts';
import { activatedReader, api, startServer, uploadBook } from '../apps/web/e2e/fixtures.ts';

const RUNS = 7;
const TURNS = 8;
const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
if (!existsSync(path.join(dist, 'index.html'))) {
  console.error('Build the web app first: npm run build');
  process.exit(1);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const ms = (value: number) => `${value.toFixed(0)} ms`;

const server = await startServer();
const browser = await launchBrowser();
try {
  const { token } = await activatedReader(server.baseUrl, server.dataDir, server.admin);
  const bookCode = await uploadBook(
    server.baseUrl,
    token,
    'txt/en-sherlock-holmes-utf8-bom-crlf.txt',
    'The Adventures of Sherlock Holmes',
  );
  const readerUrl = `/tabs/read/${bookCode}/zh`;

  /** A fresh browser profile (no client cache, no stored settings) with the session token. */
  const open = async () => {
    const { context, page } = await newPage(browser, 'en', server.baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    return { context, page };
  };

  // Translate the first pages once, so that every measurement below reads cached translations.
  for (let p = 1; p <= TURNS + 2; p++) {
    for (let i = 0; i < 100; i++) {
      const data = await api<{ blocks: { status: string }[] }>(
        server.baseUrl,
        'GET',
        `/reader/getPageData?bookCode=${bookCode}&language=zh&page=${p}`,
        undefined,
        token,
      );
      if (!data.blocks.some((b) => b.status === 'pending')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  // 1a. In the app: click the book on the New Tab page → first translated paragraph on screen.
  const openInApp: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await api(server.baseUrl, 'PUT', '/reader/position', { bookCode, page: 1, language: 'zh' }, token);
    const { context, page } = await open();
    await page.goto('/tabs/new');
    await page.locator('.yd-shelf-book').first().waitFor();
    await page.waitForTimeout(300);
    const elapsed = await page.evaluate(async () => {
      const t0 = performance.now();
      document.querySelector<HTMLButtonElement>('.yd-shelf-book')!.click();
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        if (document.querySelector('.yd-translation')) return performance.now() - t0;
        if (performance.now() - t0 > 20_000) return Number.NaN;
      }
    });
    openInApp.push(elapsed);
    await context.close();
  }

  // 1b. A cold page load of the reader URL → first translated paragraph (fresh profile each run).
  const firstText: number[] = [];
  const scripts = new Set<string>();
  for (let run = 0; run < RUNS; run++) {
    await api(server.baseUrl, 'PUT', '/reader/position', { bookCode, page: 1, language: 'zh' }, token);
    const { context, page } = await open();
    if (run === 0) {
      page.on('response', (response) => {
        const url = new URL(response.url());
        if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
      });
    }
    const started = Date.now();
    await page.goto(readerUrl);
    await page.locator('.yd-translation').first().waitFor();
    firstText.push(Date.now() - started);
    await context.close();
  }

  // 2. Page turns: click Next, time until the next page's text is on screen (measured in the page).
  const { context, page } = await open();
  await page.goto(readerUrl);
  await page.locator('.yd-translation').first().waitFor();
  const turns: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    await page.waitForTimeout(600); // the reader prefetches the next page once this one is complete
    const elapsed = await page.evaluate(async () => {
      const where = () => document.querySelector('.yd-pager-where')?.textContent ?? '';
      const before = where();
      const next = document.querySelector<HTMLButtonElement>('.yd-pager > button:last-child')!;
      const t0 = performance.now();
      next.click();
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        if (where() !== before && document.querySelector('.yd-translation')) return performance.now() - t0;
        if (performance.now() - t0 > 10_000) return Number.NaN;
      }
    });
    turns.push(elapsed);
  }
  await context.close();

  // 3. The reader route's JavaScript, as loaded by the browser, gzip-compressed.
  let js = 0;
  const chunks: [string, number][] = [];
  for (const script of scripts) {
    const file = path.join(dist, script);
    if (!existsSync(file)) continue;
    const size = gzipSync(readFileSync(file), { level: 9 }).length;
    js += size;
    chunks.push([path.basename(script), size]);
  }

  const rows: [string, string, string][] = [
    ['Open a book in the app → first text (cached)', `${ms(median(openInApp))} median of ${RUNS}`, '< 1000 ms'],
    ['Cold load of the reader URL → first text (cached)', `${ms(median(firstText))} median of ${RUNS}`, '-'],
    ['Page turn (next page, cached)', `${ms(median(turns))} median of ${TURNS}`, '< 100 ms'],
    ['Reader route JS (gzip)', `${(js / 1024).toFixed(0)} KB in ${chunks.length} files`, '< 400 KB'],
  ];
  console.log('\n| Measure | Result | Target |\n|---|---|---|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log(`\nopen in app runs: ${openInApp.map((v) => v.toFixed(0)).join(', ')} ms`);
  console.log(`cold load runs: ${firstText.map((v) => v.toFixed(0)).join(', ')} ms`);
  console.log(`page turns: ${turns.map((v) => v.toFixed(0)).join(', ')} ms`);
  console.log('chunks (gzip KB):');
  for (const [name, size] of chunks.sort((a, b) => b[1] - a[1])) console.log(`  ${name} ${(size / 1024).toFixed(1)}`);
} finally {
  await browser.close();
  await server.stop();
}
