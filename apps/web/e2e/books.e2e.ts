import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { activationLinkFor, launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus');

async function api<T>(baseUrl: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${baseUrl}/api${url}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { code: number; data: T; msg: string };
  if (json.code !== 0) throw new Error(`${method} ${url}: ${json.msg}`);
  return json.data;
}

/** A registered, activated reader (invite code from the admin, activation link from the outbox). */
async function activatedReader(baseUrl: string, dataDir: string): Promise<{ email: string; token: string }> {
  const admin = await api<{ token: string }>(baseUrl, 'POST', '/auth/login', inject('admin'));
  const { codes } = await api<{ codes: string[] }>(
    baseUrl,
    'POST',
    '/admin/invite-codes',
    { count: 1, maxUses: 1 },
    admin.token,
  );
  const email = `books-${Date.now()}@example.com`;
  const password = 'Reading2026';
  await api(baseUrl, 'POST', '/auth/register', {
    method: 'email',
    email,
    password,
    inviteCode: codes[0],
    language: 'Chinese',
    uiLanguage: 'zh',
  });
  const link = await activationLinkFor(dataDir, email);
  const code = new URL(link).searchParams.get('code')!;
  await api(baseUrl, 'POST', `/auth/confirmAccount?code=${encodeURIComponent(code)}`);
  const { token } = await api<{ token: string }>(baseUrl, 'POST', '/auth/login', { account: email, password });
  return { email, token };
}

/** Uploads one file through the wizard and returns once the success page shows. */
async function uploadThroughWizard(page: Page, t: ReturnType<typeof wording>, file: string, title: string) {
  await page.locator('.yd-dropzone input[type=file]').setInputFiles(path.join(corpus, file));
  await page.getByText(t('books.upload.uploaded'), { exact: true }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: buttonName(t('books.wizard.next')) }).click();
  const titleInput = page.locator('#book-upload-info_bookName');
  await titleInput.waitFor();
  await titleInput.fill(title);
  await page.getByRole('button', { name: buttonName(t('books.wizard.next')) }).click();

  // The stages run in turn; the title translation may fail (no engine reachable) or propose a title.
  const saved = page.locator('[data-testid=stage-saving][data-status=done]');
  const deadline = Date.now() + 150_000;
  while (!(await saved.isVisible())) {
    if (Date.now() > deadline) throw new Error(`the pipeline did not finish for ${file}`);
    const keepAfterFailure = page.getByRole('button', { name: buttonName(t('books.title.continueOriginal')) });
    const keepProposed = page.getByRole('button', { name: buttonName(t('books.title.keepOriginal')) });
    if (await keepAfterFailure.isVisible()) await keepAfterFailure.click();
    else if (await keepProposed.isVisible()) await keepProposed.click();
    else {
      const failed = page.locator('.yd-stage.is-failed');
      if (
        (await failed.count()) > 0 &&
        !(await page.locator('[data-testid=stage-translatingTitle].is-failed').count())
      ) {
        throw new Error(`a stage failed for ${file}: ${await page.locator('.yd-stage-alert').innerText()}`);
      }
    }
    await page.waitForTimeout(300);
  }
  await page.getByRole('button', { name: buttonName(t('books.wizard.complete')) }).click();
  await page.getByText(t('books.wizard.successTitle')).waitFor();
}

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
    const { token } = await activatedReader(baseUrl, dataDir);
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
