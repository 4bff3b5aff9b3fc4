/**
 * Regenerates docs/screenshots: the reader in every colour scheme (default mode), every mode (paper),
 * black in advanced mode and two phone-width views, in the zh and en interface. Against a server
 * started like the browser journeys (fake translator and LLM), so translations read "[zh-Hans] …".
 *
 *   npm run build && node apps/web/e2e/screenshots.ts
 */
import path from 'node:path';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, api, startServer, uploadBook } from './fixtures.ts';

const OUT = path.resolve(import.meta.dirname, '../../../docs/screenshots');
const SHOTS: { scheme: string; mode: string; width?: number; languages: string[] }[] = [
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
];

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
      await tab.waitForTimeout(800);
      const name = `reader-${shot.scheme}-${shot.mode}-${language}${shot.width ? `-${shot.width}` : ''}.png`;
      await tab.screenshot({ path: path.join(OUT, name) });
      console.log(name);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
