import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { registerUser, startTestApp, type TestApp } from '../../../test/helpers.ts';
import { exportBook, uploadBook } from '../../../test/export-helpers.ts';

const STARTING = 100_000;

describe('translating a whole book on request', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let owner: string;
  let code: string;
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
      STARTING_POINTS: String(STARTING),
      RATE_LIMIT_PER_MINUTE: '100000',
    });
    owner = await registerUser(t, 'owner');
    // The Waste Land: a public book of a few pages, with notes.
    code = await uploadBook(t, owner, 'epub/en-wasteland-epub3-endnotes-obfuscated-fonts.epub', 1);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const db = () => t.running.infra.db;
  const userId = async (account: string) =>
    (await db().selectFrom('users').select('id').where('account', '=', account).executeTakeFirstOrThrow()).id;
  const page = (token: string, n: number, language = 'zh') =>
    t.call('GET', `/api/reader/getPageData?bookCode=${code}&language=${language}&page=${n}`, { token });
  const quote = (token: string, language = 'zh') =>
    t.call('GET', `/api/book/translation/quote?bookCode=${code}&language=${language}`, { token });
  const start = (token: string, points: number, language = 'zh') =>
    t.call('POST', '/api/book/translation/start', { token, body: { bookCode: code, language, points } });
  const status = (token: string, language = 'zh') =>
    t.call('GET', `/api/book/translation/status?bookCode=${code}&language=${language}`, { token });
  const finished = async (token: string, language = 'zh') => {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const res = await status(token, language);
      if (res.data?.state !== 'running') return res.data;
      if (Date.now() > deadline) throw new Error(`still running: ${JSON.stringify(res.data)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  /** The reader's page charges of this book, by key: each must be there once. */
  const pageCharges = async (account: string) =>
    (
      await sql<{ key: string; n: number; points: string; whole: boolean }>`
        SELECT idempotency_key AS key, count(*)::int AS n, sum(points)::text AS points,
               bool_or(coalesce((detail->>'wholeBook')::boolean, false)) AS whole
          FROM points_ledger WHERE user_id = ${await userId(account)} AND idempotency_key LIKE 'page:%'
         GROUP BY 1 ORDER BY 1`.execute(db())
    ).rows;
  /** Balance equal to the ledger, and no points held once nothing runs. */
  const books = async (account: string) => {
    const id = await userId(account);
    const row = await sql<{ balance: string; held: string; ledger: string }>`
      SELECT u.points_balance::text AS balance, u.points_held::text AS held,
             (SELECT coalesce(sum(CASE WHEN type = 'income' THEN points ELSE -points END), 0)
                FROM points_ledger WHERE user_id = u.id)::text AS ledger
        FROM users u WHERE u.id = ${id}`.execute(db());
    const { balance, held, ledger } = row.rows[0]!;
    return { balance: Number(balance), held: Number(held), ledger: Number(ledger) };
  };
  const pagesWithText = async () =>
    (
      await sql<{ n: number }>`
        SELECT count(DISTINCT page)::int AS n FROM book_blocks b JOIN books k ON k.id = b.book_id
         WHERE k.code = ${code} AND b.type IN ('heading', 'paragraph', 'quote', 'listItem', 'footnote', 'table')
           AND btrim(b.text) <> ''`.execute(db())
    ).rows[0]!.n;

  it('quotes the pages not paid for yet, asks again when the price rose, and translates and charges each page once', async () => {
    const alice = await registerUser(t, 'alice');
    // She has read page 2 already: it is hers, and not in the quote.
    for (let read = await page(alice, 2); read.data.charge?.charged !== true; read = await page(alice, 2))
      await new Promise((r) => setTimeout(r, 100));
    const first = await quote(alice);
    expect(first.code).toBe(0);
    const withText = await pagesWithText();
    expect(first.data).toMatchObject({ language: 'zh', pagesToPay: withText - 1, available: expect.any(Number) });
    expect(first.data.points).toBeGreaterThan(0);
    expect(first.data.freshCharacters).toBeGreaterThan(1000);

    const tooLittle = await start(alice, first.data.points - 1);
    expect(tooLittle.status).toBe(409);
    expect(tooLittle.data).toMatchObject({ key: 'pointsConfirmationRequired', points: first.data.points });

    const started = await start(alice, first.data.points);
    expect(started.code).toBe(0);
    expect(started.data).toMatchObject({ state: 'running', pointsReserved: first.data.points });
    // Starting again while it runs answers the same translation.
    expect((await start(alice, first.data.points)).data.id).toBe(started.data.id);

    const done = await finished(alice);
    expect(done).toMatchObject({ state: 'done', percent: 100, failedParagraphs: 0 });
    expect(done.pointsCharged).toBeGreaterThan(0);
    expect(done.pointsCharged).toBeLessThanOrEqual(first.data.points);

    const charges = await pageCharges('alice');
    expect(charges).toHaveLength(withText);
    expect(charges.every((c) => c.n === 1)).toBe(true);
    const drawn = charges.filter((c) => c.whole).reduce((n, c) => n + Number(c.points), 0);
    expect(drawn).toBe(done.pointsCharged);
    // The history shows the job as one line with its pages and points (the ledger keeps a row per page).
    const history = await t.call('GET', '/api/integral/record/list?type=expenditure&pageSize=100', { token: alice });
    const lines = history.data.items.filter((i: { reason: string }) => i.reason === 'translation');
    const whole = lines.filter((i: { detail: { wholeBook?: boolean } }) => i.detail.wholeBook);
    expect(whole).toHaveLength(1);
    expect(whole[0]).toMatchObject({
      points: drawn,
      detail: { bookCode: code, language: 'zh', pages: charges.filter((c) => c.whole).length, wholeBook: true },
    });
    expect(whole[0].detail.page).toBeUndefined();
    expect(whole[0].pointsBefore - whole[0].pointsAfter).toBe(drawn);
    expect(lines).toHaveLength(1 + charges.filter((c) => !c.whole).length);
    expect(history.data.total).toBe(history.data.items.length);
    expect(await books('alice')).toEqual({
      balance: STARTING - charges.reduce((n, c) => n + Number(c.points), 0),
      held: 0,
      ledger: STARTING - charges.reduce((n, c) => n + Number(c.points), 0),
    });
    // Every page is hers now: nothing more to pay, and the book exports.
    expect((await quote(alice)).data).toMatchObject({ points: 0, pagesToPay: 0, paragraphsToTranslate: 0 });
    expect((await page(alice, 3)).data.charge).toMatchObject({ charged: true });
    expect((await pageCharges('alice')).length).toBe(withText);
    expect((await exportBook(t, alice, `bookCode=${code}&language=zh`)).status).toBe(200);
  }, 120_000);

  it('charges pages read during the translation out of its reservation, in confirmation mode too, never twice', async () => {
    const bob = await registerUser(t, 'bob');
    await t.call('POST', '/api/user/updateUserinfo', { token: bob, body: { deductMode: 'deductAfterConfirmation' } });
    // Into French: nothing is translated yet, and the engine is slow, so the reader gets ahead of the job.
    fake.setBehaviour({ latencyMs: 400 });
    const offer = (await quote(bob, 'fr')).data;
    const started = await start(bob, offer.points, 'fr');
    expect(started.data.state).toBe('running');
    const pageCount = started.data.pageCount;
    let last;
    const deadline = Date.now() + 30_000;
    do {
      // No price to confirm: the page is paid for by the whole-book translation.
      last = await page(bob, pageCount, 'fr');
      expect(last.code).toBe(0);
      await new Promise((r) => setTimeout(r, 200));
    } while (last.data.blocks.some((b: { status: string }) => b.status === 'pending') && Date.now() < deadline);
    last = await page(bob, pageCount, 'fr');
    expect(last.data.charge).toMatchObject({ charged: true });
    fake.setBehaviour({});
    const done = await finished(bob, 'fr');
    expect(done.state).toBe('done');

    const charges = await pageCharges('bob');
    expect(charges).toHaveLength(await pagesWithText());
    expect(charges.every((c) => c.n === 1 && c.whole)).toBe(true);
    expect(charges.find((c) => c.key.endsWith(`:${pageCount}`))).toBeDefined();
    expect(charges.reduce((n, c) => n + Number(c.points), 0)).toBe(done.pointsCharged);
    const points = await books('bob');
    expect(points).toEqual({ balance: STARTING - done.pointsCharged, held: 0, ledger: STARTING - done.pointsCharged });
  }, 120_000);

  it('releases what is left of the price when cancelled; finished pages stay charged', async () => {
    const carol = await registerUser(t, 'carol');
    fake.setBehaviour({ latencyMs: 1_000 });
    const offer = (await quote(carol, 'de')).data;
    expect((await start(carol, offer.points, 'de')).data.state).toBe('running');
    const deadline = Date.now() + 30_000;
    while ((await status(carol, 'de')).data.pagesDone < 1) {
      if (Date.now() > deadline) throw new Error('no page finished');
      await new Promise((r) => setTimeout(r, 100));
    }
    const cancelled = await t.call('POST', '/api/book/translation/cancel', {
      token: carol,
      body: { bookCode: code, language: 'de' },
    });
    expect(cancelled.data.state).toBe('cancelled');
    fake.setBehaviour({});
    // Pages the running chunk finishes after the cancel are not charged out of the released reservation.
    await new Promise((r) => setTimeout(r, 3_000));
    const charges = await pageCharges('carol');
    const charged = charges.reduce((n, c) => n + Number(c.points), 0);
    expect(charges.length).toBeGreaterThan(0);
    expect(charges.length).toBeLessThan(await pagesWithText());
    expect(charged).toBeLessThan(offer.points);
    expect(await books('carol')).toEqual({ balance: STARTING - charged, held: 0, ledger: STARTING - charged });
    expect((await status(carol, 'de')).data).toMatchObject({ state: 'cancelled', pointsCharged: charged });
    // The rest can be quoted again: the pages paid for are left out.
    expect((await quote(carol, 'de')).data.pagesToPay).toBe((await pagesWithText()) - charges.length);
  }, 120_000);

  /** The reader's running translations with their reservations. */
  const runningJobs = async (account: string) =>
    (
      await sql<{ id: string; hold: string | null; status: string | null; points: string | null }>`
        SELECT j.id::text, j.hold_id::text AS hold, h.status, h.points::text
          FROM book_translation_jobs j LEFT JOIN points_holds h ON h.id = j.hold_id
         WHERE j.user_id = ${await userId(account)} AND j.status = 'running'`.execute(db())
    ).rows;
  const cancel = (token: string, language: string) =>
    t.call('POST', '/api/book/translation/cancel', { token, body: { bookCode: code, language } });

  it('makes one translation and one reservation of many starts at once, never a 500', async () => {
    const greg = await registerUser(t, 'greg');
    const gregRow = await db().selectFrom('users').selectAll().where('account', '=', 'greg').executeTakeFirstOrThrow();
    const service = t.running.services.bookTranslations;
    // Slow enough that every round's job is still running when it is looked at.
    fake.setBehaviour({ latencyMs: 300 });
    try {
      // Through HTTP once (the route allows 30 starts a minute per address), then at the service,
      // where the race lives, for enough rounds to catch it.
      for (let round = 0; round < 12; round += 1) {
        const offer = (await quote(greg, 'jp')).data;
        const viaHttp = round === 0;
        const answers = viaHttp
          ? await Promise.all(Array.from({ length: 10 }, () => start(greg, offer.points, 'jp')))
          : (
              await Promise.allSettled(
                Array.from({ length: 10 }, () =>
                  service.start(gregRow, { bookCode: code, language: 'jp', points: offer.points }),
                ),
              )
            ).map((a) => (a.status === 'fulfilled' ? { status: 200, data: a.value } : { status: 500, data: a.reason }));
        expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
        const ids = new Set(answers.map((a) => a.data.id));
        expect(ids.size).toBe(1);
        const running = await runningJobs('greg');
        expect(running).toHaveLength(1);
        // The job runs on its own reservation, still held, of the quoted price.
        expect(running[0]).toMatchObject({ id: String([...ids][0]), status: 'held', points: String(offer.points) });
        const live = await sql<{ n: number; held: string }>`
          SELECT count(*)::int AS n, coalesce(sum(points), 0)::text AS held FROM points_holds
           WHERE user_id = ${gregRow.id} AND status = 'held' AND action = 'bookTranslation'`.execute(db());
        expect(live.rows[0]!.n).toBe(1);
        expect((await cancel(greg, 'jp')).data.state).toBe('cancelled');
      }
    } finally {
      fake.setBehaviour({});
    }
    // Every page charged was paid for once; nothing is held once nothing runs.
    await new Promise((r) => setTimeout(r, 1_500));
    const charges = await pageCharges('greg');
    expect(charges.every((c) => c.n === 1)).toBe(true);
    const spent = charges.reduce((n, c) => n + Number(c.points), 0);
    expect(await books('greg')).toEqual({ balance: STARTING - spent, held: 0, ledger: STARTING - spent });
  }, 180_000);

  it('gives back a reservation that pays for no job before holding the new one', async () => {
    const hana = await registerUser(t, 'hana');
    const id = await userId('hana');
    const bookId = (await db().selectFrom('books').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
    // As an earlier version could leave it: the book's reservation held, and no job running on it.
    const { hold: orphan } = await t.running.services.points.reserve(id, {
      action: 'bookTranslation',
      key: `book:${bookId}:ru`,
      content: { bookId, language: 'ru' },
      points: 500,
      detail: {},
    });
    const offer = (await quote(hana, 'ru')).data;
    const started = await start(hana, offer.points, 'ru');
    expect(started.data).toMatchObject({ state: 'running', pointsReserved: offer.points });
    const running = await runningJobs('hana');
    expect(running).toHaveLength(1);
    expect(running[0]!.hold).not.toBe(orphan.id);
    expect((await books('hana')).held).toBe(offer.points);
    const done = await finished(hana, 'ru');
    expect(done).toMatchObject({ state: 'done', errorKey: null });
    expect(done.pointsCharged).toBeGreaterThan(0);
    expect(await books('hana')).toMatchObject({ held: 0, balance: STARTING - done.pointsCharged });
  }, 120_000);

  it('stops a job whose reservation was released rather than translate the rest for free', async () => {
    const ivan = await registerUser(t, 'ivan');
    fake.setBehaviour({ latencyMs: 500 });
    try {
      const offer = (await quote(ivan, 'ko')).data;
      expect((await start(ivan, offer.points, 'ko')).data.state).toBe('running');
      const [job] = await runningJobs('ivan');
      // What the race did: the reservation given back under the running job.
      expect(await t.running.services.points.release({ id: job!.hold! })).toBe(true);
      const ended = await finished(ivan, 'ko');
      expect(ended).toMatchObject({ state: 'failed', errorKey: 'quoteChanged' });
      expect(ended.pagesDone).toBeLessThan(ended.pageCount);
    } finally {
      fake.setBehaviour({});
    }
    expect(await books('ivan')).toMatchObject({ held: 0 });
  }, 120_000);

  it('retries failed batches with backoff and charges each page once', async () => {
    const dave = await registerUser(t, 'dave');
    fake.resetStats();
    // An outage: the next requests fail, more than the engine chain's own retries absorb, so batches fail.
    fake.setBehaviour({ failNext: Array.from({ length: 30 }, () => ({ status: 500 })) });
    const offer = (await quote(dave, 'es')).data;
    expect((await start(dave, offer.points, 'es')).code).toBe(0);
    const done = await finished(dave, 'es');
    expect(done).toMatchObject({ state: 'done', failedParagraphs: 0 });
    // The batches did fail (the engine was asked again for the same paragraphs).
    expect(
      fake.calls.filter((c) => c.path.startsWith('/translate') && !c.path.includes('auth')).length,
    ).toBeGreaterThan(30);
    const charges = await pageCharges('dave');
    expect(charges).toHaveLength(await pagesWithText());
    expect(charges.every((c) => c.n === 1)).toBe(true);
    expect(await books('dave')).toEqual({
      balance: STARTING - done.pointsCharged,
      held: 0,
      ledger: STARTING - done.pointsCharged,
    });
  }, 120_000);

  it('stops when the engines stay down, charging nothing for what failed and releasing the reservation', async () => {
    const frank = await registerUser(t, 'frank');
    // Every request fails, through the engine chain's retries and the job's own.
    fake.setBehaviour({ failNext: Array.from({ length: 10_000 }, () => ({ status: 400 })) });
    const offer = (await quote(frank, 'it')).data;
    expect((await start(frank, offer.points, 'it')).code).toBe(0);
    const ended = await finished(frank, 'it');
    fake.setBehaviour({});
    expect(ended).toMatchObject({ state: 'failed', errorKey: 'translationUnavailable', pointsCharged: 0 });
    expect(await pageCharges('frank')).toEqual([]);
    expect(await books('frank')).toEqual({ balance: STARTING, held: 0, ledger: STARTING });
  }, 120_000);

  it('refuses without enough points, and for the language the book is in', async () => {
    const erin = await registerUser(t, 'erin');
    await db()
      .updateTable('users')
      .set({ points_balance: 1 })
      .where('id', '=', await userId('erin'))
      .execute();
    await db()
      .insertInto('points_ledger')
      .values({
        user_id: await userId('erin'),
        type: 'expenditure',
        points: STARTING - 1,
        balance_before: STARTING,
        reason: 'test',
      })
      .execute();
    const offer = (await quote(erin, 'pt')).data;
    const refused = await start(erin, offer.points, 'pt');
    expect(refused.status).toBe(402);
    expect(refused.data.key).toBe('insufficientPoints');
    expect((await status(erin, 'pt')).data).toBeNull();
    expect((await quote(erin, 'en')).data.key).toBe('translationNotNeeded');
  });
});
