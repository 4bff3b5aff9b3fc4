/**
 * The exported EPUB keeps what the book's makers made: verse lines as lines (`<br/>`, in the original
 * and in the translation), SVG illustrations as pictures with their words, notes in another file linked
 * both ways. Checked with epubcheck on Standard Ebooks' Ulysses and Pepys (fixtures/standard-ebooks.ts).
 */
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { PLAINCHANT_TITLE, pepysSample, ulyssesSample } from '../../engines/parsers/epub/fixtures/standard-ebooks.ts';
import { registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { epubcheck, problems } from '../../../test/epubcheck.ts';
import { exportBook, readEveryPage, uploadBytes } from '../../../test/export-helpers.ts';

async function documents(epub: Buffer): Promise<string> {
  const zip = await JSZip.loadAsync(epub);
  const names = Object.keys(zip.files).filter((name) => name.startsWith('OEBPS/text/'));
  return (await Promise.all(names.map((name) => zip.file(name)!.async('string')))).join('\n');
}

describe('exporting verse, pictures and notes as the book has them', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let reader: string;
  let ulysses: string;
  let pepys: string;
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
      STARTING_POINTS: '100000',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    reader = await registerUser(t, 'joyce');
    ulysses = await uploadBytes(t, reader, 'ulysses.epub', await ulyssesSample(), 0);
    pepys = await uploadBytes(t, reader, 'pepys.epub', await pepysSample(), 0);
    await readEveryPage(t, reader, ulysses, 'zh');
    await readEveryPage(t, reader, pepys, 'zh');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('writes the ballad’s lines as lines in both languages, and the score as a PNG with its words', async () => {
    for (const mode of ['bilingual', 'translated'] as const) {
      const res = await exportBook(t, reader, `bookCode=${ulysses}&language=zh&mode=${mode}`);
      expect(res.status).toBe(200);
      expect(problems(await epubcheck(res.body))).toEqual([]);
      const all = await documents(res.body);
      if (mode === 'bilingual') {
        expect(all).toContain(
          'Little Harry Hughes and his schoolfellows all<br/>Went out for to play ball.<br/>And the very first ball',
        );
      }
      expect(all).toMatch(/\[zh-Hans\] [^<]*schoolfellows all<br\/>\[zh-Hans\] Went out for to play ball\.<br\/>/);
      expect(all).toMatch(
        new RegExp(`<img src="\\.\\./images/img\\d+\\.png" alt="${PLAINCHANT_TITLE.replace('.', '\\.')}"/>`),
      );
      const zip = await JSZip.loadAsync(res.body);
      const pictures = Object.keys(zip.files).filter((name) => name.startsWith('OEBPS/images/'));
      expect(pictures.some((name) => name.endsWith('.svg'))).toBe(false);
      expect(pictures.filter((name) => name.endsWith('.png'))).toHaveLength(1);
    }
  }, 120_000);

  it('links Pepys’s markers to their notes in the endnotes and back, epubcheck-clean', async () => {
    const res = await exportBook(t, reader, `bookCode=${pepys}&language=zh&mode=bilingual`);
    expect(res.status).toBe(200);
    expect(problems(await epubcheck(res.body))).toEqual([]);
    const all = await documents(res.body);
    const marker = /Sheply<a href="([^"#]+)#(c\d+-b\d+)" epub:type="noteref" class="noteref">60<\/a>/.exec(all);
    expect(marker).not.toBeNull();
    // The note, in the notes' document, leads back to the marker's document.
    const note = new RegExp(`<div epub:type="footnote" class="note orig" id="${marker![2]}"><p>(.*?)</p></div>`).exec(
      all,
    );
    expect(note![1]).toMatch(/^<span class="note-label">60<\/span> W\. Shepley was a servant/);
    expect(note![1]).toMatch(/<a class="backlink" href="ch\d+-\d+\.xhtml#c\d+-b\d+">↩<\/a>$/);
  }, 120_000);
});
