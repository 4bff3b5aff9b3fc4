import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pepysSample, ulyssesSample } from '../../server/src/engines/parsers/epub/fixtures/standard-ebooks.ts';
import { launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';
import { activatedReader, api, uploadBook } from './fixtures.ts';

/** Screenshots of the note popover and of verse; `E2E_SCREENSHOTS=docs/screenshots` refreshes the docs. */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');

/** Signed in with the token, in the reading mode that shows original and translation side by side. */
async function readerPage(browser: Browser, ui: string, baseUrl: string, token: string) {
  const { context, page } = await newPage(browser, ui, baseUrl);
  await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
  await api(baseUrl, 'PUT', '/user/reader-settings', { scheme: 'paper', mode: 'advanced' }, token);
  return { context, page };
}

/** Turns pages (→) from the first until `target` is on the page; returns the page number. */
async function turnTo(page: Page, target: Locator): Promise<number> {
  for (let n = 1; n <= 12; n++) {
    await page.locator('.yd-page [data-block]').first().waitFor({ timeout: 30_000 });
    if ((await target.count()) > 0) return n;
    await page.keyboard.press('ArrowRight');
    await page.locator('.yd-pager-where', { hasText: new RegExp(`(^|\\D)${n + 1}\\D`) }).waitFor();
  }
  throw new Error('not found on the first pages');
}

const pagerShows = (page: Page, n: number) =>
  page.locator('.yd-pager-where', { hasText: new RegExp(`(^|\\D)${n}\\D`) }).waitFor();

describe('notes wherever they are, and verse as lines (Standard Ebooks)', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());

  for (const ui of ['zh', 'en']) {
    it(
      `opens note 60 of Pepys from the endnotes file and comes back to the marker (${ui})`,
      { timeout: 300_000 },
      async () => {
        const t = wording(ui);
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        const data = await pepysSample();
        const code = await uploadBook(baseUrl, token, { name: 'pepys.epub', data }, 'The Diary of Samuel Pepys');
        let context: BrowserContext | undefined;
        try {
          const opened = await readerPage(browser, ui, baseUrl, token);
          context = opened.context;
          const { page } = opened;
          await page.goto(`/tabs/read/${code}/zh`);
          const marker = page.locator('.yd-original .yd-note-ref', { hasText: /^60$/ });
          const markerPage = await turnTo(page, marker);
          const markerBlock = await marker.evaluate((el) => el.closest('[data-block]')!.getAttribute('data-block')!);
          // Raised and set apart from its word ("Sheply⁶⁰"), not glued to its baseline.
          const raise = await marker.evaluate((el) => {
            const text = el.previousSibling as Text;
            const range = document.createRange();
            range.setStart(text, text.length - 1);
            range.setEnd(text, text.length);
            const letter = range.getBoundingClientRect();
            const mark = el.getBoundingClientRect();
            const middle = (r: DOMRect) => (r.top + r.bottom) / 2;
            return { raised: middle(mark) < middle(letter) - 2, apart: mark.left > letter.right + 1 };
          });
          expect(raise).toEqual({ raised: true, apart: true });

          await marker.click();
          const dialog = page.getByRole('dialog', { name: t('notes.title', { label: '60' }) });
          await dialog.getByText('W. Shepley was a servant of Admiral Sir Edward Montagu').waitFor();
          // The translation comes with the note's page (the fake translator writes "[zh-Hans] …").
          await dialog.getByText('[zh-Hans] W. Shepley was a servant').waitFor({ timeout: 60_000 });
          await page.screenshot({ path: path.join(SHOTS, `note-popover-${ui}.png`) });

          const go = dialog.getByRole('button', { name: /\d/ });
          const notePage = Number(/(\d+)/.exec((await go.textContent()) ?? '')![1]);
          expect(notePage).toBeGreaterThan(markerPage);
          await go.click();
          await pagerShows(page, notePage);
          await page.locator('.yd-block-footnote', { hasText: 'W. Shepley was a servant' }).first().waitFor();
          await page
            .locator('.yd-note-return')
            .getByRole('button', { name: buttonName(t('notes.backToText')) })
            .click();
          await pagerShows(page, markerPage);
          await page.locator(`[data-block="${markerBlock}"]`).waitFor();

          // Esc closes it, and so does a click outside.
          await marker.click();
          await dialog.waitFor();
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden' });
          await marker.click();
          await dialog.waitFor();
          await page.mouse.click(5, 400);
          await dialog.waitFor({ state: 'hidden' });

          // On a phone: a sheet that fits the screen, closed by a tap outside it.
          await page.setViewportSize({ width: 375, height: 812 });
          await marker.scrollIntoViewIfNeeded();
          await marker.click();
          await dialog.getByText('[zh-Hans] W. Shepley was a servant').waitFor();
          const box = (await dialog.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(375);
          expect(box.y + box.height).toBeLessThanOrEqual(812);
          expect(box.height).toBeLessThanOrEqual(812 * 0.7 + 1);
          await page.screenshot({ path: path.join(SHOTS, `note-popover-${ui}-375.png`) });
          await page.touchscreen.tap(187, 80).catch(() => page.mouse.click(187, 80));
          await dialog.waitFor({ state: 'hidden' });
        } finally {
          await context?.close();
        }
      },
    );

    it(
      `shows the Harry Hughes ballad line by line, original and translation (${ui})`,
      { timeout: 300_000 },
      async () => {
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        const data = await ulyssesSample();
        const code = await uploadBook(baseUrl, token, { name: 'ulysses.epub', data }, 'Ulysses');
        const { context, page } = await readerPage(browser, ui, baseUrl, token);
        try {
          await page.goto(`/tabs/read/${code}/zh`);
          const ballad = page.locator('.yd-block.has-lines', { hasText: 'Little Harry Hughes' });
          await turnTo(page, ballad);
          const translation = ballad.locator('.yd-translation');
          await translation.waitFor({ timeout: 60_000 });
          const lines = async (side: Locator) => (await side.innerText()).split('\n').filter((l) => l.trim());
          const original = await lines(ballad.locator('.yd-original'));
          expect(original).toEqual([
            'Little Harry Hughes and his schoolfellows all',
            'Went out for to play ball.',
            'And the very first ball little Harry Hughes played',
            'He drove it o’er the jew’s garden wall.',
            'And the very second ball little Harry Hughes played',
            'He broke the jew’s windows all.',
          ]);
          expect((await lines(translation)).every((line) => line.startsWith('[zh-Hans]'))).toBe(true);
          expect(await lines(translation)).toHaveLength(6);
          // Shown as six lines, not one run-on paragraph.
          const rendered = await ballad.locator('.yd-original').evaluate((el) => {
            const lineHeight = parseFloat(getComputedStyle(el).lineHeight);
            return el.getBoundingClientRect().height / lineHeight;
          });
          expect(rendered).toBeGreaterThanOrEqual(5.5);
          await ballad.evaluate((el) => el.scrollIntoView({ block: 'center' }));
          await page.screenshot({ path: path.join(SHOTS, `verse-${ui}.png`) });
        } finally {
          await context.close();
        }
      },
    );
  }
});
