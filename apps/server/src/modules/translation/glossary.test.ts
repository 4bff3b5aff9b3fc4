import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import {
  CORPUS,
  pollStage,
  registerUser,
  seedChineseBook,
  startTestApp,
  uploadFile,
  type TestApp,
} from '../../../test/helpers.ts';

interface Block {
  id: string;
  status: string;
  translation: string | null;
}

/** Asks for a page until none of its blocks is pending. */
async function readWholePage(t: TestApp, token: string, url: string): Promise<Block[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await t.call('GET', url, { token });
    expect(res.code).toBe(0);
    if (res.data.blocks.every((b: Block) => b.status !== 'pending')) return res.data.blocks as Block[];
    if (Date.now() > deadline) throw new Error('page still pending');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('per-book glossaries with machine translation', () => {
  let t: TestApp;
  let microsoft: FakeMicrosoft;
  let owner: string;
  let reader: string;
  let code: string;
  let ownerId: number;
  const page1 = () => `/api/reader/getPageData?bookCode=${code}&language=en&page=1`;
  const glossaryOf = async (token: string, language = 'en') =>
    (await t.call('GET', `/api/book/glossary?bookCode=${code}&language=${language}`, { token })).data;

  /** Every user's ledger sums to their balance, and their promised points to their live holds. */
  async function expectLedgersMatchBalances(): Promise<void> {
    const mismatched = await sql<{ id: number }>`
      SELECT u.id FROM users u
       WHERE u.points_balance <> coalesce((SELECT sum(CASE WHEN l.type = 'income' THEN l.points ELSE -l.points END)
                                             FROM points_ledger l WHERE l.user_id = u.id), 0)
          OR u.points_held <> coalesce((SELECT sum(h.points) FROM points_holds h
                                         WHERE h.user_id = u.id AND h.status = 'held'), 0)`.execute(t.running.infra.db);
    expect(mismatched.rows).toEqual([]);
  }

  beforeAll(async () => {
    microsoft = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: microsoft.url,
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    owner = await registerUser(t, 'owner');
    reader = await registerUser(t, 'reader');
    await t.call('POST', '/api/user/updateUserinfo', { token: reader, body: { nickname: 'Lin' } });
    code = await seedChineseBook(t, 'owner');
    ownerId = (await t.call('GET', '/api/user/getUserinfo', { token: owner })).data.id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await microsoft?.close();
  });

  it('is edited by the uploader only, and each change bumps its version', async () => {
    const empty = await glossaryOf(owner);
    expect(empty).toMatchObject({ entries: [], version: 0, editable: true, canSuggest: false, suggestions: [] });
    expect(empty.retranslation).toEqual({ paragraphs: 0, characters: 0, points: 0, running: 0 });
    const asReader = await glossaryOf(reader);
    expect(asReader).toMatchObject({ editable: false, canSuggest: true, retranslation: null });
    const denied = await t.call('PUT', '/api/book/glossary', {
      token: reader,
      body: { bookCode: code, language: 'en', entries: [{ source: '通灵', target: 'Spirit' }] },
    });
    expect(denied.data.key).toBe('insufficientPermissions');

    const saved = await t.call('PUT', '/api/book/glossary', {
      token: owner,
      body: {
        bookCode: code,
        language: 'English',
        entries: [
          { source: '甄士隐', target: 'Zhen Shiyin', note: 'person' },
          { source: '通灵', target: 'Magic Jade' },
        ],
      },
    });
    expect(saved.data.version).toBe(1);
    expect(saved.data.entries).toEqual([
      { source: '甄士隐', target: 'Zhen Shiyin', note: 'person', origin: 'owner' },
      { source: '通灵', target: 'Magic Jade', note: null, origin: 'owner' },
    ]);
  });

  it('has Microsoft render the terms through its dynamic dictionary', async () => {
    microsoft.resetStats();
    const blocks = await readWholePage(t, reader, page1());
    expect(blocks[0]?.translation).toBe('[en] 第一回　Zhen Shiyin梦幻识Magic Jade　贾雨村风尘怀闺秀');
    expect(blocks[1]?.translation).toContain('而借Magic Jade之说');
    const sent = microsoft.calls.filter((c) => c.path === '/translate').map((c) => c.body);
    expect(sent.join('')).toContain('<mstrans:dictionary translation=\\"Zhen Shiyin\\">甄士隐</mstrans:dictionary>');
  });

  it('quotes the retranslation of exactly the paragraphs holding a changed term, and charges it once confirmed', async () => {
    const saved = await t.call('PUT', '/api/book/glossary', {
      token: owner,
      body: {
        bookCode: code,
        language: 'en',
        entries: [
          { source: '甄士隐', target: 'Chen Shih-yin', note: 'person' },
          { source: '通灵', target: 'Magic Jade' },
        ],
      },
    });
    // Only the heading holds 甄士隐: 21 characters, at 2 points per 1,000.
    const heading = '第一回　甄士隐梦幻识通灵　贾雨村风尘怀闺秀';
    expect(saved.data.retranslation).toEqual({ paragraphs: 1, characters: heading.length, points: 1, running: 0 });
    // An unchanged entry keeps its origin; readers still see the translation they had.
    expect(saved.data.entries.find((e: { source: string }) => e.source === '通灵').origin).toBe('owner');
    expect((await readWholePage(t, reader, page1()))[0]?.translation).toContain('Zhen Shiyin');

    const before = (await t.call('GET', '/api/user/getUserinfo', { token: owner })).data.points as number;
    const stale = await t.call('POST', '/api/book/glossary/retranslate', {
      token: owner,
      body: { bookCode: code, language: 'en', points: 0 },
    });
    expect(stale.data.key).toBe('quoteChanged');
    expect(stale.data.quote.points).toBe(1);
    expect(
      (
        await t.call('POST', '/api/book/glossary/retranslate', {
          token: reader,
          body: { bookCode: code, language: 'en', points: 1 },
        })
      ).data.key,
    ).toBe('insufficientPermissions');

    microsoft.resetStats();
    const confirmed = await t.call('POST', '/api/book/glossary/retranslate', {
      token: owner,
      body: { bookCode: code, language: 'en', points: 1 },
    });
    expect(confirmed.data.held).toBe(1);
    expect(confirmed.data.quote.paragraphs).toBe(0);
    const blocks = await readWholePage(t, reader, page1());
    expect(blocks[0]?.translation).toBe('[en] 第一回　Chen Shih-yin梦幻识Magic Jade　贾雨村风尘怀闺秀');
    expect(blocks[1]?.translation).toContain('而借Magic Jade之说');
    // One paragraph went to the engine again, no other.
    const items = microsoft.calls.filter((c) => c.path === '/translate').reduce((n, c) => n + c.items, 0);
    expect(items).toBe(1);

    const deadline = Date.now() + 15_000;
    let charge;
    do {
      await new Promise((r) => setTimeout(r, 100));
      charge = await t.running.infra.db
        .selectFrom('points_ledger')
        .select(['points', 'detail'])
        .where('user_id', '=', ownerId)
        .where('reason', '=', 'retranslation')
        .executeTakeFirst();
    } while (!charge && Date.now() < deadline);
    expect(Number(charge?.points)).toBe(1);
    expect(charge?.detail).toMatchObject({ bookCode: code, language: 'en', paragraphs: 1, freshCharacters: 21 });
    const after = (await t.call('GET', '/api/user/getUserinfo', { token: owner })).data.points as number;
    expect(after).toBe(before - 1);
    await expectLedgersMatchBalances();
    expect((await glossaryOf(owner)).retranslation).toEqual({ paragraphs: 0, characters: 0, points: 0, running: 0 });
  });

  it('takes suggestions from readers, which the owner accepts or rejects', async () => {
    const suggest = (token: string, source: string, target: string) =>
      t.call('POST', '/api/book/glossary/suggest', {
        token,
        body: { bookCode: code, language: 'en', entry: { source, target, note: 'person' } },
      });
    expect((await suggest(owner, '女娲', 'Nuwa')).data.key).toBe('badRequest');
    const mine = await suggest(reader, '女娲', 'Nüwa');
    expect(mine.data.suggestions).toMatchObject([{ source: '女娲', target: 'Nüwa', status: 'pending', by: 'Lin' }]);
    await suggest(reader, '石头记', 'Story of the Stone');

    const pending = (await glossaryOf(owner)).suggestions as { id: number; source: string; by: string }[];
    expect(pending.map((s) => [s.source, s.by]).sort()).toEqual([
      ['女娲', 'Lin'],
      ['石头记', 'Lin'],
    ]);
    const nuwa = pending.find((s) => s.source === '女娲')!.id;
    const stone = pending.find((s) => s.source === '石头记')!.id;
    const decide = (token: string, id: number, accept: boolean) =>
      t.call('POST', '/api/book/glossary/decide', { token, body: { bookCode: code, id, accept } });
    expect((await decide(reader, nuwa, true)).data.key).toBe('insufficientPermissions');
    const accepted = await decide(owner, nuwa, true);
    expect(accepted.data.entries).toContainEqual({
      source: '女娲',
      target: 'Nüwa',
      note: 'person',
      origin: 'suggested',
    });
    // The paragraph holding 女娲 now waits for a retranslation.
    expect(accepted.data.retranslation.paragraphs).toBe(1);
    expect((await decide(owner, nuwa, false)).data.key).toBe('notFound');
    const rejected = await decide(owner, stone, false);
    expect(rejected.data.entries.map((e: { source: string }) => e.source)).not.toContain('石头记');
    expect(rejected.data.suggestions).toEqual([]);
    // The reader sees what became of their suggestions.
    const theirs = (await glossaryOf(reader)).suggestions as { source: string; status: string }[];
    expect(theirs.map((s) => [s.source, s.status]).sort()).toEqual([
      ['女娲', 'accepted'],
      ['石头记', 'rejected'],
    ]);
  });

  it('finds the names of a book in a Latin script after its upload without a model, rendered by the engine', async () => {
    const upload = await uploadFile(
      t,
      '/api/book/upload',
      {
        name: 'pride.txt',
        data: await readFile(path.join(CORPUS, 'txt/en-pride-and-prejudice-cp1252-crlf.txt')),
      },
      owner,
    );
    const saved = await t.call('POST', '/api/book/saveNew', {
      token: owner,
      body: { fileId: upload.data.fileId, bookName: 'Pride', bookStatus: 1, language: 'zh' },
    });
    let pride = '';
    for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
      const res = await pollStage(t, `/api/book/${stage}?requestId=${saved.data.requestId}`, owner);
      if (stage === 'saveBookById') pride = res.data.result.bookCode;
    }
    const deadline = Date.now() + 30_000;
    let entries: { source: string; target: string; origin: string }[] = [];
    while (entries.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      entries = (await t.call('GET', `/api/book/glossary?bookCode=${pride}&language=zh`, { token: owner })).data
        .entries;
    }
    const names = entries.map((e) => e.source);
    expect(names).toEqual(expect.arrayContaining(['Elizabeth', 'Darcy', 'Bingley', 'Jane', 'Mr. Bennet']));
    expect(names).not.toContain('The');
    expect(entries.find((e) => e.source === 'Darcy')).toEqual({
      source: 'Darcy',
      target: '[zh-Hans] Darcy',
      note: null,
      origin: 'extracted',
    });
  }, 120_000);
});
