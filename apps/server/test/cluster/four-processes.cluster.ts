import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoft, type FakeMicrosoft } from '../../src/engines/translation/testing/fake-servers.ts';
import { api, freePort } from '../yidu-process.ts';
import { startSystemPostgres, type SystemPostgres } from './debian-postgres.ts';
import { YiduProcess, type LogLine } from './yidu-processes.ts';

/**
 * The topology of docs/DEPLOYMENT.md and deploy/compose.yaml, run for real without containers: the
 * operating system's PostgreSQL as the external database (Yidu's role owns its database and is no
 * superuser), an S3-compatible store (s3rver) whose bucket the init step makes, two `--role=api` and
 * two `--role=worker` processes started at once on the empty database, each with its own DATA_DIR and
 * ADMIN_ACCOUNT set on all. Run by `npm run test:cluster` (`.ci/run`, after `npm test`).
 */
const CORPUS = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../../../../shared/corpus');
const SMALL_BOOK = path.join(CORPUS, 'txt/en-subtitle-utf16le-bom.txt');
/** 352 pages: long enough to be killed in the middle of its parse. */
const LONG_BOOK = path.join(CORPUS, 'pdf/en-free-culture-book.pdf');
const PASSWORD = 'Reading2026';
/** Short, so that the test does not wait the default minute before a silent stage counts as lost. */
const STAGE_STALE_SECONDS = 10;

const run = promisify(execFile);
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => Math.round(ms / 100) / 10;

describe('two API and two worker processes on one PostgreSQL and one bucket', () => {
  const timings: Record<string, number> = {};
  const began = Date.now();
  let root = '';
  let postgres: SystemPostgres | undefined;
  let s3server: S3rver | undefined;
  let translator: FakeMicrosoft | undefined;
  let db: pg.Pool;
  let s3: S3Client;
  let env: Record<string, string>;
  const bucket = 'yidu-cluster';
  const ports = { a: 0, b: 0 };
  const dataDirs: Record<string, string> = {};
  let processes: YiduProcess[] = [];
  const base = (name: 'a' | 'b') => `http://127.0.0.1:${ports[name]}`;
  let userToken = '';

  function start(name: string): YiduProcess {
    const role = name.startsWith('api') ? 'api' : 'worker';
    const port = name === 'api-a' ? ports.a : name === 'api-b' ? ports.b : undefined;
    return new YiduProcess(name, role, {
      ...env,
      DATA_DIR: dataDirs[name]!,
      ...(port ? { PORT: String(port) } : {}),
    });
  }

  /** All four at once; resolves when each says it is up. */
  async function startAll(): Promise<number> {
    const started = Date.now();
    processes = ['api-a', 'api-b', 'worker-1', 'worker-2'].map(start);
    await Promise.all(processes.map(ready));
    return Date.now() - started;
  }

  const ready = (p: YiduProcess) =>
    p.waitFor((l) => /^Yidu (is running on|worker running)/.test(l.msg), 180_000).then(() => p);

  const problems = () => processes.flatMap((p) => p.problems());

  async function uploadPathA(via: 'a' | 'b', file: string, bookName: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([await readFile(file)]), path.basename(file));
    const uploaded = await api(base(via), '/api/book/upload2', { method: 'POST', body: form }, userToken);
    const data = new FormData();
    data.append('data', JSON.stringify({ bookName, bookStatus: 0, language: 'zh' }));
    const saved = await api(base(via), `/api/book/save/${uploaded.id}`, { method: 'POST', body: data }, userToken);
    expect(saved.requestId, JSON.stringify(saved)).toBeTruthy();
    return saved.requestId as string;
  }

  /** What the database says of an upload request (read directly: no API call that could revive it). */
  async function request(requestId: string) {
    const { rows } = await db.query<{ stage: string; status: string; results: { saving?: { bookCode: string } } }>(
      'SELECT stage, status, results FROM upload_requests WHERE id = $1',
      [requestId],
    );
    return rows[0]!;
  }

  async function completed(requestId: string, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await request(requestId);
      expect(row.status, `${requestId} at ${row.stage}`).not.toBe('failed');
      if (row.stage === 'completed' && row.status === 'done') return row.results.saving!.bookCode;
      if (Date.now() > deadline) throw new Error(`${requestId} still at ${row.stage} ${row.status}`);
      await sleep(250);
    }
  }

  /** A page read through one API, until the workers have translated it (the fake answers "[zh-Hans] …"). */
  async function translatedPage(via: 'a' | 'b', bookCode: string) {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const page = await api(
        base(via),
        `/api/reader/getPageData?bookCode=${bookCode}&language=zh&page=1`,
        {},
        userToken,
      );
      const blocks = (page?.blocks ?? []) as { text: string; translation: string | null }[];
      if (blocks.length > 0 && blocks.every((b) => b.translation !== null)) return blocks;
      if (Date.now() > deadline) throw new Error(`page 1 of ${bookCode} not translated: ${JSON.stringify(page)}`);
      await sleep(500);
    }
  }

  /** The book's file: in the bucket, byte for byte, and in no process's DATA_DIR. */
  async function onlyInBucket(file: string) {
    const original = await readFile(file);
    const { rows } = await db.query<{ storage_key: string }>('SELECT storage_key FROM files WHERE sha256 = $1', [
      sha256(original),
    ]);
    expect(rows).toHaveLength(1);
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: rows[0]!.storage_key }));
    expect(sha256(await object.Body!.transformToByteArray())).toBe(sha256(original));
    for (const [name, dir] of Object.entries(dataDirs)) expect(existsSync(path.join(dir, 'files')), name).toBe(false);
  }

  /**
   * Uploads the long book, kills (SIGKILL) the worker that started parsing it as soon as it says so,
   * and waits for the book to be saved by the other worker alone: nobody asks the API about it.
   */
  async function killMidParse(via: 'a' | 'b', label: string): Promise<string> {
    const workers = processes.filter((p) => p.role === 'worker');
    const marks = new Map(workers.map((w) => [w, w.lines.length]));
    const requestId = await uploadPathA(via, LONG_BOOK, `Free Culture (${label})`);
    const parsing = (l: LogLine) => l.msg === 'upload stage started' && l.requestId === requestId;
    const victim = await Promise.any(
      workers.map((w) =>
        w.waitFor((l) => parsing(l) && l.stage === 'parsingFile', 180_000, marks.get(w)).then(() => w),
      ),
    );
    await victim.stop('SIGKILL');
    const killedAt = Date.now();
    expect(await request(requestId)).toMatchObject({ stage: 'parsingFile', status: 'running' });

    const survivor = workers.find((w) => w !== victim)!;
    const since = marks.get(survivor);
    await survivor.waitFor((l) => l.msg === 'restarting a stage whose worker was lost', 240_000, since);
    await survivor.waitFor((l) => parsing(l) && l.stage === 'parsingFile', 60_000, since);
    timings[`${label}: parse started again after the kill (s)`] = seconds(Date.now() - killedAt);
    const bookCode = await completed(requestId, 300_000);
    timings[`${label}: book saved after the kill (s)`] = seconds(Date.now() - killedAt);
    // No client polled: neither API was asked about this request.
    for (const p of processes.filter((p) => p.role === 'api')) {
      const asked = p.lines.filter((l) => JSON.stringify(l.req ?? '').includes(requestId));
      expect(asked, p.name).toEqual([]);
    }

    // The book is whole: read through the other API.
    const other = via === 'a' ? 'b' : 'a';
    const library = (await api(base(other), '/api/book/user/list', {}, userToken)) as {
      bookCode: string;
      chapterCount: number;
      pageCount: number;
    }[];
    const book = library.find((b) => b.bookCode === bookCode)!;
    expect(book.chapterCount).toBeGreaterThan(10);
    expect(book.pageCount).toBeGreaterThan(book.chapterCount);

    // As a process manager would: the killed worker is started again.
    const replaced = start(victim.name);
    processes = processes.map((p) => (p === victim ? replaced : p));
    await ready(replaced);
    // Its log up to the kill still counts.
    expect(victim.problems(), victim.name).toEqual([]);
    return bookCode;
  }

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'yidu-cluster-'));
    postgres = await startSystemPostgres(await freePort());
    // The operator's part: a role that owns its database, and nothing more.
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query("CREATE ROLE yidu LOGIN PASSWORD 'yidu-cluster' NOSUPERUSER NOCREATEDB NOCREATEROLE");
    await admin.query('CREATE DATABASE yidu OWNER yidu');
    await admin.end();
    const databaseUrl = `postgres://yidu:yidu-cluster@127.0.0.1:${postgres.port}/yidu`;
    db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // Its idle connections end when PostgreSQL restarts (the last case); the next query opens another.
    db.on('error', () => {});

    s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(root, 's3') });
    const s3Port = (await s3server.run()).port;
    const s3Env = {
      S3_BUCKET: bucket,
      S3_REGION: 'garage',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    };
    s3 = new S3Client({
      region: s3Env.S3_REGION,
      endpoint: s3Env.S3_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    translator = await startFakeMicrosoft();
    ports.a = await freePort();
    ports.b = await freePort();
    for (const name of ['api-a', 'api-b', 'worker-1', 'worker-2']) {
      dataDirs[name] = path.join(root, name);
      await mkdir(dataDirs[name]);
    }
    const web = path.join(root, 'web');
    await mkdir(web);
    env = {
      ...s3Env,
      DATABASE_URL: databaseUrl,
      APP_SECRET: 'the-same-secret-on-every-process-of-this-cluster',
      PUBLIC_URL: 'http://yidu.test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ADMIN_ACCOUNT: 'admin',
      ADMIN_PASSWORD: PASSWORD,
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      RATE_LIMIT_PER_MINUTE: '100000',
      STAGE_STALE_SECONDS: String(STAGE_STALE_SECONDS),
      MICROSOFT_TRANSLATOR_ENDPOINT: translator.url,
      ENGINE_PROBE_MINUTES: '0',
      WEB_DIST_DIR: web,
    };

    // The init step of deploy/compose.yaml: the bucket S3_BUCKET names, made before any Yidu process.
    const init = await run(process.execPath, ['src/cli/ensure-bucket.ts', '--wait', '30'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH, ...s3Env },
    });
    expect(init.stdout).toContain(`Bucket ${bucket}: created`);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      processes.map(async (p) => {
        const timer = setTimeout(() => void p.stop('SIGKILL'), 20_000);
        await p.stop();
        clearTimeout(timer);
      }),
    );
    await db?.end();
    await s3server?.close();
    await translator?.close();
    await postgres?.stop();
    if (root) await rm(root, { recursive: true, force: true });
    timings['whole test (s)'] = seconds(Date.now() - began);
    console.log(`Cluster timings (PostgreSQL ${postgres?.version}):\n${JSON.stringify(timings, null, 2)}`);
  }, 120_000);

  it('starts all four at once on the empty database: one admin, every migration once, no error', async () => {
    timings['first start, all four up (s)'] = seconds(await startAll());
    expect(problems()).toEqual([]);
    const admins = await db.query("SELECT account FROM users WHERE role = 'admin'");
    expect(admins.rows).toEqual([{ account: 'admin' }]);
    const migrations = await db.query(
      'SELECT count(*)::int AS n, count(DISTINCT name)::int AS names FROM yidu_migrations',
    );
    expect(migrations.rows[0].n).toBe(migrations.rows[0].names);
    expect(migrations.rows[0].n).toBeGreaterThan(10);
    // What the migrations needed of the database user: these extensions, created by a role that is no superuser.
    const extensions = await db.query('SELECT extname FROM pg_extension ORDER BY extname');
    expect(extensions.rows.map((r) => r.extname)).toEqual(expect.arrayContaining(['btree_gin', 'pg_trgm', 'unaccent']));
    const role = await db.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    expect(role.rows).toEqual([{ rolsuper: false }]);
  }, 240_000);

  it('serves through API B a book uploaded through API A, from the bucket only', async () => {
    const registered = await api(base('a'), '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({ method: 'email', email: 'reader@example.com', password: PASSWORD }),
    });
    userToken = registered.token;
    expect(userToken).toBeTruthy();
    const me = await fetch(`${base('b')}/api/user/getUserinfo`, { headers: { authorization: `Bearer ${userToken}` } });
    expect(me.status).toBe(200);

    const uploadedAt = Date.now();
    const requestId = await uploadPathA('a', SMALL_BOOK, 'Subtitles');
    const bookCode = await completed(requestId, 120_000);
    timings['small book uploaded through A, saved (s)'] = seconds(Date.now() - uploadedAt);
    const blocks = await translatedPage('b', bookCode);
    expect(blocks[0]!.translation).toMatch(/^\[zh-Hans\]/);
    timings['… and translated, read through B (s)'] = seconds(Date.now() - uploadedAt);
    await onlyInBucket(SMALL_BOOK);

    // The original file, as an admin downloads it through B: from the bucket as well.
    const login = await api(base('b'), '/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ account: 'admin', password: PASSWORD }),
    });
    const { rows } = await db.query('SELECT id FROM files WHERE sha256 = $1', [sha256(await readFile(SMALL_BOOK))]);
    const download = await fetch(`${base('b')}/api/admin/util/download?bookFilePath=${rows[0].id}`, {
      headers: { authorization: `Bearer ${login.token}` },
    });
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(await readFile(SMALL_BOOK)));
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(listed.KeyCount).toBeGreaterThan(0);
    expect(problems()).toEqual([]);
  }, 240_000);

  it('saves a book whose worker is killed mid-parse, with no client asking about it', async () => {
    await killMidParse('a', 'first run');
    await onlyInBucket(LONG_BOOK);
    expect(problems()).toEqual([]);
  }, 600_000);

  it('does it all again once the four have been stopped and started together', async () => {
    const stopping = Date.now();
    const codes = await Promise.all(processes.map((p) => p.stop('SIGTERM')));
    expect(codes).toEqual([0, 0, 0, 0]);
    timings['all four stopped by SIGTERM (s)'] = seconds(Date.now() - stopping);
    expect(problems()).toEqual([]);

    timings['restart, all four up again (s)'] = seconds(await startAll());
    expect(problems()).toEqual([]);
    const requestId = await uploadPathA('b', SMALL_BOOK, 'Subtitles again');
    const bookCode = await completed(requestId, 120_000);
    expect((await translatedPage('a', bookCode))[0]!.translation).toMatch(/^\[zh-Hans\]/);
    await killMidParse('b', 'after the restart');
    await onlyInBucket(LONG_BOOK);
    expect(problems()).toEqual([]);
  }, 900_000);

  it('serves again by itself after PostgreSQL restarts', async () => {
    await postgres!.restart();
    const back = Date.now();
    const answering = async (via: 'a' | 'b') => {
      for (;;) {
        const me = await fetch(`${base(via)}/api/user/getUserinfo`, {
          headers: { authorization: `Bearer ${userToken}` },
        }).catch(() => undefined);
        if (me?.status === 200) return;
        if (Date.now() - back > 60_000) throw new Error(`API ${via} did not recover`);
        await sleep(100);
      }
    };
    await Promise.all([answering('a'), answering('b')]);
    timings['PostgreSQL restarted: both APIs answer again (s)'] = seconds(Date.now() - back);
    // Every process listens for the others' events again (the notifier reconnects with backoff).
    const listeners = async () =>
      (await db.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'yidu-notifier'"))
        .rows[0].n as number;
    await expect.poll(listeners, { timeout: 60_000, interval: 100 }).toBe(4);
    timings['… and all four listen for events again (s)'] = seconds(Date.now() - back);
    const requestId = await uploadPathA('a', SMALL_BOOK, 'After the database restart');
    await completed(requestId, 120_000);
    timings['… and an upload is parsed and saved by the workers (s)'] = seconds(Date.now() - back);
  }, 240_000);
});
