import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';
import { activatedReader, uploadBook } from './fixtures.ts';

/** Where the quote, the progress and the finished state are photographed (E2E_SCREENSHOTS to keep them elsewhere). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');

describe('a book to keep: translate the whole book, watch it, download the EPUB', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => browser?.close());

  // Two books, so that the second is not answered at once from the translation memory the first filled.
  for (const [ui, file, bookName] of [
    ['zh', 'epub/en-wasteland-epub3-endnotes-obfuscated-fonts.epub', '荒原'],
    ['en', 'epub/ja-kusamakura-epub3-vertical.epub', 'Kusamakura'],
  ] as const) {
    it(
      `quotes, confirms, shows the progress and downloads a bilingual EPUB (${ui})`,
      { timeout: 300_000 },
      async () => {
        const t = wording(ui);
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        await uploadBook(baseUrl, token, file, bookName);
        const { context, page } = await newPage(browser, ui, baseUrl);
        await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
        try {
          await page.goto('/books/user');
          await page.locator('.yd-book-card', { hasText: bookName }).click();
          const detail = page.getByRole('dialog');
          await detail.getByRole('button', { name: buttonName(t('keep.translateAction')) }).click();

          // The dialog: the language (the reader's, Chinese), then the quote to confirm.
          const keep = page.locator('.yd-keep-modal');
          await keep.waitFor();
          await keep.getByRole('button', { name: buttonName(t('keep.translateAction')) }).click();
          const quote = keep.getByTestId('keep-quote');
          await quote.waitFor({ timeout: 30_000 });
          const points = Number((await quote.locator('.yd-keep-price strong').innerText()).replace(/[^\d]/g, ''));
          expect(points).toBeGreaterThan(0);
          await page.screenshot({ path: path.join(SHOTS, `keep-quote-${ui}.png`), animations: 'disabled' });

          await quote
            .getByRole('button', { name: buttonName(t('keep.quote.confirm', { points: String(points) })) })
            .click();
          const progress = keep.getByTestId('keep-progress');
          await progress.waitFor({ timeout: 30_000 });
          // Photographed once some pages are done (the dialog follows the job every 1.5 s).
          await page
            .waitForFunction(
              () => {
                const bar = document.querySelector('[data-testid=keep-progress] [role=progressbar]');
                return !bar || Number(bar.getAttribute('aria-valuenow')) > 0;
              },
              undefined,
              { timeout: 30_000, polling: 100 },
            )
            .catch(() => undefined);
          if (await progress.isVisible())
            await page.screenshot({ path: path.join(SHOTS, `keep-progress-${ui}.png`), animations: 'disabled' });

          // It runs to the end by itself; the dialog follows it.
          await keep.locator('.yd-keep-finished.ant-alert-success').waitFor({ timeout: 120_000 });
          await page.screenshot({ path: path.join(SHOTS, `keep-done-${ui}.png`), animations: 'disabled' });

          // The EPUB: original and translation, as a file the browser saves.
          await keep.getByRole('radio', { name: t('keep.export.bilingual') }).check();
          const [download] = await Promise.all([
            page.waitForEvent('download', { timeout: 60_000 }),
            keep.getByRole('button', { name: buttonName(t('keep.export.download')) }).click(),
          ]);
          expect(download.suggestedFilename()).toMatch(/\.epub$/);
          const file = await download.path();
          const bytes = await readFile(file);
          // An EPUB: a zip whose first entry is the stored mimetype.
          expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
          expect(bytes.subarray(30, 38).toString('latin1')).toBe('mimetype');
          expect(bytes.subarray(38, 58).toString('latin1')).toBe('application/epub+zip');
          expect(bytes.length).toBeGreaterThan(5_000);
        } catch (error) {
          await page.screenshot({ path: path.join(SHOTS, `keep-fail-${ui}.png`), fullPage: true });
          throw error;
        } finally {
          await context.close();
        }
      },
    );
  }
});
