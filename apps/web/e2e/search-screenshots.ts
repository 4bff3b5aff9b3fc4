/**
 * Screenshots of the reader's search panel (issue 19): "Who is Queequeg?" in Moby-Dick, with the
 * counts and the matched words marked, in the zh and en interface (advanced mode, the panel beside
 * the text). It also clicks the best hit and checks that the reader lands on that hit's page with
 * the paragraph flashing. Against a server started like the browser journeys.
 *
 *   npm run build && node apps/web/e2e/search-screenshots.ts
 */
import path from 'node:path';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, api, startServer, uploadBook } from './fixtures.ts';

const OUT = path.resolve(import.meta.dirname, '../../../docs/screenshots');
const PANEL_TAB: Record<string, string> = { zh: '搜索', en: 'Search' };
const PLACEHOLDER: Record<string, string> = { zh: '在本书中搜索', en: 'Search this book' };

const server = await startServer();
const browser = await launchBrowser();
try {
  const { token } = await activatedReader(server.baseUrl, server.dataDir, server.admin, 'zh', 'Reader');
  const bookCode = await uploadBook(server.baseUrl, token, 'epub/en-moby-dick-epub3.epub', 'Moby-Dick');
  await api(server.baseUrl, 'PUT', '/reader/position', { bookCode, page: 14, language: 'zh' }, token);
  await api(server.baseUrl, 'PUT', '/user/reader-settings', { scheme: 'paper', mode: 'advanced' }, token);

  for (const language of ['zh', 'en']) {
    const { context, page: tab } = await newPage(browser, language, server.baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    await tab.setViewportSize({ width: 1280, height: 900 });
    await tab.goto(`/tabs/read/${bookCode}/zh`);
    await tab.locator('.yd-block').first().waitFor({ timeout: 30_000 });
    await tab.locator('.yd-side').getByText(PANEL_TAB[language]!, { exact: true }).click();
    const box = tab.getByRole('searchbox', { name: PLACEHOLDER[language] });
    await box.fill('Who is Queequeg?');
    await box.press('Enter');
    await tab.locator('.yd-search-hits mark').first().waitFor({ timeout: 30_000 });
    await tab.waitForTimeout(500);
    const name = `reader-search-${language}.png`;
    await tab.screenshot({ path: path.join(OUT, name) });
    console.log(name);

    // The best hit: its page is shown and its paragraph flashes.
    const first = tab.locator('.yd-search-hits .yd-hit').first();
    const label = (await first.locator('.yd-mark-kind').textContent()) ?? '';
    await first.click();
    const flashing = tab.locator('.yd-block.is-flash');
    await flashing.waitFor({ timeout: 30_000 });
    const flashed = (await flashing.textContent()) ?? '';
    if (!/queequeg/i.test(flashed)) throw new Error(`the flashing paragraph does not name Queequeg: ${flashed}`);
    console.log(`jumped to "${label}": the paragraph flashing names Queequeg`);
    await tab.screenshot({ path: path.join(OUT, `reader-search-jump-${language}.png`) });
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
