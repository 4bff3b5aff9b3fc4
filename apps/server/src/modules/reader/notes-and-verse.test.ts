/**
 * Standard Ebooks' structures through HTTP: a note marker whose note lives in another file (and so on
 * another page) is opened with GET /api/reader/block, with its way back; verse comes with its lines,
 * in the original and in the translation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { pepysSample, ulyssesSample } from '../../engines/parsers/epub/fixtures/standard-ebooks.ts';
import { registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { uploadBook, uploadBytes } from '../../../test/export-helpers.ts';

interface Block {
  id: string;
  type: string;
  text: string;
  html: string | null;
  translation: string | null;
  status: string;
  noteRefs: string[] | null;
  referencedBy?: string[] | null;
  noteLabel: string | null;
}

describe('notes in another file, and verse, through the reader', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let reader: string;
  let stranger: string;
  let pepys: string;
  let ulysses: string;

  const page = async (code: string, n: number, token = reader): Promise<{ blocks: Block[]; pageCount: number }> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=zh&page=${n}`, { token });
      if (res.code !== 0) throw new Error(JSON.stringify(res.data));
      if (res.data.blocks.every((b: Block) => b.status !== 'pending')) return res.data;
      if (Date.now() > deadline) throw new Error('page still pending');
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
    });
    reader = await registerUser(t, 'pepys');
    stranger = await registerUser(t, 'stranger');
    pepys = await uploadBytes(t, reader, 'the-diary-of-samuel-pepys.epub', await pepysSample(), 0);
    ulysses = await uploadBytes(t, reader, 'ulysses.epub', await ulyssesSample(), 0);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('opens note 60 from its marker on another page, with the way back to the marker', async () => {
    const first = await page(pepys, 1);
    // Find the entry of 2 January 1660 ("Mr. Sheply60 …") on its page.
    let markerPage = 1;
    let entry: Block | undefined;
    for (let n = 1; n <= first.pageCount && !entry; n++) {
      entry = (await page(pepys, n)).blocks.find((b) => b.text.startsWith('2nd. In the morning'));
      markerPage = n;
    }
    expect(entry!.html).toMatch(/Sheply<a href="#(c\d+-b\d+)">60<\/a> who/);
    const noteId = /Sheply<a href="#(c\d+-b\d+)">60<\/a>/.exec(entry!.html!)![1]!;
    expect(entry!.noteRefs).toContain(noteId);

    const res = await t.call('GET', `/api/reader/block?bookCode=${pepys}&language=zh&blockId=${noteId}`, {
      token: reader,
    });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({
      id: noteId,
      type: 'footnote',
      noteLabel: '60',
      text: expect.stringMatching(/^W\. Shepley was a servant of Admiral Sir Edward Montagu/),
      chapter: { title: 'Endnotes' },
      referencedBy: [{ id: entry!.id, page: markerPage }],
      translated: true,
    });
    expect(res.data.page).toBeGreaterThan(markerPage);

    // Its translation comes with its page, paid for as any page; the note knows its markers.
    const notes = await page(pepys, res.data.page);
    const note = notes.blocks.find((b) => b.id === noteId)!;
    expect(note.translation).toBe(`[zh-Hans] ${note.text}`);
    expect(note.referencedBy).toEqual([entry!.id]);

    // Not for a reader without the book, nor for a block that does not exist.
    const other = await t.call('GET', `/api/reader/block?bookCode=${pepys}&language=zh&blockId=${noteId}`, {
      token: stranger,
    });
    expect(other.status).toBe(404);
    const missing = await t.call('GET', `/api/reader/block?bookCode=${pepys}&language=zh&blockId=c9-b999`, {
      token: reader,
    });
    expect(missing.data.key).toBe('notFound');
  });

  it('opens Word and Rich Text footnotes from their markers the same way', async () => {
    const rtf = Buffer.from(
      [
        '{\\rtf1\\ansi\\deff0',
        '\\pard Call me Ishmael{\\super\\chftn}{\\footnote\\pard{\\super\\chftn} Not his real name.}. Some years ago, never mind how long precisely.\\par',
        '\\pard Having little or no money in my purse, I thought I would sail about a little.\\par}',
      ].join('\n'),
      'latin1',
    );
    const books = [
      await uploadBook(t, reader, 'docx/ru-contract-footnotes.docx', 0),
      await uploadBytes(t, reader, 'ishmael.doc', rtf, 0),
    ];
    for (const code of books) {
      const { pageCount } = await page(code, 1);
      let marker: Block | undefined;
      let markerPage = 0;
      for (let n = 1; n <= pageCount && !marker; n++) {
        marker = (await page(code, n)).blocks.find((b) => b.noteRefs?.length && b.html?.includes('<a href="#'));
        markerPage = n;
      }
      const noteId = marker!.noteRefs![0]!;
      expect(marker!.html).toContain(`<a href="#${noteId}">`);
      const res = await t.call('GET', `/api/reader/block?bookCode=${code}&language=zh&blockId=${noteId}`, {
        token: reader,
      });
      expect(res.data).toMatchObject({ id: noteId, type: 'footnote', translated: true });
      expect(res.data.referencedBy).toContainEqual({ id: marker!.id, page: markerPage });
    }
  });

  it('gives the Harry Hughes ballad with its six lines, in the original and in the translation', async () => {
    const { pageCount } = await page(ulysses, 1);
    let ballad: Block | undefined;
    for (let n = 1; n <= pageCount && !ballad; n++)
      ballad = (await page(ulysses, n)).blocks.find((b) => b.text.startsWith('Little Harry Hughes'));
    expect(ballad!.type).toBe('quote');
    const lines = ballad!.text.split('\n');
    expect(lines).toHaveLength(6);
    // Each line translated on its own (the book's glossary marks its names: "[zh-Hans] Harry Hughes").
    const translated = ballad!.translation!.split('\n');
    expect(translated.every((line) => line.startsWith('[zh-Hans] '))).toBe(true);
    expect(translated.map((line) => line.replaceAll('[zh-Hans] ', ''))).toEqual(lines);
  });
});
