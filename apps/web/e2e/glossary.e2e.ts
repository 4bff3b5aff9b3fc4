import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';
import { activatedReader, api, uploadBook } from './fixtures.ts';

/** Where the glossary panel and the comparison are photographed (E2E_SCREENSHOTS to keep them elsewhere). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');

interface Glossary {
  entries: { source: string; target: string; origin: string }[];
}
interface PageData {
  pageCount: number;
  blocks: { id: string; text: string; status: string; translation: string | null }[];
}

describe('consistent translation: the glossary and "this translation is wrong"', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => browser?.close());

  for (const ui of ['zh', 'en'] as const) {
    it(
      `an edited entry comes back in the affected paragraphs; a paragraph marked wrong gets a second translation that can be kept (${ui})`,
      { timeout: 300_000 },
      async () => {
        const t = wording(ui);
        // Each run renders the name its own way: the memory is shared, and the other run's kept translation is served first.
        const rendering = ui === 'zh' ? '伊丽莎白' : '伊莉莎白';
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        const bookCode = await uploadBook(baseUrl, token, 'txt/en-pride-and-prejudice-cp1252-crlf.txt', 'Pride', 'zh');
        // The names are found after the upload (the fake model answers no JSON: capitalised names, rendered by the engine).
        await expect
          .poll(
            async () =>
              (
                await api<Glossary>(baseUrl, 'GET', `/book/glossary?bookCode=${bookCode}&language=zh`, undefined, token)
              ).entries.map((e) => e.source),
            { timeout: 60_000 },
          )
          .toContain('Elizabeth');

        // The reader opens a page where Elizabeth speaks; the engine kept the glossary's rendering of her name.
        const pageData = (n: number) =>
          api<PageData>(
            baseUrl,
            'GET',
            `/reader/getPageData?bookCode=${bookCode}&language=zh&page=${n}`,
            undefined,
            token,
          );
        let pageNumber = 2;
        while (!(await pageData(pageNumber)).blocks.some((b) => /\bElizabeth\b/.test(b.text))) pageNumber += 1;
        await api(baseUrl, 'PUT', '/reader/position', { bookCode, page: pageNumber, language: 'zh' }, token);
        const { context, page } = await newPage(browser, ui, baseUrl);
        await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
        try {
          await page.goto(`/tabs/read/${bookCode}/zh`);
          const named = page.locator('.yd-translation', { hasText: '[zh-Hans] Elizabeth' });
          await named.first().waitFor({ timeout: 30_000 });
          await expect.poll(() => page.locator('[data-status=pending]').count(), { timeout: 30_000 }).toBe(0);
          const affected = await named.count();
          expect(affected).toBeGreaterThan(0);

          // The owner edits the entry in the glossary panel.
          await page.getByRole('button', { name: t('reader.panel.open') }).click();
          const drawer = page.locator('.yd-side');
          await drawer.locator('.ant-segmented-item', { hasText: t('glossary.tab') }).click();
          const entry = drawer.locator('.yd-glossary-entry[data-source="Elizabeth"]');
          await entry.waitFor();
          await entry.getByRole('button', { name: t('glossary.edit', { source: 'Elizabeth' }) }).click();
          const form = drawer.locator('.yd-glossary-form');
          await form.getByLabel(t('glossary.field.target')).fill(rendering);
          await form
            .getByLabel(t('glossary.field.note'))
            .fill(ui === 'zh' ? '班纳特家二女儿' : 'the second Bennet daughter');
          await form.getByRole('button', { name: buttonName(t('glossary.save')) }).click();
          await drawer.locator('.yd-glossary-entry[data-source="Elizabeth"]', { hasText: rendering }).waitFor();
          // The price of bringing the translated paragraphs up to date is shown first.
          const quote = drawer.locator('.yd-glossary-quote');
          await quote.waitFor();
          await page.screenshot({ path: path.join(SHOTS, `glossary-panel-${ui}.png`) });
          await quote.getByRole('button', { name: buttonName(t('glossary.retranslate.action')) }).click();
          await page
            .locator('.ant-modal-confirm')
            .getByRole('button', { name: buttonName(t('glossary.retranslate.confirmOk')) })
            .click();
          await quote.waitFor({ state: 'detached', timeout: 30_000 });
          await page.locator('.ant-drawer-close').first().click();
          await drawer.waitFor({ state: 'hidden' });

          // The paragraphs holding the name come back with the new rendering; none keeps the old one.
          await expect
            .poll(() => page.locator('.yd-translation', { hasText: rendering }).count(), { timeout: 30_000 })
            .toBe(affected);
          expect(await named.count()).toBe(0);

          // "This translation is wrong": another engine (the AI model) translates it again, shown beside the first.
          const block = page.locator('.yd-block[data-status=done]:has(.yd-translation)').first();
          await block.scrollIntoViewIfNeeded().catch(async (error: unknown) => {
            await page.screenshot({ path: path.join(SHOTS, `glossary-failure-${ui}.png`) });
            throw error;
          });
          await block.hover();
          await block.getByRole('button', { name: t('glossary.wrong.mark') }).click();
          const modal = page.locator('.yd-wrong-modal');
          const alternative = modal.locator('[data-version=alternative]');
          await alternative.getByText('[Simplified Chinese]', { exact: false }).waitFor({ timeout: 30_000 });
          await modal.locator('[data-version=original]').getByText('[zh-Hans]', { exact: false }).waitFor();
          await page.screenshot({ path: path.join(SHOTS, `wrong-translation-${ui}.png`) });
          await alternative.getByRole('button', { name: buttonName(t('glossary.wrong.keep')) }).click();
          await modal.waitFor({ state: 'detached' });
          await block.locator('.yd-translation', { hasText: '[Simplified Chinese]' }).waitFor();
          // Kept for every reader: the server answers the page with it.
          const blockId = await block.getAttribute('data-block');
          const fresh = await pageData(pageNumber);
          expect(fresh.blocks.find((b) => b.id === blockId)?.translation).toContain('[Simplified Chinese]');
        } finally {
          await context.close();
        }
      },
    );
  }
});
