import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, uploadBook } from './fixtures.ts';
import { buttonName, wording } from './i18n.ts';

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../../test-results/e2e');

/**
 * Yidu on a home network: served over plain HTTP at a name other than localhost (here yidu.lan,
 * mapped to the server's loopback address inside chromium). The content security policy must not
 * send the page's scripts, styles and images to an https:// that does not exist.
 */
describe('over plain HTTP at a LAN host name', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const lanUrl = `http://yidu.lan:${new URL(baseUrl).port}`;
  beforeAll(async () => {
    browser = await launchBrowser(['--host-resolver-rules=MAP yidu.lan 127.0.0.1']);
    await mkdir(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => browser?.close());

  it('loads the app, logs in and shows the library with its covers', async () => {
    const t = wording('en');
    const reader = await activatedReader(baseUrl, inject('dataDir'), inject('admin'), 'en');
    await uploadBook(baseUrl, reader.token, 'epub/en-moby-dick-epub3.epub', 'Moby-Dick');
    const { context, page } = await newPage(browser, 'en', lanUrl);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      const answer = await page.goto('/login');
      expect(answer?.status()).toBe(200);
      await page.locator('#login_account').fill(reader.email);
      await page.locator('#login_password').fill(reader.password);
      await page.getByRole('button', { name: buttonName(t('login.submit')) }).click();
      await page.waitForURL('**/books/all');

      await page.goto('/books/user');
      const cover = page.locator('.yd-cover img').first();
      await cover.waitFor();
      // The cover's signed URL was fetched over HTTP from yidu.lan and decoded into an image.
      await expect
        .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'lan-http-library.png') });

      expect(await answer?.headerValue('content-security-policy')).not.toContain('upgrade-insecure-requests');
      expect(requested.length).toBeGreaterThan(0);
      expect(requested.filter((url) => !url.startsWith(`${lanUrl}/`))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
