import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { readTranslatedPage, registerUser, seedPagedBook, startTestApp, type TestApp } from '../../../test/helpers.ts';

const balance = async (t: TestApp, token: string) =>
  (await t.call('GET', '/api/user/getUserinfo', { token })).data.points;

describe('offline reading: marks made once however often they are sent, and pages to keep', () => {
  let t: TestApp;
  let translator: FakeMicrosoft;
  let reader: string;
  let code: string;
  beforeAll(async () => {
    translator = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: translator.url,
    });
    reader = await registerUser(t, 'reader');
    code = await seedPagedBook(t, 'reader', {
      pages: 4,
      paragraphsPerPage: 2,
      text: (i, page) => `Paragraph ${i} on page ${page}.`,
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await translator?.close();
  });

  const anchor = { blockId: 'c1-b2', start: 0, end: 9, quote: 'Paragraph' };

  it('makes a highlight, a note, a bookmark and a word once when each is sent 20 times at once', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['/api/reader/highlight', { bookCode: code, ...anchor, color: 'green' }],
      ['/api/reader/annotation', { bookCode: code, ...anchor, content: 'made offline' }],
      ['/api/reader/bookmark', { bookCode: code, page: 2, note: 'offline bookmark' }],
      [
        '/api/vocabulary',
        { bookCode: code, language: 'zh', text: 'Paragraph', sentence: 'Paragraph 2 on page 1.', blockId: 'c1-b2' },
      ],
    ];
    for (const [url, body] of cases) {
      const clientId = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => t.call('POST', url, { token: reader, body: { ...body, clientId } })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(new Set(answers.map((a) => a.data.id)).size).toBe(1);
    }
    const marks = (await t.call('GET', `/api/reader/marks?bookCode=${code}`, { token: reader })).data;
    expect(marks.map((m: { kind: string }) => m.kind).sort()).toEqual(['annotation', 'bookmark', 'highlight']);
    expect((await t.call('GET', '/api/vocabulary', { token: reader })).data.total).toBe(1);
  });

  it('keeps a mark or word deleted on another device deleted when its create is sent again', async () => {
    const clientId = randomUUID();
    const body = { bookCode: code, ...anchor, start: 10, end: 11, quote: '2', clientId };
    const first = await t.call('POST', '/api/reader/highlight', { token: reader, body });
    expect((await t.call('DELETE', `/api/reader/highlight/${first.data.id}`, { token: reader })).status).toBe(200);
    const again = await t.call('POST', '/api/reader/highlight', { token: reader, body });
    expect(again.status).toBe(410);
    expect(again.data.key).toBe('alreadyDeleted');
    const marks = (await t.call('GET', `/api/reader/marks?bookCode=${code}`, { token: reader })).data;
    expect(marks.find((m: { id: number }) => m.id === first.data.id)).toBeUndefined();

    const wordId = randomUUID();
    const word = { bookCode: code, language: 'zh', text: 'page', blockId: 'c1-b2', clientId: wordId };
    const saved = await t.call('POST', '/api/vocabulary', { token: reader, body: word });
    await t.call('DELETE', `/api/vocabulary/${saved.data.id}`, { token: reader });
    expect((await t.call('POST', '/api/vocabulary', { token: reader, body: word })).data.key).toBe('alreadyDeleted');
  });

  it("keeps one reader's client ids apart from another's, and one id to one kind of thing", async () => {
    const other = await registerUser(t, 'other');
    const otherCode = await seedPagedBook(t, 'other', { pages: 1, paragraphsPerPage: 2, text: (i) => `Text ${i}.` });
    const clientId = randomUUID();
    const mine = await t.call('POST', '/api/reader/highlight', {
      token: reader,
      body: { bookCode: code, ...anchor, clientId },
    });
    const theirs = await t.call('POST', '/api/reader/highlight', {
      token: other,
      body: { bookCode: otherCode, blockId: 'c1-b2', start: 0, end: 4, quote: 'Text', clientId },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.data.id).not.toBe(mine.data.id);
    const asWord = await t.call('POST', '/api/vocabulary', {
      token: reader,
      body: { bookCode: code, language: 'zh', text: 'on', blockId: 'c1-b2', clientId },
    });
    expect(asWord.status).toBe(400);
  });

  it('gives for offline only the pages the reader has paid for, charging and translating nothing', async () => {
    await readTranslatedPage(t, reader, code, 1);
    const before = await balance(t, reader);
    const translations = async () =>
      Number(
        (
          await t.running.infra.db
            .selectFrom('book_translations')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const rowsBefore = await translations();
    const res = await t.call('GET', `/api/offline/pages?bookCode=${code}&language=zh&from=1&to=4`, { token: reader });
    expect(res.status).toBe(200);
    expect(res.data.pageCount).toBe(4);
    // Page 2 was prepared ahead by the server when page 1 was read, but the reader has not paid for it.
    expect(res.data.pages.map((p: { page: number }) => p.page)).toEqual([1]);
    expect(res.data.missing).toEqual([2, 3, 4]);
    const [page] = res.data.pages;
    expect(
      page.blocks.every((b: { status: string; translation: string }) => b.status === 'done' && b.translation),
    ).toBe(true);
    expect(page.blocks[1].translation).toContain('Paragraph 2 on page 1.');
    expect(await balance(t, reader)).toBe(before);
    expect(await translations()).toBe(rowsBefore);

    // In the book's own language every page is free.
    const original = await t.call('GET', `/api/offline/pages?bookCode=${code}&language=en&from=1&to=30`, {
      token: reader,
    });
    expect(original.data.pages.map((p: { page: number }) => p.page)).toEqual([1, 2, 3, 4]);
    expect(original.data.pages[0].blocks[0].translation).toBeNull();

    // Another reader of the book has paid for nothing (and a private book is not theirs to take).
    const stranger = await registerUser(t, 'stranger');
    const theirs = await t.call('GET', `/api/offline/pages?bookCode=${code}&language=zh&from=1&to=4`, {
      token: stranger,
    });
    expect(theirs.status === 404 || theirs.data.pages?.length === 0).toBe(true);
  });

  it('gives a kept page the chapter the reader gives, a title Yidu made included', async () => {
    const book = await t.running.infra.db
      .selectFrom('books')
      .select('id')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    // A part of a text without headings: stored as a marker, said in the interface's language.
    await t.running.infra.db
      .updateTable('book_chapters')
      .set({ title: '', generated: JSON.stringify({ kind: 'part', n: 1 }) })
      .where('book_id', '=', book.id)
      .execute();
    const kept = await t.call('GET', `/api/offline/pages?bookCode=${code}&language=en&from=1&to=1`, { token: reader });
    const online = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=en&page=1`, {
      token: reader,
    });
    expect(online.data.chapter).toEqual({ index: 1, title: '', generated: { kind: 'part', n: 1 } });
    expect(kept.data.pages[0].chapter).toEqual(online.data.chapter);
  });
});
