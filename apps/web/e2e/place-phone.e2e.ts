import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, api, selectText, uploadBook } from './fixtures.ts';
import { buttonName, wording } from './i18n.ts';

/** Where the pictures the issue asks for go (the 375 px selection toolbar, zh and en). */
const DOCS_SHOTS = path.resolve(import.meta.dirname, '../../../docs/screenshots');

/** The paragraph at the top of the reader's view and how far into it, measured as a reader sees it. */
function topParagraph(page: Page) {
  return page.evaluate(() => {
    const line = Math.max(0, document.querySelector('.yd-reader-bar')?.getBoundingClientRect().bottom ?? 0);
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('.yd-reader-text [data-block]'))) {
      const rect = element.getBoundingClientRect();
      if (rect.bottom <= line) continue;
      return { blockId: element.dataset.block!, offset: Math.max(0, (line - rect.top) / rect.height) };
    }
    return null;
  });
}

/** Waits until every paragraph of the page shown is translated (heights no longer change). */
async function translated(page: Page) {
  await page.locator('.yd-translation').first().waitFor({ timeout: 60_000 });
  await expect.poll(() => page.locator('[data-status=pending]').count(), { timeout: 60_000 }).toBe(0);
}

/** The first page of the book with `minBlocks` paragraphs or more, found through the API. */
async function longPage(baseUrl: string, token: string, bookCode: string, minBlocks: number): Promise<number> {
  for (let n = 2; n < 60; n++) {
    const data = await api<{ blocks: { type: string }[] }>(
      baseUrl,
      'GET',
      `/reader/getPageData?bookCode=${bookCode}&language=zh&page=${n}`,
      undefined,
      token,
    );
    if (data.blocks.filter((b) => b.type === 'paragraph').length >= minBlocks) return n;
  }
  throw new Error('no long page');
}

describe('the reader keeps its place by paragraph, and fits a phone', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  for (const ui of ['zh', 'en'] as const) {
    it(
      `opens at the paragraph it was left at, after a reload and after a language change (${ui})`,
      { timeout: 300_000 },
      async () => {
        const t = wording(ui);
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        const bookCode = await uploadBook(baseUrl, token, 'txt/en-sherlock-holmes-utf8-bom-crlf.txt', 'Sherlock', 'zh');
        // Original and translation side by side: a page is several screens tall.
        await api(baseUrl, 'PUT', '/user/reader-settings', { mode: 'advanced' }, token);
        const at = await longPage(baseUrl, token, bookCode, 12);
        await api(baseUrl, 'PUT', '/reader/position', { bookCode, page: at, language: 'zh' }, token);
        const { context, page } = await newPage(browser, ui, baseUrl);
        await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
        try {
          await page.goto(`/tabs/read/${bookCode}/zh`);
          await translated(page);
          const height = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
          expect(height).toBeGreaterThan(2000);
          await page.mouse.wheel(0, 2000);
          await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1900);
          const left = (await topParagraph(page))!;
          // Saved on the server once scrolling rests: the paragraph and how far into it.
          await expect
            .poll(
              async () =>
                (
                  await api<{ blockId: string; blockOffset: number }>(
                    baseUrl,
                    'GET',
                    `/reader/position?bookCode=${bookCode}`,
                    undefined,
                    token,
                  )
                ).blockId,
              { timeout: 15_000 },
            )
            .toBe(left.blockId);

          await page.reload();
          await translated(page);
          await expect.poll(async () => (await topParagraph(page))?.blockId, { timeout: 15_000 }).toBe(left.blockId);
          expect(Math.abs((await topParagraph(page))!.offset - left.offset)).toBeLessThan(0.05);

          if (ui === 'zh') {
            // Another reading language: heights change (the original alone), the paragraph stays on top.
            await page
              .getByRole('button', { name: t('reader.settings.title'), exact: true })
              .first()
              .click();
            await page.getByRole('combobox', { name: t('reader.settings.language') }).click();
            await page.locator('.ant-select-item-option', { hasText: 'English' }).first().click();
            await page.getByRole('button', { name: buttonName(t('reader.language.confirmOk')) }).click();
            await page.waitForURL(`**/tabs/read/${bookCode}/en`);
            await page.locator('.yd-reader-text [data-block]').first().waitFor();
            await expect.poll(async () => (await topParagraph(page))?.blockId, { timeout: 15_000 }).toBe(left.blockId);
          }
        } finally {
          await context.close();
        }
      },
    );
  }

  for (const ui of ['zh', 'en'] as const) {
    it(
      `fits phones of 320, 375 and 414 px: no sideways scrolling, the selection menu on screen (${ui})`,
      {
        timeout: 300_000,
      },
      async () => {
        const t = wording(ui);
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        const bookCode = await uploadBook(baseUrl, token, 'txt/en-sherlock-holmes-utf8-bom-crlf.txt', 'Sherlock', 'zh');
        const at = await longPage(baseUrl, token, bookCode, 12);
        await api(baseUrl, 'PUT', '/reader/position', { bookCode, page: at, language: 'zh' }, token);
        for (const width of [320, 375, 414]) {
          const context: BrowserContext = await browser.newContext({
            baseURL: baseUrl,
            viewport: { width, height: width === 320 ? 568 : width === 375 ? 812 : 896 },
            isMobile: true,
            hasTouch: true,
            deviceScaleFactor: 2,
            locale: ui === 'zh' ? 'zh-CN' : 'en-US',
          });
          await context.addInitScript(
            ([value, lang]) => {
              window.localStorage.setItem('authToken', value!);
              window.localStorage.setItem('uiLanguage', lang!);
            },
            [token, ui],
          );
          const page = await context.newPage();
          try {
            await page.goto(`/tabs/read/${bookCode}/zh`);
            await translated(page);
            // Nothing makes the page wider than the screen (a phone would zoom out to show it).
            const widths = await page.evaluate(() => ({
              page: document.documentElement.scrollWidth,
              screen: window.innerWidth,
              visible: window.visualViewport?.width ?? window.innerWidth,
            }));
            expect(widths).toEqual({ page: width, screen: width, visible: width });

            // A phrase at the top of the view, in the middle and at the bottom: the menu is fully visible.
            const toolbar = page.getByRole('toolbar', { name: t('reader.selection.toolbar') });
            const paragraphs = await page.evaluate(() =>
              Array.from(document.querySelectorAll('[data-block-text][data-side=translation]'))
                .filter((e) => (e.textContent ?? '').length > 80)
                .map((e) => e.getAttribute('data-block-text')!),
            );
            for (const where of ['start', 'center', 'end'] as const) {
              const id = paragraphs[where === 'start' ? 1 : where === 'center' ? 3 : 5]!;
              await page.evaluate(
                ([id, block]) =>
                  document
                    .querySelector(`[data-block-text="${id}"][data-side=translation]`)!
                    .scrollIntoView({ block: block as ScrollLogicalPosition }),
                [id, where],
              );
              // The phrase: a few words near the paragraph's end when it sits at the bottom, else near its start.
              const length = await page.evaluate(
                (id) => document.querySelector(`[data-block-text="${id}"][data-side=translation]`)!.textContent!.length,
                id,
              );
              const start = where === 'end' ? length - 30 : 12;
              await selectText(page, `[data-block-text="${id}"][data-side=translation]`, start, start + 16);
              await toolbar.waitFor();
              await expect
                .poll(async () => {
                  const box = await toolbar.boundingBox();
                  const view = await page.evaluate(() => ({
                    width: window.visualViewport!.width,
                    height: window.visualViewport!.height,
                  }));
                  return (
                    !!box &&
                    box.x >= 0 &&
                    box.y >= 0 &&
                    box.x + box.width <= view.width &&
                    box.y + box.height <= view.height
                  );
                })
                .toBe(true);
              if (width === 375 && where === 'center') {
                await page.waitForTimeout(300);
                await page.screenshot({ path: path.join(DOCS_SHOTS, `reader-selection-375-${ui}.png`) });
              }
              await page.evaluate(() => window.getSelection()?.removeAllRanges());
              await toolbar.waitFor({ state: 'detached' });
            }
            // Still no sideways scrolling with the menu open and closed.
            expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
          } finally {
            await context.close();
          }
        }
      },
    );
  }
});
