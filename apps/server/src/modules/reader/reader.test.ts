import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import {
  CORPUS,
  pollStage,
  registerUser,
  startTestApp,
  STRONG_PASSWORD,
  uploadFile,
  type TestApp,
} from '../../../test/helpers.ts';
import { PointsService } from '../points/points.service.ts';

/** Uploads a corpus file through the pipeline and returns its book code. */
async function uploadBook(t: TestApp, token: string, file: string, bookStatus: 0 | 1): Promise<string> {
  const upload = await uploadFile(
    t,
    '/api/book/upload',
    { name: path.basename(file), data: await readFile(path.join(CORPUS, file)) },
    token,
  );
  const saved = await t.call('POST', '/api/book/saveNew', {
    token,
    body: { fileId: upload.data.fileId, bookName: path.basename(file), bookStatus, language: 'zh' },
  });
  const id = saved.data.requestId;
  for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
    const res = await pollStage(t, `/api/book/${stage}?requestId=${id}`, token);
    if (stage === 'saveBookById') return res.data.result.bookCode;
  }
  throw new Error('unreachable');
}

async function readWholePage(t: TestApp, token: string, url: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await t.call('GET', url, { token });
    if (res.code !== 0 || res.data.blocks.every((b: { status: string }) => b.status !== 'pending')) return res;
    if (Date.now() > deadline) throw new Error('page still pending');
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('reading a translated page', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let alice: string;
  let bob: string;
  let code: string;
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
    });
    alice = await registerUser(t, 'alice');
    bob = await registerUser(t, 'bob');
    code = await uploadBook(t, alice, 'txt/en-pride-and-prejudice-cp1252-crlf.txt', 1);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('translated the title through the engine during the upload', async () => {
    const detail = await t.call('GET', `/api/book/user/getBookByCode?bookCode=${code}`, { token: alice });
    expect(detail.data.originalLanguage).toBe('en');
  });

  it('starts translating a page when it is asked for, then serves it translated and charges it once', async () => {
    const url = `/api/reader/getPageData?bookCode=${code}&language=zh&page=2`;
    const first = await t.call('GET', url, { token: alice });
    expect(first.code).toBe(0);
    expect(first.data).toMatchObject({ page: 2, translated: true });
    expect(first.data.pageCount).toBeGreaterThan(60);
    expect(first.data.chapter.title).not.toBe('');
    expect(first.data.blocks.length).toBeGreaterThan(0);

    const done = await readWholePage(t, alice, url);
    for (const block of done.data.blocks) {
      expect(block.status).toBe('done');
      expect(block.translation).toMatch(/^\[zh-Hans\] /);
    }
    const chars = done.data.blocks.reduce((n: number, b: { text: string }) => n + b.text.length, 0);
    expect(done.data.charge).toEqual({ points: Math.ceil((chars * 2) / 1000), charged: true });

    const ledger = await t.call('GET', '/api/integral/record/list?type=expenditure', { token: alice });
    const pageCharges = ledger.data.items.filter(
      (r: { reason: string; detail: { page: number } }) => r.reason === 'translation' && r.detail.page === 2,
    );
    expect(pageCharges).toHaveLength(1);
    // The history says what was bought, by the title the reader knows the book by, kept in the row.
    expect(pageCharges[0].detail).toMatchObject({
      bookCode: code,
      bookTitle: 'Pride and Prejudice', // the title the file declares (Gutenberg header)
      page: 2,
      language: 'zh',
    });
    // Reading the page again costs nothing more.
    await t.call('GET', url, { token: alice });
    expect(
      (await t.call('GET', '/api/integral/record/list?type=expenditure', { token: alice })).data.items.filter(
        (r: { detail: { page: number } }) => r.detail.page === 2,
      ),
    ).toHaveLength(1);
  });

  it('serves a second reader of the public book from memory: zero engine calls, the cached price', async () => {
    const url = `/api/reader/getPageData?bookCode=${code}&language=zh&page=2`;
    await readWholePage(t, alice, url);
    const before = fake.calls.length;
    const res = await readWholePage(t, bob, url);
    // Alice's reading prepares page 3 ahead meanwhile: only calls carrying page 2's text count here.
    const texts = res.data.blocks.map((b: { text: string }) => JSON.stringify(b.text).slice(1, -1).slice(0, 40));
    const carriesThisPage = (c: (typeof fake.calls)[number]) =>
      c.path.startsWith('/translate') &&
      !c.path.startsWith('/translate/auth') &&
      texts.some((text: string) => c.body.includes(text));
    expect(fake.calls.slice(0, before).filter(carriesThisPage).length).toBeGreaterThan(0); // Alice's, when first read
    expect(fake.calls.slice(before).filter(carriesThisPage)).toEqual([]);
    const chars = res.data.blocks.reduce((n: number, b: { text: string }) => n + b.text.length, 0);
    expect(res.data.charge).toEqual({ points: Math.ceil((chars * 1) / 1000), charged: true });
  });

  it('prepares the next page ahead', async () => {
    await readWholePage(t, alice, `/api/reader/getPageData?bookCode=${code}&language=zh&page=5`);
    const deadline = Date.now() + 20_000;
    let next;
    do {
      await new Promise((r) => setTimeout(r, 200));
      next = await t.running.infra.db
        .selectFrom('book_translations as t')
        .innerJoin('book_blocks as b', (j) => j.onRef('b.book_id', '=', 't.book_id').onRef('b.seq', '=', 't.seq'))
        .select('t.status')
        .where('b.page', '=', 6)
        .execute();
    } while (next.some((r) => r.status !== 'done') && Date.now() < deadline);
    expect(next.length).toBeGreaterThan(0);
    expect(next.every((r) => r.status === 'done')).toBe(true);
  });

  it('streams translations as server-sent events until the page is complete', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    fake.setBehaviour({ latencyMs: 150 });
    const body = await new Promise<string>((resolve, reject) => {
      request(
        {
          host: '127.0.0.1',
          port,
          path: `/api/reader/events?bookCode=${code}&language=zh&page=9`,
          headers: { authorization: `Bearer ${alice}` },
        },
        (res) => {
          expect(res.headers['content-type']).toContain('text/event-stream');
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        },
      )
        .on('error', reject)
        .end();
    });
    fake.setBehaviour({});
    const events = body.split('\n\n').filter((e) => e.startsWith('event:'));
    const blocks = events.filter((e) => e.startsWith('event: block'));
    expect(blocks.length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatch(/^event: complete/);
    const firstBlock = JSON.parse(blocks[0]!.split('data: ')[1]!);
    expect(firstBlock.translation).toMatch(/^\[zh-Hans\]/);
  });

  it('sends blocks finished before the stream opened, so a reader never misses one', async () => {
    const url = `/api/reader/getPageData?bookCode=${code}&language=zh&page=2`;
    const page = await readWholePage(t, alice, url);
    const port = (t.app.server.address() as { port: number }).port;
    const body = await new Promise<string>((resolve, reject) => {
      request(
        {
          host: '127.0.0.1',
          port,
          path: `/api/reader/events?bookCode=${code}&language=zh&page=2`,
          headers: { authorization: `Bearer ${alice}` },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        },
      )
        .on('error', reject)
        .end();
    });
    const events = body.split('\n\n').filter((e) => e.startsWith('event:'));
    const sent = events.filter((e) => e.startsWith('event: block')).map((e) => JSON.parse(e.split('data: ')[1]!));
    expect(sent.map((b) => b.id)).toEqual(page.data.blocks.map((b: { id: string }) => b.id));
    expect(sent.every((b) => b.status === 'done' && b.translation.startsWith('[zh-Hans]'))).toBe(true);
    expect(events.at(-1)).toMatch(/^event: complete/);
  });

  it('marks blocks failed when every engine fails, charges nothing for them, and retries on request', async () => {
    fake.setBehaviour({ failNext: Array.from({ length: 40 }, () => ({ status: 500 })) });
    const url = `/api/reader/getPageData?bookCode=${code}&language=ko&page=3`;
    await t.call('GET', url, { token: alice });
    const failed = await readWholePage(t, alice, url);
    expect(failed.data.blocks.every((b: { status: string }) => b.status === 'failed')).toBe(true);
    expect(failed.data.charge).toEqual({ points: 0, charged: false });

    fake.setBehaviour({ failNext: [] });
    const ids = failed.data.blocks.map((b: { id: string }) => b.id).join(',');
    await t.call('GET', `${url}&retry=${ids}`, { token: alice });
    const recovered = await readWholePage(t, alice, url);
    expect(
      recovered.data.blocks.every(
        (b: { status: string; translation: string }) => b.status === 'done' && b.translation.startsWith('[ko]'),
      ),
    ).toBe(true);
    expect(recovered.data.charge.charged).toBe(true);
  });

  it('asks users in confirmation mode to confirm the price first', async () => {
    await t.call('POST', '/api/user/updateUserinfo', { token: bob, body: { deductMode: 'deductAfterConfirmation' } });
    const url = `/api/reader/getPageData?bookCode=${code}&language=fr&page=4`;
    const quote = await t.call('GET', url, { token: bob });
    expect(quote.status).toBe(409);
    expect(quote.data).toMatchObject({ key: 'pointsConfirmationRequired', action: 'translation', page: 4 });
    expect(quote.data.points).toBeGreaterThan(0);
    const confirmed = await t.call('GET', `${url}&confirm=true`, { token: bob });
    expect(confirmed.code).toBe(0);
    await t.call('POST', '/api/user/updateUserinfo', { token: bob, body: { deductMode: 'autoDeduct' } });
  });

  it('refuses to start paid work without enough points', async () => {
    // Nothing left to spend: what bob has is promised to the page he opened above.
    await t.running.infra.db
      .updateTable('users')
      .set({ points_balance: sql`points_held` })
      .where('account', '=', 'bob')
      .execute();
    const res = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=de&page=7`, { token: bob });
    expect(res.status).toBe(402);
    expect(res.data.key).toBe('insufficientPoints');
  });

  it('does not translate or charge a book already in the target language', async () => {
    const res = await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=English&page=1`, {
      token: alice,
    });
    expect(res.data).toMatchObject({ translated: false, charge: null });
    expect(
      res.data.blocks.every(
        (b: { status: string; translation: null }) => b.status === 'done' && b.translation === null,
      ),
    ).toBe(true);
  });

  it('checks the book, the language and the page', async () => {
    expect(
      (await t.call('GET', `/api/reader/getPageData?bookCode=nope&language=zh&page=1`, { token: alice })).data.key,
    ).toBe('bookNotFound');
    expect(
      (await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=xx&page=1`, { token: alice })).data.key,
    ).toBe('noSuchLanguage');
    expect(
      (await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=zh&page=99999`, { token: alice })).data
        .key,
    ).toBe('notFound');
    expect(
      (await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=zh&page=0`, { token: alice })).data.key,
    ).toBe('badRequest');
    expect((await t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=zh&page=1`)).status).toBe(401);
  });

  it('caps the page streams one reader holds open, and gives a place back when one closes', async () => {
    const port = (t.app.server.address() as { port: number }).port;
    // Slow enough that no stream ends by itself while the test looks at them (last in the file: the
    // slow batches it leaves behind would hold up the next test's pages).
    fake.setBehaviour({ latencyMs: 8_000 });
    const open = (token: string) =>
      new Promise<{ status: number; key?: string; close: () => void }>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: `/api/reader/events?bookCode=${code}&language=de&page=5`,
            headers: { authorization: `Bearer ${token}` },
          },
          (res) => {
            if (res.statusCode !== 200) {
              let text = '';
              res.on('data', (c: Buffer) => (text += c.toString()));
              res.on('end', () =>
                resolve({ status: res.statusCode!, key: JSON.parse(text).data.key, close: () => {} }),
              );
            } else resolve({ status: 200, close: () => req.destroy() });
          },
        );
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        req.end();
      });
    const reader = await registerUser(t, 'streamer');
    try {
      const streams = await Promise.all(Array.from({ length: 20 }, () => open(reader)));
      expect(streams.filter((s) => s.status === 200)).toHaveLength(6);
      expect(streams.filter((s) => s.status === 429).every((s) => s.key === 'tooManyStreams')).toBe(true);
      expect(streams.filter((s) => s.status === 429)).toHaveLength(14);
      // The same reader on another device has its own places, up to the reader's cap of 12.
      const login = await t.call('POST', '/api/auth/login', {
        body: { account: 'streamer', password: STRONG_PASSWORD },
      });
      const other = await Promise.all(Array.from({ length: 8 }, () => open(login.data.token)));
      expect(other.filter((s) => s.status === 200)).toHaveLength(6);
      // Closed streams give their places back.
      for (const s of [...streams, ...other]) s.close();
      const deadline = Date.now() + 10_000;
      let again = await open(reader);
      while (again.status !== 200 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        again = await open(reader);
      }
      expect(again.status).toBe(200);
      again.close();
      // Other calls were answered all along.
      expect((await t.call('GET', '/api/health')).status).toBe(200);
    } finally {
      fake.setBehaviour({});
    }
  });
});

describe('spending points', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false', STARTING_POINTS: '100' });
    await registerUser(t, 'spender');
  });
  afterAll(async () => t?.close());

  it('never goes below zero under concurrent spending, and the ledger always equals the balance', async () => {
    const db = t.running.infra.db;
    const user = await db.selectFrom('users').select('id').where('account', '=', 'spender').executeTakeFirstOrThrow();
    const points = new PointsService(db);
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) =>
        points.spend(user.id, { points: 10, reason: 'test', idempotencyKey: `k${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(
      results
        .filter((r) => r.status === 'rejected')
        .every((r) => (r as PromiseRejectedResult).reason.key === 'insufficientPoints'),
    ).toBe(true);

    // The same key twice is charged once.
    await points.grant(user.id, 50, 'adminGrant', 'grant-1');
    await points.grant(user.id, 50, 'adminGrant', 'grant-1');
    const [a, b] = await Promise.all([
      points.spend(user.id, { points: 20, reason: 'test', idempotencyKey: 'same' }),
      points.spend(user.id, { points: 20, reason: 'test', idempotencyKey: 'same' }),
    ]);
    expect([a.charged, b.charged].sort()).toEqual([false, true]);

    const row = await db
      .selectFrom('users')
      .select('points_balance')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const ledger = await db
      .selectFrom('points_ledger')
      .select(['type', 'points'])
      .where('user_id', '=', user.id)
      .execute();
    const sum = ledger.reduce((n, r) => n + (r.type === 'income' ? 1 : -1) * Number(r.points), 0);
    expect(Number(row.points_balance)).toBe(30);
    expect(sum).toBe(30);
  });
});
