import { request } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, seedPagedBook, startTestApp, type CallResult, type TestApp } from '../../../test/helpers.ts';
import { RETRY_BASE_SECONDS } from './retries.ts';

/**
 * Failed translations come back by themselves: a failed block waits (longer after each failure),
 * is then tried again when its page is read, once however many readers ask, and at once after an
 * engine-settings change, whose event streams hear of it without being asked.
 */

const PARAGRAPHS_PER_PAGE = 4;
const PAGES = 12;
const ADMIN = { account: 'ops', password: 'Ops2026pass' };
/** Nothing listens on port 9 of the loopback: an engine pointed there fails at once. */
const DEAD_ENDPOINT = 'http://127.0.0.1:9';

type Block = { id: string; status: string; translation: string | null; text: string };

/**
 * Paragraphs of a page sent to the fake translator since its last resetStats() (the next page, prepared
 * ahead by the worker, may be translated meanwhile: its paragraphs are not counted).
 */
function paragraphsTranslated(fake: FakeMicrosoft, page: number): number {
  const first = (page - 1) * PARAGRAPHS_PER_PAGE + 1;
  const onPage = (text: string) => {
    const n = Number(/^Paragraph (\d+)\./.exec(text)?.[1]);
    return n >= first && n < first + PARAGRAPHS_PER_PAGE;
  };
  return fake.calls
    .filter((c) => c.path === '/translate' && c.method === 'POST' && Array.isArray(c.json))
    .flatMap((c) => c.json as { Text: string }[])
    .filter((item) => onPage(item.Text)).length;
}

/** A public English book of PAGES pages of PARAGRAPHS_PER_PAGE paragraphs, written into the database. */
function seedBook(t: TestApp, owner: string): Promise<string> {
  return seedPagedBook(t, owner, {
    pages: PAGES,
    paragraphsPerPage: PARAGRAPHS_PER_PAGE,
    text: (i) => `Paragraph ${i}. ` + 'Whenever I find myself growing grim about the mouth, I go to sea. '.repeat(4),
  });
}

describe('failed translations are tried again by themselves', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let admin: string;
  let alice: string;
  let code: string;
  let bookId: number;

  const pageUrl = (page: number, language = 'zh') =>
    `/api/reader/getPageData?bookCode=${code}&language=${language}&page=${page}`;

  /** Asks for the page until none of its blocks is pending. */
  async function settledPage(token: string, page: number, language = 'zh'): Promise<CallResult> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await t.call('GET', pageUrl(page, language), { token });
      if (res.code !== 0 || res.data.blocks.every((b: Block) => b.status !== 'pending')) return res;
      if (Date.now() > deadline) throw new Error(`page ${page} still pending`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The stored translation rows of a page, in order. */
  async function rowsOf(page: number, language = 'zh') {
    return t.running.infra.db
      .selectFrom('book_translations as t')
      .innerJoin('book_blocks as b', (j) => j.onRef('b.book_id', '=', 't.book_id').onRef('b.seq', '=', 't.seq'))
      .select(['t.seq', 't.status', 't.failures', 't.retry_at', 't.updated_at'])
      .where('t.book_id', '=', bookId)
      .where('t.target_lang', '=', language)
      .where('b.page', '=', page)
      .orderBy('t.seq')
      .execute();
  }

  /** Time passes: the page's failed blocks reach their retry time (or, `later`, have an hour to go). */
  async function waitIsOver(page: number, language = 'zh', later = false) {
    await sql`
      UPDATE book_translations t SET retry_at = now() + ${later ? '1 hour' : '-1 second'}::interval
      FROM book_blocks b
      WHERE b.book_id = t.book_id AND b.seq = t.seq AND t.book_id = ${bookId} AND t.target_lang = ${language}
        AND b.page = ${page} AND t.status = 'failed'`.execute(t.running.infra.db);
  }

  async function pageCharges(token: string, page: number, language = 'zh') {
    const ledger = await t.call('GET', '/api/integral/record/list?type=expenditure', { token });
    return ledger.data.items.filter(
      (r: { reason: string; detail: { page: number; language: string } }) =>
        r.reason === 'translation' && r.detail.page === page && r.detail.language === language,
    );
  }

  async function saveMicrosoftEndpoint(endpoint: string) {
    const saved = await t.call('PUT', '/api/admin/engines', {
      token: admin,
      body: [{ name: 'microsoft', enabled: true, endpoint }],
    });
    expect(saved.code).toBe(0);
  }

  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      ADMIN_ACCOUNT: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
    });
    admin = (await t.call('POST', '/api/auth/login', { body: ADMIN })).data.token;
    alice = await registerUser(t, 'alice');
    code = await seedBook(t, 'alice');
    bookId = (
      await t.running.infra.db.selectFrom('books').select('id').where('code', '=', code).executeTakeFirstOrThrow()
    ).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('waits after a failure, then one of many readers starts the retry and the page is charged for what it delivered', async () => {
    fake.setBehaviour({ down: true });
    const failed = await settledPage(alice, 3);
    expect(failed.data.blocks.map((b: Block) => b.status)).toEqual(Array(PARAGRAPHS_PER_PAGE).fill('failed'));
    expect(failed.data.charge).toEqual({ points: 0, charged: false });
    const before = Date.now();
    for (const row of await rowsOf(3)) {
      expect(row.failures).toBe(1);
      const wait = row.retry_at!.getTime() - row.updated_at.getTime();
      expect(wait).toBeGreaterThanOrEqual(RETRY_BASE_SECONDS * 750 - 50);
      expect(wait).toBeLessThanOrEqual(RETRY_BASE_SECONDS * 1250 + 50);
    }

    // Before its time the page is read as it is: the engine is not asked again (it is back up, even).
    fake.setBehaviour({ down: false });
    fake.resetStats();
    for (let i = 0; i < 5; i++) {
      const again = await t.call('GET', pageUrl(3), { token: alice });
      expect(again.data.blocks.every((b: Block) => b.status === 'failed')).toBe(true);
    }
    expect(paragraphsTranslated(fake, 3)).toBe(0);
    expect(Date.now() - before).toBeLessThan(RETRY_BASE_SECONDS * 750);

    // Its time has come: twenty requests at once, each paragraph goes to the engine once.
    await waitIsOver(3);
    const burst = await Promise.all(Array.from({ length: 20 }, () => t.call('GET', pageUrl(3), { token: alice })));
    expect(burst.every((r) => r.code === 0)).toBe(true);
    const recovered = await settledPage(alice, 3);
    expect(
      recovered.data.blocks.every((b: Block) => b.status === 'done' && b.translation?.startsWith('[zh-Hans] ')),
    ).toBe(true);
    expect(paragraphsTranslated(fake, 3)).toBe(PARAGRAPHS_PER_PAGE);
    for (const row of await rowsOf(3)) expect(row).toMatchObject({ failures: 0, retry_at: null });

    // Charged once, at the price of what was translated for alice.
    const chars = recovered.data.blocks.reduce((n: number, b: Block) => n + b.text.length, 0);
    expect(recovered.data.charge).toEqual({ points: Math.ceil((chars * 2) / 1000), charged: true });
    const charges = await pageCharges(alice, 3);
    expect(charges).toHaveLength(1);
  });

  it('waits twice as long after a second failure', async () => {
    fake.setBehaviour({ down: true });
    await settledPage(alice, 5);
    await waitIsOver(5);
    // Read when due: tried again (pending), and failed again.
    const retried = await t.call('GET', pageUrl(5), { token: alice });
    expect(retried.data.blocks.some((b: Block) => b.status === 'pending')).toBe(true);
    const failedAgain = await settledPage(alice, 5);
    expect(failedAgain.data.blocks.every((b: Block) => b.status === 'failed')).toBe(true);
    for (const row of await rowsOf(5)) {
      expect(row.failures).toBe(2);
      const wait = row.retry_at!.getTime() - row.updated_at.getTime();
      expect(wait).toBeGreaterThanOrEqual(2 * RETRY_BASE_SECONDS * 750 - 50);
      expect(wait).toBeLessThanOrEqual(2 * RETRY_BASE_SECONDS * 1250 + 50);
    }
    // A page of failures is charged nothing.
    expect(await pageCharges(alice, 5)).toHaveLength(0);
    fake.setBehaviour({ down: false });
  });

  it('retries failed blocks at once after an engine-settings change, and tells the open event stream', async () => {
    await saveMicrosoftEndpoint(DEAD_ENDPOINT);
    const failed = await settledPage(alice, 7);
    expect(failed.data.blocks.every((b: Block) => b.status === 'failed')).toBe(true);
    // An hour before their retry time.
    await waitIsOver(7, 'zh', true);

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const events: { event: string; data: { id?: string; status?: string; translation?: string | null } }[] = [];
    const streamed = new Promise<void>((resolve, reject) => {
      request(
        {
          host: '127.0.0.1',
          port,
          path: `/api/reader/events?bookCode=${code}&language=zh&page=7`,
          headers: { authorization: `Bearer ${alice}` },
        },
        (res) => {
          let buffer = '';
          res.on('data', (chunk: Buffer) => {
            buffer += chunk.toString();
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const text = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const event = /^event: (.+)$/m.exec(text)?.[1];
              const data = /^data: (.+)$/m.exec(text)?.[1];
              if (event && data) events.push({ event, data: JSON.parse(data) });
            }
          });
          res.on('end', () => resolve());
        },
      )
        .on('error', reject)
        .end();
    });
    // The stream starts with the failed blocks and stays open: they are not the end of the page.
    const opened = Date.now();
    while (events.filter((e) => e.event === 'block').length < PARAGRAPHS_PER_PAGE) {
      if (Date.now() - opened > 10_000) throw new Error('the stream did not send the failed blocks');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(events.every((e) => e.event === 'block' && e.data.status === 'failed')).toBe(true);

    // The admin points the engine at a working service: no reader asks for anything, the stream follows.
    fake.resetStats();
    await saveMicrosoftEndpoint(fake.url);
    await streamed;
    const done = events.filter((e) => e.event === 'block' && e.data.status === 'done');
    expect(done).toHaveLength(PARAGRAPHS_PER_PAGE);
    expect(done.every((e) => e.data.translation?.startsWith('[zh-Hans] '))).toBe(true);
    expect(events.at(-1)?.event).toBe('complete');
    expect(paragraphsTranslated(fake, 7)).toBe(PARAGRAPHS_PER_PAGE);
    expect(await pageCharges(alice, 7)).toHaveLength(1);
  });

  it('retries the failed blocks of a page already paid for when it is read again after an engine change', async () => {
    // The first paragraph is in the shared memory; the engine cannot be reached for the others.
    const [first] = await t.running.infra.db
      .selectFrom('book_blocks')
      .select('text')
      .where('book_id', '=', bookId)
      .where('page', '=', 9)
      .orderBy('seq')
      .execute();
    await t.running.services.translation.remember(
      [{ source: first!.text, translation: '[fr] from memory', engine: 'microsoft', model: '', glossaryKey: '' }],
      'en',
      'fr',
    );
    await saveMicrosoftEndpoint(DEAD_ENDPOINT);
    const failed = await settledPage(alice, 9, 'fr');
    expect(failed.data.blocks.map((b: Block) => b.status)).toEqual(['done', 'failed', 'failed', 'failed']);
    // Finished and paid for (the paragraph it delivered): a page the reader may turn back to, and
    // read from memory, but never kept there with its failures.
    expect(failed.data.charge.charged).toBe(true);
    await settledPage(alice, 9, 'fr');
    await waitIsOver(9, 'fr', true);
    await saveMicrosoftEndpoint(fake.url);
    // The settings reach every process by notification; reading the page again then retries it.
    const deadline = Date.now() + 10_000;
    let page: CallResult;
    do {
      await new Promise((r) => setTimeout(r, 100));
      page = await settledPage(alice, 9, 'fr');
    } while (page.data.blocks.some((b: Block) => b.status !== 'done') && Date.now() < deadline);
    expect(page.data.blocks.every((b: Block) => b.status === 'done' && b.translation?.startsWith('[fr] '))).toBe(true);
  });
});
