import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { wording } from './i18n.ts';
import { activatedReader, api, uploadBook } from './fixtures.ts';

/** Where the contents tree is photographed (E2E_SCREENSHOTS to keep it elsewhere; copies in docs/screenshots). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');

interface Entry {
  title: string;
  level: number;
  page: number;
  blockId: string;
}

/** The tree's row of an entry, by the name it is read out with ("title, page n"). */
function row(tree: Locator, t: ReturnType<typeof wording>, entry: Entry): Locator {
  return tree.getByRole('treeitem', { name: t('contents.entry', { title: entry.title, page: String(entry.page) }) });
}

/** Opens a closed level of the tree with the mouse, as a reader would (its ancestors open already). */
async function open(item: Locator): Promise<void> {
  if ((await item.getAttribute('aria-expanded')) === 'false') await item.locator('.yd-toc-toggle').click();
  await expect.poll(() => item.getAttribute('aria-expanded')).toBe('true');
}

describe('the contents as the book declares them', () => {
  let browser: Browser;
  const baseUrl = inject('baseUrl');
  const dataDir = inject('dataDir');
  beforeAll(async () => {
    browser = await launchBrowser();
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(async () => browser?.close());

  // An English anthology four levels deep (read in Chinese), a Chinese manual five deep (read in English).
  for (const [ui, file, bookName, path3] of [
    [
      'zh',
      '../wild/epub/en-childrens-literature-epub3-long.epub',
      "Children's Literature",
      ['SECTION IV FAIRY STORIES—MODERN FANTASTIC TALES', 'Hans Christian Andersen', '194 THE NIGHTINGALE'],
    ],
    [
      'en',
      'epub/zh-debmake-doc-epub2.epub',
      'Debian 维护者指南',
      ['Debian 维护者指南', '2. 预备知识', '2.3. Debian 的社会驱动力'],
    ],
  ] as const) {
    it(`opens a third-level entry from the contents tree and lands on it (${ui})`, { timeout: 300_000 }, async () => {
      const t = wording(ui);
      const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
      const bookCode = await uploadBook(baseUrl, token, file, bookName, ui);
      const detail = await api<{ contents: Entry[] }>(
        baseUrl,
        'GET',
        `/book/user/getBookByCode?bookCode=${bookCode}`,
        undefined,
        token,
      );
      // The three entries of the path, each one level below the one before.
      const entries: Entry[] = [];
      for (const [depth, title] of path3.entries()) {
        const from = entries.length ? detail.contents.indexOf(entries.at(-1)!) : 0;
        const entry = detail.contents.slice(from).find((e) => e.title === title && e.level === depth + 1);
        if (!entry) throw new Error(`no entry ${title} at level ${depth + 1}`);
        entries.push(entry);
      }
      const target = entries[2]!;

      const { context, page } = await newPage(browser, ui, baseUrl);
      await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
      try {
        await page.goto(`/tabs/read/${bookCode}/${ui}`);
        // The first page is read (a cover has no text to wait for).
        await page.locator('article.yd-reader-text[aria-busy=false] .yd-page').waitFor({ timeout: 60_000 });

        // The tree: the first level shown, deeper ones opened one after the other.
        await page.getByRole('button', { name: t('reader.toc.title'), exact: true }).click();
        const tree = page.getByRole('tree', { name: t('reader.toc.title') });
        await tree.waitFor();
        await open(row(tree, t, entries[0]!));
        await open(row(tree, t, entries[1]!));
        await row(tree, t, target).click();

        // The reader is on the entry's page, its block in view.
        await tree.waitFor({ state: 'hidden' });
        // "第 12 / 80 页", "Page 12 of 80": the page number is the first number shown.
        await page
          .locator('.yd-pager-where', { hasText: new RegExp(`^\\D*${target.page}\\D`) })
          .waitFor({ timeout: 60_000 });
        const block = page.locator(`#yd-b-${target.blockId}`);
        await block.waitFor();
        await expect
          .poll(() =>
            block.evaluate((el) => {
              const box = el.getBoundingClientRect();
              return box.top >= 0 && box.top < window.innerHeight;
            }),
          )
          .toBe(true);

        // Opened again, the tree marks the place being read, its ancestors open.
        await page.getByRole('button', { name: t('reader.toc.title'), exact: true }).click();
        await tree.waitFor();
        const current = tree.locator('[role=treeitem][aria-current=location]');
        await expect
          .poll(() => current.getAttribute('aria-label'))
          .toBe(t('contents.entry', { title: target.title, page: String(target.page) }));
        expect(await current.getAttribute('aria-level')).toBe('3');
        for (const ancestor of entries.slice(0, 2)) {
          expect(await row(tree, t, ancestor).getAttribute('aria-expanded')).toBe('true');
        }
        // The keyboard: the current entry is the one in the tab order; left goes up to its parent.
        await current.focus();
        await page.keyboard.press('ArrowLeft');
        await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-level'))).toBe('2');
        await current.focus();
        // The picture once the drawer has slid all the way in.
        await expect
          .poll(() => page.locator('.ant-drawer-content-wrapper').evaluate((el) => el.getBoundingClientRect().left))
          .toBe(0);
        await page.screenshot({ path: path.join(SHOTS, `contents-tree-${ui}.png`), animations: 'disabled' });

        // On a phone the drawer fits the screen, with a strip of the page left to tap it shut, and every
        // row of the tree (three levels in, a long title wrapped) inside it.
        await page.setViewportSize({ width: 375, height: 812 });
        const drawer = page.locator('.ant-drawer-content-wrapper');
        await expect
          .poll(() => drawer.evaluate((el) => [el.getBoundingClientRect().left, el.getBoundingClientRect().right]))
          .toEqual([0, expect.any(Number)]);
        expect(await drawer.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThan(375);
        const rights = await tree
          .locator('[role=treeitem]')
          .evaluateAll((rows) => rows.map((el) => Math.ceil(el.getBoundingClientRect().right)));
        expect(Math.max(...rights)).toBeLessThan(375);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        await current.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SHOTS, `contents-tree-${ui}-375.png`), animations: 'disabled' });
      } finally {
        await context.close();
      }
    });
  }
});
