import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeServer } from '../../server/src/engines/translation/testing/fake-servers.ts';
import { launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';
import { activatedReader, api } from './fixtures.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
/** Where the public library is photographed (E2E_SCREENSHOTS=docs/screenshots for the documentation's copy). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');
const ADMIN = { account: 'shelf-admin', password: 'ShelfAdmin2026' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * A fresh `npm start` (after the build): a new data directory and the default settings, so the first
 * shelf is on. Only the translator is a local fake, as in every journey.
 */
describe('a fresh install: the first shelf in the public library', () => {
  let browser: Browser;
  let server: ChildProcess;
  let translator: FakeServer;
  let dataDir: string;
  let baseUrl: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    translator = await startFakeMicrosoft();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-e2e-fresh-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseUrl,
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        ADMIN_ACCOUNT: ADMIN.account,
        ADMIN_PASSWORD: ADMIN.password,
        MICROSOFT_TRANSLATOR_ENDPOINT: translator.url,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      const up = await fetch(`${baseUrl}/api/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (up) break;
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
      if (Date.now() > deadline) throw new Error('the server did not start within 90 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  afterAll(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    await translator?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'shows the first shelf in the public library, and a book of it opens in the reader (zh)',
    { timeout: 240_000 },
    async () => {
      const t = wording('zh');
      const reader = await activatedReader(baseUrl, dataDir, ADMIN, 'zh', 'Reader');
      // The shelf is seeded in the background at start: a minute at most.
      await expect
        .poll(
          async () =>
            (await api<{ total: number }>(baseUrl, 'GET', '/book/library?section=new', undefined, reader.token)).total,
          { timeout: 120_000, interval: 1000 },
        )
        .toBe(4);
      const { context, page } = await newPage(browser, 'zh', baseUrl);
      await context.addInitScript((value) => {
        if (!window.sessionStorage.getItem('e2e-token-set')) {
          window.localStorage.setItem('authToken', value);
          window.sessionStorage.setItem('e2e-token-set', '1');
        }
      }, reader.token);
      try {
        await page.goto('/books/all');
        for (const title of [
          'Frankenstein; or, the Modern Prometheus',
          'The Adventures of Sherlock Holmes',
          '草枕',
          '羅生門',
        ])
          await page.locator('.yd-book-card', { hasText: title }).waitFor();
        await mkdir(SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(SHOTS, 'first-shelf-zh.png') });
        await page.locator('.yd-book-card', { hasText: 'Frankenstein' }).click();
        await page
          .getByRole('dialog')
          .getByRole('button', { name: buttonName(t('books.detail.read')) })
          .click();
        await page.waitForURL('**/tabs/read/**');
        // The book's own words, and their translation as it streams in.
        await page.locator('.yd-page [data-block]', { hasText: 'Frankenstein' }).first().waitFor({ timeout: 30_000 });
        await page.locator('.yd-translation', { hasText: '[zh-Hans]' }).first().waitFor({ timeout: 30_000 });
      } finally {
        await context.close();
      }
    },
  );
});
