import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  registerUser,
  seedChineseBook,
  seedPagedBook,
  startTestApp,
  STRONG_PASSWORD,
  type TestApp,
} from '../../../test/helpers.ts';

describe('annotations, highlights, bookmarks and positions', () => {
  let t: TestApp;
  let reader: string;
  let other: string;
  let code: string;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' });
    reader = await registerUser(t, 'reader');
    other = await registerUser(t, 'other');
    code = await seedChineseBook(t, 'reader');
  });
  afterAll(async () => t?.close());

  it('refuses an empty annotation with its own message and keeps a real one', async () => {
    const empty = await t.call('POST', '/api/reader/annotation', {
      token: reader,
      body: { bookCode: code, blockId: 'c1-b2', start: 0, end: 4, quote: '此开卷第', content: '   ' },
    });
    expect(empty.status).toBe(400);
    expect(empty.data.key).toBe('annotationEmpty');
    expect(empty.msg).toBe('Annotation content cannot be empty');

    const note = await t.call('POST', '/api/reader/annotation', {
      token: reader,
      body: { bookCode: code, blockId: 'c1-b2', start: 0, end: 4, quote: '此开卷第', content: '开篇' },
    });
    expect(note.data).toMatchObject({
      kind: 'annotation',
      bookCode: code,
      blockId: 'c1-b2',
      page: 1,
      start: 0,
      end: 4,
      quote: '此开卷第',
      content: '开篇',
    });
    const edited = await t.call('PUT', `/api/reader/annotation/${note.data.id}`, {
      token: reader,
      body: { content: '开篇第一回' },
    });
    expect(edited.data.content).toBe('开篇第一回');
    expect(
      (await t.call('PUT', `/api/reader/annotation/${note.data.id}`, { token: other, body: { content: 'hijack' } }))
        .data.key,
    ).toBe('notFound');
  });

  it('highlights in colours, underlines, bookmarks, and lists them in reading order', async () => {
    await t.call('POST', '/api/reader/highlight', {
      token: reader,
      body: { bookCode: code, blockId: 'c1-b4', start: 2, end: 9, quote: '女娲氏炼石补天', color: 'green' },
    });
    await t.call('POST', '/api/reader/highlight', {
      token: reader,
      body: {
        bookCode: code,
        blockId: 'c1-b3',
        start: 0,
        end: 4,
        quote: 'Dear readers',
        style: 'underline',
        inTranslation: true,
        language: 'English',
      },
    });
    const bookmark = await t.call('POST', '/api/reader/bookmark', {
      token: reader,
      body: { bookCode: code, page: 1, note: 'start here' },
    });
    expect(bookmark.data).toMatchObject({ kind: 'bookmark', blockId: 'c1-b1', content: 'start here' });
    expect(
      (
        await t.call('POST', '/api/reader/highlight', {
          token: reader,
          body: { bookCode: code, blockId: 'c1-b4', start: 2, end: 9, quote: 'x', color: 'orange' },
        })
      ).data.key,
    ).toBe('badRequest');
    expect(
      (
        await t.call('POST', '/api/reader/highlight', {
          token: reader,
          body: { bookCode: code, blockId: 'c9-b1', start: 0, end: 1, quote: 'x' },
        })
      ).data.key,
    ).toBe('notFound');

    const all = await t.call('GET', `/api/reader/marks?bookCode=${code}`, { token: reader });
    expect(all.data.map((m: { kind: string; blockId: string }) => `${m.kind}@${m.blockId}`)).toEqual([
      'bookmark@c1-b1',
      'annotation@c1-b2',
      'underline@c1-b3',
      'highlight@c1-b4',
    ]);
    expect(all.data[2]).toMatchObject({ inTranslation: true, language: 'en', color: null });
    expect(all.data[3].color).toBe('green');
    expect(
      (await t.call('GET', `/api/reader/marks?bookCode=${code}&kind=highlight`, { token: reader })).data,
    ).toHaveLength(1);
    // Nobody else sees them.
    await t.call('POST', '/api/book/user/add', { token: other, body: { bookCode: code } });
    expect((await t.call('GET', `/api/reader/marks?bookCode=${code}`, { token: other })).data).toEqual([]);
  });

  it('exports all notes of a book as Markdown', async () => {
    const res = await t.app.inject({
      url: `/api/reader/notes/export?bookCode=${code}`,
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(res.headers['content-type']).toContain('text/markdown');
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('红楼梦.md'));
    expect(res.body).toContain('# 红楼梦');
    expect(res.body).toContain('## 第一回');
    expect(res.body).toContain('> 女娲氏炼石补天');
    expect(res.body).toContain('开篇第一回');
    expect(res.body.indexOf('此开卷第')).toBeLessThan(res.body.indexOf('女娲氏炼石补天'));
    // Labelled in the interface language: English for an account without one, else the one asked for.
    expect(res.body).toContain('— Highlight (green), p. 1');
    expect(res.body).toContain('- 🔖 p. 1');
    const exported = async (uiLanguage: string) =>
      (
        await t.app.inject({
          url: `/api/reader/notes/export?bookCode=${code}&uiLanguage=${uiLanguage}`,
          headers: { authorization: `Bearer ${reader}` },
        })
      ).body;
    const zh = await exported('zh');
    expect(zh).toContain('— 高亮（绿色），第 1 页');
    expect(zh).toContain('— 划线，第 1 页');
    expect(zh).toContain('- 🔖 第 1 页');
    expect(zh).not.toMatch(/highlight|underline|p\. 1/i);
    expect(await exported('jp')).toContain('— ハイライト（緑）、1 ページ');
    expect(await exported('de')).toContain('— Markierung (Grün), S. 1');
  });

  it('writes notes into the Markdown as text: no remote image, link or tag survives', async () => {
    const hostile = [
      '![tracker](http://evil.example/pixel.png)',
      '<img src="http://evil.example/x.png"> <iframe src=//evil.example>',
      '[ref]: http://evil.example/y.png',
      '![again][ref] \\![escaped](http://evil.example/z.png) <http://evil.example/auto>',
    ].join('\n');
    const note = await t.call('POST', '/api/reader/annotation', {
      token: reader,
      body: {
        bookCode: code,
        blockId: 'c1-b2',
        start: 0,
        end: 2,
        quote: '<b>![q](http://evil.example/q.png)',
        content: hostile,
      },
    });
    expect(note.code).toBe(0);
    const res = await t.app.inject({
      url: `/api/reader/notes/export?bookCode=${code}`,
      headers: { authorization: `Bearer ${reader}` },
    });
    // The words are all there, as text...
    expect(res.body).toContain('http://evil.example/pixel.png');
    // ...but nothing a Markdown viewer would fetch or render as markup: every bracket escaped, no tag.
    expect(res.body).not.toMatch(/(^|[^\\])(\\\\)*[[\]]/m);
    expect(res.body).not.toMatch(/<[a-z!/]/i);
    await t.call('DELETE', `/api/reader/annotation/${note.data.id}`, { token: reader });
  });

  it("deletes only the right kind of the user's own marks", async () => {
    const marks = (await t.call('GET', `/api/reader/marks?bookCode=${code}`, { token: reader })).data as {
      id: number;
      kind: string;
    }[];
    const annotation = marks.find((m) => m.kind === 'annotation')!;
    const highlight = marks.find((m) => m.kind === 'highlight')!;
    expect((await t.call('DELETE', `/api/reader/annotation/${highlight.id}`, { token: reader })).data.key).toBe(
      'notFound',
    );
    expect((await t.call('DELETE', `/api/reader/annotation/${annotation.id}`, { token: other })).data.key).toBe(
      'notFound',
    );
    expect((await t.call('DELETE', `/api/reader/annotation/${annotation.id}`, { token: reader })).code).toBe(0);
    expect((await t.call('DELETE', `/api/reader/highlight/${highlight.id}`, { token: reader })).code).toBe(0);
    expect((await t.call('GET', `/api/reader/marks?bookCode=${code}`, { token: reader })).data).toHaveLength(2);
  });

  it('saves and restores the reading position, and lists recent books', async () => {
    expect((await t.call('GET', `/api/reader/position?bookCode=${code}`, { token: reader })).data).toBeNull();
    const saved = await t.call('PUT', '/api/reader/position', {
      token: reader,
      body: { bookCode: code, page: 1, blockId: 'c1-b3', language: 'English' },
    });
    expect(saved.data).toMatchObject({ page: 1, blockId: 'c1-b3', language: 'en' });
    expect((await t.call('GET', `/api/reader/position?bookCode=${code}`, { token: reader })).data.blockId).toBe(
      'c1-b3',
    );
    const recent = await t.call('GET', '/api/reader/recent', { token: reader });
    expect(recent.data[0]).toMatchObject({ bookCode: code, bookName: '红楼梦', page: 1, pageCount: 1 });
  });

  it('keeps the place as a paragraph and how far into it, for another device; the paragraph decides the page', async () => {
    const paged = await seedPagedBook(t, 'reader', {
      pages: 3,
      paragraphsPerPage: 4,
      text: (i, page) => `Paragraph ${i} on page ${page}, long enough to be read for a while.`,
    });
    // c1-b6 is the second paragraph of page 2: a page sent wrongly is corrected by it.
    const saved = await t.call('PUT', '/api/reader/position', {
      token: reader,
      body: { bookCode: paged, page: 3, blockId: 'c1-b6', blockOffset: 0.375, language: 'en' },
    });
    expect(saved.data).toMatchObject({ page: 2, blockId: 'c1-b6', blockOffset: 0.375 });
    // Another device of the same reader (a second session) finds the same place.
    const elsewhere = (
      await t.call('POST', '/api/auth/login', { body: { account: 'reader', password: STRONG_PASSWORD } })
    ).data.token;
    expect((await t.call('GET', `/api/reader/position?bookCode=${paged}`, { token: elsewhere })).data).toMatchObject({
      page: 2,
      blockId: 'c1-b6',
      blockOffset: 0.375,
      language: 'en',
    });
    // A paragraph the book does not have is not kept; the page is. Offsets outside 0..1 are refused.
    const unknown = await t.call('PUT', '/api/reader/position', {
      token: reader,
      body: { bookCode: paged, page: 3, blockId: 'c9-b99', blockOffset: 0.5, language: 'en' },
    });
    expect(unknown.data).toMatchObject({ page: 3, blockId: null, blockOffset: null });
    const wrong = await t.call('PUT', '/api/reader/position', {
      token: reader,
      body: { bookCode: paged, page: 1, blockId: 'c1-b1', blockOffset: 1.5, language: 'en' },
    });
    expect(wrong.data.key).toBe('badRequest');
    // Someone else's place is their own.
    expect((await t.call('GET', `/api/reader/position?bookCode=${paged}`, { token: other })).data).toBeNull();
  });

  it('keeps reader settings and tabs on the server', async () => {
    const defaults = await t.call('GET', '/api/user/reader-settings', { token: reader });
    expect(defaults.data).toMatchObject({ mode: 'default', scheme: 'paper', fontSize: 18 });
    const saved = await t.call('PUT', '/api/user/reader-settings', {
      token: reader,
      body: { mode: 'advanced', fontSize: 22, scheme: 'custom', background: '#101010', textColor: '#eeeeee' },
    });
    expect(saved.data).toMatchObject({
      mode: 'advanced',
      fontSize: 22,
      scheme: 'custom',
      background: '#101010',
      lineHeight: 1.8,
    });
    expect((await t.call('PUT', '/api/user/reader-settings', { token: reader, body: { fontSize: 99 } })).data.key).toBe(
      'badRequest',
    );
    expect((await t.call('GET', '/api/user/reader-settings', { token: reader })).data.fontSize).toBe(22);

    const tabs = await t.call('PUT', '/api/user/tabs', {
      token: reader,
      body: {
        tabs: [
          { bookCode: code, language: 'en', bookName: '红楼梦' },
          { bookCode: code, language: 'en' },
        ],
        active: `book-${code}`,
      },
    });
    expect(tabs.data.tabs).toHaveLength(1);
    expect((await t.call('GET', '/api/user/tabs', { token: reader })).data).toMatchObject({
      active: `book-${code}`,
      tabs: [{ bookCode: code }],
    });
    expect((await t.call('GET', '/api/user/tabs', { token: other })).data).toEqual({ tabs: [], active: 'newTab' });
  });
});
