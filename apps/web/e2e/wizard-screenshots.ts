/**
 * Regenerates docs/screenshots/upload-*.png: the upload wizard's info step pre-filled from the file
 * (Moby-Dick's title, author and cover) and its progress step after a failed parse (Retry and
 * "Choose another file"), in the zh and en interface. Against a server started like the browser
 * journeys.
 *
 *   npm run build && node apps/web/e2e/wizard-screenshots.ts
 */
import path from 'node:path';
import { launchBrowser, newPage } from './browser.ts';
import { activatedReader, corpus, startServer } from './fixtures.ts';
import { buttonName, wording } from './i18n.ts';

const OUT = path.resolve(import.meta.dirname, '../../../docs/screenshots');

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const language of ['zh', 'en']) {
    const t = wording(language);
    const { token } = await activatedReader(server.baseUrl, server.dataDir, server.admin, language);
    const { context, page } = await newPage(browser, language, server.baseUrl);
    await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
    const next = page.getByRole('button', { name: buttonName(t('books.wizard.next')) });
    const choose = async (file: string) => {
      await page.locator('.yd-dropzone input[type=file]').setInputFiles(path.join(corpus, file));
      await page.getByText(t('books.upload.uploaded'), { exact: true }).waitFor({ timeout: 60_000 });
      await next.click();
      await page.locator('#book-upload-info_bookName').waitFor();
    };
    await page.goto('/book/upload');

    await choose('bad/truncated-moby-dick.epub');
    await next.click();
    await page.locator('.yd-stage-alert').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(OUT, `upload-failed-${language}.png`) });
    await page.getByRole('button', { name: buttonName(t('books.wizard.chooseAnother')) }).click();

    await page.getByText(t('books.upload.drop')).waitFor();
    await choose('epub/en-moby-dick-epub3.epub');
    await page
      .locator('.yd-info-cover')
      .evaluate((img: HTMLImageElement) =>
        img.complete ? undefined : new Promise((resolve) => img.addEventListener('load', resolve)),
      );
    // The pointer stays where Next was, now over the description: move it off the form.
    await page.mouse.move(0, 0);
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(OUT, `upload-info-${language}.png`), fullPage: true });
    console.log(`upload-failed-${language}.png upload-info-${language}.png`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
