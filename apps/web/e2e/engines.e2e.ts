import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { wording } from './i18n.ts';
import { activatedReader, api, setTranslator, TRANSLATOR_NORMAL, uploadBook } from './fixtures.ts';

/** Where the reader is photographed while the engine is down (E2E_SCREENSHOTS to keep them elsewhere). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');
/** Nothing listens on port 9 of the loopback: the engine of a server that cannot reach its service. */
const DEAD_ENDPOINT = 'http://127.0.0.1:9';
const BOOK = 'txt/en-sherlock-holmes-utf8-bom-crlf.txt';

/**
 * The reader when the translation engine fails or is slow: the original is there at once and stays
 * readable, failed paragraphs come back by themselves when the engine does (no clicks), and a slow
 * engine never keeps the reader from the text.
 */
describe('reader: engines down, slow and back', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  const control = inject('translatorControl');
  beforeAll(async () => {
    browser = await launchBrowser();
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await setTranslator(control, TRANSLATOR_NORMAL);
    await browser?.close();
  });

  /**
   * A reader with the book uploaded (while the engine works) and its position at `page`. Translations
   * are shared by every reader through the memory: each journey reads pages no other one reads
   * (reader.e2e.ts reads the first ten of this book), or they would come from there, not the engine.
   */
  async function readerAt(ui: string, page: number) {
    const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
    const bookCode = await uploadBook(baseUrl, token, BOOK, 'The Adventures of Sherlock Holmes');
    await api(baseUrl, 'PUT', '/reader/position', { bookCode, page, language: 'zh' }, token);
    const { context, page: tab } = await newPage(browser, ui, baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    return { token, bookCode, context, tab };
  }

  /** What the reader sees of the page: originals shown, translations shown, paragraphs failed for now. */
  const seen = (tab: Page) =>
    tab.evaluate(() => ({
      originals: Array.from(document.querySelectorAll('.yd-page [data-side=text]')).filter(
        (e) => (e.textContent ?? '').trim().length > 0,
      ).length,
      translations: document.querySelectorAll('.yd-page .yd-translation').length,
      failed: document.querySelectorAll('.yd-page [data-status=failed]').length,
      text: document.querySelector('.yd-page')?.textContent ?? '',
    }));

  it(
    'with the engine down the original is readable; when it is back the page translates by itself (zh)',
    { timeout: 240_000 },
    async () => {
      const t = wording('zh');
      const { bookCode, context, tab } = await readerAt('zh', 41);
      try {
        await setTranslator(control, { down: true });
        await tab.goto(`/tabs/read/${bookCode}/zh`);
        const notice = tab.locator('.yd-untranslated-notice');
        await notice.waitFor({ timeout: 30_000 });
        expect(await notice.innerText()).toContain(t('reader.untranslated.notice'));
        const down = await seen(tab);
        expect(down.failed).toBeGreaterThan(0);
        expect(down.originals).toBeGreaterThanOrEqual(down.failed);
        expect(down.translations).toBe(0);
        // A quiet mark, not a failure line in the text.
        expect(down.text).not.toContain('翻译失败');
        await tab.screenshot({ path: path.join(SHOTS, 'reader-engine-down-zh.png') });

        // The engine comes back: no click, the page translates (its paragraphs are retried by the server).
        await setTranslator(control, TRANSLATOR_NORMAL);
        await expect.poll(async () => (await seen(tab)).failed, { timeout: 60_000, interval: 500 }).toBe(0);
        await tab.locator('.yd-translation', { hasText: '[zh-Hans]' }).first().waitFor({ timeout: 30_000 });
        expect(await notice.count()).toBe(0);
      } catch (error) {
        await tab.screenshot({ path: path.join(SHOTS, 'fail-engine-down.png'), fullPage: true });
        throw error;
      } finally {
        await setTranslator(control, TRANSLATOR_NORMAL);
        await context.close();
      }
    },
  );

  it(
    'after the admin points the engine at a working service, a failed page recovers without a click (en)',
    { timeout: 240_000 },
    async () => {
      const t = wording('en');
      const admin = (await api<{ token: string }>(baseUrl, 'POST', '/auth/login', inject('admin'))).token;
      const saveEndpoint = (endpoint: string) =>
        api(baseUrl, 'PUT', '/admin/engines', [{ name: 'microsoft', enabled: true, endpoint }], admin);
      const { bookCode, context, tab } = await readerAt('en', 61);
      try {
        await saveEndpoint(DEAD_ENDPOINT);
        await tab.goto(`/tabs/read/${bookCode}/zh`);
        const notice = tab.locator('.yd-untranslated-notice');
        await notice.waitFor({ timeout: 30_000 });
        expect(await notice.innerText()).toContain(t('reader.untranslated.notice'));
        expect((await seen(tab)).originals).toBeGreaterThan(0);
        await tab.screenshot({ path: path.join(SHOTS, 'reader-engine-down-en.png') });

        await saveEndpoint(inject('translatorUrl'));
        await tab.locator('.yd-translation', { hasText: '[zh-Hans]' }).first().waitFor({ timeout: 30_000 });
        await expect.poll(async () => (await seen(tab)).failed, { timeout: 30_000 }).toBe(0);
      } catch (error) {
        await tab.screenshot({ path: path.join(SHOTS, 'fail-engine-change.png'), fullPage: true });
        throw error;
      } finally {
        await saveEndpoint(inject('translatorUrl'));
        await context.close();
      }
    },
  );

  it(
    'with a 3 s engine the original of the next page shows within 1 s, then its translation (zh)',
    { timeout: 240_000 },
    async () => {
      const { bookCode, context, tab } = await readerAt('zh', 81);
      try {
        await setTranslator(control, { latencyMs: 3000, perItemLatencyMs: 0 });
        await tab.goto(`/tabs/read/${bookCode}/zh`);
        await tab.locator('.yd-page [data-side=text]').first().waitFor({ timeout: 30_000 });

        // Measured in the page: from the click on "next" to the first original paragraph of the new page.
        const turn = await tab.evaluate(
          () =>
            new Promise<{ ms: number; status: string | null }>((resolve, reject) => {
              const shown = new Set(
                Array.from(document.querySelectorAll('[data-block]')).map((e) => e.getAttribute('data-block')),
              );
              const next = document.querySelector<HTMLButtonElement>('.yd-pager > button:last-of-type');
              if (!next) return reject(new Error('no next button'));
              const start = performance.now();
              next.click();
              const look = () => {
                const fresh = Array.from(document.querySelectorAll('[data-block]')).find(
                  (e) =>
                    !shown.has(e.getAttribute('data-block')) &&
                    (e.querySelector('[data-side=text]')?.textContent ?? '').trim() !== '',
                );
                if (fresh) resolve({ ms: performance.now() - start, status: fresh.getAttribute('data-status') });
                else if (performance.now() - start > 20_000) reject(new Error('the next page did not show'));
                else requestAnimationFrame(look);
              };
              look();
            }),
        );
        // The bound: the text the reader came for, within a second, while the engine still works.
        expect(turn.ms).toBeLessThan(1000);
        expect(turn.status).toBe('pending');

        // Then the translations arrive on their own.
        await tab.locator('.yd-translation', { hasText: '[zh-Hans]' }).first().waitFor({ timeout: 30_000 });
      } catch (error) {
        await tab.screenshot({ path: path.join(SHOTS, 'fail-slow-engine.png'), fullPage: true });
        throw error;
      } finally {
        await setTranslator(control, TRANSLATOR_NORMAL);
        await context.close();
      }
    },
  );
});
