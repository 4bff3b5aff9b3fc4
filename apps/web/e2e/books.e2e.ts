import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, uploadThroughWizard } from './fixtures.ts';
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
});
