import type { Browser } from 'playwright-core';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, corpus, uploadThroughWizard } from './fixtures.ts';
import { buttonName, wording } from './i18n.ts';

describe('books: upload through the wizard, find them in the personal library, open the detail popup', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('uploads an EPUB and a PDF and shows both in the personal library (zh)', { timeout: 420_000 }, async () => {
    const t = wording('zh');
    const { token } = await activatedReader(baseUrl, dataDir, inject('admin'));
    const { context, page } = await newPage(browser, 'zh', baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    try {
      await page.goto('/books/user');
      await page.getByText(t('books.empty.userTitle')).waitFor();

      await page.goto('/book/upload');
      await uploadThroughWizard(page, t, 'epub/en-moby-dick-epub3.epub', 'Moby-Dick');
      await page.getByRole('button', { name: buttonName(t('books.wizard.uploadNext')) }).click();
      await uploadThroughWizard(page, t, 'pdf/en-pdkids-public-domain-stories.pdf', 'Public Domain Stories for Kids');
      await page.getByRole('button', { name: buttonName(t('books.wizard.toLibrary')) }).click();

      await page.waitForURL('**/books/user');
      const cards = page.locator('.yd-book-card');
      await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(2);
      await page.locator('.yd-book-card', { hasText: 'Moby-Dick' }).waitFor();
      await page.locator('.yd-book-card', { hasText: 'Public Domain Stories for Kids' }).waitFor();

      await page.locator('.yd-book-card', { hasText: 'Moby-Dick' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(t('books.detail.toc')).first().waitFor();
      await dialog.locator('.yd-toc-list li').first().waitFor();
      expect(await dialog.locator('.yd-toc-list li').count()).toBeGreaterThan(10);
      await dialog.getByRole('button', { name: buttonName(t('books.detail.read')) }).waitFor();

      // Search by title (debounced) finds one of the two.
      await page.keyboard.press('Escape');
      await page.getByRole('textbox', { name: t('books.search') }).fill('moby');
      await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(1);
    } finally {
      await context.close();
    }
  });

  it(
    'a broken file fails with its reason; another file is chosen, and its title comes from the file (en)',
    { timeout: 240_000 },
    async () => {
      const t = wording('en');
      const { token } = await activatedReader(baseUrl, dataDir, inject('admin'));
      const { context, page } = await newPage(browser, 'en', baseUrl);
      await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
      const next = page.getByRole('button', { name: buttonName(t('books.wizard.next')) });
      try {
        await page.goto('/book/upload');
        await page
          .locator('.yd-dropzone input[type=file]')
          .setInputFiles(path.join(corpus, 'bad/truncated-moby-dick.epub'));
        await page.getByText(t('books.upload.uploaded'), { exact: true }).waitFor({ timeout: 60_000 });
        await next.click();
        await page.locator('#book-upload-info_bookName').waitFor();
        await next.click();

        const alert = page.locator('.yd-stage-alert');
        await alert.waitFor({ timeout: 60_000 });
        expect(await alert.innerText()).toContain(t('books.stageFailed.parsingFile'));
        expect(await alert.innerText()).toContain(t('errors.fileCorrupted'));
        expect(await page.getByRole('button', { name: buttonName(t('books.wizard.complete')) }).isDisabled()).toBe(
          true,
        );
        await alert.getByRole('button', { name: buttonName(t('books.wizard.chooseAnother')) }).click();

        await page.getByText(t('books.upload.drop')).waitFor();
        await page
          .locator('.yd-dropzone input[type=file]')
          .setInputFiles(path.join(corpus, 'epub/en-moby-dick-epub3.epub'));
        await page.getByText(t('books.upload.uploaded'), { exact: true }).waitFor({ timeout: 60_000 });
        await next.click();
        // The file's own title and author, not "en-moby-dick-epub3", and its cover.
        expect(await page.locator('#book-upload-info_bookName').inputValue()).toBe('Moby-Dick');
        expect(await page.locator('#book-upload-info_bookAuthor').inputValue()).toBe('Herman Melville');
        const cover = page.getByRole('img', { name: t('books.info.coverFromFile') });
        await expect
          .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
          .toBeGreaterThan(0);
      } finally {
        await context.close();
      }
    },
  );
});
