import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { inspectBackup } from '../src/db/backup/restore.ts';
import { embeddedUrl } from '../src/db/embedded.ts';
import { knownMigrations, migrateOnly } from '../src/db/migrate.ts';
import { startFakeMicrosoft, type FakeMicrosoft } from '../src/engines/translation/testing/fake-servers.ts';
import { withDatabase } from './global-setup.ts';
import { CORPUS, STRONG_PASSWORD } from './helpers.ts';
import { api, freePort, startYidu, waitHealthy } from './yidu-process.ts';

/** `npm run admin -- <args>` in a process of its own, as an operator runs it. */
function runAdmin(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, ['src/cli/admin.ts', ...args], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** Yidu on the embedded PostgreSQL of its DATA_DIR, as `npm start` runs it. */
function embeddedEnv(dataDir: string, port: number, pgPort: number, translator: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    REQUIRE_INVITE: 'false',
    EMAIL_ACTIVATION: 'false',
    WEB_DIST_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '100000',
    MICROSOFT_TRANSLATOR_ENDPOINT: translator,
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Users whose balance is not what their points ledger adds up to. */
const LEDGER_MISMATCH = `SELECT u.id FROM users u LEFT JOIN points_ledger l ON l.user_id = u.id
  GROUP BY u.id, u.points_balance
  HAVING u.points_balance <> coalesce(sum(CASE WHEN l.type = 'income' THEN l.points ELSE -l.points END), 0)`;

/** The indexes, constraints and triggers of Yidu's schema, as text that two databases can compare. */
async function schemaOf(url: string): Promise<string[]> {
  const rows = await query<{ line: string }>(
    url,
    `SELECT 'index ' || indexdef AS line FROM pg_indexes WHERE schemaname = 'public'
     UNION ALL
     SELECT 'constraint ' || c.conrelid::regclass || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid)
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'
     UNION ALL
     SELECT 'trigger ' || t.tgrelid::regclass || ' ' || t.tgname || ' ' || t.tgenabled::text
       FROM pg_trigger t JOIN pg_class r ON r.oid = t.tgrelid JOIN pg_namespace n ON n.oid = r.relnamespace
      WHERE n.nspname = 'public' AND NOT t.tgisinternal
     ORDER BY 1`,
  );
  return rows.map((r) => r.line);
}

/** A page as a reader sees it, without the signatures of its media URLs (they expire by the hour). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page as the API answers it
const comparable = (page: any) => JSON.parse(JSON.stringify(page).replace(/\?exp=[^"]*/g, ''));

describe('backup and restore with npm run admin', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  let fake: FakeMicrosoft | undefined;
  afterAll(async () => {
    for (const child of children) await stop(child);
    await fake?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const tempDir = async (name: string) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `yidu-${name}-`));
    dirs.push(dir);
    return dir;
  };

  it('backs up a running Yidu while it serves, and a new DATA_DIR restored from it reads the same', async () => {
    fake = await startFakeMicrosoft();
    const source = await tempDir('backup-source');
    const [port, pgPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const sourceEnv = embeddedEnv(source, port, pgPort, fake.url);
    const first = startYidu(sourceEnv);
    children.push(first);
    await waitHealthy(base);
    const sourceDb = await embeddedUrl(source, pgPort);

    // Users, a parsed book with images, its translation (paid in points), marks.
    const register = async (name: string) =>
      (
        await api(base, '/api/auth/register', {
          method: 'POST',
          body: JSON.stringify({
            method: 'email',
            email: `${name}@example.com`,
            account: name,
            password: STRONG_PASSWORD,
          }),
        })
      ).token as string;
    const alice = await register('alice');
    await register('bob');
    const form = new FormData();
    form.append(
      'file',
      new Blob([await readFile(path.join(CORPUS, 'docx/en-cancer-statistics-images.docx'))]),
      'c.docx',
    );
    const { fileId } = await api(base, '/api/book/upload', { method: 'POST', body: form }, alice);
    const { requestId } = await api(
      base,
      '/api/book/saveNew',
      {
        method: 'POST',
        body: JSON.stringify({ fileId, bookName: 'Cancer statistics', bookStatus: 1, language: 'zh' }),
      },
      alice,
    );
    let bookCode = '';
    for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
      for (let state = { status: 'running' } as { status: string; result?: { bookCode: string } }; ;) {
        state = await api(base, `/api/book/${stage}?requestId=${requestId}`, {}, alice);
        expect(state.status).not.toBe('failed');
        if (state.status === 'done') {
          if (state.result?.bookCode) bookCode = state.result.bookCode;
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    // Where a PDF parse puts each paragraph on its page (jsonb, migration 0020): set here on this book.
    await query(
      sourceDb,
      `UPDATE book_blocks b SET pdf_regions = jsonb_build_array(
         jsonb_build_object('page', b.page, 'x', 0.125, 'y', 0.0625 * b.seq, 'w', 0.75, 'h', 0.03125))
         FROM books k WHERE k.id = b.book_id AND k.code = $1`,
      [bookCode],
    );
    const page = `/api/reader/getPageData?bookCode=${bookCode}&language=zh&page=1`;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page as the API answers it
    let before: any;
    for (;;) {
      before = await api(base, page, {}, alice);
      if (before.blocks.every((b: { status: string }) => b.status === 'done')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(before.charge).toMatchObject({ charged: true });
    const firstBlock = before.blocks.find((b: { type: string }) => b.type !== 'image').id as string;
    await api(
      base,
      '/api/reader/bookmark',
      { method: 'POST', body: JSON.stringify({ bookCode, page: 1, note: 'here' }) },
      alice,
    );
    await api(
      base,
      '/api/reader/highlight',
      { method: 'POST', body: JSON.stringify({ bookCode, blockId: firstBlock, start: 0, end: 5, color: 'green' }) },
      alice,
    );
    const marksBefore = await api(base, `/api/reader/marks?bookCode=${bookCode}`, {}, alice);

    // The backup runs while readers register (each a user and a ledger entry, in one transaction) and read.
    const file = path.join(await tempDir('backup-file'), 'yidu.backup.gz');
    let serving = true;
    let served = 0;
    const crowd = (async () => {
      for (let n = 0; serving; n++) {
        await register(`crowd${n}`);
        await api(base, page, {}, alice);
        served++;
      }
    })();
    const backup = await runAdmin(['backup', file], { DATA_DIR: source, EMBEDDED_PG_PORT: String(pgPort) });
    const servedDuringBackup = served;
    serving = false;
    await crowd;
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.out).toMatch(/^Database saved to .*yidu\.backup\.gz: \d+ tables, \d+ rows/);
    expect(backup.out).toContain(`copy ${path.join(source, 'files')} as well`);
    expect(servedDuringBackup).toBeGreaterThan(0);
    const contents = await inspectBackup(file);
    expect(contents.header.migrations).toEqual(knownMigrations());

    // A new DATA_DIR: the files and the app secret copied as the README says, then the database restored.
    const target = await tempDir('backup-target');
    await cp(path.join(source, 'files'), path.join(target, 'files'), { recursive: true });
    await copyFile(path.join(source, 'app-secret'), path.join(target, 'app-secret'));
    const [port2, pgPort2] = [await freePort(), await freePort()];
    const targetEnv = embeddedEnv(target, port2, pgPort2, fake.url);
    const restore = await runAdmin(['restore', file], { DATA_DIR: target, EMBEDDED_PG_PORT: String(pgPort2) });
    expect(restore.err).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.out).toContain('Loading the rows…');
    expect(restore.out).toContain('Restored the backup of');

    const second = startYidu(targetEnv);
    children.push(second);
    const base2 = `http://127.0.0.1:${port2}`;
    await waitHealthy(base2);
    const targetDb = await embeddedUrl(target, pgPort2);

    // Every table holds what the backup's snapshot held; those nobody wrote during the backup equal the source.
    for (const { table, rows } of contents.tables) {
      const [counted] = await query<{ n: number }>(targetDb, `SELECT count(*)::int AS n FROM "${table}"`);
      expect({ table, rows: counted!.n }).toEqual({ table, rows });
    }
    // (The readers' shelf rows only counted: reading during the backup moves their places.)
    const shelf = `SELECT count(*)::int AS n FROM user_books`;
    expect(await query(targetDb, shelf)).toEqual(await query(sourceDb, shelf));
    // The others value for value (jsonb, arrays, text with any character, timestamps).
    for (const table of ['books', 'book_blocks', 'book_translations', 'book_images', 'reader_marks', 'files']) {
      const digest = async (url: string) =>
        (
          await query<{ md5: string; n: number }>(
            url,
            `SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS md5, count(*)::int AS n FROM ${table} t`,
          )
        )[0];
      expect({ table, ...(await digest(targetDb)) }).toEqual({ table, ...(await digest(sourceDb)) });
    }
    const regions = `SELECT count(*)::int AS n FROM book_blocks WHERE pdf_regions @> '[{"x": 0.125}]'`;
    expect((await query<{ n: number }>(targetDb, regions))[0]!.n).toBeGreaterThan(0);
    // The same schema: every index the restore dropped for the load is built again, every key made again.
    expect(await schemaOf(targetDb)).toEqual(await schemaOf(sourceDb));
    // The snapshot is one moment: every restored user came with their ledger, and every balance adds up.
    expect(await query(targetDb, LEDGER_MISMATCH)).toEqual([]);
    const crowdRestored = await query<{ n: number }>(
      targetDb,
      `SELECT count(*)::int AS n FROM users WHERE account LIKE 'crowd%'`,
    );
    expect(crowdRestored[0]!.n).toBeGreaterThan(0);

    // Logins work, the book reads the same (text, translation, marks, images), and new rows get new ids.
    const login = await api(base2, '/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ account: 'alice', password: STRONG_PASSWORD }),
    });
    expect(login.token).toBeTruthy();
    const after = await api(base2, page, {}, login.token);
    expect(comparable(after)).toEqual(comparable(before));
    expect(await api(base2, `/api/reader/marks?bookCode=${bookCode}`, {}, login.token)).toEqual(marksBefore);
    const image = after.blocks.find((b: { imageUrl: string | null }) => b.imageUrl);
    if (image) {
      const url = new URL(image.imageUrl, base);
      const [a, b] = await Promise.all([
        fetch(`${base}${url.pathname}${url.search}`),
        fetch(`${base2}${url.pathname}${url.search}`),
      ]);
      expect(b.status).toBe(200);
      expect(Buffer.from(await b.arrayBuffer())).toEqual(Buffer.from(await a.arrayBuffer()));
    }
    const newcomer = await api(base2, '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({
        method: 'email',
        email: 'newcomer@example.com',
        account: 'newcomer',
        password: STRONG_PASSWORD,
      }),
    });
    expect(newcomer.token).toBeTruthy();

    // A database that holds Yidu's data is never overwritten by mistake, nor under a running Yidu.
    const again = await runAdmin(['restore', file], { DATA_DIR: target, EMBEDDED_PG_PORT: String(pgPort2) });
    expect(again).toMatchObject({ code: 1, err: expect.stringContaining('The database is not empty') });
    const forced = await runAdmin(['restore', file, '--force'], {
      DATA_DIR: target,
      EMBEDDED_PG_PORT: String(pgPort2),
    });
    expect(forced).toMatchObject({ code: 1, err: expect.stringContaining('other connections use this database') });
  }, 300_000);
});

describe('backups that cannot be restored (DATABASE_URL)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** A new, empty database on the test server. */
  const emptyDatabase = async () => {
    const name = `yidu_restore_${Math.random().toString(36).slice(2, 10)}`;
    await query(inject('pgAdminUrl'), `CREATE DATABASE ${name}`);
    return withDatabase(inject('pgAdminUrl'), name);
  };
  const tables = async (url: string) =>
    (await query<{ n: number }>(url, `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`))[0]!.n;

  it('refuses a damaged, a cut-short, a foreign and a newer backup with a clear message, and touches nothing', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-bad-backups-'));
    dirs.push(dir);
    // A migrated database with a user in it.
    const source = await emptyDatabase();
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: source }) }),
    });
    await migrateOnly(db, knownMigrations());
    await db.destroy();
    await query(
      source,
      `INSERT INTO users (account, password_hash, username, invite_code, status) VALUES ('u', 'x', 'u', 'c1', 'active')`,
    );
    const good = path.join(dir, 'good.gz');
    const made = await runAdmin(['backup', good], { DATABASE_URL: source, DATA_DIR: dir });
    expect(made).toMatchObject({ code: 0, err: '' });
    const bytes = await readFile(good);

    const raw = gunzipSync(bytes).toString('utf8');
    const lines = raw.split('\n');
    const header = JSON.parse(lines[1]!);
    header.migrations.push('9999-from-the-future');
    lines[1] = JSON.stringify(header);
    const body = lines.slice(0, -2).join('\n') + '\n';
    const trailer = JSON.parse(lines.at(-2)!);
    trailer.sha256 = createHash('sha256').update(body).digest('hex');
    const newer = gzipSync(body + JSON.stringify(trailer) + '\n');
    // The same content, a value changed inside (gzip's own check is redone, the backup's is not).
    const edited = gzipSync(raw.replace('\tu\t', '\tv\t'));

    const cases: [string, Buffer, string][] = [
      [
        'flipped.gz',
        Buffer.concat([bytes.subarray(0, 200), Buffer.from([bytes[200]! ^ 0xff]), bytes.subarray(201)]),
        'damaged',
      ],
      ['cut.gz', bytes.subarray(0, Math.floor(bytes.length / 2)), 'cut short'],
      ['edited.gz', edited, 'does not match its checksum'],
      ['foreign.gz', gzipSync('hello\n'), 'not a Yidu backup'],
      ['plain.txt', Buffer.from('not even gzip'), 'not a Yidu backup'],
      ['newer.gz', newer, 'made by a newer Yidu'],
    ];
    for (const [name, content, message] of cases) {
      await writeFile(path.join(dir, name), content);
      const target = await emptyDatabase();
      const refused = await runAdmin(['restore', path.join(dir, name)], { DATABASE_URL: target, DATA_DIR: dir });
      expect({ name, code: refused.code, err: refused.err }).toMatchObject({
        name,
        code: 1,
        err: expect.stringContaining(message),
      });
      expect(await tables(target)).toBe(0);
    }
    expect(
      (await runAdmin(['restore', path.join(dir, 'nowhere.gz')], { DATABASE_URL: source, DATA_DIR: dir })).err,
    ).toContain('There is no backup file');
  }, 180_000);

  it('restores a backup of an older schema and brings it to this version', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-old-backup-'));
    dirs.push(dir);
    const known = knownMigrations();
    const source = await emptyDatabase();
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: source }) }),
    });
    await migrateOnly(db, known.slice(0, -1));
    await db.destroy();
    await query(
      source,
      `INSERT INTO users (account, password_hash, username, invite_code, status) VALUES ('old', 'x', 'old', 'c1', 'active')`,
    );
    const file = path.join(dir, 'old.gz');
    expect(await runAdmin(['backup', file], { DATABASE_URL: source, DATA_DIR: dir })).toMatchObject({ code: 0 });

    const target = await emptyDatabase();
    const restored = await runAdmin(['restore', file], { DATABASE_URL: target, DATA_DIR: dir });
    expect(restored).toMatchObject({ code: 0, err: '' });
    expect(restored.out).toContain(`Migrated since: ${known.at(-1)}.`);
    expect(
      (await query<{ name: string }>(target, `SELECT name FROM yidu_migrations ORDER BY name`)).map((r) => r.name),
    ).toEqual(known);
    expect(await query(target, `SELECT account FROM users`)).toEqual([{ account: 'old' }]);
  }, 120_000);
});
