/**
 * Backup and restore (`npm run admin -- backup/restore`) on a seeded data set: 1,000 users with
 * their points ledgers, 5,000 books of 100 paragraphs of real prose (Sherlock Holmes) each with a
 * finished Chinese translation (real Chinese prose of 三国演义), reading positions and marks.
 * References, measured in the same run on the same database:
 *   - the data's own size: the tables' heap and TOAST, and with their indexes;
 *   - a plain COPY of every table to nowhere in one snapshot: what any logical backup must read;
 *   - `pg_dump -Fc` where a matching one is installed (Debian's pg_dump 15 refuses PostgreSQL 18).
 *
 *   node bench/backup.ts     (from the repository root; needs ../shared/corpus)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import iconv from 'iconv-lite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { backupDatabase } from '../apps/server/src/db/backup/backup.ts';
import { plainIndexesOf, quoteIdent, tablesOf } from '../apps/server/src/db/backup/catalog.ts';
import { restoreDatabase } from '../apps/server/src/db/backup/restore.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { createLogger } from '../apps/server/src/lib/logger.ts';

const root = path.resolve(import.meta.dirname, '..');
const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(root, '../shared/corpus');
const USERS = 1000;
const BOOKS = Number(process.env.BENCH_BOOKS ?? 5000);
const BLOCKS_PER_BOOK = 100;

const paragraphs = (text: string) =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 40);
const english = paragraphs(await readFile(path.join(corpus, 'txt/en-sherlock-holmes-utf8-bom-crlf.txt'), 'utf8'));
const chinese = iconv
  .decode(await readFile(path.join(corpus, 'txt/zh-sanguo-yanyi-gbk.txt')), 'gbk')
  .split(/\r?\n/)
  .map((p) => p.trim())
  .filter((p) => p.length > 20);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-bench-backup-'));
const server = await startEmbeddedPostgres({
  dataDir,
  port: 56000 + Math.floor(Math.random() * 1000),
  logger: createLogger('warn', 'bench'),
  database: 'postgres',
});
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
const urlOf = (name: string) => {
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return url.toString();
};
await admin.query('CREATE DATABASE bench_source');
await admin.query('CREATE DATABASE bench_restored');
const sourceUrl = urlOf('bench_source');

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

try {
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: sourceUrl, max: 2 }) }),
  });
  await migrateToLatest(db);
  const seedStarted = Date.now();
  // Seeded without the plain indexes, built once after (row by row, the search indexes take minutes).
  const seeding = new pg.Client({ connectionString: sourceUrl });
  await seeding.connect();
  const indexes = await plainIndexesOf(seeding);
  for (const index of indexes) await seeding.query(`DROP INDEX ${quoteIdent(index.name)}`);
  await sql`
    INSERT INTO users (account, password_hash, username, invite_code, status, points_balance)
    SELECT 'user' || g, 'argon2-hash-' || md5(g::text), 'user' || g, 'invite' || g, 'active', 1000 - (g % 50)
    FROM generate_series(1, ${USERS}) g`.execute(db);
  await sql`
    INSERT INTO points_ledger (user_id, type, points, balance_before, reason, idempotency_key)
    SELECT id, 'income', 1000, 0, 'registration', 'start:' || id FROM users`.execute(db);
  await sql`
    INSERT INTO points_ledger (user_id, type, points, balance_before, reason, idempotency_key)
    SELECT id, 'expenditure', 1000 - points_balance, 1000, 'translation', 'page:' || id FROM users WHERE points_balance < 1000`.execute(
    db,
  );
  await sql`
    INSERT INTO books (code, owner_id, title, author, format, visibility, status, original_language,
                       chapter_count, block_count, char_count, page_count, readers_count)
    SELECT 'bench' || g, 1 + g % ${USERS}, 'Book number ' || g, 'Author ' || (g % 300), 'txt', g % 2, 'ready', 'en',
           5, ${BLOCKS_PER_BOOK}, 50000, 5, g % 97
    FROM generate_series(1, ${BOOKS}) g`.execute(db);
  await sql`
    INSERT INTO book_chapters (book_id, idx, title, level, first_page, first_seq, block_count)
    SELECT b.id, c, 'Chapter ' || c, 1, c, (c - 1) * 20 + 1, 20
    FROM books b CROSS JOIN generate_series(1, 5) c`.execute(db);
  await sql`
    INSERT INTO book_blocks (book_id, seq, block_id, chapter_idx, page, type, text)
    SELECT b.id, s, 'c' || ((s - 1) / 20 + 1) || '-b' || s, (s - 1) / 20 + 1, (s - 1) / 20 + 1, 'paragraph',
           (${english}::text[])[1 + (b.id * 37 + s) % ${english.length}]
    FROM books b CROSS JOIN generate_series(1, ${BLOCKS_PER_BOOK}) s`.execute(db);
  await sql`
    INSERT INTO book_translations (book_id, target_lang, seq, status, translation, engine, model)
    SELECT book_id, 'zh', seq, 'done', (${chinese}::text[])[1 + (book_id * 41 + seq) % ${chinese.length}], 'microsoft', ''
    FROM book_blocks`.execute(db);
  await sql`
    INSERT INTO user_books (user_id, book_id, title, author, source)
    SELECT owner_id, id, title, author, 'upload' FROM books`.execute(db);
  for (const index of indexes) await seeding.query(index.definition);
  await seeding.end();
  await sql`VACUUM ANALYZE`.execute(db);
  await db.destroy();
  console.log(`seeded in ${seconds(Date.now() - seedStarted)}`);

  // The data's own size.
  const source = new pg.Client({ connectionString: sourceUrl });
  await source.connect();
  const [size] = (
    await source.query<{ heap: string; total: string; rows: string }>(
      `SELECT sum(pg_table_size(c.oid))::bigint AS heap, sum(pg_total_relation_size(c.oid))::bigint AS total,
              sum(c.reltuples)::bigint AS rows
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r'`,
    )
  ).rows;

  // A plain COPY of every table in one snapshot, to nowhere.
  let copyBytes = 0;
  const copyStarted = Date.now();
  await source.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  for (const { table, columns } of await tablesOf(source)) {
    const copy = source.query(copyTo(`COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) TO STDOUT`));
    await pipeline(
      copy,
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          copyBytes += chunk.length;
          done();
        },
      }),
    );
  }
  await source.query('COMMIT');
  const copyMs = Date.now() - copyStarted;
  await source.end();

  const rows: string[][] = [];
  rows.push(['data in its tables (heap + TOAST)', '-', mb(Number(size!.heap)), '-']);
  rows.push(['tables with their indexes', '-', mb(Number(size!.total)), '-']);
  rows.push(['plain COPY of every table (reference)', seconds(copyMs), mb(copyBytes), '1.00x']);

  let restoreFile = '';
  for (const level of [1, 6, 9]) {
    const file = path.join(dataDir, `bench-${level}.backup.gz`);
    const made = await backupDatabase({ url: sourceUrl, file, yiduVersion: 'bench', gzipLevel: level });
    rows.push([
      `yidu backup, gzip ${level}${level === 6 ? ' (default)' : ''}`,
      seconds(made.ms),
      mb(made.fileBytes),
      `${(made.ms / copyMs).toFixed(2)}x`,
    ]);
    if (level === 6) restoreFile = file;
  }
  const steps: { step: string; at: number }[] = [];
  const restored = await restoreDatabase({
    url: urlOf('bench_restored'),
    file: restoreFile,
    force: false,
    onStep: (step) => steps.push({ step, at: Date.now() }),
  });
  rows.push(['yidu restore (default backup)', seconds(restored.ms), '-', `${(restored.ms / copyMs).toFixed(2)}x`]);
  steps.push({ step: 'end', at: Date.now() });
  const durations = steps.slice(0, -1).map((s, i) => ({ step: s.step, ms: steps[i + 1]!.at - s.at }));
  const phases = durations.map((d) => `${d.step} ${seconds(d.ms)}`);
  const indexingMs = durations.find((d) => d.step === 'indexing')!.ms;

  // The reference for the restore's longest step: the same indexes built again on the source.
  const reindex = new pg.Client({ connectionString: sourceUrl });
  await reindex.connect();
  await reindex.query(`SET maintenance_work_mem = '256MB'`);
  const reindexStarted = Date.now();
  for (const index of await plainIndexesOf(reindex)) await reindex.query(`REINDEX INDEX ${quoteIdent(index.name)}`);
  const reindexMs = Date.now() - reindexStarted;
  await reindex.end();
  rows.push([
    "restore's indexing step (in the line above)",
    seconds(indexingMs),
    '-',
    `${(indexingMs / copyMs).toFixed(2)}x`,
  ]);
  rows.push([
    'REINDEX of the same indexes on the source (reference)',
    seconds(reindexMs),
    '-',
    `${(reindexMs / copyMs).toFixed(2)}x`,
  ]);

  try {
    const dump = path.join(dataDir, 'bench.dump');
    const started = Date.now();
    await promisify(execFile)('pg_dump', ['-Fc', '-f', dump, sourceUrl]);
    rows.push(['pg_dump -Fc', seconds(Date.now() - started), mb((await stat(dump)).size), '-']);
  } catch (error) {
    const reason =
      String((error as { stderr?: string }).stderr ?? (error as Error).message)
        .split('\n')
        .find((l) => l.includes('version') || l.includes('not found')) ?? 'not available';
    rows.push([`pg_dump -Fc: ${reason.trim()}`, '-', '-', '-']);
  }

  console.log(
    `\n${USERS} users, ${BOOKS} books, ${BOOKS * BLOCKS_PER_BOOK} paragraphs and translations (${size!.rows} rows)\n`,
  );
  console.log('| what | time | size | time vs COPY |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log(`\nrestore steps: ${phases.join(', ')}`);
} finally {
  await admin.end();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
