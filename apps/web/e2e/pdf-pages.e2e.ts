import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { wording } from './i18n.ts';
import { activatedReader, api, uploadThroughWizard } from './fixtures.ts';

/** Where the page view is photographed (E2E_SCREENSHOTS=docs/screenshots to renew the documentation's). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');
const PAPER = 'pdf/en-tracemonkey-two-column-footnotes.pdf';
const PAPER_BYTES = 1_016_315;
/** How long a state may take to come on a busy machine (expect.poll waits 1 s unless told). */
const WAIT = { timeout: 30_000 };

interface Region {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
}
interface Block {
  id: string;
  type: string;
  pdfPage: number | null;
  pdfRegions: Region[] | null;
}

const rendered = (page: Page, pdfPage: number) =>
  page.locator(`.yd-pdf-page[data-pdf-page="${pdfPage}"] .yd-pdf-canvas-holder[data-rendered=true]`);

/** Whether a region of a PDF page is on screen inside the page view (a few pixels of slack). */
async function regionInView(page: Page, region: Region): Promise<boolean> {
  const slot = page.locator(`.yd-pdf-page[data-pdf-page="${region.page}"]`);
  if ((await slot.count()) === 0) return false;
  const [box, pane] = await Promise.all([slot.boundingBox(), page.locator('.yd-pdf-scroll').boundingBox()]);
  if (!box || !pane) return false;
  const top = box.y + region.y * box.height;
  const bottom = box.y + (region.y + region.h) * box.height;
  return top >= pane.y - 2 && bottom <= pane.y + pane.height + 2;
}

/** The first number of a "page n of m" line (第 n / m 页, Page n of m). */
const firstNumber = async (where: Locator) => Number(/(\d+)/.exec(await where.innerText())![1]);

describe('the original page view of a PDF: beside the translation, following it, outlining paragraphs', () => {
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
      `reads a two-column paper with its pages at 1280 px and as a toggle at 375 px (${ui})`,
      { timeout: 420_000 },
      async () => {
        const t = wording(ui);
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        const { context, page } = await newPage(browser, ui, baseUrl);
        await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
        const policyViolations: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy|Refused to/i.test(message.text())) policyViolations.push(message.text());
        });
        const ranges: { status: number; range: string | undefined; bytes: number }[] = [];
        page.on('response', async (response) => {
          if (!response.url().includes('/api/media/uploads/')) return;
          const length = Number(response.headers()['content-length'] ?? 0);
          ranges.push({ status: response.status(), range: response.request().headers().range, bytes: length });
        });
        const pageData = (p: number) =>
          api<{ blocks: Block[] }>(
            baseUrl,
            'GET',
            `/reader/getPageData?bookCode=${bookCode}&language=zh&page=${p}`,
            undefined,
            token,
          );
        let bookCode = '';
        try {
          // Uploaded through the app, like any book.
          await page.goto('/book/upload');
          await uploadThroughWizard(page, t, PAPER, 'TraceMonkey');
          const books = await api<{ bookCode: string; bookName: string }[]>(
            baseUrl,
            'GET',
            '/book/user/list',
            undefined,
            token,
          );
          bookCode = books.find((b) => b.bookName === 'TraceMonkey')!.bookCode;

          // 1280 px: the original page beside the translation, shown from the start.
          await page.goto(`/tabs/read/${bookCode}/zh`);
          await rendered(page, 1).waitFor({ timeout: 60_000 });
          await page.locator('.yd-page [data-block]').first().waitFor();
          const toggle = page.getByRole('button', { name: t('originalPage.toggle'), exact: true });
          expect(await toggle.getAttribute('aria-pressed')).toBe('true');
          const text = (await page.locator('.yd-reader-text').boundingBox())!;
          const pane = (await page.locator('.yd-pdf-pane').boundingBox())!;
          expect(pane.x).toBeGreaterThanOrEqual(text.x + text.width);
          expect(pane.width).toBeGreaterThan(450);
          // Read by ranges: the first page came without the rest of the file.
          expect(ranges.length).toBeGreaterThan(0);
          expect(ranges.every((r) => r.status === 206 && /^bytes=\d+-\d+$/.test(r.range ?? ''))).toBe(true);
          expect(ranges.reduce((n, r) => n + r.bytes, 0)).toBeLessThan(PAPER_BYTES / 2);
          // Only pages in view have a canvas.
          expect(await page.locator('.yd-pdf-pane canvas').count()).toBeLessThanOrEqual(3);

          // Turning the text's pages brings the page view to the first paragraph's place.
          let readerPage = 1;
          let first: Block | undefined;
          for (; readerPage < 30;) {
            await page.keyboard.press('ArrowRight');
            readerPage += 1;
            await expect.poll(() => firstNumber(page.locator('.yd-pager-where')), WAIT).toBe(readerPage);
            first = (await pageData(readerPage)).blocks.find((b) => b.pdfRegions?.length);
            if (first && first.pdfRegions![0]!.page >= 3) break;
          }
          const place = first!.pdfRegions![0]!;
          await page.locator(`#yd-b-${first!.id}`).waitFor();
          await expect.poll(() => regionInView(page, place), WAIT).toBe(true);
          await rendered(page, place.page).waitFor();

          // Clicking a paragraph outlines its region(s) on the page and brings it into view.
          const blocks = (await pageData(readerPage)).blocks.filter(
            (b) => b.type === 'paragraph' && b.pdfRegions?.length,
          );
          const picked = blocks.at(-1)!;
          await page.locator(`#yd-b-${picked.id}`).scrollIntoViewIfNeeded();
          await page.locator(`#yd-b-${picked.id}`).click({ position: { x: 30, y: 12 } });
          const outline = page.locator('.yd-pdf-outline');
          await outline.first().waitFor();
          await expect.poll(() => regionInView(page, picked.pdfRegions![0]!), WAIT).toBe(true);
          // Every piece of it on a page drawn now (a paragraph going on in the next column has two).
          for (const piece of picked.pdfRegions!)
            if ((await page.locator(`.yd-pdf-page[data-pdf-page="${piece.page}"]`).count()) > 0)
              await outlineMatches(page, piece);
          await page.mouse.move(5, 790);
          await expect.poll(() => page.locator('.yd-pdf-canvas-holder[data-rendered=false]').count(), WAIT).toBe(0);
          await page.screenshot({ path: path.join(SHOTS, `reader-pdf-pages-${ui}.png`), animations: 'disabled' });

          // Scrolling the pages brings the text to the reader page where the page in view begins.
          const scroller = page.locator('.yd-pdf-scroll');
          await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight * (9.2 / 14)));
          const where = page.locator('.yd-pdf-where');
          await expect.poll(() => firstNumber(where), WAIT).toBeGreaterThan(8);
          const inView = await firstNumber(where);
          const located = await api<{ page: number; blockId: string }>(
            baseUrl,
            'GET',
            `/reader/pdfLocate?bookCode=${bookCode}&pdfPage=${inView}`,
            undefined,
            token,
          );
          await expect.poll(() => firstNumber(page.locator('.yd-pager-where')), WAIT).toBe(located.page);
          await page.locator(`#yd-b-${located.blockId}`).waitFor();

          // Clicking a paragraph on the page brings it into view in the text, outlined.
          const onPage = (await pageData(located.page)).blocks.filter(
            (b) => b.type === 'paragraph' && b.pdfRegions?.some((r) => r.page === inView),
          );
          const target = onPage[Math.floor(onPage.length / 2)] ?? onPage[0]!;
          const region = target.pdfRegions!.find((r) => r.page === inView)!;
          await scrollRegionIntoPane(page, scroller, region);
          const slot = (await page.locator(`.yd-pdf-page[data-pdf-page="${inView}"]`).boundingBox())!;
          await page.mouse.click(
            slot.x + (region.x + region.w / 2) * slot.width,
            slot.y + (region.y + region.h / 2) * slot.height,
          );
          await page.locator(`#yd-b-${target.id}.is-flash`).waitFor();
          await outlineMatches(page, region);

          // The dark schemes dim the page; the light ones leave it as it is.
          const filter = () =>
            page
              .locator('.yd-pdf-canvas')
              .first()
              .evaluate((c) => getComputedStyle(c).filter);
          expect(await filter()).toBe('none');
          await page.getByRole('button', { name: t('reader.settings.title') }).click();
          await page.getByRole('radio', { name: t('reader.scheme.black') }).click();
          await page.locator('.yd-reader.is-dark').waitFor();
          await page.keyboard.press('Escape');
          expect(await filter()).toMatch(/invert/);
          if (ui === 'en') {
            await page.mouse.move(5, 790);
            await page.screenshot({
              path: path.join(SHOTS, `reader-pdf-pages-black-${ui}.png`),
              animations: 'disabled',
            });
          }
          await page.getByRole('button', { name: t('reader.settings.title') }).click();
          await page.getByRole('radio', { name: t('reader.scheme.paper') }).click();
          await page.locator('.yd-reader:not(.is-dark)').waitFor();
          await page.keyboard.press('Escape');

          // The control hides the pages and brings them back.
          await toggle.click();
          await page.locator('.yd-pdf-pane').waitFor({ state: 'detached' });
          expect(await toggle.getAttribute('aria-pressed')).toBe('false');
          await toggle.click();
          await rendered(page, inView).waitFor({ timeout: 30_000 });

          // 375 px: the text alone; the control puts the pages in its place, and back.
          await page.setViewportSize({ width: 375, height: 760 });
          await page.locator('.yd-pdf-pane').waitFor({ state: 'detached' });
          const narrowToggle = page.getByRole('button', { name: t('originalPage.toggle'), exact: true });
          expect(await narrowToggle.getAttribute('aria-pressed')).toBe('false');
          await page.locator('.yd-reader-text').waitFor({ state: 'visible' });
          await narrowToggle.click();
          await page.locator('.yd-pdf-pane').waitFor();
          await page.locator('.yd-reader-text').waitFor({ state: 'hidden' });
          await page
            .locator('.yd-pdf-page .yd-pdf-canvas-holder[data-rendered=true]')
            .first()
            .waitFor({ timeout: 30_000 });
          await expect.poll(() => page.locator('.yd-pdf-canvas-holder[data-rendered=false]').count(), WAIT).toBe(0);
          const narrowPane = (await page.locator('.yd-pdf-pane').boundingBox())!;
          expect(narrowPane.width).toBeGreaterThan(300);
          await page.mouse.move(5, 750);
          await page.screenshot({ path: path.join(SHOTS, `reader-pdf-pages-${ui}-375.png`), animations: 'disabled' });
          await narrowToggle.click();
          await page.locator('.yd-reader-text').waitFor({ state: 'visible' });
          await page.locator('.yd-pdf-pane').waitFor({ state: 'detached' });

          expect(policyViolations).toEqual([]);
        } catch (error) {
          await page.screenshot({ path: path.join(SHOTS, `reader-pdf-pages-fail-${ui}.png`), fullPage: true });
          throw error;
        } finally {
          await context.close();
        }
      },
    );
  }
});

/** An outline is drawn around the region (a few pixels larger, as the style makes it). */
async function outlineMatches(page: Page, region: Region) {
  const slot = page.locator(`.yd-pdf-page[data-pdf-page="${region.page}"]`);
  await expect
    .poll(async () => {
      const box = await slot.boundingBox();
      const outlines = await slot
        .locator('.yd-pdf-outline')
        .evaluateAll((els) =>
          els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })),
        );
      if (!box) return false;
      const x = box.x + region.x * box.width;
      const y = box.y + region.y * box.height;
      return outlines.some(
        (o) =>
          Math.abs(o.x - x) < 8 &&
          Math.abs(o.y - y) < 8 &&
          Math.abs(o.width - region.w * box.width) < 14 &&
          Math.abs(o.height - region.h * box.height) < 14,
      );
    }, WAIT)
    .toBe(true);
}

/** Scrolls the page view (as a reader would) so that a region of the page in view is on screen. */
async function scrollRegionIntoPane(page: Page, scroller: Locator, region: Region) {
  if (await regionInView(page, region)) return;
  const slot = page.locator(`.yd-pdf-page[data-pdf-page="${region.page}"]`);
  const [box, pane] = await Promise.all([slot.boundingBox(), scroller.boundingBox()]);
  const delta = box!.y + region.y * box!.height - pane!.y - 40;
  await scroller.evaluate((el, d) => (el.scrollTop += d), delta);
  await expect.poll(() => regionInView(page, region), WAIT).toBe(true);
}
