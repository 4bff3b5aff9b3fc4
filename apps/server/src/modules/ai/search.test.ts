import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeMicrosoft,
  startFakeOpenAi,
  type FakeMicrosoft,
  type FakeServer,
} from '../../engines/translation/testing/fake-servers.ts';
import { CORPUS, pollStage, registerUser, startTestApp, uploadFile, type TestApp } from '../../../test/helpers.ts';

interface Hit {
  blockId: string;
  page: number;
  chapterTitle: string;
  position: number;
  snippet: string;
  highlights: { start: number; end: number }[];
  occurrences: number;
  inTranslation: boolean;
}

/** Uploads a corpus file through the pipeline and returns its book code. */
async function uploadBook(t: TestApp, token: string, file: string): Promise<string> {
  const upload = await uploadFile(
    t,
    '/api/book/upload',
    { name: path.basename(file), data: await readFile(path.join(CORPUS, file)) },
    token,
  );
  const saved = await t.call('POST', '/api/book/saveNew', {
    token,
    body: { fileId: upload.data.fileId, bookName: path.basename(file), bookStatus: 0, language: 'zh' },
  });
  const id = saved.data.requestId;
  for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
    const res = await pollStage(t, `/api/book/${stage}?requestId=${id}`, token, 120_000);
    if (stage === 'saveBookById') return res.data.result.bookCode;
  }
  throw new Error('unreachable');
}

const marked = (hit: Hit) => hit.highlights.map((h) => hit.snippet.slice(h.start, h.end));
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe('search on real books', () => {
  let t: TestApp;
  let microsoft: FakeMicrosoft;
  let llm: FakeServer;
  let token: string;
  let moby: string;
  let hongloumeng: string;
  const blocksOf = async (code: string) =>
    t.running.infra.db
      .selectFrom('book_blocks')
      .innerJoin('books', 'books.id', 'book_blocks.book_id')
      .select(['book_blocks.book_id', 'book_blocks.seq', 'book_blocks.block_id', 'book_blocks.text'])
      .where('books.code', '=', code)
      .orderBy('book_blocks.seq')
      .execute();
  const search = async (bookCode: string, query: string, language = 'zh', ai = false) => {
    const res = await t.call('POST', '/api/reader/search', { token, body: { bookCode, language, query, ai } });
    expect(res.code, JSON.stringify(res.data)).toBe(0);
    return res.data as {
      hits: Hit[];
      stats: {
        passages: number;
        occurrences: number;
        keywords: { keyword: string; passages: number; occurrences: number }[];
        ignored: string[];
        truncated: boolean;
      };
      answer: { text: string; citations: { n: number; blockId: string; page: number }[] } | null;
    };
  };

  beforeAll(async () => {
    microsoft = await startFakeMicrosoft();
    llm = await startFakeOpenAi();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: microsoft.url,
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-chat',
    });
    token = await registerUser(t, 'reader');
    moby = await uploadBook(t, token, 'epub/en-moby-dick-epub3.epub');
    hongloumeng = await uploadBook(t, token, 'epub/zh-hongloumeng-epub2.epub');
  }, 240_000);
  afterAll(async () => {
    await t?.close();
    await microsoft?.close();
    await llm?.close();
  });

  it('answers "Who is Queequeg?" with passages about Queequeg first, its words ignored', async () => {
    const result = await search(moby, 'Who is Queequeg?', 'zh');
    const top = result.hits.slice(0, 10);
    expect(
      top.filter((hit) => !/queequeg/i.test(hit.snippet)).map((hit) => hit.snippet.slice(0, 80)),
      'top hits without Queequeg',
    ).toEqual([]);
    expect(result.hits).toHaveLength(30);
    expect(result.stats.ignored).toEqual(['who', 'is']);
    expect(result.stats.keywords.map((k) => k.keyword)).toEqual(['queequeg']);
  });

  it('counts every passage and occurrence of the word in the book', async () => {
    const result = await search(moby, 'Who is Queequeg?', 'zh');
    const blocks = await blocksOf(moby);
    const passages = blocks.filter((b) => /queequeg/i.test(b.text));
    const occurrences = passages.reduce((sum, b) => sum + count(b.text, /queequeg/gi), 0);
    expect(passages.length).toBeGreaterThan(100);
    expect(result.stats).toMatchObject({ passages: passages.length, occurrences, truncated: false });
    expect(result.stats.keywords).toEqual([{ keyword: 'queequeg', passages: passages.length, occurrences }]);
    for (const hit of result.hits) {
      const block = blocks.find((b) => b.block_id === hit.blockId)!;
      expect(hit.occurrences).toBe(count(block.text, /queequeg/gi));
    }
  });

  it('highlights exactly the words that matched', async () => {
    const result = await search(moby, 'Who is Queequeg?', 'zh');
    for (const hit of result.hits) {
      // Every Queequeg of the snippet is marked (Queequeg's included), and nothing else is.
      expect(marked(hit).map((word) => word.toLowerCase())).toEqual(
        Array.from({ length: count(hit.snippet, /queequeg/gi) }, () => 'queequeg'),
      );
      expect(hit.highlights.every((h, i) => i === 0 || h.start >= hit.highlights[i - 1]!.end)).toBe(true);
    }

    // Other forms of a word are found and marked whole: whale, whales, whaling.
    const whales = await search(moby, 'whales', 'zh');
    const forms = new Set(whales.hits.flatMap((hit) => marked(hit).map((w) => w.toLowerCase())));
    expect([...forms]).toEqual(expect.arrayContaining(['whale', 'whales']));
    for (const form of forms) expect(form).toMatch(/^whal/);
  });

  it('answers a Chinese question on a Chinese book with passages holding the name first', async () => {
    const result = await search(hongloumeng, '贾宝玉是谁？', 'en');
    expect(result.stats.ignored).toEqual(['是谁']);
    expect(result.stats.keywords.map((k) => k.keyword)).toEqual(['贾宝玉']);
    const top = result.hits.slice(0, 10);
    expect(
      top.filter((hit) => !hit.snippet.includes('贾宝玉')).map((hit) => hit.snippet.slice(0, 40)),
      'top hits without 贾宝玉',
    ).toEqual([]);
    for (const hit of result.hits) {
      for (const word of marked(hit)) expect(['贾宝玉', '贾宝', '宝玉']).toContain(word);
      expect(marked(hit).length).toBe(count(hit.snippet, /贾宝玉|贾宝|宝玉/g));
    }
    // A passage is counted when it holds either pair of characters of the name.
    const blocks = await blocksOf(hongloumeng);
    const passages = blocks.filter((b) => /贾宝|宝玉/.test(b.text));
    expect(result.stats.passages).toBe(passages.length);
    expect(result.stats.occurrences).toBe(passages.reduce((sum, b) => sum + count(b.text, /贾宝玉|贾宝|宝玉/g), 0));
  });

  it('finds passages of an English book through their Chinese translation', async () => {
    const blocks = (await blocksOf(moby)).filter((b) => /queequeg/i.test(b.text)).slice(0, 3);
    const db = t.running.infra.db;
    await db
      .insertInto('book_translations')
      .values(
        blocks.map((b, i) => ({
          book_id: b.book_id,
          target_lang: 'zh',
          seq: b.seq,
          status: 'done',
          translation: `<b>魁魁格</b>是标枪手 &amp; 食人族王子（第${i + 1}段）。`,
          engine: 'microsoft',
          model: '',
        })),
      )
      .execute();

    const result = await search(moby, '魁魁格是谁？', 'zh');
    expect(result.hits.map((hit) => hit.blockId)).toEqual(expect.arrayContaining(blocks.map((b) => b.block_id)));
    expect(result.hits).toHaveLength(3);
    for (const hit of result.hits) {
      expect(hit.inTranslation).toBe(true);
      expect(hit.snippet).toMatch(/^魁魁格是标枪手 & 食人族王子/);
      expect(marked(hit)).toEqual(['魁魁格']);
    }
    expect(result.stats).toMatchObject({ passages: 3, occurrences: 3 });

    // Translations into another language are not searched for this reader.
    expect((await search(moby, '魁魁格', 'en')).hits).toEqual([]);
  });

  it('gives the AI the best passages as context and links its citations to them', async () => {
    llm.setBehaviour({ reply: () => 'Queequeg is a harpooneer from the South Seas [1], Ishmael’s friend [2].' });
    const result = await search(moby, 'Who is Queequeg?', 'en', true);
    const prompt = JSON.parse(llm.calls.at(-1)!.body).messages[1].content as string;
    const passages = prompt.split(/\n\n\[\d\] /).slice(1);
    expect(passages).toHaveLength(8);
    for (const passage of passages) expect(passage).toMatch(/queequeg/i);
    expect(result.answer!.citations).toEqual([
      { n: 1, blockId: result.hits[0]!.blockId, page: result.hits[0]!.page },
      { n: 2, blockId: result.hits[1]!.blockId, page: result.hits[1]!.page },
    ]);
  });
});
