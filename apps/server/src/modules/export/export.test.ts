import { writeFile } from 'node:fs/promises';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { normalise } from '../translation/translation.service.ts';
import { registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { epubcheck, problems } from '../../../test/epubcheck.ts';
import {
  exportBook,
  readEveryPage,
  storedTexts,
  textOfEpub,
  uploadBook,
  visible,
} from '../../../test/export-helpers.ts';

describe('exporting a book as EPUB', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let alice: string;
  let bob: string;
  let wasteland: string;
  let arabic: string;
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
      STARTING_POINTS: '100000',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    alice = await registerUser(t, 'alice');
    bob = await registerUser(t, 'bob');
    wasteland = await uploadBook(t, alice, 'epub/en-wasteland-epub3-endnotes-obfuscated-fonts.epub', 1);
    arabic = await uploadBook(t, alice, 'epub/ar-regime-anticancer-epub3-rtl.epub', 0);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('refuses a book that is not translated yet, saying how much is missing', async () => {
    const res = await exportBook(t, alice, `bookCode=${wasteland}&language=zh&mode=bilingual`);
    expect(res.status).toBe(409);
    expect(res.error.key).toBe('bookNotTranslated');
    expect(res.error.missingPages).toBeGreaterThan(0);
    expect(res.error.missingParagraphs).toBeGreaterThan(10);
    const same = await exportBook(t, alice, `bookCode=${wasteland}&language=en`);
    expect(same.status).toBe(400);
    expect(same.error.key).toBe('translationNotNeeded');
  });

  it('exports a bilingual EPUB that epubcheck accepts, with every paragraph in both languages and notes linked both ways', async () => {
    await readEveryPage(t, alice, wasteland, 'zh');
    const res = await exportBook(t, alice, `bookCode=${wasteland}&language=zh&mode=bilingual`);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/epub+zip');
    expect(decodeURIComponent(res.disposition)).toContain('(English-简体中文).epub');
    expect(problems(await epubcheck(res.body))).toEqual([]);
    if (process.env.YIDU_EXPORT_DUMP) await writeFile(process.env.YIDU_EXPORT_DUMP, res.body);

    const text = await textOfEpub(res.body);
    const stored = await storedTexts(t, wasteland, 'zh');
    const paragraphs = stored.filter((b) => b.type !== 'image' && b.text.trim() !== '');
    expect(paragraphs.length).toBeGreaterThan(50);
    for (const block of paragraphs) {
      expect(text).toContain(normalise(block.text));
      expect(block.translation).toMatch(/^\[zh-Hans\]/);
      expect(text).toContain(visible(block.translation!));
    }

    const zip = await JSZip.loadAsync(res.body);
    const documents = await Promise.all(
      Object.keys(zip.files)
        .filter((name) => name.startsWith('OEBPS/text/'))
        .map(async (name) => zip.file(name)!.async('string')),
    );
    const all = documents.join('\n');
    // Notes: references in both languages lead to the note, and each note leads back.
    expect(all.match(/<a href="[^"]*#c\d+-b\d+" epub:type="noteref"/g)?.length ?? 0).toBeGreaterThan(10);
    expect(all.match(/<a href="[^"]*#c\d+-b\d+-t" epub:type="noteref"/g)?.length ?? 0).toBeGreaterThan(10);
    expect(all.match(/class="backlink" href="[^"]*#c\d+-b\d+"/g)?.length ?? 0).toBeGreaterThan(10);
    expect(all.match(/class="backlink" href="[^"]*#c\d+-b\d+-t"/g)?.length ?? 0).toBeGreaterThan(10);
    // The translation says what language it is in; the document is in the book's.
    expect(all).toContain(
      '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en"',
    );
    expect(all).toMatch(/class="tr" id="c\d+-b\d+-t" xml:lang="zh-CN" lang="zh-CN"/);
    const opf = await zip.file('OEBPS/content.opf')!.async('string');
    expect(opf).toContain('<dc:language>en</dc:language>');
    expect(opf).toContain('<dc:language>zh-CN</dc:language>');
    expect(Object.keys(zip.files)[0]).toBe('mimetype');
    expect(zip.file('OEBPS/toc.ncx')).not.toBeNull();
  }, 180_000);

  it('exports the translation alone in translated mode', async () => {
    const res = await exportBook(t, alice, `bookCode=${wasteland}&language=zh&mode=translated`);
    expect(res.status).toBe(200);
    expect(problems(await epubcheck(res.body))).toEqual([]);
    const text = await textOfEpub(res.body);
    const stored = await storedTexts(t, wasteland, 'zh');
    const paragraphs = stored.filter((b) => b.translation !== null);
    for (const block of paragraphs) expect(text).toContain(visible(block.translation!));
    const zip = await JSZip.loadAsync(res.body);
    const documents = await Promise.all(
      Object.keys(zip.files)
        .filter((name) => name.startsWith('OEBPS/text/'))
        .map(async (name) => zip.file(name)!.async('string')),
    );
    // No original paragraph is left (the fake engine keeps the original text inside its translation).
    expect(documents.join('\n')).not.toContain('class="orig');
    expect(documents.join('\n')).toMatch(/<p class="tr" id="c\d+-b\d+">/);
    expect(await zip.file('OEBPS/content.opf')!.async('string')).toContain('<dc:language>zh-CN</dc:language>');
  }, 120_000);

  it('gives nothing to a reader who has not paid for the translations, though they exist', async () => {
    const res = await exportBook(t, bob, `bookCode=${wasteland}&language=zh&mode=bilingual`);
    expect(res.status).toBe(409);
    expect(res.error).toMatchObject({ key: 'bookNotTranslated', missingParagraphs: 0 });
    expect(res.error.missingPages).toBeGreaterThan(0);
    // A private book of someone else is not found at all.
    expect((await exportBook(t, bob, `bookCode=${arabic}&language=zh`)).status).toBe(404);
  });

  it('writes a right-to-left book with its direction and language', async () => {
    await readEveryPage(t, alice, arabic, 'en');
    const res = await exportBook(t, alice, `bookCode=${arabic}&language=en&mode=bilingual`);
    expect(res.status).toBe(200);
    expect(problems(await epubcheck(res.body))).toEqual([]);
    const zip = await JSZip.loadAsync(res.body);
    const opf = await zip.file('OEBPS/content.opf')!.async('string');
    expect(opf).toContain('page-progression-direction="rtl"');
    const names = Object.keys(zip.files).filter((n) => n.startsWith('OEBPS/text/'));
    const page = (await Promise.all(names.map((n) => zip.file(n)!.async('string')))).join('\n');
    expect(page).toContain('xml:lang="ar" lang="ar" dir="rtl"');
    expect(page).toMatch(/class="tr" id="c\d+-b\d+-t" xml:lang="en" lang="en" dir="ltr"/);
  }, 120_000);
});
