/**
 * Regenerates docs/screenshots: the reader in every colour scheme (default mode), every mode (paper),
 * black in advanced mode, phone-width views (black with its settings drawer and contents open), in
 * the zh and en interface; then the reader while the translator is down (the originals, quietly
 * marked) and while it is slow (the originals while the translations come). Against a server started
 * like the browser journeys (fake translator and LLM), so translations read "[zh-Hans] …".
 *
 *   npm run build && node apps/web/e2e/screenshots.ts
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, api, setTranslator, startServer, TRANSLATOR_NORMAL, uploadBook } from './fixtures.ts';

const OUT = path.resolve(import.meta.dirname, '../../../docs/screenshots');
/** `open`: a panel opened over the reader before the picture (by its button's accessible name). */
type Opened = 'settings' | 'toc';
const SHOTS: { scheme: string; mode: string; width?: number; languages: string[]; open?: Opened }[] = [
  ...['paper', 'white', 'lightGray', 'gray', 'black', 'custom'].map((scheme) => ({
    scheme,
    mode: 'default',
    languages: ['zh', 'en'],
  })),
  { scheme: 'paper', mode: 'simple', languages: ['zh', 'en'] },
  { scheme: 'paper', mode: 'advanced', languages: ['zh', 'en'] },
  { scheme: 'black', mode: 'advanced', languages: ['zh', 'en'] },
  { scheme: 'paper', mode: 'default', width: 375, languages: ['zh'] },
  { scheme: 'paper', mode: 'advanced', width: 375, languages: ['en'] },
  { scheme: 'black', mode: 'default', width: 375, languages: ['zh', 'en'] },
  { scheme: 'black', mode: 'default', width: 375, languages: ['zh', 'en'], open: 'settings' },
  { scheme: 'black', mode: 'default', languages: ['zh', 'en'], open: 'toc' },
];
const OPENERS: Record<Opened, Record<string, string>> = {
  settings: { zh: '阅读设置', en: 'Reading settings' },
  toc: { zh: '目录', en: 'Contents' },
};

interface Block {
  id: string;
  type: string;
  text: string;
  translation: string | null;
  status: string;
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const { token } = await activatedReader(server.baseUrl, server.dataDir, server.admin, 'zh', 'Reader');
  const bookCode = await uploadBook(server.baseUrl, token, 'epub/en-moby-dick-epub3.epub', 'Moby-Dick');

  // The first page of Chapter 1, translated completely.
  let page = 0;
  let blocks: Block[] = [];
  for (let p = 1; p <= 20 && page === 0; p++) {
    for (let i = 0; i < 100; i++) {
      const data = await api<{ blocks: Block[] }>(
        server.baseUrl,
        'GET',
        `/reader/getPageData?bookCode=${bookCode}&language=zh&page=${p}`,
        undefined,
        token,
      );
      if (data.blocks.every((b) => b.status !== 'pending')) {
        if (data.blocks.some((b) => b.type === 'heading' && /^chapter 1\b/i.test(b.text))) {
          page = p;
          blocks = data.blocks;
        }
        break;
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  if (!page) throw new Error('Chapter 1 not found');
  await api(server.baseUrl, 'PUT', '/reader/position', { bookCode, page, language: 'zh' }, token);

  // A highlight and an underline in the translation, the same on the original, to show the marks.
  const paragraphs = blocks.filter((b) => b.type === 'paragraph' && b.translation);
  const mark = async (block: Block, style: string, color: string, inTranslation: boolean, start: number) => {
    const text = inTranslation ? block.translation! : block.text;
    // Whole words: from the word after `start` to the end of the word about 35 characters on.
    const from = text.indexOf(' ', start) + 1;
    const found = text.indexOf(' ', from + 35);
    const to = found > 0 ? found : Math.min(text.length, from + 35);
    await api(
      server.baseUrl,
      'POST',
      '/reader/highlight',
      {
        bookCode,
        blockId: block.id,
        start: from,
        end: to,
        quote: text.slice(from, to),
        inTranslation,
        language: inTranslation ? 'zh' : null,
        style,
        color,
      },
      token,
    );
  };
  await mark(paragraphs[0]!, 'highlight', 'green', true, 20);
  await mark(paragraphs[1]!, 'underline', 'blue', true, 30);
  await mark(paragraphs[1]!, 'underline', 'blue', false, 30);

  for (const shot of SHOTS) {
    await api(
      server.baseUrl,
      'PUT',
      '/user/reader-settings',
      {
        scheme: shot.scheme,
        mode: shot.mode,
        ...(shot.scheme === 'custom' ? { background: '#e9efe4', textColor: '#1f2b1d' } : {}),
      },
      token,
    );
    for (const language of shot.languages) {
      const { context, page: tab } = await newPage(browser, language, server.baseUrl);
      await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
      if (shot.width) await tab.setViewportSize({ width: shot.width, height: 780 });
      await tab.goto(`/tabs/read/${bookCode}/zh`);
      await tab.locator('.yd-translation').first().waitFor({ timeout: 30_000 });
      if (shot.open) {
        await tab.getByRole('button', { name: OPENERS[shot.open][language], exact: true }).first().click();
        await tab.locator('.ant-drawer-body').waitFor();
      }
      await tab.waitForTimeout(800);
      const opened = shot.open ? `-${shot.open}` : '';
      const name = `reader-${shot.scheme}-${shot.mode}${opened}-${language}${shot.width ? `-${shot.width}` : ''}.png`;
      await tab.screenshot({ path: path.join(OUT, name) });
      console.log(name);
      await context.close();
    }
  }

  // The translator down, then slow: each picture on a page of the chapter not opened before.
  await api(server.baseUrl, 'PUT', '/user/reader-settings', { scheme: 'paper', mode: 'default' }, token);
  const freshPage = async (language: string, at: number, width?: number): Promise<Page> => {
    await api(server.baseUrl, 'PUT', '/reader/position', { bookCode, page: at, language: 'zh' }, token);
    const { page: tab } = await newPage(browser, language, server.baseUrl);
    await tab.context().addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    if (width) await tab.setViewportSize({ width, height: 780 });
    await tab.goto(`/tabs/read/${bookCode}/zh`);
    return tab;
  };
  let next = page + 2;
  try {
    await setTranslator(server.translatorControl, { down: true });
    for (const [language, width] of [['zh'], ['en'], ['zh', 375]] as const) {
      const tab = await freshPage(language, next++, width);
      await tab.locator('.yd-untranslated-notice').waitFor({ timeout: 30_000 });
      await tab.waitForTimeout(500);
      const name = `reader-untranslated-${language}${width ? `-${width}` : ''}.png`;
      await tab.screenshot({ path: path.join(OUT, name) });
      console.log(name);
      await tab.context().close();
    }
    // The page after the last one was prepared ahead while the translator was down: skip it.
    next += 1;
    await setTranslator(server.translatorControl, { ...TRANSLATOR_NORMAL, latencyMs: 3000, perItemLatencyMs: 0 });
    for (const language of ['zh', 'en']) {
      const tab = await freshPage(language, next);
      next += 2;
      // The first paragraph alone is asked first: it may have arrived, the others are on their way.
      await tab.locator('[data-status=pending] [data-side=text]').first().waitFor({ timeout: 30_000 });
      await tab.waitForTimeout(300);
      const name = `reader-translating-${language}.png`;
      await tab.screenshot({ path: path.join(OUT, name) });
      console.log(name);
      await tab.context().close();
    }
  } finally {
    await setTranslator(server.translatorControl, TRANSLATOR_NORMAL);
  }
} finally {
  await browser.close();
  await server.stop();
}
