import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, api, selectText, uploadThroughWizard } from './fixtures.ts';
import { buttonName, wording } from './i18n.ts';

describe('sharing: a private book shared with Explanation only, accepted, then revoked', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  it(
    'A shares through the UI, B accepts and reads with Explanation only, A revokes, B loses it',
    { timeout: 300_000 },
    async () => {
      const t = wording('en');
      const tz = wording('zh');
      const a = await activatedReader(baseUrl, dataDir, inject('admin'), 'en', 'sharer');
      const b = await activatedReader(baseUrl, dataDir, inject('admin'), 'zh', 'friend');
      const title = `Shared subtitles ${Date.now()}`;

      const sharer = await newPage(browser, 'en', baseUrl);
      await sharer.context.addInitScript((value) => window.localStorage.setItem('authToken', value), a.token);
      const friend = await newPage(browser, 'zh', baseUrl);
      await friend.context.addInitScript((value) => window.localStorage.setItem('authToken', value), b.token);
      try {
        const pa = sharer.page;
        await pa.goto('/book/upload');
        await uploadThroughWizard(pa, t, 'txt/en-subtitle-utf16le-bom.txt', title);

        // The detail popup of the personal library has the Share action.
        await pa.goto('/books/user');
        await pa.locator('.yd-book-card', { hasText: title }).click();
        const dialog = pa.getByRole('dialog');
        await dialog.getByRole('button', { name: buttonName(t('share.action')) }).click();
        await pa.waitForURL('**/book/share?bookCode=*');
        const bookCode = new URL(pa.url()).searchParams.get('bookCode')!;
        await pa.getByText(title).first().waitFor();
        await pa.getByText(bookCode).first().waitFor();

        await pa.getByRole('button', { name: buttonName(t('share.deselectAll')) }).click();
        await pa.getByRole('checkbox', { name: new RegExp(`^${t('share.feature.explanation')}`) }).check();
        await pa.getByRole('button', { name: buttonName(t('share.generate')) }).click();
        const linkBox = pa.getByTestId('share-link');
        await linkBox.waitFor();
        const link = await linkBox.inputValue();
        expect(link).toMatch(/\/book\/share\/[\w-]+$/);
        const shareId = link.split('/').pop()!;
        await pa.getByTestId(`share-${shareId}`).waitFor();

        // B opens the link (zh interface), sees only Explanation, accepts, finds the book in the library.
        const pb = friend.page;
        await pb.goto(new URL(link).pathname);
        await pb.getByTestId('share-view').waitFor();
        await pb
          .getByText(tz('shareView.sharedBy', { name: 'sharer' }))
          .or(pb.getByText(tz('shareView.sharedAnonymously')))
          .first()
          .waitFor();
        const granted = pb.getByTestId('granted-features').locator('li');
        expect(await granted.count()).toBe(1);
        expect(await granted.first().getAttribute('data-feature')).toBe('explanation');
        await pb.getByRole('button', { name: buttonName(tz('shareView.accept')) }).click();
        await pb.getByText(tz('shareView.acceptedTitle'), { exact: true }).waitFor();
        // B reads it: the selection toolbar offers Explanation (shared) and no Restatement; Explanation answers.
        await pb.getByRole('button', { name: buttonName(tz('shareView.readNow')) }).click();
        await pb.waitForURL(`**/tabs/read/${bookCode}/**`);
        const translated = pb.locator('.yd-block-paragraph[data-status=done] .yd-translation').first();
        await translated.waitFor({ timeout: 30_000 });
        const blockId = await translated.getAttribute('data-block-text');
        await selectText(pb, `[data-block-text="${blockId}"][data-side=translation]`, 0, 6);
        const toolbar = pb.getByRole('toolbar', { name: tz('reader.selection.toolbar') });
        await toolbar.waitFor();
        await toolbar.getByRole('button', { name: tz('reader.ai.explain'), exact: true }).waitFor();
        expect(await toolbar.getByRole('button', { name: tz('reader.ai.restate') }).count()).toBe(0);
        expect(await toolbar.getByRole('button', { name: tz('reader.ai.advanced') }).count()).toBe(0);
        await toolbar.getByRole('button', { name: tz('reader.ai.explain'), exact: true }).click();
        await pb.locator('.yd-ai-card').getByText('This passage introduces', { exact: false }).waitFor();

        await pb.goto('/books/user');
        await pb.locator('.yd-book-card', { hasText: title }).waitFor();
        const detail = await api<{ features: string[]; inLibrary: boolean }>(
          baseUrl,
          'GET',
          `/book/user/getBookByCode?bookCode=${encodeURIComponent(bookCode)}`,
          undefined,
          b.token,
        );
        expect(detail.inLibrary).toBe(true);
        expect(detail.features).toEqual(['explanation']);

        // A revokes from the list; B's library loses the book.
        const row = pa.getByTestId(`share-${shareId}`);
        await row.getByRole('button', { name: buttonName(t('share.revoke')) }).click();
        await pa
          .locator('.ant-popconfirm')
          .getByRole('button', { name: buttonName(t('share.revoke')) })
          .click();
        await pa.getByText(t('share.revoked')).first().waitFor();
        await expect.poll(() => row.getAttribute('data-state'), { timeout: 10_000 }).toBe('revoked');

        await pb.reload();
        await pb.locator('.yd-book-grid, .ant-empty, .ant-result').first().waitFor();
        await expect.poll(() => pb.locator('.yd-book-card', { hasText: title }).count(), { timeout: 15_000 }).toBe(0);
        await pb.goto(new URL(link).pathname);
        await pb.getByText(tz('shareView.revokedTitle')).waitFor();
      } finally {
        await sharer.context.close();
        await friend.context.close();
      }
    },
  );
});
