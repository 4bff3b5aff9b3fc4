import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from './browser.ts';
import { buttonName, wording } from './i18n.ts';
import { activatedReader, api, selectText, uploadBook } from './fixtures.ts';

/** Where the lookup card, the vocabulary page and the statistics are photographed (E2E_SCREENSHOTS to keep them elsewhere). */
const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'yidu-e2e-screenshots');

/**
 * A stand-in for the browser's speech synthesis (headless chromium may have no voices): it says
 * nothing, fires `onstart` and `onboundary` for the utterance it begins, and `onend` when the test
 * calls `__speech.finish()` — only the browser's outside world is faked.
 */
function fakeSpeechSynthesis() {
  const queue: SpeechSynthesisUtterance[] = [];
  let current: SpeechSynthesisUtterance | null = null;
  /** How many utterances have started (their onstart fired): the number of the one being said. */
  let started = 0;
  let startedOne: SpeechSynthesisUtterance | null = null;
  const spoken: { text: string; lang: string }[] = [];
  const begin = () => {
    current = queue.shift() ?? null;
    const now = current;
    if (now)
      setTimeout(() => {
        now.onstart?.(new Event('start') as SpeechSynthesisEvent);
        now.onboundary?.(Object.assign(new Event('boundary'), { charIndex: 0, name: 'word' }) as SpeechSynthesisEvent);
        started += 1;
        startedOne = now;
      }, 0);
  };
  const fake = {
    speaking: false,
    pending: false,
    paused: false,
    onvoiceschanged: null,
    getVoices: () => [],
    speak(utterance: SpeechSynthesisUtterance) {
      spoken.push({ text: utterance.text, lang: utterance.lang });
      queue.push(utterance);
      if (!current) begin();
    },
    cancel() {
      queue.length = 0;
      const was = current;
      current = null;
      was?.onerror?.(Object.assign(new Event('error'), { error: 'interrupted' }) as SpeechSynthesisErrorEvent);
    },
    pause() {
      fake.paused = true;
    },
    resume() {
      fake.paused = false;
    },
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => true,
  };
  Object.defineProperty(window, 'speechSynthesis', { value: fake, configurable: true });
  Object.assign(window, {
    __speech: {
      spoken,
      /** The number of the utterance being said once it has started (1 for the first), else 0. */
      saying: () => (current && current === startedOne ? started : 0),
      /** Ends the utterance being said; the next one in the queue begins. */
      finish() {
        const was = current;
        current = null;
        was?.onend?.(new Event('end') as SpeechSynthesisEvent);
        if (!current) begin();
      },
    },
  });
}

/** Selects a long word in the original of a paragraph. */
async function selectAWord(page: Page): Promise<{ word: string; blockId: string }> {
  // The page may still be arriving: look again for a few seconds.
  let found: { blockId: string; start: number; end: number } | null = null;
  for (let i = 0; i < 50 && !found; i++) {
    if (i > 0) await page.waitForTimeout(200);
    found = await findAWord(page);
  }
  if (!found) throw new Error('no paragraph with a long word on this page');
  const word = await selectText(page, `[data-block-text="${found.blockId}"][data-side=text]`, found.start, found.end);
  return { word, blockId: found.blockId };
}

function findAWord(page: Page): Promise<{ blockId: string; start: number; end: number } | null> {
  return page.evaluate(() => {
    for (const element of Array.from(document.querySelectorAll('[data-block-text][data-side=text]'))) {
      // A word of seven letters or more, past the paragraph's opening, in a paragraph of real sentences.
      const text = element.textContent ?? '';
      const match = /[a-z]{7,}/.exec(text.slice(40));
      if (match && text.length > 120 && element.closest('.yd-block-paragraph')) {
        const start = 40 + match.index;
        return { blockId: element.getAttribute('data-block-text')!, start, end: start + match[0].length };
      }
    }
    return null;
  });
}

describe('words to learn: look up, vocabulary, Anki export, read aloud, reading statistics', () => {
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
      `looks a word up, saves it, exports it, reads aloud and counts the reading (${ui})`,
      { timeout: 300_000 },
      async () => {
        const t = wording(ui);
        // The zh reader reads the English book in Chinese; the en reader reads it as it is.
        const language = ui === 'zh' ? 'zh' : 'en';
        const { token } = await activatedReader(baseUrl, dataDir, inject('admin'), ui);
        const bookName = 'The Adventures of Sherlock Holmes';
        const bookCode = await uploadBook(
          baseUrl,
          token,
          'txt/en-sherlock-holmes-utf8-bom-crlf.txt',
          bookName,
          language,
        );
        // Originals and translations side by side, so that a word of the original can be selected.
        await api(baseUrl, 'PUT', '/user/reader-settings', { mode: 'advanced' }, token);
        const { context, page } = await newPage(browser, ui, baseUrl);
        /** The pager once it shows page n ("第 2 / 211 页", "Page 2 of 211"). */
        const pager = (n: number) =>
          page.locator('.yd-pager-where', {
            hasText: t('reader.pageOf', { page: String(n), count: '\u0000' }).split('\u0000')[0]!,
          });
        await context.addInitScript((value) => window.localStorage.setItem('authToken', value), token);
        await context.addInitScript(fakeSpeechSynthesis);
        try {
          await page.goto(`/tabs/read/${bookCode}/${language}`);
          await page.locator('.yd-mode-advanced').waitFor();
          // Page 2 begins the first story: paragraphs of real sentences.
          await pager(1).waitFor();
          await page.keyboard.press('ArrowRight');
          await pager(2).waitFor();
          if (language === 'zh') {
            await page.locator('.yd-translation', { hasText: '[zh-Hans]' }).first().waitFor({ timeout: 30_000 });
            await expect.poll(() => page.locator('[data-status=pending]').count(), { timeout: 30_000 }).toBe(0);
          }

          // Look a word up from the selection menu: the card shows its meaning here, pronunciation and usage.
          const { word, blockId } = await selectAWord(page);
          const toolbar = page.getByRole('toolbar', { name: t('reader.selection.toolbar') });
          await toolbar.getByRole('button', { name: t('reader.lookup.action') }).click();
          const card = page.getByRole('dialog', { name: t('reader.lookup.title') });
          await card.locator('.yd-lookup-meaning', { hasText: word }).waitFor({ timeout: 30_000 });
          await expect.poll(() => card.locator('.yd-lookup-say').innerText()).toBe(`/${word.toLowerCase()}/`);
          await card.getByText(`I could ${word.toLowerCase()} nothing from his face.`).waitFor();
          await card.getByText(t('reader.ai.charged', { points: '2' })).waitFor();
          await page.waitForTimeout(300);
          await page.screenshot({ path: path.join(SHOTS, `words-lookup-${ui}.png`) });

          // Save it to the vocabulary book.
          await card.getByRole('button', { name: buttonName(t('reader.lookup.save')) }).click();
          await card.getByText(t('reader.lookup.saved')).waitFor();

          // Read aloud (zh: original and translation): the paragraph being read is marked, and the mark
          // moves on as the (fake) voice finishes; at the end of the page the next page is read.
          if (language === 'zh') {
            await card.getByRole('button', { name: t('reader.close') }).click();
            await page
              .getByRole('button', { name: t('reader.readAloud.title') })
              .first()
              .click();
            await page.getByRole('button', { name: buttonName(t('reader.readAloud.start')) }).click();
            const reading = () => page.evaluate(() => document.querySelector('[data-reading]')?.id ?? null);
            await expect.poll(reading).not.toBeNull();
            const first = (await reading())!;
            const order = await page.evaluate(() =>
              Array.from(document.querySelectorAll('.yd-block')).map((b) => b.id),
            );
            expect(order.indexOf(first)).toBe(0);
            const speech = () =>
              page.evaluate(() => {
                const fake = (window as unknown as { __speech: { spoken: { text: string; lang: string }[] } }).__speech;
                return fake.spoken.slice();
              });
            /** The number of the utterance the fake voice is saying (0: none). */
            const saying = () =>
              page.evaluate(() => (window as unknown as { __speech: { saying(): number } }).__speech.saying());
            const finish = () =>
              page.evaluate(() => (window as unknown as { __speech: { finish(): void } }).__speech.finish());
            /** The last utterance waited for; the next one is awaited before anything is ended. */
            let heard = 0;
            const nextUtterance = async () => {
              await expect.poll(saying, { timeout: 15_000 }).toBeGreaterThan(heard);
              heard = await saying();
            };
            // The first paragraph is read in the original, then in the translation, before the mark moves on:
            // each utterance is ended only once the app has begun it (never one it has not reached).
            await nextUtterance();
            await finish();
            await nextUtterance();
            await finish();
            await expect.poll(reading, { timeout: 15_000 }).not.toBe(first);
            const second = (await reading())!;
            expect(order.indexOf(second)).toBe(1);
            const said = await speech();
            expect(said[0]!.lang).toBe('en');
            expect(said.some((s) => s.lang === 'zh-CN' && s.text.startsWith('[zh-Hans]'))).toBe(true);
            await page
              .locator('.yd-readaloud-bar', { hasText: t('reader.readAloud.reading', { page: '2', n: '2' }) })
              .waitFor();
            // The fake voice finishes everything on the page, one utterance at a time as the app begins
            // each: reading goes on at the top of page 3.
            const pageOneBlocks = new Set(order);
            for (let n = 0; n < 400; n++) {
              await nextUtterance();
              const now = await reading();
              if (now && !pageOneBlocks.has(now)) break;
              await finish();
            }
            await pager(3).waitFor();
            await expect.poll(reading).not.toBeNull();
            expect(pageOneBlocks.has((await reading())!)).toBe(false);
            await page
              .locator('.yd-readaloud-bar')
              .getByRole('button', { name: buttonName(t('reader.readAloud.stop')) })
              .click();
            await expect.poll(reading).toBeNull();
            await page.keyboard.press('ArrowLeft');
          }

          // The vocabulary page lists the word with its sentence and book.
          await page.goto('/vocabulary');
          const item = page.locator(`.yd-word[data-word="${word}"]`);
          await item.waitFor();
          await item.locator('mark', { hasText: word }).waitFor();
          await item.getByText(t('vocabulary.bookTitle', { title: bookName }), { exact: false }).waitFor();
          await page.waitForTimeout(400); // the buttons' colours fade in once the list is there
          await page.screenshot({ path: path.join(SHOTS, `words-vocabulary-${ui}.png`), fullPage: true });

          // Export for Anki: a CSV download with Anki's headers and the word.
          await page.getByRole('button', { name: buttonName(t('vocabulary.export')) }).click();
          const [download] = await Promise.all([
            page.waitForEvent('download'),
            page.getByRole('menuitem', { name: t('vocabulary.exportCsv') }).click(),
          ]);
          expect(download.suggestedFilename()).toBe(`${t('vocabulary.title')}.csv`);
          const csv = await readFile((await download.path())!, 'utf8');
          expect(csv.startsWith('#separator:Comma\r\n#html:false\r\n#columns:Front,Back,Sentence,Book,Tags\r\n')).toBe(
            true,
          );
          expect(csv).toContain(`\r\n${word},`);
          expect(csv).toContain(`${bookName}`);

          // Review: flip the card, mark it known; nothing is due afterwards.
          await page.getByRole('button', { name: new RegExp(t('vocabulary.review')) }).click();
          const review = page.locator('.ant-modal', { hasText: t('vocabulary.reviewTitle') });
          await review.getByRole('button', { name: buttonName(t('vocabulary.flip')) }).click();
          await review.getByRole('button', { name: buttonName(t('vocabulary.known')) }).click();
          await review.getByText(t('vocabulary.reviewDone')).waitFor();
          await review.getByRole('button', { name: buttonName(t('vocabulary.exitReview')) }).click();

          // Back to the book at the word's paragraph.
          await item.getByRole('button', { name: buttonName(t('vocabulary.jump')) }).click();
          await page.waitForURL(`**/tabs/read/${bookCode}/${language}`);
          await page.locator(`#yd-b-${blockId}.is-flash`).waitFor();

          // The reading statistics on the personal center: the page read and the lookup, on today's square.
          await page.waitForTimeout(2500); // the reader counts a page once it has stayed on it 2 s
          await page.goto('/user-settings');
          const stats = page.locator('#settings-reading');
          await stats.locator('[data-total=lookups] dd', { hasText: /^1$/ }).waitFor({ timeout: 20_000 });
          await stats.locator('.yd-stats-book', { hasText: bookName }).waitFor();
          expect(await stats.locator('.yd-calendar-day.yd-level-1').count()).toBeGreaterThanOrEqual(1);
          await stats.scrollIntoViewIfNeeded();
          await stats.screenshot({ path: path.join(SHOTS, `words-statistics-${ui}.png`) });
        } catch (error) {
          await page.screenshot({ path: path.join(SHOTS, `words-fail-${ui}.png`), fullPage: true });
          throw error;
        } finally {
          await context.close();
        }
      },
    );
  }
});
