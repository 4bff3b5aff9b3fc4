import type { ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/db/embedded.ts';
import { startFakeMicrosoft, type FakeMicrosoft } from '../src/engines/translation/testing/fake-servers.ts';
import { createLogger } from '../src/lib/logger.ts';
import { CORPUS, createTestDatabase, STRONG_PASSWORD } from './helpers.ts';
import { api, freePort, parsed, startYidu, waitHealthy, yiduEnv } from './yidu-process.ts';
import { epubcheck, problems } from './epubcheck.ts';
import { readBack, visible } from './export-helpers.ts';
import { normalise } from '../src/modules/translation/translation.service.ts';

describe('a worker killed in the middle of parsing', () => {
  const children: ChildProcess[] = [];
  let dataDir = '';
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes the book after a restart, without a lost or stuck request', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-kill-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = yiduEnv({ databaseUrl: await createTestDatabase(), dataDir, port });
    const first = startYidu(env);
    children.push(first);
    await waitHealthy(base);

    const { token } = await api(base, '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({ method: 'email', email: 'kill@example.com', password: STRONG_PASSWORD }),
    });
    const form = new FormData();
    form.append(
      'file',
      new Blob([await readFile(path.join(CORPUS, 'pdf/en-free-culture-book.pdf'))]),
      'free-culture.pdf',
    );
    const { fileId } = await api(base, '/api/book/upload', { method: 'POST', body: form }, token);
    const { requestId } = await api(
      base,
      '/api/book/saveNew',
      { method: 'POST', body: JSON.stringify({ fileId, bookName: 'Free Culture', bookStatus: 0 }) },
      token,
    );

    // Start parsing and wait until the worker is really in the middle of it.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const state = await api(base, `/api/book/analysis?requestId=${requestId}`, {}, token);
      expect(state.status).not.toBe('failed');
      if (state.status === 'running' && state.progress > 0) break;
      if (state.status === 'done') throw new Error('parsing finished before the kill; use a bigger book');
      if (Date.now() > deadline) throw new Error('parsing did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const second = startYidu(env);
    children.push(second);
    await waitHealthy(base);
    const state = await parsed(base, requestId, token);
    expect(state).toMatchObject({ stage: 'parsingFile', status: 'done' });
    expect(state.result.chapters).toBeGreaterThan(10);
    second.kill('SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
  }, 120_000);
});

describe('a database restart while the server runs', () => {
  const children: ChildProcess[] = [];
  let dataDir = '';
  let database: EmbeddedServer | undefined;
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await database?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with a clear key while it is down, then recovers by itself: calls, queue and all', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-pg-restart-'));
    // As root, PostgreSQL runs as 'postgres', which must be able to pass through this directory.
    await chmod(dataDir, 0o711);
    const pgOptions = {
      dataDir: path.join(dataDir, 'pg'),
      port: await freePort(),
      logger: createLogger('silent'),
    };
    database = await startEmbeddedPostgres(pgOptions);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const yidu = startYidu({
      DATABASE_URL: database.url,
      DATA_DIR: path.join(dataDir, 'app'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'fatal',
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      WEB_DIST_DIR: dataDir,
      MICROSOFT_TRANSLATOR_ENDPOINT: 'http://127.0.0.1:9',
    });
    children.push(yidu);
    await waitHealthy(base);
    const { token } = await api(base, '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({ method: 'email', email: 'restart@example.com', password: STRONG_PASSWORD }),
    });
    const me = () => fetch(`${base}/api/user/getUserinfo`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);

    await database.stop();
    database = undefined;
    const down = await me();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect((await down.json()).data.key).toBe('serviceUnavailable');
    expect((await fetch(`${base}/api/health`)).status).toBe(503);
    expect(yidu.exitCode).toBeNull();

    database = await startEmbeddedPostgres(pgOptions);
    const deadline = Date.now() + 30_000;
    while ((await me()).status !== 200) {
      if (Date.now() > deadline) throw new Error('Yidu did not recover after the database came back');
      await new Promise((r) => setTimeout(r, 250));
    }
    // The cross-process notifier listens again (it reconnects with backoff)…
    const listening = async () => {
      const client = new pg.Client({ connectionString: database!.url });
      await client.connect();
      try {
        const { rows } = await client.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'yidu-notifier'",
        );
        return rows[0].n as number;
      } finally {
        await client.end();
      }
    };
    await expect.poll(listening, { timeout: 20_000, interval: 500 }).toBe(1);
    // …and the job queue recovered too: a new upload is parsed by the worker.
    const form = new FormData();
    form.append('file', new Blob([await readFile(path.join(CORPUS, 'txt/en-subtitle-utf16le-bom.txt'))]), 'sub.txt');
    const { fileId } = await api(base, '/api/book/upload', { method: 'POST', body: form }, token);
    const { requestId } = await api(
      base,
      '/api/book/saveNew',
      { method: 'POST', body: JSON.stringify({ fileId, bookName: 'After the restart', bookStatus: 0 }) },
      token,
    );
    expect(await parsed(base, requestId, token)).toMatchObject({ stage: 'parsingFile', status: 'done' });

    yidu.kill('SIGTERM');
    await new Promise((resolve) => yidu.once('exit', resolve));
    expect(yidu.exitCode).toBe(0);
  }, 150_000);
});

describe('kill -9 in the middle of OCR, of a translation batch and of a points charge', () => {
  const children: ChildProcess[] = [];
  let dataDir = '';
  let fake: FakeMicrosoft | undefined;
  let db: pg.Client | undefined;
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await db?.end();
    await fake?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes every book and page after a restart, pays nothing twice, and keeps every balance equal to its ledger', async () => {
    fake = await startFakeMicrosoft();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-kill-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const databaseUrl = await createTestDatabase();
    const env = {
      ...yiduEnv({ databaseUrl, dataDir, port }),
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
      // The test polls faster than any reader would.
      RATE_LIMIT_PER_MINUTE: '100000',
    };
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    let yidu: ChildProcess;
    const start = async () => {
      yidu = startYidu(env);
      children.push(yidu);
      await waitHealthy(base);
    };
    const kill = async () => {
      const dying = yidu;
      dying.kill('SIGKILL');
      await new Promise((resolve) => dying.once('exit', resolve));
    };
    const until = async (what: string, ready: () => Promise<boolean>) => {
      const deadline = Date.now() + 60_000;
      while (!(await ready())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await start();
    const { token } = await api(base, '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({ method: 'email', email: 'faults@example.com', password: STRONG_PASSWORD }),
    });
    const upload = async (file: string, options: Record<string, unknown>) => {
      const form = new FormData();
      form.append('file', new Blob([await readFile(path.join(CORPUS, file))]), path.basename(file));
      const { fileId } = await api(base, '/api/book/upload', { method: 'POST', body: form }, token);
      const saved = await api(
        base,
        '/api/book/saveNew',
        { method: 'POST', body: JSON.stringify({ fileId, bookName: path.basename(file), bookStatus: 0, ...options }) },
        token,
      );
      return saved.requestId as string;
    };

    // 1. OCR: a scanned page read with forced OCR; killed once the text layer is read and OCR runs.
    const scanned = await upload('pdf/en-scanned-huckfinn-page-image-only.pdf', { forceOCR: true });
    await until('OCR to start', async () => {
      const state = await api(base, `/api/book/analysis?requestId=${scanned}`, {}, token);
      // Progress passes 0.36 when the text layer is read and 0.81 when OCR is over.
      if (state.status === 'done' || state.progress > 0.8) throw new Error('OCR finished before the kill');
      return state.status === 'running' && state.progress > 0.3;
    });
    await kill();
    await start();
    expect(await parsed(base, scanned, token)).toMatchObject({ stage: 'parsingFile', status: 'done' });
    const ocrCharges = await db.query(
      `SELECT count(*)::int AS n FROM points_ledger WHERE reason = 'bookProcessing' AND (detail->>'ocrPages')::int = 1`,
    );
    expect(ocrCharges.rows[0].n).toBe(1);

    // 2. A translation batch: killed while the engine is working on the page's first request.
    const requestId = await upload('txt/en-pride-and-prejudice-cp1252-crlf.txt', { language: 'zh' });
    let bookCode = '';
    for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
      await until(stage, async () => {
        const state = await api(base, `/api/book/${stage}?requestId=${requestId}`, {}, token);
        if (state.status === 'failed') throw new Error(`${stage} failed: ${state.message}`);
        if (state.status === 'done' && stage === 'saveBookById') bookCode = state.result.bookCode;
        return state.status === 'done';
      });
    }
    const page = (n: number) => `/api/reader/getPageData?bookCode=${bookCode}&language=zh&page=${n}`;
    fake.setBehaviour({ latencyMs: 5_000 });
    fake.resetStats();
    await api(base, page(2), {}, token);
    await until('the engine to be asked', async () => fake!.inFlight > 0);
    await kill();
    fake.setBehaviour({});
    await start();
    let complete: { blocks: { status: string }[]; charge: { charged: boolean } | null } | undefined;
    await until('page 2 after the restart', async () => {
      complete = await api(base, page(2), {}, token);
      if (!complete?.blocks) throw new Error(`page 2: ${JSON.stringify(complete)}`);
      return complete.blocks.every((b) => b.status !== 'pending');
    });
    expect(complete!.blocks.every((b) => b.status === 'done')).toBe(true);
    expect(complete!.charge).toMatchObject({ charged: true });

    // 3. A points charge: the page's charge waits on the ledger (locked here) and the process dies there.
    await until('page 3 translated ahead', async () => {
      const rows = await db!.query(
        `SELECT count(*) FILTER (WHERE t.status = 'pending')::int AS pending, count(*)::int AS n
           FROM book_translations t JOIN books b ON b.id = t.book_id JOIN book_blocks k ON k.book_id = b.id AND k.seq = t.seq
          WHERE b.code = $1 AND t.target_lang = 'zh' AND k.page = 3`,
        [bookCode],
      );
      return rows.rows[0].n > 0 && rows.rows[0].pending === 0;
    });
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE points_ledger IN EXCLUSIVE MODE');
    const reading = api(base, page(3), {}, token).catch(() => 'connection lost');
    await until('the charge to wait on the ledger', async () => {
      const waiting = await db!.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%points_ledger%'`,
      );
      return waiting.rows[0].n > 0;
    });
    await kill();
    expect(await reading).toBe('connection lost');
    await locker.query('COMMIT');
    await locker.end();
    await start();
    const third = await api(base, page(3), {}, token);
    expect(third.charge).toMatchObject({ charged: true });

    const charges = await db.query(
      `SELECT idempotency_key, count(*)::int AS n FROM points_ledger WHERE reason = 'translation' GROUP BY 1 ORDER BY 1`,
    );
    expect(charges.rows.map((r) => r.idempotency_key)).toEqual([
      expect.stringMatching(/:2$/),
      expect.stringMatching(/:3$/),
    ]);
    expect(charges.rows.every((r) => r.n === 1)).toBe(true);
    const mismatched = await db.query(
      `SELECT u.id FROM users u LEFT JOIN points_ledger l ON l.user_id = u.id GROUP BY u.id, u.points_balance
        HAVING u.points_balance <> coalesce(sum(CASE WHEN l.type = 'income' THEN l.points ELSE -l.points END), 0)`,
    );
    expect(mismatched.rows).toEqual([]);
    yidu!.kill('SIGTERM');
    await new Promise((resolve) => yidu!.once('exit', resolve));
  }, 240_000);
});

describe('kill -9 in the middle of a whole-book translation', () => {
  const children: ChildProcess[] = [];
  let dataDir = '';
  let fake: FakeMicrosoft | undefined;
  let db: pg.Client | undefined;
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await db?.end();
    await fake?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('translates the 500-page book to the end after a restart, charges every page once, and exports it as a valid bilingual EPUB', async () => {
    fake = await startFakeMicrosoft();
    // Slow enough that the worker is surely killed in the middle of the book.
    fake.setBehaviour({ latencyMs: 40 });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-kill-book-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const databaseUrl = await createTestDatabase();
    const env = {
      ...yiduEnv({ databaseUrl, dataDir, port }),
      MICROSOFT_TRANSLATOR_ENDPOINT: fake.url,
      STARTING_POINTS: '100000',
      RATE_LIMIT_PER_MINUTE: '100000',
    };
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    let yidu = startYidu(env);
    children.push(yidu);
    await waitHealthy(base);
    const { token } = await api(base, '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({ method: 'email', email: 'whole@example.com', password: STRONG_PASSWORD }),
    });
    const form = new FormData();
    form.append('file', new Blob([await readFile(path.join(CORPUS, 'epub/en-moby-dick-epub3.epub'))]), 'moby.epub');
    const { fileId } = await api(base, '/api/book/upload', { method: 'POST', body: form }, token);
    const { requestId } = await api(
      base,
      '/api/book/saveNew',
      { method: 'POST', body: JSON.stringify({ fileId, bookName: 'Moby-Dick', bookStatus: 0, language: 'zh' }) },
      token,
    );
    let bookCode = '';
    for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const state = await api(base, `/api/book/${stage}?requestId=${requestId}`, {}, token);
        if (state.status === 'failed') throw new Error(`${stage} failed: ${state.message}`);
        if (state.status === 'done') {
          if (stage === 'saveBookById') bookCode = state.result.bookCode;
          break;
        }
        if (Date.now() > deadline) throw new Error(`${stage} did not finish`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const which = `bookCode=${bookCode}&language=zh`;
    const quote = await api(base, `/api/book/translation/quote?${which}`, {}, token);
    expect(quote.pageCount).toBeGreaterThanOrEqual(500);
    const started = await api(
      base,
      '/api/book/translation/start',
      { method: 'POST', body: JSON.stringify({ bookCode, language: 'zh', points: quote.points }) },
      token,
    );
    expect(started.state).toBe('running');

    const status = () => api(base, `/api/book/translation/status?${which}`, {}, token);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const now = await status();
      if (now.state !== 'running' || now.pagesDone > quote.pageCount / 2)
        throw new Error(`the translation got too far before the kill: ${JSON.stringify(now)}`);
      if (now.pagesDone >= 40) break;
      if (Date.now() > deadline) throw new Error('the translation did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    yidu.kill('SIGKILL');
    await new Promise((resolve) => yidu.once('exit', resolve));
    fake.setBehaviour({});
    yidu = startYidu(env);
    children.push(yidu);
    await waitHealthy(base);
    let done;
    const finishing = Date.now() + 180_000;
    for (;;) {
      done = await status();
      if (done.state !== 'running') break;
      if (Date.now() > finishing) throw new Error(`the translation did not finish: ${JSON.stringify(done)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(done).toMatchObject({ state: 'done', percent: 100, failedParagraphs: 0 });

    // Every paragraph translated; every page with text charged exactly once, out of the reservation.
    const blocks = await db.query(
      `SELECT count(*) FILTER (WHERE t.status IS DISTINCT FROM 'done')::int AS missing, count(DISTINCT k.page)::int AS pages
         FROM book_blocks k JOIN books b ON b.id = k.book_id
         LEFT JOIN book_translations t ON t.book_id = k.book_id AND t.seq = k.seq AND t.target_lang = 'zh'
        WHERE b.code = $1 AND k.type IN ('heading', 'paragraph', 'quote', 'listItem', 'footnote', 'table') AND btrim(k.text) <> ''`,
      [bookCode],
    );
    expect(blocks.rows[0].missing).toBe(0);
    const charges = await db.query(
      `SELECT idempotency_key, count(*)::int AS n, sum(points)::int AS points FROM points_ledger
        WHERE reason = 'translation' GROUP BY 1`,
    );
    expect(charges.rows).toHaveLength(blocks.rows[0].pages);
    expect(charges.rows.every((r) => r.n === 1)).toBe(true);
    expect(charges.rows.reduce((n, r) => n + r.points, 0)).toBe(done.pointsCharged);
    expect(done.pointsCharged).toBeLessThanOrEqual(quote.points);
    const mismatched = await db.query(
      `SELECT u.id FROM users u LEFT JOIN points_ledger l ON l.user_id = u.id GROUP BY u.id, u.points_balance, u.points_held
        HAVING u.points_balance <> coalesce(sum(CASE WHEN l.type = 'income' THEN l.points ELSE -l.points END), 0)
            OR u.points_held <> 0`,
    );
    expect(mismatched.rows).toEqual([]);

    // The book to keep: a bilingual EPUB that epubcheck accepts, with every paragraph in both languages.
    const response = await fetch(`${base}/api/book/export?${which}&mode=bilingual`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/epub+zip');
    const epub = Buffer.from(await response.arrayBuffer());
    expect(problems(await epubcheck(epub))).toEqual([]);
    const read = await readBack(epub);
    const stored = await db.query(
      `SELECT k.type, k.text, t.translation FROM book_blocks k JOIN books b ON b.id = k.book_id
         LEFT JOIN book_translations t ON t.book_id = k.book_id AND t.seq = k.seq AND t.target_lang = 'zh'
        WHERE b.code = $1 AND k.type <> 'image' AND btrim(k.text) <> '' ORDER BY k.seq`,
      [bookCode],
    );
    expect(stored.rows.length).toBeGreaterThan(2000);
    const absent = stored.rows.flatMap((r) => [
      ...(read.has(normalise(r.text)) ? [] : [`original: ${r.text.slice(0, 80)}`]),
      ...(r.translation === null || read.has(visible(r.translation)) ? [] : [`translation: ${r.text.slice(0, 80)}`]),
    ]);
    expect(absent).toEqual([]);
    expect(stored.rows.every((r) => r.type === 'code' || r.translation !== null)).toBe(true);
    yidu.kill('SIGTERM');
    await new Promise((resolve) => yidu.once('exit', resolve));
  }, 420_000);
});
