import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, api, startUpload, uploadBook } from './fixtures.ts';
import { buttonName, wording } from './i18n.ts';

async function parseOutcome(baseUrl: string, token: string, requestId: string): Promise<string> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const state = await api<{ status: string }>(
      baseUrl,
      'GET',
      `/book/analysis?requestId=${requestId}`,
      undefined,
      token,
    );
    if (state.status !== 'running') return state.status;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('the parse did not finish');
}

describe('administration: statistics with data, and a failed book retried', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  const admin = inject('admin');
  let reader: { email: string; token: string };
  let brokenRequest: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    // Seeded through the API: one reader with one good book and one broken file.
    reader = await activatedReader(baseUrl, dataDir, admin, 'en');
    await uploadBook(baseUrl, reader.token, 'txt/en-subtitle-utf16le-bom.txt', 'Admin journey subtitles', 'en');
    brokenRequest = await startUpload(baseUrl, reader.token, 'bad/truncated-moby-dick.epub', 'Admin journey broken');
    expect(await parseOutcome(baseUrl, reader.token, brokenRequest)).toBe('failed');
  });
  afterAll(async () => browser?.close());

  async function adminPage() {
    const { token } = await api<{ token: string }>(baseUrl, 'POST', '/auth/login', admin);
    const opened = await newPage(browser, 'en', baseUrl);
    await opened.context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    return opened;
  }

  it('the admin opens the statistics and sees charts drawn from the data', { timeout: 120_000 }, async () => {
    const t = wording('en');
    const { context, page } = await adminPage();
    try {
      await page.goto('/admin/statistics');
      await page.getByRole('heading', { name: t('pages.statistics.title') }).waitFor();
      const uploads = page.getByRole('region', { name: t('admin.stats.uploadsPerDay') });
      await uploads.locator('svg').waitFor();
      await expect.poll(() => uploads.locator('.yd-chart-bar').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      const logins = page.getByRole('region', { name: t('admin.stats.loginsPerDay') });
      await expect.poll(() => logins.locator('circle').count()).toBeGreaterThan(0);
      expect(await page.locator('.yd-chart[data-empty]').count()).toBeLessThan(await page.locator('.yd-chart').count());
    } finally {
      await context.close();
    }
  });

  it('the admin finds the failed book, reads why, and retries it', { timeout: 120_000 }, async () => {
    const t = wording('en');
    const { context, page } = await adminPage();
    try {
      await page.goto('/admin-error-book');
      await page.getByRole('heading', { name: t('pages.errorBooks.title') }).waitFor();
      await page.locator('.ant-segmented-item', { hasText: t('admin.byAccount') }).click();
      await page.getByRole('textbox', { name: t('admin.byAccount') }).fill(reader.email);
      await page.getByRole('button', { name: buttonName(t('admin.find')) }).click();
      const row = page.locator(`tr[data-row-key="${brokenRequest}"]`);
      await row.waitFor();
      await row.getByText('Admin journey broken').waitFor();
      await row.getByText(t('errors.fileCorrupted')).waitFor();

      await row.getByRole('button', { name: buttonName(t('admin.errors.retry')) }).click();
      await page.getByText(t('admin.errors.retried')).waitFor();
      // The retry really ran the parse again (and, the file being broken, it failed again).
      expect(await parseOutcome(baseUrl, reader.token, brokenRequest)).toBe('failed');
      const audit = await api<{ action: string; target: string }[]>(
        baseUrl,
        'GET',
        '/admin/audit',
        undefined,
        (await api<{ token: string }>(baseUrl, 'POST', '/auth/login', admin)).token,
      );
      expect(audit.some((a) => a.action === 'retryUpload' && a.target === brokenRequest)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
