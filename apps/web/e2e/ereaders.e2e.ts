import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';
import { activatedReader, api, corpus, uploadBook } from './fixtures.ts';

/** Where the devices page is photographed (E2E_SCREENSHOTS=docs/screenshots for the documentation's copies). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');

/** KOReader's partial MD5 of a file (koreader frontend/util.lua): how the device names the book. */
function koreaderDigest(data: Buffer): string {
  const md5 = createHash('md5');
  for (let i = -1; i <= 10; i += 1) {
    const offset = i < 0 ? 0 : 1024 * 4 ** i;
    if (offset >= data.length) break;
    md5.update(data.subarray(offset, offset + 1024));
  }
  return md5.digest('hex');
}

/** A device's request to the progress sync, as KOReader's kosync plugin sends it. */
async function koreader(
  baseUrl: string,
  device: { username: string; password: string },
  method: 'GET' | 'PUT',
  url: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/kosync${url}`, {
    method,
    headers: {
      accept: 'application/vnd.koreader.v1+json',
      'x-auth-user': device.username,
      'x-auth-key': createHash('md5').update(device.password).digest('hex'),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function signIn(page: Page, token: string) {
  await page.context().addInitScript((value) => {
    if (!window.sessionStorage.getItem('e2e-token-set')) {
      window.localStorage.setItem('authToken', value);
      window.sessionStorage.setItem('e2e-token-set', '1');
    }
  }, token);
}

describe('e-readers: device passwords, the catalogs and progress sync with KOReader', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => browser?.close());

  for (const language of ['zh', 'en']) {
    it(`makes a device password on the devices page, which opens the catalog until it is revoked (${language})`, async () => {
      const t = wording(language);
      const reader = await activatedReader(baseUrl, dataDir, inject('admin'), language, 'Reader');
      const account = reader.email;
      const { context, page } = await newPage(browser, language, baseUrl);
      await signIn(page, reader.token);
      try {
        // From the personal center to the devices page.
        await page.goto('/user-settings');
        await page.getByRole('button', { name: buttonName(t('settings.openDevices')) }).click();
        await page.waitForURL('**/devices');
        await page.getByRole('heading', { name: t('devices.title') }).waitFor();
        await page.getByText(`${baseUrl}/opds`, { exact: true }).waitFor();
        await page.getByText(`${baseUrl}/kosync`, { exact: true }).waitFor();
        await page.locator('.yd-device-qr svg').waitFor();

        await page.getByPlaceholder(t('devices.namePlaceholder')).fill('Kobo Clara');
        await page.getByRole('button', { name: buttonName(t('devices.create')) }).click();
        const created = page.locator('.yd-device-created');
        await created.getByText(t('devices.shownOnce')).waitFor();
        const password = (await created.locator('.yd-device-value').nth(1).innerText()).trim();
        expect(password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){4}$/);
        await page.locator('.yd-device-item[data-device="Kobo Clara"]').waitFor();
        // From the top: a full-page picture of a scrolled page draws the sticky header in the middle.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(SHOTS, `devices-${language}.png`), fullPage: true });

        // The device logs in to the catalog with it (never the account password).
        const opds = (secret: string) =>
          fetch(`${baseUrl}/opds`, {
            headers: { authorization: `Basic ${Buffer.from(`${account}:${secret}`).toString('base64')}` },
          });
        expect((await opds(password)).status).toBe(200);
        expect((await opds(reader.password)).status).toBe(401);

        // Revoked on the page: the device is out at once.
        await page
          .locator('.yd-device-item[data-device="Kobo Clara"]')
          .getByRole('button', { name: buttonName(t('devices.revoke')) })
          .click();
        await page
          .locator('.ant-popconfirm')
          .getByRole('button', { name: buttonName(t('devices.revoke')) })
          .click();
        await page.getByText(t('devices.none')).waitFor();
        expect((await opds(password)).status).toBe(401);
      } finally {
        await context.close();
      }
    });
  }

  it(
    'opens the web reader where the device stopped, and tells the device where the web reader is (zh)',
    { timeout: 300_000 },
    async () => {
      const reader = await activatedReader(baseUrl, dataDir, inject('admin'), 'zh', 'Reader');
      const file = 'pdf/en-tracemonkey-two-column-footnotes.pdf';
      const bookName = 'Trace-based JIT';
      const bookCode = await uploadBook(baseUrl, reader.token, file, bookName);
      const device = await api<{ username: string; password: string }>(
        baseUrl,
        'POST',
        '/user/devicePasswords',
        { name: 'KOReader' },
        reader.token,
      );
      const document = koreaderDigest(await readFile(path.join(corpus, file)));

      // KOReader stopped on page 9 of the 14-page PDF and pushes its progress.
      const pushed = await koreader(baseUrl, device, 'PUT', '/syncs/progress', {
        document,
        progress: '9',
        percentage: 0.6429,
        device: 'Kobo_spaBW',
        device_id: 'E2E-KOBO',
      });
      expect(pushed.status).toBe(200);
      const position = await api<{ page: number }>(
        baseUrl,
        'GET',
        `/reader/position?bookCode=${bookCode}`,
        undefined,
        reader.token,
      );
      expect(position.page).toBeGreaterThan(1);

      const { context, page } = await newPage(browser, 'zh', baseUrl);
      await signIn(page, reader.token);
      try {
        // The web reader opens at that place.
        await page.goto(`/tabs/read/${bookCode}/zh`);
        await page
          .locator('.yd-pager-where', { hasText: new RegExp(`(^|\\s)${position.page}\\s*/`) })
          .waitFor({ timeout: 30_000 });
        await page.locator('.yd-page [data-block]').first().waitFor();

        // Two pages on in the browser; once the place is saved, the device asking is told it.
        await page.keyboard.press('ArrowRight');
        await page.locator('.yd-pager-where', { hasText: new RegExp(`(^|\\s)${position.page + 1}\\s*/`) }).waitFor();
        await page.keyboard.press('ArrowRight');
        await page.locator('.yd-pager-where', { hasText: new RegExp(`(^|\\s)${position.page + 2}\\s*/`) }).waitFor();
        await expect
          .poll(
            async () =>
              (
                await api<{ page: number }>(
                  baseUrl,
                  'GET',
                  `/reader/position?bookCode=${bookCode}`,
                  undefined,
                  reader.token,
                )
              ).page,
            { timeout: 15_000 },
          )
          .toBe(position.page + 2);
        const answer = await koreader(baseUrl, device, 'GET', `/syncs/progress/${document}`);
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ document, device: 'Yidu', device_id: 'yidu-web-reader' });
        // A PDF's place is its page: the device's page 9, or further on.
        expect(Number(answer.body.progress)).toBeGreaterThanOrEqual(9);
        expect(answer.body.percentage).toBeGreaterThanOrEqual(9 / 14 - 0.0001);
      } finally {
        await context.close();
      }
    },
  );
});
