import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, api, uploadBook } from './fixtures.ts';

/** Where the figures are photographed (E2E_SCREENSHOTS=docs/screenshots to renew the documentation's). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');
const PAPER = 'pdf/en-tracemonkey-two-column-footnotes.pdf';
/** A two-column IEEE paper with displayed equations (from the wild set beside the corpus). */
const EQUATIONS = '../wild/pdf/en-ieee-paper-two-column-tex-control-chars.pdf';
const WAIT = { timeout: 60_000 };

interface Block {
  id: string;
  type: string;
  text: string;
  imageUrl?: string | null;
}

/** Every block of a book in reading order, each with its reader page. */
async function allBlocks(baseUrl: string, token: string, bookCode: string): Promise<(Block & { page: number })[]> {
  const out: (Block & { page: number })[] = [];
  for (let page = 1; ; page++) {
    const data = await api<{ blocks: Block[]; pageCount: number }>(
      baseUrl,
      'GET',
      `/reader/getPageData?bookCode=${bookCode}&language=zh&page=${page}`,
      undefined,
      token,
    );
    out.push(...data.blocks.map((b) => ({ ...b, page })));
    if (page >= data.pageCount) return out;
  }
}

/** Opens the reader at a paragraph, as a saved reading position does. */
async function openAt(page: Page, baseUrl: string, token: string, bookCode: string, at: { page: number; id: string }) {
  await api(
    baseUrl,
    'PUT',
    '/reader/position',
    { bookCode, page: at.page, blockId: at.id, blockOffset: 0, language: 'zh' },
    token,
  );
  await page.goto(`/tabs/read/${bookCode}/zh`);
  await page.locator(`#yd-b-${at.id}`).waitFor(WAIT);
}

/** Waits for a picture of the reflow to be loaded, and returns its natural and shown widths. */
async function loadedImage(page: Page, blockId: string) {
  const img = page.locator(`#yd-b-${blockId} img`);
  await img.scrollIntoViewIfNeeded();
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), WAIT)
    .toBeGreaterThan(0);
  return img.evaluate((el: HTMLImageElement) => ({
    natural: el.naturalWidth,
    shown: el.getBoundingClientRect().width,
  }));
}

describe('figures and equations of a PDF in the reflow', () => {
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
      `shows a figure as a picture beside its translated caption, and an equation as a picture (${ui})`,
      {
        timeout: 600_000,
      },
      async () => {
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        const paper = await uploadBook(baseUrl, token, PAPER, 'TraceMonkey');
        const ieee = await uploadBook(baseUrl, token, EQUATIONS, 'Differential privacy');
        const { context, page } = await newPage(browser, ui, baseUrl);
        await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
        try {
          // The figure: a picture cropped from the page, its caption a translated paragraph beside it.
          const book = await allBlocks(baseUrl, token, paper);
          // Every "Figure N." caption has its picture next to it; the first on the same reader page is looked at.
          const captions = book.flatMap((b, i) => (/^Figure \d+\./.test(b.text) ? [i] : []));
          expect(captions.length).toBeGreaterThanOrEqual(10);
          const besides = captions.map((i) => [book[i - 1], book[i + 1]].find((b) => b?.type === 'image'));
          expect(besides.every(Boolean), 'every caption beside its picture').toBe(true);
          const at = captions.find((i, n) => besides[n]!.page === book[i]!.page)!;
          const caption = book[at]!;
          const picture = [book[at - 1], book[at + 1]].find((b) => b?.type === 'image' && b.page === caption.page)!;
          await page.setViewportSize({ width: 1280, height: 800 });
          await openAt(page, baseUrl, token, paper, picture!);
          const wide = await loadedImage(page, picture!.id);
          expect(wide.natural).toBeGreaterThanOrEqual(700);
          await page
            .locator(`#yd-b-${caption.id} .yd-translation`, { hasText: '[zh-Hans]' })
            .waitFor({ timeout: 60_000 });
          await page.locator('.yd-pdf-canvas-holder[data-rendered=true]').first().waitFor({ timeout: 60_000 });
          await expect.poll(() => page.locator('.yd-pdf-canvas-holder[data-rendered=false]').count(), WAIT).toBe(0);
          await page.mouse.move(5, 790);
          await page.screenshot({ path: path.join(SHOTS, `reader-pdf-figure-${ui}.png`), animations: 'disabled' });

          // On a phone the picture fits the screen and stays sharp (drawn from more pixels than shown).
          await page.setViewportSize({ width: 375, height: 760 });
          const narrow = await loadedImage(page, picture!.id);
          expect(narrow.shown).toBeLessThanOrEqual(375);
          expect(narrow.natural).toBeGreaterThanOrEqual(narrow.shown * 2);
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
          await page.screenshot({ path: path.join(SHOTS, `reader-pdf-figure-${ui}-375.png`), animations: 'disabled' });

          // A displayed equation: a picture between the sentences around it, no paragraph of symbols.
          const other = await allBlocks(baseUrl, token, ieee);
          const before = other.findIndex((b) => b.text.startsWith('Definition 2 (l1-sensitivity'));
          expect(before).toBeGreaterThan(0);
          const equation = other[before + 1]!;
          expect(equation.type).toBe('image');
          await page.setViewportSize({ width: 1280, height: 800 });
          // Opened at the picture: the sentence before it may end the previous reader page.
          await openAt(page, baseUrl, token, ieee, equation);
          const shown = await loadedImage(page, equation.id);
          expect(shown.natural).toBeGreaterThan(100);
          // For the picture: the sentence after it translated, the original page beside it drawn.
          await page
            .locator(`#yd-b-${other[before + 2]!.id} .yd-translation`, { hasText: '[zh-Hans]' })
            .waitFor({ timeout: 60_000 });
          await page.locator('.yd-pdf-canvas-holder[data-rendered=true]').first().waitFor({ timeout: 60_000 });
          await expect.poll(() => page.locator('.yd-pdf-canvas-holder[data-rendered=false]').count(), WAIT).toBe(0);
          await page.mouse.move(5, 790);
          await page.screenshot({ path: path.join(SHOTS, `reader-pdf-equation-${ui}.png`), animations: 'disabled' });
        } catch (error) {
          await page.screenshot({ path: path.join(SHOTS, `reader-pdf-figure-fail-${ui}.png`), fullPage: true });
          throw error;
        } finally {
          await context.close();
        }
      },
    );
  }

  for (const [ui, width] of [
    ['zh', 375],
    ['en', 1280],
  ] as const) {
    it(
      `says a picture is still being made in its place, and shows it once the server has it (${ui}, ${width} px)`,
      {
        timeout: 300_000,
      },
      async () => {
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        const paper = await uploadBook(baseUrl, token, PAPER, 'TraceMonkey');
        const figure = (await allBlocks(baseUrl, token, paper)).find((b) => b.type === 'image')!;
        const { context, page } = await newPage(browser, ui, baseUrl);
        await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
        // The server's answers as they are while the book.crops job has not reached the book's pictures.
        let making = true;
        await page.route('**/api/reader/getPageData**', async (route) => {
          const response = await route.fetch();
          const body = (await response.json()) as { data?: { blocks?: (Block & { imagePending?: boolean })[] } };
          for (const b of making ? (body.data?.blocks ?? []) : []) {
            if (b.type === 'image') Object.assign(b, { imageUrl: null, imagePending: true });
          }
          await route.fulfill({ response, json: body });
        });
        try {
          await page.setViewportSize({ width, height: 760 });
          await openAt(page, baseUrl, token, paper, figure);
          const notice = page.locator(`#yd-b-${figure.id} .yd-image-pending`);
          await notice.waitFor(WAIT);
          expect(await notice.getAttribute('role')).toBe('status');
          await notice.scrollIntoViewIfNeeded();
          await page.mouse.move(5, 750);
          await page.screenshot({ path: path.join(SHOTS, `reader-pdf-figure-pending-${ui}-${width}.png`) });
          // The picture made: the reader, asking again by itself, shows it where the notice was.
          making = false;
          await loadedImage(page, figure.id);
          expect(await notice.count()).toBe(0);
        } catch (error) {
          await page.screenshot({ path: path.join(SHOTS, `reader-pdf-figure-pending-fail-${ui}.png`), fullPage: true });
          throw error;
        } finally {
          await context.close();
        }
      },
    );
  }
});
