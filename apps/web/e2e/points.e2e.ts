import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';
import { activatedReader, api, uploadBook } from './fixtures.ts';

/** Where the confirm card and the points history are photographed (E2E_SCREENSHOTS to keep them elsewhere). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');

interface Ledger {
  items: { type: string; reason: string; detail: { page?: number; bookTitle?: string } | null }[];
}

describe('points: confirmation mode pays for confirmed pages only', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => browser?.close());

  for (const [ui, bookName] of [
    ['zh', '白鲸'],
    ['en', 'Moby-Dick'],
  ] as const) {
    it(
      `confirming translates the page, the next page asks again, the history holds only confirmed pages (${ui})`,
      {
        timeout: 300_000,
      },
      async () => {
        const t = wording(ui);
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        await api(baseUrl, 'POST', '/user/updateUserinfo', { deductMode: 'deductAfterConfirmation' }, token);
        const bookCode = await uploadBook(baseUrl, token, 'epub/en-moby-dick-epub3.epub', bookName);
        const pageStatus = async (n: number) =>
          (
            await fetch(`${baseUrl}/api/reader/getPageData?bookCode=${bookCode}&language=zh&page=${n}`, {
              headers: { authorization: `Bearer ${token}` },
            })
          ).status;
        const translations = async () =>
          (await api<Ledger>(baseUrl, 'GET', '/integral/record/list?type=expenditure', undefined, token)).items.filter(
            (r) => r.reason === 'translation',
          );
        // The reader opens where two pages with text follow each other (the book starts with its cover).
        let first = 1;
        while ((await pageStatus(first)) !== 409 || (await pageStatus(first + 1)) !== 409) first += 1;
        await api(baseUrl, 'PUT', '/reader/position', { bookCode, page: first, language: 'zh' }, token);
        const { context, page } = await newPage(browser, ui, baseUrl);
        await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
        try {
          // The price comes first, with the page's original text below it.
          await page.goto(`/tabs/read/${bookCode}/zh`);
          const card = page.locator('.yd-page-confirm');
          await card.waitFor({ timeout: 30_000 });
          await page.locator('[data-side=text]').first().waitFor();
          expect(await page.locator('.yd-translation').count()).toBe(0);
          await page.screenshot({ path: path.join(SHOTS, `points-confirm-card-${ui}.png`) });
          expect(await translations()).toEqual([]);

          // Confirming translates the page (the fake translator answers "[zh-Hans] <original>").
          await card.getByRole('button', { name: buttonName(t('reader.paid.translate')) }).click();
          await page.locator('.yd-translation', { hasText: '[zh-Hans]' }).first().waitFor({ timeout: 30_000 });
          await expect.poll(() => page.locator('[data-status=pending]').count(), { timeout: 30_000 }).toBe(0);
          await expect.poll(async () => (await translations()).length, { timeout: 30_000 }).toBe(1);

          // The next page asks again; it is not charged while the reader looks at its price.
          await page.locator('.yd-pager > button').last().click();
          await page.locator('.yd-pager-where', { hasText: new RegExp(`\\b${first + 1}\\b`) }).waitFor();
          await card.waitFor();
          await page.locator('[data-side=text]').first().waitFor();
          expect(await page.locator('.yd-translation').count()).toBe(0);

          // The history: one page bought, named by the book's title, the page and the action.
          await page.goto('/integral');
          const bought = t('points.item.bookPage', {
            title: bookName,
            page: String(first),
            action: t('points.reason.translation'),
          });
          await page.getByText(bought).first().waitFor();
          await page.screenshot({ path: path.join(SHOTS, `points-history-${ui}.png`), fullPage: true });
          const charged = await translations();
          expect(charged.map((r) => [r.detail?.bookTitle, r.detail?.page])).toEqual([[bookName, first]]);
        } catch (error) {
          await page.screenshot({ path: path.join(SHOTS, `fail-${ui}.png`), fullPage: true });
          throw error;
        } finally {
          await context.close();
        }
      },
    );
  }
});
