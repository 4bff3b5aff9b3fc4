import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';
import { activatedReader, api, selectText, uploadBook } from './fixtures.ts';

interface Block {
  id: string;
  type: string;
  status: string;
  translation: string | null;
}
interface Mark {
  id: number;
  kind: string;
  content: string | null;
  page: number;
}

/** Screenshots go here when set (`E2E_SCREENSHOTS=docs/screenshots`). */
const SHOTS = process.env.E2E_SCREENSHOTS;
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: path.resolve(SHOTS, name) });
};

/** Opens a page in Chinese through the API (which pays for it) until its translation is complete. */
async function readPage(baseUrl: string, token: string, bookCode: string, page: number): Promise<Block[]> {
  for (let i = 0; i < 300; i++) {
    const data = await api<{ blocks: Block[] }>(
      baseUrl,
      'GET',
      `/reader/getPageData?bookCode=${bookCode}&language=zh&page=${page}`,
      undefined,
      token,
    );
    if (data.blocks.every((b) => b.status === 'done')) return data.blocks;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`page ${page} was not translated`);
}

async function withToken(context: BrowserContext, token: string): Promise<void> {
  await context.addInitScript((value) => {
    if (!window.sessionStorage.getItem('e2e-token-set')) {
      window.localStorage.setItem('authToken', value);
      window.sessionStorage.setItem('e2e-token-set', '1');
    }
  }, token);
}

describe('reading offline: a downloaded book, marks made offline sent once when the network is back', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it(
    'downloads, starts and reads offline, then syncs a highlight and a note once (zh)',
    { timeout: 300_000 },
    async () => {
      const t = wording('zh');
      const reader = await activatedReader(baseUrl, dataDir, inject('admin'));
      const bookCode = await uploadBook(
        baseUrl,
        reader.token,
        'epub/en-dante-vision-of-hell-epub2-images.epub',
        'The Vision of Hell',
      );
      // The reader has read (and so paid for) the first pages online; they stopped on the first with text.
      const translated: number[] = [];
      for (let p = 1; p <= 12 && translated.length < 2; p++) {
        const blocks = await readPage(baseUrl, reader.token, bookCode, p);
        if (blocks.some((b) => b.type === 'paragraph' && b.translation)) translated.push(p);
      }
      const [first, second] = translated as [number, number];
      await api(baseUrl, 'PUT', '/reader/position', { bookCode, page: first, language: 'zh' }, reader.token);

      const { context, page } = await newPage(browser, 'zh', baseUrl);
      await withToken(context, reader.token);
      try {
        await page.goto(`/tabs/read/${bookCode}/zh`);
        await page.locator('.yd-translation', { hasText: '[zh-Hans]' }).first().waitFor({ timeout: 30_000 });
        // The service worker has installed and controls the page (the app shell is cached).
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });

        // Download for offline from the reader bar: the control's name says 离线.
        await page.locator('.yd-reader-bar').getByRole('button', { name: /离线/ }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('button', { name: buttonName(t('offline.start')) }).click();
        await dialog.getByRole('status').filter({ hasText: '已保存' }).waitFor({ timeout: 120_000 });
        const stored = await page.evaluate(
          () =>
            new Promise<{ pages: number; media: number }>((resolve, reject) => {
              const open = indexedDB.open('yidu-offline');
              open.onerror = () => reject(open.error);
              open.onsuccess = () => {
                const tx = open.result.transaction(['pages', 'media'], 'readonly');
                const pages = tx.objectStore('pages').count();
                const media = tx.objectStore('media').count();
                tx.oncomplete = () => resolve({ pages: pages.result, media: media.result });
              };
            }),
        );
        expect(stored.pages).toBeGreaterThanOrEqual(second);
        expect(stored.media).toBeGreaterThanOrEqual(1); // the cover, kept as bytes
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });

        // No network: the app starts from its shell, says so calmly, and the book opens.
        await context.setOffline(true);
        expect(
          await page.evaluate(() =>
            fetch('/api/health').then(
              () => 'reached',
              () => 'offline',
            ),
          ),
        ).toBe('offline');
        await page.reload();
        await page.getByText(t('offline.banner')).waitFor();
        await page.locator('.yd-translation', { hasText: '[zh-Hans]' }).first().waitFor();
        expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

        // Pages turn, with their translations.
        for (let p = first + 1; p <= second; p++) {
          await page.keyboard.press('ArrowRight');
          await page.locator('.yd-pager-where', { hasText: new RegExp(`(^|\\s)${p}\\s*/`) }).waitFor();
        }
        const paragraph = '.yd-block-paragraph[data-status=done] .yd-translation';
        await page.locator(paragraph, { hasText: '[zh-Hans]' }).first().waitFor();
        const blockId = await page.locator(paragraph).first().getAttribute('data-block-text');
        const inBlock = `[data-block-text="${blockId}"][data-side=translation]`;

        // A highlight and a note, made offline.
        const toolbar = page.getByRole('toolbar', { name: t('reader.selection.toolbar') });
        await selectText(page, inBlock, 0, 8);
        await toolbar
          .getByRole('button', { name: t('reader.selection.highlightIn', { color: t('reader.colors.yellow') }) })
          .click();
        await page.locator(`${inBlock} .yd-hl.yd-c-yellow`).waitFor();
        await selectText(page, inBlock, 10, 16);
        await toolbar.getByRole('button', { name: t('reader.selection.annotate') }).click();
        const note = page.locator('.ant-modal').filter({ hasText: t('reader.annotation.title') });
        await note.getByRole('textbox').fill('写于地铁上，离线');
        await note.getByRole('button', { name: buttonName(t('reader.annotation.save')) }).click();
        await page.locator(`${inBlock} .yd-anno`).waitFor();
        await page.getByText(/项待同步/).waitFor();

        if (SHOTS) {
          for (const language of ['zh', 'en']) {
            await page.evaluate((lng) => localStorage.setItem('uiLanguage', lng), language);
            await page.setViewportSize({ width: 375, height: 760 });
            await page.reload();
            await page.locator('.yd-offline-banner').waitFor();
            await page.locator('.yd-translation').first().waitFor();
            await shot(page, `offline-banner-${language}-375.png`);
            await page.goto('/downloads');
            await page.locator('.yd-downloads-item').first().waitFor();
            await shot(page, `offline-downloads-${language}-375.png`);
            await page.goto(`/tabs/read/${bookCode}/zh`);
          }
          await page.evaluate(() => localStorage.setItem('uiLanguage', 'zh'));
          await page.setViewportSize({ width: 1280, height: 800 });
          await page.reload();
          await page.locator('.yd-translation').first().waitFor();
        }

        // Nothing reached the server meanwhile.
        const otherDevice = await api<{ token: string }>(baseUrl, 'POST', '/auth/login', {
          account: reader.email,
          password: reader.password,
        });
        const onServer = () =>
          api<Mark[]>(baseUrl, 'GET', `/reader/marks?bookCode=${bookCode}`, undefined, otherDevice.token);
        expect(await onServer()).toEqual([]);

        // Back online: both are sent, once.
        await context.setOffline(false);
        await expect
          .poll(async () => (await onServer()).map((m) => m.kind).sort(), { timeout: 60_000, interval: 500 })
          .toEqual(['annotation', 'highlight']);
        const marks = await onServer();
        expect(marks.find((m) => m.kind === 'annotation')?.content).toBe('写于地铁上，离线');
        expect(marks.every((m) => m.page === second)).toBe(true);
        await page.getByText(/项待同步/).waitFor({ state: 'detached' });
        // A reload online finds them on the server, not twice.
        await page.reload();
        await page.locator(`${inBlock} .yd-hl.yd-c-yellow`).waitFor();
        expect(await page.locator(`${inBlock} .yd-hl.yd-c-yellow`).count()).toBe(1);
        expect(await onServer()).toHaveLength(2);

        // Another device's session shows them.
        const other = await newPage(browser, 'zh', baseUrl);
        await withToken(other.context, otherDevice.token);
        try {
          await other.page.goto(`/tabs/read/${bookCode}/zh?page=${second}&block=${encodeURIComponent(blockId!)}`);
          await other.page.locator(`${inBlock} .yd-hl.yd-c-yellow`).waitFor({ timeout: 30_000 });
          await other.page.locator(`${inBlock} .yd-anno`).waitFor();
        } finally {
          await other.context.close();
        }
      } finally {
        await context.close();
      }
    },
  );
});
