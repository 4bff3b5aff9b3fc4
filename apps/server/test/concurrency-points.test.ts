import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeMicrosoft,
  startFakeOpenAi,
  type FakeMicrosoft,
  type FakeServer,
} from '../src/engines/translation/testing/fake-servers.ts';
import {
  registerUser,
  seedChineseBook,
  seedPagedBook,
  startTestApp,
  type CallResult,
  type TestApp,
} from './helpers.ts';

/**
 * Races on points, through HTTP against the real database: every paid call run 20 times at once
 * ends with no more answers than were paid for, and every user's ledger equal to their balance.
 */

const PARALLEL = 20;
/** Characters per paragraph of the seeded book: every page costs the same. */
const PARAGRAPH_CHARS = 1000;
const PARAGRAPHS_PER_PAGE = 2;
const PAGES = 30;
/** Default prices (points.service.ts DEFAULT_PRICES). */
const PRICE = {
  translation: 2,
  translationCached: 1,
  explanation: 2,
  annotation: 5,
  search: 3,
  lookup: 2,
  lookupCached: 1,
};
const PAGE_CHARS = PARAGRAPH_CHARS * PARAGRAPHS_PER_PAGE;
const CACHED_PAGE = Math.ceil((PAGE_CHARS * PRICE.translationCached) / 1000);
const FRESH_PAGE = Math.ceil((PAGE_CHARS * PRICE.translation) / 1000);

const chatCalls = (llm: FakeServer) => llm.calls.filter((c) => c.path.endsWith('/chat/completions')).length;
const count = (results: CallResult[], predicate: (r: CallResult) => boolean) => results.filter(predicate).length;

/** A public English book of PAGES pages, each of two paragraphs of PARAGRAPH_CHARS characters. */
function seedEnglishBook(t: TestApp, owner: string): Promise<string> {
  return seedPagedBook(t, owner, {
    pages: PAGES,
    paragraphsPerPage: PARAGRAPHS_PER_PAGE,
    text: (i, page) =>
      (
        `Call me Ishmael, page ${page}, paragraph ${i}. ` +
        'Some years ago, never mind how long precisely, I went to sea. '.repeat(20)
      ).slice(0, PARAGRAPH_CHARS),
  });
}

describe('points under concurrency', () => {
  let t: TestApp;
  let translator: FakeMicrosoft;
  let llm: FakeServer;
  let owner: string;
  let moby: string;
  let dream: string;

  /** A logged-in user with exactly `points` points, granted through the ledger. */
  async function userWith(name: string, points: number): Promise<{ token: string; id: number }> {
    const token = await registerUser(t, name);
    const db = t.running.infra.db;
    const { id } = await db.selectFrom('users').select('id').where('account', '=', name).executeTakeFirstOrThrow();
    if (points > 0) await t.running.services.points.grant(id, points, 'adminGrant', `setup:${name}`);
    return { token, id };
  }

  async function balanceOf(id: number): Promise<{ balance: number; held: number }> {
    const row = await t.running.infra.db
      .selectFrom('users')
      .select(['points_balance', 'points_held'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { balance: Number(row.points_balance), held: Number(row.points_held) };
  }

  async function expenditures(id: number, reason: string) {
    return t.running.infra.db
      .selectFrom('points_ledger')
      .select(['points', 'idempotency_key', 'detail'])
      .where('user_id', '=', id)
      .where('type', '=', 'expenditure')
      .where('reason', '=', reason)
      .execute();
  }

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

  /** Asks for a page until none of its blocks is pending. */
  async function readWholePage(token: string, page: number, language = 'zh'): Promise<CallResult> {
    const url = `/api/reader/getPageData?bookCode=${moby}&language=${language}&page=${page}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await t.call('GET', url, { token });
      if (res.code !== 0 || res.data.blocks.every((b: { status: string }) => b.status !== 'pending')) return res;
      if (Date.now() > deadline) throw new Error(`page ${page} still pending`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    translator = await startFakeMicrosoft();
    llm = await startFakeOpenAi();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      STARTING_POINTS: '0',
      MICROSOFT_TRANSLATOR_ENDPOINT: translator.url,
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'fake-chat',
    });
    owner = (await userWith('owner', 100_000)).token;
    moby = await seedEnglishBook(t, 'owner');
    dream = await seedChineseBook(t, 'owner');
    // The owner reads pages 1-20 in full: they are then in the shared translations, cached for everyone.
    await Promise.all(Array.from({ length: PARALLEL }, (_, i) => readWholePage(owner, i + 1)));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await translator?.close();
    await llm?.close();
  });

  it('gives cached pages only to readers who pay for them: 20 at once on a balance for 2', async () => {
    const poor = await userWith('poor', 2 * CACHED_PAGE + (CACHED_PAGE - 1));
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.call('GET', `/api/reader/getPageData?bookCode=${moby}&language=zh&page=${i + 1}`, { token: poor.token }),
      ),
    );
    const served = results.filter((r) => r.code === 0);
    expect(served).toHaveLength(2);
    for (const page of served) {
      expect(page.data.charge).toEqual({ points: CACHED_PAGE, charged: true });
      expect(page.data.blocks.every((b: { translation: string }) => b.translation.startsWith('[zh-Hans]'))).toBe(true);
    }
    const refused = results.filter((r) => r.code !== 0);
    expect(refused.every((r) => r.status === 402 && r.data.key === 'insufficientPoints')).toBe(true);
    expect(await expenditures(poor.id, 'translation')).toHaveLength(2);
    expect(await balanceOf(poor.id)).toEqual({ balance: CACHED_PAGE - 1, held: 0 });
    await expectLedgersMatchBalances();
  });

  it('charges one page once when its reader opens it 20 times at once, cached or being translated', async () => {
    const reader = await userWith('eager', 100);
    const open = (page: number) =>
      Promise.all(
        Array.from({ length: PARALLEL }, () =>
          t.call('GET', `/api/reader/getPageData?bookCode=${moby}&language=zh&page=${page}`, { token: reader.token }),
        ),
      );
    // Page 3 is cached: charged at once.
    expect((await open(3)).every((r) => r.code === 0)).toBe(true);
    // Page 25 is not translated yet: one hold, settled when the page is complete.
    expect((await open(25)).every((r) => r.code === 0)).toBe(true);
    expect((await readWholePage(reader.token, 25)).data.charge).toEqual({ points: FRESH_PAGE, charged: true });
    const charges = await expenditures(reader.id, 'translation');
    expect(charges.map((c) => Number(c.points)).sort()).toEqual([CACHED_PAGE, FRESH_PAGE].sort());
    expect(await balanceOf(reader.id)).toEqual({ balance: 100 - CACHED_PAGE - FRESH_PAGE, held: 0 });
    await expectLedgersMatchBalances();
  });

  it('answers one AI request id once: 20 at once make one answer and one charge', async () => {
    const reader = await userWith('repeater', 100);
    llm.setBehaviour({ reply: () => 'It means the author hid the true story.', chunkChars: 4, chunkDelayMs: 5 });
    const before = chatCalls(llm);
    const body = {
      bookCode: dream,
      blockId: 'c1-b2',
      selection: '将真事隐去',
      language: 'en',
      requestId: 'same-request-0001',
      stream: false,
    };
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.call('POST', '/api/reader/ai/explain', { token: reader.token, body, ip: `10.1.0.${i + 1}` }),
      ),
    );
    expect(chatCalls(llm) - before).toBe(1);
    const answered = results.filter((r) => r.code === 0);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(answered.every((r) => r.data.text === 'It means the author hid the true story.')).toBe(true);
    expect(
      results.filter((r) => r.code !== 0).every((r) => r.status === 409 && r.data.key === 'requestInProgress'),
    ).toBe(true);

    // Asked again afterwards: the same answer, paid once; the same id cannot buy another selection.
    const again = await t.call('POST', '/api/reader/ai/explain', { token: reader.token, body, ip: '10.1.1.1' });
    expect(again.data).toEqual({
      text: 'It means the author hid the true story.',
      charge: { points: 2, charged: true },
    });
    const other = await t.call('POST', '/api/reader/ai/explain', {
      token: reader.token,
      body: { ...body, selection: '通灵' },
      ip: '10.1.1.2',
    });
    expect(other.status).toBe(409);
    expect(other.data.key).toBe('requestIdReused');
    expect(chatCalls(llm) - before).toBe(1);
    expect(await expenditures(reader.id, 'explanation')).toHaveLength(1);
    expect(await balanceOf(reader.id)).toEqual({ balance: 100 - PRICE.explanation, held: 0 });
    await expectLedgersMatchBalances();
  });

  it('answers only the explanations a balance covers: 20 at once on a balance for 2', async () => {
    const reader = await userWith('thrifty', 2 * PRICE.explanation + 1);
    llm.setBehaviour({ reply: () => 'An explanation.', chunkChars: 4, chunkDelayMs: 5 });
    const before = chatCalls(llm);
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.call('POST', '/api/reader/ai/explain', {
          token: reader.token,
          body: { bookCode: dream, blockId: 'c1-b3', selection: '列位看官', language: 'en', stream: false },
          ip: `10.2.0.${i + 1}`,
        }),
      ),
    );
    expect(count(results, (r) => r.code === 0)).toBe(2);
    expect(count(results, (r) => r.status === 402 && r.data.key === 'insufficientPoints')).toBe(PARALLEL - 2);
    expect(chatCalls(llm) - before).toBe(2);
    expect(await expenditures(reader.id, 'explanation')).toHaveLength(2);
    expect(await balanceOf(reader.id)).toEqual({ balance: 1, held: 0 });
    await expectLedgersMatchBalances();
  });

  it('answers only the annotations a balance covers, and charges none that found nothing', async () => {
    const reader = await userWith('annotator', 2 * PRICE.annotation + 1);
    llm.setBehaviour({
      reply: () => JSON.stringify({ notes: [{ p: 1, term: 'Ishmael', kind: 'name', note: 'The narrator.' }] }),
    });
    const annotate = (page: number, language: string, i: number) =>
      t.call('POST', '/api/reader/ai/annotate', {
        token: reader.token,
        body: { bookCode: moby, page, language },
        ip: `10.3.${page}.${i}`,
      });
    const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => annotate(i + 1, 'zh', 1)));
    expect(count(results, (r) => r.code === 0 && r.data.charge.charged)).toBe(2);
    expect(count(results, (r) => r.status === 402 && r.data.key === 'insufficientPoints')).toBe(PARALLEL - 2);
    expect(await expenditures(reader.id, 'annotation')).toHaveLength(2);

    expect(await balanceOf(reader.id)).toEqual({ balance: 1, held: 0 });

    // Nothing to note on these pages: answered, and free (the price held meanwhile is given back).
    const rich = await userWith('annotator2', 100);
    llm.setBehaviour({ reply: () => JSON.stringify({ notes: [] }) });
    const empty = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.call('POST', '/api/reader/ai/annotate', {
          token: rich.token,
          body: { bookCode: moby, page: i + 1, language: 'fr' },
          ip: `10.3.100.${i + 1}`,
        }),
      ),
    );
    expect(empty.every((r) => r.code === 0 && r.data.annotations.length === 0 && !r.data.charge.charged)).toBe(true);
    expect(await expenditures(rich.id, 'annotation')).toEqual([]);
    expect(await balanceOf(rich.id)).toEqual({ balance: 100, held: 0 });
    await expectLedgersMatchBalances();
  });

  it('answers only the AI searches a balance covers: 20 at once on a balance for 2', async () => {
    const reader = await userWith('seeker', 2 * PRICE.search + 1);
    llm.setBehaviour({ reply: () => 'The stone is from the myth of Nüwa [1].' });
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        t.call('POST', '/api/reader/search', {
          token: reader.token,
          body: { bookCode: dream, language: 'en', query: '石', ai: true },
          ip: `10.4.0.${i + 1}`,
        }),
      ),
    );
    expect(count(results, (r) => r.code === 0 && r.data.charge.charged)).toBe(2);
    expect(count(results, (r) => r.status === 402 && r.data.key === 'insufficientPoints')).toBe(PARALLEL - 2);
    expect(await expenditures(reader.id, 'search')).toHaveLength(2);
    expect(await balanceOf(reader.id)).toEqual({ balance: 1, held: 0 });
    await expectLedgersMatchBalances();
  });

  it('looks a word up once for everyone and answers only the lookups a balance covers: 20 at once', async () => {
    // A slow model: the 20 lookups of a word nobody asked about yet are all under way before it answers.
    llm.setBehaviour({
      latencyMs: 150,
      reply: () => JSON.stringify({ meaning: 'the stone that can speak with spirits', pronunciation: 'tōng líng' }),
    });
    const word = { bookCode: dream, language: 'en', text: '通灵', sentence: '而借通灵之说，撰此石头记一书也。' };
    const lookup = (token: string, i: number, ip = `10.5.0.${i + 1}`) =>
      t.call('POST', '/api/reader/lookup', { token, body: word, ip });
    const poor = await userWith('wordy', 2 * PRICE.lookup + 1);
    const before = chatCalls(llm);
    const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => lookup(poor.token, i)));
    llm.setBehaviour({ latencyMs: 0 });
    // One model call however many asked at once; never more answers than were paid for.
    expect(chatCalls(llm) - before).toBe(1);
    const answered = results.filter((r) => r.code === 0);
    expect(answered.length).toBeGreaterThanOrEqual(2);
    expect(answered.every((r) => r.data.charge.charged && r.data.entry.meaning.startsWith('the stone'))).toBe(true);
    expect(count(results, (r) => r.status === 402 && r.data.key === 'insufficientPoints')).toBe(
      PARALLEL - answered.length,
    );
    const charges = await expenditures(poor.id, 'lookup');
    expect(charges).toHaveLength(answered.length);
    const spent = answered.reduce((n, r) => n + (r.data.charge.points as number), 0);
    expect(charges.reduce((n, c) => n + Number(c.points), 0)).toBe(spent);
    // The one whose call made the entry paid the full price; the others got it made, at the cached price.
    expect(answered.map((r) => r.data.charge.points).sort()).toEqual([
      ...Array(answered.length - 1).fill(PRICE.lookupCached),
      PRICE.lookup,
    ]);
    expect(await balanceOf(poor.id)).toEqual({ balance: 2 * PRICE.lookup + 1 - spent, held: 0 });

    // Another reader gets the entry from the cache, at the cached price, without a call.
    const other = await userWith('wordy2', 10);
    const cached = await lookup(other.token, 0, '10.5.1.1');
    expect(cached.data).toMatchObject({ cached: true, charge: { points: PRICE.lookupCached, charged: true } });
    expect(chatCalls(llm) - before).toBe(1);

    // Cached lookups, 20 at once, on a balance that covers 2 of them: exactly 2 answered.
    const thrifty = await userWith('wordy3', 2 * PRICE.lookupCached);
    const race = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => lookup(thrifty.token, i, `10.5.2.${i + 1}`)),
    );
    expect(count(race, (r) => r.code === 0 && r.data.cached && r.data.charge.charged)).toBe(2);
    expect(count(race, (r) => r.status === 402 && r.data.key === 'insufficientPoints')).toBe(PARALLEL - 2);
    expect(await expenditures(thrifty.id, 'lookup')).toHaveLength(2);
    expect(await balanceOf(thrifty.id)).toEqual({ balance: 0, held: 0 });
    expect(chatCalls(llm) - before).toBe(1);
    await expectLedgersMatchBalances();
  });

  it('resolves the holds of a process that died: released when nothing was delivered, else charged', async () => {
    const reader = await userWith('orphan', 50);
    const points = t.running.services.points;
    // An explanation whose process died before the answer: its hold outlives its expiry.
    await points.reserve(reader.id, {
      action: 'explanation',
      key: 'explanation:dead-process-01',
      content: { selection: 'x' },
      points: PRICE.explanation,
      detail: {},
      ttlSeconds: -1,
    });
    // A page opened by a process that died while its translation went on elsewhere (the backup job).
    await readWholePage(owner, 26);
    const pageHold = await points.reserve(reader.id, {
      action: 'translation',
      key: `page:${(await t.running.services.books.repo.findBookByCode(moby))!.id}:zh:26`,
      content: {},
      points: FRESH_PAGE,
      detail: {},
      ttlSeconds: -1,
    });
    expect(await balanceOf(reader.id)).toEqual({ balance: 50, held: PRICE.explanation + FRESH_PAGE });

    expect(await points.sweepExpired()).toBe(2);
    // The page was delivered in full, from the shared translations: charged at the cached price.
    const charges = await expenditures(reader.id, 'translation');
    expect(charges.map((c) => [c.idempotency_key, Number(c.points)])).toEqual([[pageHold.hold.key, CACHED_PAGE]]);
    expect(await expenditures(reader.id, 'explanation')).toEqual([]);
    expect(await balanceOf(reader.id)).toEqual({ balance: 50 - CACHED_PAGE, held: 0 });
    expect(await points.sweepExpired()).toBe(0);
    await expectLedgersMatchBalances();
  });
});
