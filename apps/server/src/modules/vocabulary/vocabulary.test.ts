import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startFakeMicrosoft,
  startFakeOpenAi,
  type FakeMicrosoft,
  type FakeServer,
} from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, seedChineseBook, startTestApp, type TestApp } from '../../../test/helpers.ts';

/** Words to learn through HTTP: look a word up where it stands, save it, review it, export it for Anki. */

const SENTENCE = '作者自云：因曾历过一番梦幻之后，故将真事隐去，而借通灵之说，撰此石头记一书也。';
/** Default prices (points.service.ts DEFAULT_PRICES): a lookup costs an explanation; a cached one, less. */
const PRICE = { lookup: 2, lookupCached: 1 };

const chatCalls = (llm: FakeServer) => llm.calls.filter((c) => c.path.endsWith('/chat/completions'));
const dictionaryCalls = (ms: FakeServer) => ms.calls.filter((c) => c.path.startsWith('/dictionary/'));

/** The fake model as a learner's dictionary: a JSON entry built from the word it was asked about. */
function dictionaryReply({ messages }: { messages: { role: string; content: string }[] }): string | undefined {
  if (!messages[0]?.content.includes("learner's dictionary")) return undefined;
  const word = /Word: (.*)/.exec(messages[1]?.content ?? '')?.[1] ?? '';
  return JSON.stringify({
    lemma: '',
    meaning: `the spirit-communicating ${word}`,
    pronunciation: 'tōng líng',
    partOfSpeech: 'noun',
    usage: `${word}宝玉`,
    usageTranslation: `the ${word} jade`,
    alternatives: ['clairvoyance', 42, ''],
    ignored: 'anything else the model adds',
  });
}

describe('words to learn', () => {
  let t: TestApp;
  let llm: FakeServer;
  let microsoft: FakeMicrosoft;
  let dream: string;
  let reader: string;
  let other: string;

  const idOf = async (account: string) =>
    (await t.running.infra.db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirstOrThrow())
      .id;
  const pointsOf = async (account: string) => {
    const row = await t.running.infra.db
      .selectFrom('users')
      .select(['points_balance', 'points_held'])
      .where('account', '=', account)
      .executeTakeFirstOrThrow();
    return { balance: Number(row.points_balance), held: Number(row.points_held) };
  };
  const lookup = (token: string, body: Record<string, unknown>) =>
    t.call('POST', '/api/reader/lookup', {
      token,
      body: { bookCode: dream, language: 'en', text: '通灵', sentence: SENTENCE, ...body },
    });

  beforeAll(async () => {
    llm = await startFakeOpenAi();
    microsoft = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      STARTING_POINTS: '100',
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-chat',
      MICROSOFT_TRANSLATOR_ENDPOINT: microsoft.url,
    });
    reader = await registerUser(t, 'reader');
    other = await registerUser(t, 'other');
    dream = await seedChineseBook(t, 'reader');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await llm?.close();
    await microsoft?.close();
  });
  beforeEach(() => llm.setBehaviour({ reply: dictionaryReply }));

  describe('looking a word up where it stands', () => {
    it('asks the model for the meaning in this sentence, validated, and charges it as an explanation', async () => {
      const before = chatCalls(llm).length;
      const res = await lookup(reader, {});
      expect(res.code).toBe(0);
      expect(res.data).toEqual({
        entry: {
          text: '通灵',
          lemma: '',
          meaning: 'the spirit-communicating 通灵',
          pronunciation: 'tōng líng',
          partOfSpeech: 'noun',
          usage: '通灵宝玉',
          usageTranslation: 'the 通灵 jade',
          // Only strings are kept from what the model listed.
          alternatives: ['clairvoyance'],
          source: 'llm',
        },
        cached: false,
        charge: { points: PRICE.lookup, charged: true },
      });
      const calls = chatCalls(llm).slice(before);
      expect(calls).toHaveLength(1);
      // The model reads the sentence, is told the languages, and is asked for JSON.
      expect(calls[0]!.body).toContain(SENTENCE);
      expect(calls[0]!.body).toContain('Chinese');
      expect((calls[0]!.json as { response_format?: unknown }).response_format).toEqual({ type: 'json_object' });
      expect(await pointsOf('reader')).toEqual({ balance: 100 - PRICE.lookup, held: 0 });
      const ledger = await t.running.infra.db
        .selectFrom('points_ledger')
        .select(['reason', 'points', 'detail'])
        .where('user_id', '=', await idOf('reader'))
        .where('type', '=', 'expenditure')
        .execute();
      expect(ledger).toEqual([
        {
          reason: 'lookup',
          points: String(PRICE.lookup),
          detail: { bookCode: dream, bookTitle: '红楼梦', language: 'en', query: '通灵' },
        },
      ]);
      // The lookup counts in the reader's statistics, on the book.
      const stats = await t.call('GET', '/api/reading-stats', { token: reader });
      expect(stats.data).toMatchObject({ totalLookups: 1, books: [{ bookCode: dream, lookups: 1 }] });
    });

    it('shares the entry: the same word in the same sentence costs the next reader the cached price and no call', async () => {
      const before = chatCalls(llm).length;
      const balance = (await pointsOf('other')).balance;
      // Spacing and letter case of the word do not make another entry.
      const res = await lookup(other, { text: ' 通灵 ' });
      expect(res.data).toMatchObject({ cached: true, charge: { points: PRICE.lookupCached, charged: true } });
      expect(res.data.entry.meaning).toBe('the spirit-communicating 通灵');
      expect(chatCalls(llm).length).toBe(before);
      expect(await pointsOf('other')).toEqual({ balance: balance - PRICE.lookupCached, held: 0 });

      // Another sentence is another context: the model is asked again.
      const elsewhere = await lookup(other, { sentence: '此开卷第一回也。' });
      expect(elsewhere.data).toMatchObject({ cached: false, charge: { points: PRICE.lookup, charged: true } });
      expect(chatCalls(llm).length).toBe(before + 1);
    });

    it('gives a retried request id the entry it paid for, charged once', async () => {
      const balance = (await pointsOf('reader')).balance;
      const body = { text: '石头记', requestId: 'lookup-request-0001' };
      const first = await lookup(reader, body);
      const again = await lookup(reader, body);
      expect(again.data).toEqual(first.data);
      expect(await pointsOf('reader')).toEqual({ balance: balance - PRICE.lookup, held: 0 });
      const reused = await lookup(reader, { ...body, text: '梦幻' });
      expect([reused.status, reused.data.key]).toEqual([409, 'requestIdReused']);
    });

    it("falls back to Microsoft's dictionary when the model's answer is not a valid entry", async () => {
      llm.setBehaviour({ reply: () => 'Sorry, I can only chat.' });
      const before = dictionaryCalls(microsoft).length;
      const res = await lookup(reader, { text: '梦幻' });
      expect(res.data).toEqual({
        entry: {
          text: '梦幻',
          lemma: '',
          meaning: '[en] 梦幻; [en] 梦幻 (2)',
          pronunciation: '[Latn] 梦幻',
          partOfSpeech: 'noun, verb',
          usage: 'An example with 梦幻.',
          usageTranslation: '[en] An example with [en] 梦幻.',
          alternatives: [],
          source: 'microsoft',
        },
        cached: false,
        charge: { points: PRICE.lookup, charged: true },
      });
      const calls = dictionaryCalls(microsoft).slice(before);
      expect(calls.map((c) => [c.path, c.query.from, c.query.to])).toEqual([
        ['/dictionary/lookup', 'zh-Hans', 'en'],
        ['/dictionary/examples', 'zh-Hans', 'en'],
      ]);
      // The model still failing: the dictionary's entry is shared (it ignores the sentence), at the cached price.
      const elsewhere = await lookup(other, { text: '梦幻', sentence: '甄士隐梦幻识通灵' });
      expect(elsewhere.data).toMatchObject({
        cached: true,
        entry: { source: 'microsoft' },
        charge: { points: PRICE.lookupCached },
      });
      expect(dictionaryCalls(microsoft).length).toBe(before + 2);
      // A model answer missing its meaning is no better than prose.
      llm.setBehaviour({ reply: () => JSON.stringify({ pronunciation: 'x' }) });
      const incomplete = await lookup(reader, { text: '荒唐' });
      expect(incomplete.data.entry.source).toBe('microsoft');
    });

    it('takes a model entry with fields left out: they are empty, the meaning is what counts', async () => {
      llm.setBehaviour({ reply: () => '```json\n{"meaning": "absurd, far-fetched", "alternatives": "none"}\n```' });
      const res = await lookup(reader, { text: '荒唐', sentence: '说起根由虽近荒唐' });
      expect(res.data.entry).toEqual({
        text: '荒唐',
        lemma: '',
        meaning: 'absurd, far-fetched',
        pronunciation: '',
        partOfSpeech: '',
        usage: '',
        usageTranslation: '',
        alternatives: [],
        source: 'llm',
      });
    });

    it('charges nothing when no source knows the word or every source fails', async () => {
      llm.setBehaviour({ reply: () => 'not JSON' });
      const balance = (await pointsOf('reader')).balance;
      const unknown = await lookup(reader, { text: 'zz-nonsense' });
      expect([unknown.status, unknown.data.key]).toEqual([404, 'wordNotFound']);

      microsoft.setBehaviour({ failNext: [{ status: 500, path: '/dictionary/lookup' }] });
      const failing = await lookup(reader, { text: '看官' });
      expect([failing.status, failing.data.key]).toEqual([503, 'lookupUnavailable']);
      expect(await pointsOf('reader')).toEqual({ balance, held: 0 });
      // Nothing was kept for these words: the next lookup asks again.
      llm.setBehaviour({ reply: dictionaryReply });
      expect((await lookup(reader, { text: '看官' })).data).toMatchObject({ cached: false, entry: { source: 'llm' } });
    });

    it('quotes the price first in confirmation mode: the full price, or the cached one', async () => {
      const cautious = await registerUser(t, 'cautious');
      await t.call('POST', '/api/user/updateUserinfo', {
        token: cautious,
        body: { deductMode: 'deductAfterConfirmation' },
      });
      const quoted = await lookup(cautious, { text: '通灵' });
      expect([quoted.status, quoted.data.key, quoted.data.points]).toEqual([
        409,
        'pointsConfirmationRequired',
        PRICE.lookupCached,
      ]);
      const fresh = await lookup(cautious, { text: '女娲' });
      expect(fresh.data.points).toBe(PRICE.lookup);
      expect((await lookup(cautious, { text: '女娲', confirm: true })).data.charge).toEqual({
        points: PRICE.lookup,
        charged: true,
      });
    });

    it('refuses a book the reader cannot open', async () => {
      const stranger = await registerUser(t, 'stranger');
      await t.call('POST', '/api/book/updateBook', { token: reader, body: { bookCode: dream, bookStatus: 0 } });
      try {
        expect((await lookup(stranger, {})).status).toBe(404);
      } finally {
        await t.call('POST', '/api/book/updateBook', { token: reader, body: { bookCode: dream, bookStatus: 1 } });
      }
    });
  });

  describe('the vocabulary book', () => {
    const save = (token: string, body: Record<string, unknown>) =>
      t.call('POST', '/api/vocabulary', {
        token,
        body: { bookCode: dream, language: 'en', blockId: 'c1-b2', sentence: SENTENCE, ...body },
      });

    it('saves a word where it stands, once, and only its owner sees, changes or deletes it', async () => {
      const saved = await save(reader, {
        text: '通灵',
        start: 25,
        end: 27,
        meaning: 'the spirit-communicating 通灵',
        pronunciation: 'tōng líng',
        partOfSpeech: 'noun',
        usage: '通灵宝玉',
      });
      expect(saved.code).toBe(0);
      expect(saved.data).toMatchObject({
        text: '通灵',
        meaning: 'the spirit-communicating 通灵',
        sentence: SENTENCE,
        bookCode: dream,
        bookTitle: '红楼梦',
        chapterTitle: '第一回　甄士隐梦幻识通灵　贾雨村风尘怀闺秀',
        blockId: 'c1-b2',
        page: 1,
        start: 25,
        end: 27,
        sourceLanguage: 'zh',
        language: 'en',
        box: 0,
        reviews: 0,
      });
      expect(Date.parse(saved.data.dueAt)).toBeLessThanOrEqual(Date.now());
      // Saved again from the same book: the first entry is kept.
      const again = await save(reader, { text: '通灵 ', meaning: 'something else' });
      expect(again.data).toMatchObject({ id: saved.data.id, meaning: 'the spirit-communicating 通灵' });

      const id = saved.data.id as number;
      expect((await t.call('GET', '/api/vocabulary', { token: other })).data.items).toEqual([]);
      for (const [method, url, body] of [
        ['PUT', `/api/vocabulary/${id}`, { note: 'mine now' }],
        ['POST', `/api/vocabulary/${id}/review`, { result: 'known' }],
        ['DELETE', `/api/vocabulary/${id}`, undefined],
      ] as const) {
        const res = await t.call(method, url, { token: other, body });
        expect([method, res.status, res.data.key]).toEqual([method, 404, 'notFound']);
      }
      const edited = await t.call('PUT', `/api/vocabulary/${id}`, { token: reader, body: { note: '宝玉的玉' } });
      expect(edited.data).toMatchObject({ id, note: '宝玉的玉', meaning: 'the spirit-communicating 通灵' });

      expect((await save(reader, { text: 'x', blockId: 'c9-b9' })).status).toBe(404);
      expect((await save(other, { text: 'x', bookCode: 'nosuchbook' })).data.key).toBe('bookNotFound');

      const removed = await t.call('DELETE', `/api/vocabulary/${id}`, { token: reader });
      expect(removed.code).toBe(0);
      expect((await t.call('GET', `/api/vocabulary`, { token: reader })).data.items).toEqual([]);
    });

    it('lists by book, by search and by what is due, with the books words come from', async () => {
      const second = await seedChineseBook(t, 'other');
      await save(other, { text: '看官', meaning: 'reader (addressed by the storyteller)' });
      await save(other, { text: '女娲', meaning: 'Nüwa, the goddess', bookCode: second, blockId: 'c1-b4' });
      const reviewed = await save(other, {
        text: '顽石',
        meaning: 'a stubborn stone',
        bookCode: second,
        blockId: 'c1-b4',
      });
      await t.call('POST', `/api/vocabulary/${reviewed.data.id}/review`, { token: other, body: { result: 'known' } });

      const all = await t.call('GET', '/api/vocabulary', { token: other });
      expect(all.data.items.map((w: { text: string }) => w.text)).toEqual(['顽石', '女娲', '看官']);
      expect(all.data).toMatchObject({ total: 3, due: 2 });
      expect(all.data.books).toEqual([
        { bookCode: second, bookTitle: '红楼梦', words: 2 },
        { bookCode: dream, bookTitle: '红楼梦', words: 1 },
      ]);
      const ofBook = await t.call('GET', `/api/vocabulary?bookCode=${second}`, { token: other });
      expect(ofBook.data.items.map((w: { text: string }) => w.text)).toEqual(['顽石', '女娲']);
      const due = await t.call('GET', '/api/vocabulary?due=true', { token: other });
      expect(due.data.items.map((w: { text: string }) => w.text)).toEqual(['看官', '女娲']);
      const found = await t.call('GET', `/api/vocabulary?q=${encodeURIComponent('goddess')}`, { token: other });
      expect(found.data.items.map((w: { text: string }) => w.text)).toEqual(['女娲']);
    });

    it('schedules reviews: known moves a word up a box, again brings it back within minutes', async () => {
      const word = (await save(reader, { text: '列位' })).data;
      const review = async (result: string) =>
        (await t.call('POST', `/api/vocabulary/${word.id}/review`, { token: reader, body: { result } })).data;
      const days = (w: { dueAt: string; lastReviewedAt: string }) =>
        (Date.parse(w.dueAt) - Date.parse(w.lastReviewedAt)) / 86_400_000;
      const once = await review('known');
      expect([once.box, days(once), once.reviews]).toEqual([1, 1, 1]);
      const twice = await review('known');
      expect([twice.box, days(twice)]).toEqual([2, 3]);
      const forgot = await review('again');
      expect([forgot.box, forgot.lapses, forgot.reviews, days(forgot) * 24 * 60]).toEqual([0, 1, 3, 10]);
      expect(
        (await t.call('POST', `/api/vocabulary/${word.id}/review`, { token: reader, body: { result: 'maybe' } }))
          .status,
      ).toBe(400);
    });
  });

  describe('export for Anki', () => {
    it('writes the exact CSV and TSV: quotes, commas, line breaks and Chinese survive', async () => {
      const exporter = await registerUser(t, 'exporter');
      const save = (body: Record<string, unknown>) =>
        t.call('POST', '/api/vocabulary', {
          token: exporter,
          body: { bookCode: dream, language: 'en', blockId: 'c1-b3', ...body },
        });
      await save({
        text: '看官',
        sentence: '列位看官：你道此书从何而来？',
        meaning: 'reader, "dear reader"',
        pronunciation: 'kàn guān',
        partOfSpeech: 'noun',
      });
      await save({
        text: '荒唐',
        sentence: '说起根由虽近荒唐，细按则深有趣味。',
        meaning: 'absurd',
        note: 'line one\nline two',
      });
      await save({ text: ' 趣味', sentence: '', meaning: 'interest,\ttaste' });

      const get = async (format: string) => {
        const res = await t.app.inject({
          url: `/api/vocabulary/export?format=${format}`,
          headers: { authorization: `Bearer ${exporter}` },
        });
        return {
          bytes: res.rawPayload,
          type: res.headers['content-type'],
          disposition: res.headers['content-disposition'],
        };
      };
      const chapter = '红楼梦 · 第一回　甄士隐梦幻识通灵　贾雨村风尘怀闺秀';
      const csv = await get('csv');
      expect(csv.type).toBe('text/csv; charset=utf-8');
      expect(csv.disposition).toBe(`attachment; filename="vocabulary.csv"; filename*=UTF-8''vocabulary.csv`);
      expect(
        csv.bytes.equals(
          Buffer.from(
            '#separator:Comma\r\n' +
              '#html:false\r\n' +
              '#columns:Front,Back,Sentence,Book,Tags\r\n' +
              '#tags column:5\r\n' +
              `看官,"[kàn guān] noun\nreader, ""dear reader""",列位看官：你道此书从何而来？,${chapter},yidu 红楼梦\r\n` +
              `荒唐,"absurd\nline one\nline two",说起根由虽近荒唐，细按则深有趣味。,${chapter},yidu 红楼梦\r\n` +
              `趣味,"interest,\ttaste",,${chapter},yidu 红楼梦\r\n`,
            'utf8',
          ),
        ),
      ).toBe(true);
      // No byte-order mark: Anki would not see its headers behind one.
      expect(csv.bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);

      const tsv = await get('tsv');
      expect(tsv.type).toBe('text/tab-separated-values; charset=utf-8');
      expect(tsv.bytes.toString('utf8')).toBe(
        '#separator:Tab\r\n' +
          '#html:false\r\n' +
          '#columns:Front\tBack\tSentence\tBook\tTags\r\n' +
          '#tags column:5\r\n' +
          `看官\t"[kàn guān] noun\nreader, ""dear reader"""\t列位看官：你道此书从何而来？\t${chapter}\tyidu 红楼梦\r\n` +
          `荒唐\t"absurd\nline one\nline two"\t说起根由虽近荒唐，细按则深有趣味。\t${chapter}\tyidu 红楼梦\r\n` +
          `趣味\t"interest,\ttaste"\t\t${chapter}\tyidu 红楼梦\r\n`,
      );
      const guest = await t.app.inject({ url: '/api/vocabulary/export?format=csv' });
      expect(guest.statusCode).toBe(401);
    });
  });
});
