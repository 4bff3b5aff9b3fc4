import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';
import { activatedReader, api, uploadBook } from './fixtures.ts';
import { startFakeAnki, type FakeAnki } from './fake-ankiconnect.ts';

const SHOTS = process.env.E2E_SCREENSHOTS;

interface Block {
  id: string;
  type: string;
  text: string;
  status: string;
}

describe('words to Anki through AnkiConnect, from the browser', () => {
  let browser: Browser;
  let anki: FakeAnki;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
    anki = await startFakeAnki();
  });
  afterAll(async () => {
    await browser?.close();
    await anki?.close();
  });

  it(
    'is refused until Yidu is allowed, then sends new words once, duplicates skipped (zh)',
    { timeout: 240_000 },
    async () => {
      const t = wording('zh');
      const reader = await activatedReader(baseUrl, dataDir, inject('admin'));
      const bookCode = await uploadBook(
        baseUrl,
        reader.token,
        'txt/en-sherlock-holmes-utf8-bom-crlf.txt',
        'Sherlock Holmes',
      );
      let blocks: Block[] = [];
      for (let i = 0; i < 300; i++) {
        blocks = (
          await api<{ blocks: Block[] }>(
            baseUrl,
            'GET',
            `/reader/getPageData?bookCode=${bookCode}&language=zh&page=2`,
            undefined,
            reader.token,
          )
        ).blocks;
        if (blocks.every((b) => b.status === 'done')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const paragraph = blocks.find((b) => b.type === 'paragraph' && b.text.split(' ').length > 8)!;
      const words = paragraph.text.split(/\W+/).filter((w) => w.length > 3);
      const save = (text: string, meaning: string) =>
        api<{ id: number }>(
          baseUrl,
          'POST',
          '/vocabulary',
          { bookCode, language: 'zh', text, meaning, sentence: paragraph.text.slice(0, 200), blockId: paragraph.id },
          reader.token,
        );
      await save(words[0]!, '第一个词');
      await save(words[1]!, '第二个 <b>词</b>');
      // The first word is already in the Anki deck: it must be skipped, not added twice.
      anki.notes.push({
        deckName: 'Yidu',
        modelName: 'Basic',
        fields: { Front: words[0]!, Back: 'earlier' },
        tags: [],
      });

      const { context, page } = await newPage(browser, 'zh', baseUrl);
      await context.addInitScript((value) => window.localStorage.setItem('authToken', value), reader.token);
      try {
        /** An option of the select that is open. */
        const option = (title: string) =>
          page.locator(
            `.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${title}"]`,
          );
        await page.goto('/vocabulary');
        await page.getByRole('button', { name: buttonName(t('anki.open')) }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('textbox', { name: t('anki.address') }).fill(anki.url);

        // Anki does not allow Yidu's address yet: the page says how to allow it.
        anki.origins = ['https://elsewhere.example'];
        await dialog.getByRole('button', { name: buttonName(t('anki.connect')) }).click();
        await dialog.getByText('还没有允许').waitFor();
        expect(anki.requests.some((r) => r.origin === baseUrl && !r.allowed)).toBe(true);
        await dialog.getByText(t('anki.allowTitle')).click();
        await dialog.locator('pre', { hasText: baseUrl }).waitFor();

        // Allowed: decks and note types come from Anki, the fields are mapped.
        anki.origins = ['http://localhost', baseUrl];
        await dialog.getByRole('button', { name: buttonName(t('anki.connect')) }).click();
        await dialog.getByRole('combobox', { name: t('anki.deck') }).waitFor();

        // A note type Anki cannot open: its error answer is shown.
        await dialog.getByRole('combobox', { name: t('anki.model') }).click();
        await option('Broken').click();
        await dialog.getByText('model was not found').waitFor();
        await dialog.getByRole('combobox', { name: t('anki.model') }).click();
        await option('Basic').click();
        await dialog.getByText('model was not found').waitFor({ state: 'detached' });
        await dialog.getByRole('combobox', { name: t('anki.fieldFor', { field: 'Back' }) }).waitFor();

        await dialog.getByRole('combobox', { name: t('anki.deck') }).click();
        await option('Yidu').click();
        if (SHOTS) {
          await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'detached' });
          await page.setViewportSize({ width: 375, height: 900 });
          await page.screenshot({ path: path.resolve(SHOTS, 'anki-settings-zh-375.png') });
          await page.setViewportSize({ width: 1280, height: 800 });
        }
        await dialog.getByRole('button', { name: buttonName(t('anki.send')) }).click();
        await dialog.getByText('已添加 1 个；1 个已在牌组中').waitFor();
        const added = anki.notes.filter((n) => n.fields.Back !== 'earlier');
        expect(added).toEqual([
          {
            deckName: 'Yidu',
            modelName: 'Basic',
            fields: { Front: words[1], Back: '第二个 &lt;b&gt;词&lt;/b&gt;' },
            tags: ['yidu'],
            options: { allowDuplicate: false, duplicateScope: 'deck' },
          },
        ]);
        // Remembered on the server (both: the added one and the one Anki had): another device knows.
        expect(await api<unknown[]>(baseUrl, 'GET', '/vocabulary/anki?unsent=true', undefined, reader.token)).toEqual(
          [],
        );
        await dialog.getByRole('button', { name: buttonName(t('anki.send')) }).click();
        await dialog.getByText(t('anki.nothingNew')).waitFor();
        expect(anki.notes).toHaveLength(2);
      } finally {
        await context.close();
      }
    },
  );

  it('explains the setting in English too', { timeout: 120_000 }, async () => {
    if (!SHOTS) return;
    const t = wording('en');
    const reader = await activatedReader(baseUrl, dataDir, inject('admin'), 'en');
    const { context, page } = await newPage(browser, 'en', baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), reader.token);
    try {
      await page.setViewportSize({ width: 375, height: 900 });
      await page.goto('/vocabulary');
      await page.getByRole('button', { name: buttonName(t('anki.open')) }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: t('anki.address') }).fill(anki.url);
      await dialog.getByRole('button', { name: buttonName(t('anki.connect')) }).click();
      await dialog.getByRole('combobox', { name: t('anki.fieldFor', { field: 'Back' }) }).waitFor();
      await dialog.getByText(t('anki.allowTitle')).click();
      await dialog.locator('pre').waitFor();
      await page.screenshot({ path: path.resolve(SHOTS, 'anki-settings-en-375.png') });
    } finally {
      await context.close();
    }
  });
});
