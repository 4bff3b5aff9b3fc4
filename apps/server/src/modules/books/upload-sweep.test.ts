import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../engines/translation/testing/fake-servers.ts';
import { pollStage, registerUser, startTestApp, uploadFile, type TestApp } from '../../../test/helpers.ts';
import { ABANDONED_AFTER_MINUTES } from './upload.service.ts';

const OPEN = { REQUIRE_INVITE: 'false', EMAIL_ACTIVATION: 'false' };
const ADMIN = { ADMIN_ACCOUNT: 'boss', ADMIN_PASSWORD: 'Boss2026pass' };

/** A short English story, different each time (files are stored once per content). */
const story = (title: string) =>
  Buffer.from(
    `${title}\n\n` +
      Array.from(
        { length: 12 },
        (_, i) =>
          `It was the ${i + 1}th evening of the long winter, and the old lighthouse keeper walked along the shore, ` +
          'counting the ships that passed in the fog and writing their names in a small black notebook.',
      ).join('\n\n'),
  );

/**
 * Uploads that nobody finishes: a tab closed at the title question, after the parse, or a stage whose
 * worker went away. The book ends up in the library, or the request in the uploader's list to
 * continue or discard; nothing stays "processing" for ever.
 */
describe('uploads that survive the tab', () => {
  let t: TestApp;
  let fake: FakeMicrosoft;
  let token: string;
  let other: string;
  let admin: string;
  beforeAll(async () => {
    fake = await startFakeMicrosoft();
    t = await startTestApp({ ...OPEN, ...ADMIN, MICROSOFT_TRANSLATOR_ENDPOINT: fake.url, STAGE_STALE_SECONDS: '2' });
    token = await registerUser(t, 'uploader');
    other = await registerUser(t, 'stranger');
    admin = (await t.call('POST', '/api/auth/login', { body: { account: 'boss', password: 'Boss2026pass' } })).data
      .token;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const db = () => t.running.infra.db;
  const request = (id: string) =>
    db().selectFrom('upload_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Time passes for a request: its last change moves back. */
  const age = (id: string, minutes: number) =>
    sql`UPDATE upload_requests SET updated_at = now() - make_interval(mins => ${minutes}) WHERE id = ${id}`.execute(
      db(),
    );
  const startRequest = async (title: string, user = token) => {
    const upload = await uploadFile(t, '/api/book/upload', { name: `${title}.txt`, data: story(title) }, user);
    const saved = await t.call('POST', '/api/book/saveNew', {
      token: user,
      body: { fileId: upload.data.fileId, bookName: title, bookStatus: 0, language: 'zh' },
    });
    expect(saved.code).toBe(0);
    return saved.data.requestId as string;
  };
  const library = async (user = token) =>
    (await t.call('GET', '/api/book/user/library', { token: user })).data.items as {
      bookCode: string;
      bookName: string;
    }[];
  const waitForBook = async (title: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = (await library()).find((b) => b.bookName === title);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`${title} never reached the library`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const until = async (done: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 30_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`waited 30 s for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const unfinished = async (user = token) =>
    (await t.call('GET', '/api/book/upload/unfinished', { token: user })).data as {
      requestId: string;
      status: string;
      stage: string;
      errorKey?: string;
    }[];

  it('puts the book in the library once its title is translated; the late answer renames it, once', async () => {
    const id = await startRequest('The Lighthouse Keeper');
    expect((await pollStage(t, `/api/book/analysis?requestId=${id}`, token)).data.status).toBe('done');
    expect((await pollStage(t, `/api/book/languageDetection?requestId=${id}`, token)).data.status).toBe('done');
    const title = await pollStage(t, `/api/book/translationBookName?requestId=${id}&userLanguage=zh`, token);
    expect(title.data).toMatchObject({ status: 'done', result: { translatedName: '[zh-Hans] The Lighthouse Keeper' } });
    // The tab is closed at the question: nobody calls saveBookById, and the book is there all the same.
    const book = await waitForBook('The Lighthouse Keeper');
    // The book is in the library as the saving stage writes it; the request is done a moment after.
    await until(async () => !(await unfinished()).some((u) => u.requestId === id), 'the request to finish');

    // The tab comes back (or was still open) and the uploader chooses the translated title.
    const chosen = await pollStage(
      t,
      `/api/book/saveBookById?requestId=${id}&bookName=${encodeURIComponent('[zh-Hans] The Lighthouse Keeper')}`,
      token,
    );
    expect(chosen.data).toMatchObject({ stage: 'saving', status: 'done', result: { bookCode: book.bookCode } });
    expect((await library()).find((b) => b.bookCode === book.bookCode)?.bookName).toBe(
      '[zh-Hans] The Lighthouse Keeper',
    );
    // Asked once: a second answer changes nothing.
    await t.call('GET', `/api/book/saveBookById?requestId=${id}&bookName=Other`, { token });
    expect((await library()).find((b) => b.bookCode === book.bookCode)?.bookName).toBe(
      '[zh-Hans] The Lighthouse Keeper',
    );
  });

  it('chains the stages of an upload left after its parse, and lists it meanwhile', async () => {
    const id = await startRequest('Left After Parsing');
    expect((await pollStage(t, `/api/book/analysis?requestId=${id}`, token)).data.status).toBe('done');
    // Just left: it waits in the list, to continue or discard.
    expect(await unfinished()).toContainEqual(
      expect.objectContaining({ requestId: id, stage: 'parsingFile', status: 'done' }),
    );
    expect((await t.running.services.uploads.sweep()).chained).toBe(0);
    expect((await request(id)).stage).toBe('parsingFile');

    await age(id, ABANDONED_AFTER_MINUTES + 1);
    expect((await t.running.services.uploads.sweep()).chained).toBe(1);
    await waitForBook('Left After Parsing');
    await until(async () => (await request(id)).stage === 'completed', 'the request to finish');
    expect(await request(id)).toMatchObject({ stage: 'completed', status: 'done', book_name: 'Left After Parsing' });
    expect((await unfinished()).map((u) => u.requestId)).not.toContain(id);
  });

  it('fails a stage whose worker is gone when nobody polls it, and the statistics say so', async () => {
    const id = await startRequest('Lost Worker');
    // The parse started by a worker that died: its job no longer exists, and it has been restarted enough.
    await sql`UPDATE upload_requests SET stage = 'parsingFile', status = 'running', job_id = gen_random_uuid()::text,
      results = '{"_recoveries": 3}'::jsonb, updated_at = now() - interval '1 minute' WHERE id = ${id}`.execute(db());
    const before = await t.call('GET', '/api/admin/util/bookUploadStatistic?days=1', { token: admin });
    expect(before.data[0].running).toBeGreaterThanOrEqual(1);

    expect((await t.running.services.uploads.sweep()).revived).toBeGreaterThanOrEqual(1);
    expect(await request(id)).toMatchObject({ status: 'failed', error_key: 'internalError' });
    expect(await unfinished()).toContainEqual(expect.objectContaining({ requestId: id, status: 'failed' }));
    const after = await t.call('GET', '/api/admin/util/bookUploadStatistic?days=1', { token: admin });
    expect(after.data[0].running).toBe(before.data[0].running - 1);
    expect(after.data[0].failed).toBe(before.data[0].failed + 1);
  });

  it('discards an unfinished upload with the book it parsed; only its uploader, never while it runs', async () => {
    const id = await startRequest('Not Wanted');
    expect((await pollStage(t, `/api/book/analysis?requestId=${id}`, token)).data.status).toBe('done');
    const bookId = (await request(id)).book_id!;
    expect(bookId).toBeGreaterThan(0);

    expect((await t.call('POST', `/api/book/upload/discard?requestId=${id}`, { token: other })).data.key).toBe(
      'notFound',
    );
    // 20 discards at once: one gives it up, the others find it gone.
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.call('POST', `/api/book/upload/discard?requestId=${id}`, { token })),
    );
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    expect(results.filter((r) => r.data?.key === 'notFound')).toHaveLength(19);
    expect((await unfinished()).map((u) => u.requestId)).not.toContain(id);
    expect(await db().selectFrom('books').select('id').where('id', '=', bookId).executeTakeFirst()).toBeUndefined();
    expect((await t.call('GET', `/api/book/upload/status?requestId=${id}`, { token })).data.key).toBe('notFound');
    // The sweep leaves it alone, however old.
    await age(id, ABANDONED_AFTER_MINUTES + 1);
    await t.running.services.uploads.sweep();
    expect((await request(id)).status).toBe('discarded');

    // A running stage is not given up.
    const running = await startRequest('Still Running');
    await sql`UPDATE upload_requests SET stage = 'parsingFile', status = 'running' WHERE id = ${running}`.execute(db());
    const refused = await t.call('POST', `/api/book/upload/discard?requestId=${running}`, { token });
    expect(refused.status).toBe(409);
    expect(refused.data.key).toBe('stageNotReady');
  });

  it('lets a discard and the sweep race: the request ends discarded or as a book, never both', async () => {
    const ids = await Promise.all(['Race One', 'Race Two', 'Race Three'].map((title) => startRequest(title)));
    for (const id of ids) await age(id, ABANDONED_AFTER_MINUTES + 1);
    await Promise.all([
      t.running.services.uploads.sweep(),
      ...ids.map((id) => t.call('POST', `/api/book/upload/discard?requestId=${id}`, { token })),
    ]);
    for (const id of ids) {
      const row = await request(id);
      if (row.status === 'discarded') {
        expect(row.book_id).toBeNull();
        continue;
      }
      // Chained by the sweep: it becomes a book.
      const deadline = Date.now() + 30_000;
      while ((await request(id)).stage !== 'completed') {
        if (Date.now() > deadline) throw new Error(`${id} was neither discarded nor finished`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await request(id)).status).toBe('done');
    }
  });
});
