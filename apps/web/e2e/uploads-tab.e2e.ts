import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, api, corpus, startUpload } from './fixtures.ts';
import { buttonName, wording } from './i18n.ts';

describe('uploads survive the tab', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it('a tab closed at the title question leaves the book in 我的书库 (zh)', { timeout: 240_000 }, async () => {
    const t = wording('zh');
    const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), 'zh');
    const first = await newPage(browser, 'zh', baseUrl);
    await first.context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    await first.page.goto('/book/upload');
    await first.page
      .locator('.yd-dropzone input[type=file]')
      .setInputFiles(path.join(corpus, 'txt/en-sherlock-holmes-utf8-bom-crlf.txt'));
    await first.page.getByText(t('books.upload.uploaded'), { exact: true }).waitFor({ timeout: 60_000 });
    await first.page.getByRole('button', { name: buttonName(t('books.wizard.next')) }).click();
    await first.page.locator('#book-upload-info_bookName').fill('The Adventures of Sherlock Holmes');
    await first.page.getByRole('button', { name: buttonName(t('books.wizard.next')) }).click();
    // The question "使用翻译后的书名 / 保留原书名" comes; the tab is closed instead of answering.
    await first.page
      .getByRole('button', { name: buttonName(t('books.title.useTranslated')) })
      .waitFor({ timeout: 120_000 });
    await first.context.close();

    const { context, page } = await newPage(browser, 'zh', baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    try {
      await page.goto('/books/user');
      await page
        .locator('.yd-book-card', { hasText: 'The Adventures of Sherlock Holmes' })
        .waitFor({ timeout: 60_000 });
      // Nothing of it is left to continue on the upload page.
      await page.goto('/book/upload');
      await page.locator('.yd-dropzone').waitFor();
      expect(await page.getByTestId('unfinished-upload').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('lists unfinished uploads to continue or discard (en)', { timeout: 240_000 }, async () => {
    const t = wording('en');
    const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), 'en');
    // One left right after the information step, one whose file could not be read.
    await startUpload(baseUrl, token, 'txt/en-pride-and-prejudice-cp1252-crlf.txt', 'Pride and Prejudice');
    const broken = await startUpload(baseUrl, token, 'bad/truncated-moby-dick.epub', 'Broken Moby');
    for (let i = 0; i < 200; i++) {
      const state = await api<{ status: string }>(
        baseUrl,
        'GET',
        `/book/analysis?requestId=${broken}`,
        undefined,
        token,
      );
      if (state.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 300));
    }
    const { context, page } = await newPage(browser, 'en', baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    try {
      await page.goto('/book/upload');
      const rows = page.getByTestId('unfinished-upload');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(2);
      const failed = rows.filter({ hasText: 'Broken Moby' });
      await failed.getByText(t('books.stageFailed.parsingFile')).waitFor();

      // Discard the broken one.
      await failed.getByRole('button', { name: buttonName(t('uploadResume.discard')) }).click();
      await page
        .locator('.ant-popconfirm')
        .getByRole('button', { name: buttonName(t('uploadResume.discard')) })
        .click();
      await expect.poll(() => rows.count()).toBe(1);

      // Continue the other: the wizard takes it up where it stopped and runs it to the end.
      const pending = rows.filter({ hasText: 'Pride and Prejudice' });
      await pending.getByText(t('uploadResume.waiting')).waitFor();
      await pending.getByRole('button', { name: buttonName(t('uploadResume.continue')) }).click();
      const keep = page.getByRole('button', { name: buttonName(t('books.title.keepOriginal')) });
      const complete = page.getByRole('button', { name: buttonName(t('books.wizard.complete')) });
      await expect
        .poll(
          async () => {
            if (await keep.isVisible()) await keep.click();
            return complete.isEnabled();
          },
          { timeout: 120_000 },
        )
        .toBe(true);
      await complete.click();
      await page.getByRole('button', { name: buttonName(t('books.wizard.toLibrary')) }).click();
      await page.locator('.yd-book-card', { hasText: 'Pride and Prejudice' }).waitFor({ timeout: 30_000 });
      expect(await page.locator('.yd-book-card', { hasText: 'Broken Moby' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
