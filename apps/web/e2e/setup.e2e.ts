import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFakeOpenAi, type FakeServer } from '../../server/src/engines/translation/testing/fake-servers.ts';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, api, selectText, uploadBook } from './fixtures.ts';
import { buttonName, wording } from './i18n.ts';

/** Where the banner, the checklist and the AI settings are photographed (E2E_SCREENSHOTS to keep them elsewhere). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');
const KEY = 'sk-e2e-chosen-by-the-admin-7731';
const ANSWER = 'Explained by the model the admin chose in the browser.';

/**
 * An admin sets Yidu up from the browser: the banner and the checklist say what is missing, the AI
 * model is chosen and tested in the admin pages, and a reader's next explanation comes from it —
 * without a restart. The model thinks out loud (<think>); readers never see it.
 */
describe('setting Yidu up from the browser', () => {
  let browser: Browser;
  let model: FakeServer;
  let adminToken: string;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  const admin = inject('admin');

  beforeAll(async () => {
    browser = await launchBrowser();
    await mkdir(SHOTS, { recursive: true });
    // The service the admin will choose: another OpenAI-compatible model, with a key, that reasons first.
    model = await startFakeOpenAi({ key: KEY });
    model.setBehaviour({
      think: 'The reader selected a phrase. Hidden reasoning that must never be shown.',
      chunkChars: 5,
      chunkDelayMs: 10,
      reply: ({ messages }) => (/explain/i.test(messages[0]?.content ?? '') ? ANSWER : undefined),
    });
    adminToken = (await api<{ token: string }>(baseUrl, 'POST', '/auth/login', admin)).token;
  });
  afterAll(async () => {
    // Back to the environment's model, for the journeys that run after this one.
    await api(baseUrl, 'DELETE', '/admin/ai-models/explanation', undefined, adminToken).catch(() => undefined);
    await browser?.close();
    await model?.close();
  });

  async function adminPage(ui: 'zh' | 'en'): Promise<{ page: Page; close: () => Promise<void> }> {
    const { context, page } = await newPage(browser, ui, baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), adminToken);
    return { page, close: () => context.close() };
  }

  it(
    'the banner and the checklist tell the admin that the AI model does not answer (zh, en)',
    { timeout: 120_000 },
    async () => {
      // The explanation model points at a service that is not there, and a check has found out.
      await api(
        baseUrl,
        'PUT',
        '/admin/ai-models/explanation',
        { baseUrl: 'http://127.0.0.1:9/v1', model: 'gone-model' },
        adminToken,
      );
      await api(baseUrl, 'POST', '/admin/setup/check', undefined, adminToken);
      for (const ui of ['zh', 'en'] as const) {
        const t = wording(ui);
        const { page, close } = await adminPage(ui);
        try {
          await page.goto('/books/all');
          const banner = page.getByTestId('setup-banner');
          await banner.waitFor();
          expect(await banner.innerText()).toContain(t('admin.setup.item.explanationModel.title'));
          await page.screenshot({ path: path.join(SHOTS, `setup-banner-${ui}.png`) });
          await banner.getByRole('link', { name: t('admin.setup.banner.open') }).click();
          await page.waitForURL('**/admin/test?tab=setup');
          const item = page.getByTestId('check-explanationModel');
          await item.getByText(t('admin.setup.status.failing')).waitFor();
          // Both AI uses (annotations borrow the explanation model) show it in the health table.
          await page.getByRole('cell', { name: 'gone-model' }).first().waitFor();
          // The banner is not repeated above the checklist itself.
          expect(await page.getByTestId('setup-banner').count()).toBe(0);
          await page.evaluate(() => window.scrollTo(0, 0));
          await page.screenshot({ path: path.join(SHOTS, `setup-checklist-${ui}.png`), fullPage: true });
        } finally {
          await close();
        }
      }
    },
  );

  it(
    'the admin chooses and tests a model in the browser; a reader explains with it at once (no restart)',
    { timeout: 300_000 },
    async () => {
      const t = wording('en');
      const { page, close } = await adminPage('en');
      try {
        await page.goto('/admin/test?tab=ai');
        const card = page.getByTestId('ai-model-explanation');
        await card.waitFor();
        await card.getByRole('combobox', { name: t('admin.ai.preset') }).click();
        await page.locator(`.ant-select-item-option[title="${t('admin.ai.presetCustom')}"]`).click();
        await card.getByLabel(t('admin.ai.baseUrl')).fill(model.url);
        await card.getByLabel(t('admin.ai.model')).fill('admin-chosen-model');
        await card.getByText(t('admin.engines.set')).click();
        await card.getByLabel(t('admin.engines.newKey')).fill(KEY);
        await card.getByRole('button', { name: buttonName(t('admin.engines.test')) }).click();
        // The test answer (the fake echoes the test prompt), without the reasoning the model wrote first.
        await card.locator('.ant-tag', { hasText: /Works \(\d+ ms\): Echo: Say hello/ }).waitFor();
        expect(await card.innerText()).not.toContain('Hidden reasoning');
        await card.getByRole('button', { name: buttonName(t('admin.ai.save')) }).click();
        await page.getByText(t('admin.ai.saved')).waitFor();
        await card.getByText(t('admin.engines.keyStored', { hint: `…${KEY.slice(-4)}` })).waitFor();
        expect(await page.content()).not.toContain(KEY);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(SHOTS, `setup-ai-models-en.png`), fullPage: true });
      } finally {
        await close();
      }
      {
        // The same page in Chinese, after the save.
        const { page: zh, close: closeZh } = await adminPage('zh');
        try {
          await zh.goto('/admin/test?tab=ai');
          await zh.getByTestId('ai-model-explanation').getByText(wording('zh')('admin.ai.source.admin')).waitFor();
          await zh.evaluate(() => window.scrollTo(0, 0));
          await zh.screenshot({ path: path.join(SHOTS, `setup-ai-models-zh.png`), fullPage: true });
        } finally {
          await closeZh();
        }
      }

      // A reader, in the same running server, explains a passage: the admin's model answers.
      const { token } = await activatedReader(baseUrl, dataDir, admin, 'en');
      const bookCode = await uploadBook(
        baseUrl,
        token,
        'txt/en-sherlock-holmes-utf8-bom-crlf.txt',
        'Setup journey book',
        'zh',
      );
      const { context, page: reader } = await newPage(browser, 'en', baseUrl);
      await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
      try {
        // Opened from the personal library, as readers do: a tab appears and the reader opens.
        await reader.goto('/books/user');
        await reader.locator('.yd-book-card', { hasText: 'Setup journey book' }).click();
        await reader
          .getByRole('dialog')
          .getByRole('button', { name: buttonName(t('books.detail.read')) })
          .click();
        await reader.waitForURL(`**/tabs/read/${bookCode}/zh`);
        const paragraph = '.yd-block-paragraph[data-status=done] .yd-translation';
        let long = -1;
        for (let pageNumber = 1; pageNumber <= 8 && long < 0;) {
          // The page's blocks are there (not the spinner) and translated.
          await reader.locator('.yd-translation').first().waitFor({ timeout: 30_000 });
          await expect.poll(() => reader.locator('[data-status=pending]').count(), { timeout: 30_000 }).toBe(0);
          long = await reader
            .locator(paragraph)
            .evaluateAll((els) => els.findIndex((e) => (e.textContent ?? '').length > 80));
          if (long >= 0) break;
          await reader.getByRole('button', { name: t('reader.next') }).click();
          pageNumber += 1;
          await reader.locator('.yd-pager-where', { hasText: new RegExp(`(^|\\D)${pageNumber}\\D`) }).waitFor();
        }
        expect(long).toBeGreaterThanOrEqual(0);
        const blockId = await reader.locator(paragraph).nth(long).getAttribute('data-block-text');
        await selectText(reader, `[data-block-text="${blockId}"][data-side=translation]`, 10, 22);
        await reader
          .getByRole('toolbar', { name: t('reader.selection.toolbar') })
          .getByRole('button', { name: t('reader.ai.explain') })
          .click();
        const card = reader.locator('.yd-ai-card');
        await card.getByText(ANSWER).waitFor({ timeout: 30_000 });
        expect(await card.innerText()).not.toMatch(/Hidden reasoning|think>/);
      } catch (error) {
        await reader.screenshot({ path: path.join(SHOTS, 'fail-setup-reader.png'), fullPage: true });
        throw error;
      } finally {
        await context.close();
      }
      const chat = model.calls.filter((c) => c.path === '/v1/chat/completions');
      expect(chat.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
      expect((chat.at(-1)?.json as { model: string }).model).toBe('admin-chosen-model');

      // Set up now: the banner is gone.
      const report = await api<{ attention: boolean }>(baseUrl, 'GET', '/admin/setup', undefined, adminToken);
      expect(report.attention).toBe(false);
    },
  );
});
