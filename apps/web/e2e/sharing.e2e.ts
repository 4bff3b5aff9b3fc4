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

async function adminToken(baseUrl: string): Promise<string> {
  return (await api<{ token: string }>(baseUrl, 'POST', '/auth/login', inject('admin'))).token;
}

/** A registered, activated reader (invite code from the admin, activation link from the outbox). */
async function activatedReader(
  baseUrl: string,
  dataDir: string,
  name: string,
): Promise<{ email: string; token: string }> {
  const admin = await adminToken(baseUrl);
  const { codes } = await api<{ codes: string[] }>(
    baseUrl,
    'POST',
    '/admin/invite-codes',
    { count: 1, maxUses: 1 },
    admin,
  );
  const email = `${name}-${Date.now()}@example.com`;
  const password = 'Reading2026';
  await api(baseUrl, 'POST', '/auth/register', {
    method: 'email',
    email,
    password,
    nickname: name,
    inviteCode: codes[0],
    language: 'Chinese',
    uiLanguage: 'en',
  });
  const link = await activationLinkFor(dataDir, email);
  const code = new URL(link).searchParams.get('code')!;
  await api(baseUrl, 'POST', `/auth/confirmAccount?code=${encodeURIComponent(code)}`);
  const { token } = await api<{ token: string }>(baseUrl, 'POST', '/auth/login', { account: email, password });
  return { email, token };
}

/** Uploads one file through the wizard (private, the default) and returns once the success page shows. */
async function uploadThroughWizard(page: Page, t: ReturnType<typeof wording>, file: string, title: string) {
  await page.goto('/book/upload');
  await page.locator('.yd-dropzone input[type=file]').setInputFiles(path.join(corpus, file));
  await page.getByText(t('books.upload.uploaded'), { exact: true }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: buttonName(t('books.wizard.next')) }).click();
  const titleInput = page.locator('#book-upload-info_bookName');
  await titleInput.waitFor();
  await titleInput.fill(title);
  await page.getByRole('button', { name: buttonName(t('books.wizard.next')) }).click();
  const saved = page.locator('[data-testid=stage-saving][data-status=done]');
  const deadline = Date.now() + 150_000;
  while (!(await saved.isVisible())) {
    if (Date.now() > deadline) throw new Error(`the pipeline did not finish for ${file}`);
    const keepAfterFailure = page.getByRole('button', { name: buttonName(t('books.title.continueOriginal')) });
    const keepProposed = page.getByRole('button', { name: buttonName(t('books.title.keepOriginal')) });
    if (await keepAfterFailure.isVisible()) await keepAfterFailure.click();
    else if (await keepProposed.isVisible()) await keepProposed.click();
    await page.waitForTimeout(300);
  }
  await page.getByRole('button', { name: buttonName(t('books.wizard.complete')) }).click();
  await page.getByText(t('books.wizard.successTitle')).waitFor();
}

describe('sharing: a private book shared with Explanation only, accepted, then revoked', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it(
    'A shares through the UI, B accepts and reads with Explanation only, A revokes, B loses it',
    { timeout: 300_000 },
    async () => {
      const t = wording('en');
      const tz = wording('zh');
      const a = await activatedReader(baseUrl, dataDir, 'sharer');
      const b = await activatedReader(baseUrl, dataDir, 'friend');
      const title = `Shared subtitles ${Date.now()}`;

      const sharer = await newPage(browser, 'en', baseUrl);
      await sharer.context.addInitScript((value) => window.localStorage.setItem('authToken', value), a.token);
      const friend = await newPage(browser, 'zh', baseUrl);
      await friend.context.addInitScript((value) => window.localStorage.setItem('authToken', value), b.token);
      try {
        const pa = sharer.page;
        await uploadThroughWizard(pa, t, 'txt/en-subtitle-utf16le-bom.txt', title);

        // The detail popup of the personal library has the Share action.
        await pa.goto('/books/user');
        await pa.locator('.yd-book-card', { hasText: title }).click();
        const dialog = pa.getByRole('dialog');
        await dialog.getByRole('button', { name: buttonName(t('share.action')) }).click();
        await pa.waitForURL('**/book/share?bookCode=*');
        const bookCode = new URL(pa.url()).searchParams.get('bookCode')!;
        await pa.getByText(title).first().waitFor();
        await pa.getByText(bookCode).first().waitFor();

        await pa.getByRole('button', { name: buttonName(t('share.deselectAll')) }).click();
        await pa.getByRole('checkbox', { name: new RegExp(`^${t('share.feature.explanation')}`) }).check();
        await pa.getByRole('button', { name: buttonName(t('share.generate')) }).click();
        const linkBox = pa.getByTestId('share-link');
        await linkBox.waitFor();
        const link = await linkBox.inputValue();
        expect(link).toMatch(/\/book\/share\/[\w-]+$/);
        const shareId = link.split('/').pop()!;
        await pa.getByTestId(`share-${shareId}`).waitFor();

        // B opens the link (zh interface), sees only Explanation, accepts, finds the book in the library.
        const pb = friend.page;
        await pb.goto(new URL(link).pathname);
        await pb.getByTestId('share-view').waitFor();
        await pb
          .getByText(tz('shareView.sharedBy', { name: 'sharer' }))
          .or(pb.getByText(tz('shareView.sharedAnonymously')))
          .first()
          .waitFor();
        const granted = pb.getByTestId('granted-features').locator('li');
        expect(await granted.count()).toBe(1);
        expect(await granted.first().getAttribute('data-feature')).toBe('explanation');
        await pb.getByRole('button', { name: buttonName(tz('shareView.accept')) }).click();
        await pb.getByText(tz('shareView.acceptedTitle'), { exact: true }).waitFor();
        await pb.getByRole('button', { name: buttonName(tz('shareView.readNow')) }).waitFor();

        await pb.goto('/books/user');
        await pb.locator('.yd-book-card', { hasText: title }).waitFor();
        const detail = await api<{ features: string[]; inLibrary: boolean }>(
          baseUrl,
          'GET',
          `/book/user/getBookByCode?bookCode=${encodeURIComponent(bookCode)}`,
          undefined,
          b.token,
        );
        expect(detail.inLibrary).toBe(true);
        expect(detail.features).toEqual(['explanation']);

        // A revokes from the list; B's library loses the book.
        const row = pa.getByTestId(`share-${shareId}`);
        await row.getByRole('button', { name: buttonName(t('share.revoke')) }).click();
        await pa
          .locator('.ant-popconfirm')
          .getByRole('button', { name: buttonName(t('share.revoke')) })
          .click();
        await pa.getByText(t('share.revoked')).first().waitFor();
        await expect.poll(() => row.getAttribute('data-state'), { timeout: 10_000 }).toBe('revoked');

        await pb.reload();
        await pb.locator('.yd-book-grid, .ant-empty, .ant-result').first().waitFor();
        await expect.poll(() => pb.locator('.yd-book-card', { hasText: title }).count(), { timeout: 15_000 }).toBe(0);
        await pb.goto(new URL(link).pathname);
        await pb.getByText(tz('shareView.revokedTitle')).waitFor();
      } finally {
        await sharer.context.close();
        await friend.context.close();
      }
    },
  );
});
