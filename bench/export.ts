/**
 * Export bench (issue 20): the time and the server's peak memory to export a whole book as EPUB, for the
 * generated 30 MB EPUB (the largest book the parse bench makes) and Moby-Dick, beside two references
 * measured in the same run: reading the same rows from the database (the export's own queries, nothing
 * rendered), and Info-ZIP's `zip -6` of the very files the export wrote (the zip of the same bytes).
 *
 * Yidu runs in its own process on an embedded PostgreSQL (so its RSS is the export's alone); the book is
 * uploaded and parsed as usual, then every paragraph gets a translation of its own length straight in
 * the database (the fake engine would take an hour for 12,000 pages), and prices are 0 so that the
 * export needs no page charges. RSS is sampled from /proc every 20 ms while the export streams.
 *
 *   node --expose-gc bench/export.ts      (results also in bench/results/export.json)
 */
import { spawn, execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { createDb } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { createLogger } from '../apps/server/src/lib/logger.ts';
import { ExportRepo } from '../apps/server/src/modules/export/export.repo.ts';
import { documentPlan, writeEpub, type EpubSource } from '../apps/server/src/modules/export/epub-book.ts';
import type { ExportMode } from '../apps/server/src/modules/export/epub-content.ts';
import { LocalStorage } from '../apps/server/src/engines/storage/storage.ts';
import { generateLargeBooks } from './generate-large.ts';

const run = promisify(execFile);
const RUNS = 3;
const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(import.meta.dirname, '../../shared/corpus');
const repoRoot = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const rssOf = async (pid: number) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
};
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const work = await mkdtemp(path.join(os.tmpdir(), 'yidu-bench-export-'));
// As root, PostgreSQL runs as 'postgres', which must be able to pass through this directory.
await chmod(work, 0o711);
const database = await startEmbeddedPostgres({
  dataDir: path.join(work, 'pg'),
  port: await freePort(),
  logger: createLogger('silent'),
});
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
/**
 * `--heap-mb=N` caps the V8 old space of the server that exports at N MB (uploading and parsing the 30 MB
 * book needs more, so that server runs uncapped): the export still finishing shows what it keeps alive,
 * whatever garbage V8 would otherwise let pile up before collecting it.
 */
const heapMb = process.argv.find((a) => a.startsWith('--heap-mb='))?.split('=')[1];
const heapFlags = heapMb ? [`--max-old-space-size=${heapMb}`] : [];
const startYidu = (flags: string[] = []) =>
  spawn(process.execPath, [...flags, 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      DATA_DIR: path.join(work, 'app'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      RATE_LIMIT_PER_MINUTE: '100000',
      UPLOADS_PER_DAY: '100',
      // The generated EPUB is a little over the default 30 MB.
      UPLOAD_MAX_MB: '64',
      WEB_DIST_DIR: work,
      MICROSOFT_TRANSLATOR_ENDPOINT: 'http://127.0.0.1:9',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
let yidu = startYidu();
const healthy = async () => {
  for (const deadline = Date.now() + 60_000; ;) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error('Yidu did not come up');
    await new Promise((r) => setTimeout(r, 200));
  }
};

const { db } = createDb(database.url, 2);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the envelope's data is whatever the call answers
async function api(pathName: string, init: RequestInit = {}, token?: string): Promise<any> {
  const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
  if (typeof init.body === 'string') headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${pathName}`, { ...init, headers });
  const json = await res.json();
  if (json.code !== 0) throw new Error(`${pathName}: ${JSON.stringify(json.data)}`);
  return json.data;
}

async function uploadBook(file: string, token: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(file)]), path.basename(file));
  const { fileId } = await api('/api/book/upload', { method: 'POST', body: form }, token);
  const body = JSON.stringify({ fileId, bookName: path.basename(file), bookStatus: 0, language: 'zh' });
  const { requestId } = await api('/api/book/saveNew', { method: 'POST', body }, token);
  for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
    for (;;) {
      const state = await api(`/api/book/${stage}?requestId=${requestId}`, {}, token).catch(() => ({
        status: 'failed',
      }));
      if (state.status === 'done') {
        if (stage === 'saveBookById') return state.result.bookCode as string;
        break;
      }
      // A title the engine cannot translate does not stop the book.
      if (state.status === 'failed' && stage !== 'translationBookName') throw new Error(`${stage} failed`);
      if (state.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new Error('unreachable');
}

interface Row {
  book: string;
  size: number;
  pages: number;
  mode: string;
  epubBytes: number;
  exportMs: number;
  baselineRss: number;
  peakRss: number;
  dbReadMs: number;
  zipMs: number;
  /** Most memory the export kept alive (after a full GC), above what the process held before it. */
  liveGrowth: number;
}

/**
 * The export run in this process, with a full GC every 50 documents (`--expose-gc`): the most memory it
 * keeps alive (V8 heap, buffers and other external memory), above what the process held before. This is
 * what the export needs, whatever garbage a server's V8 lets pile up between collections.
 */
async function liveMemory(bookId: number, mode: ExportMode): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return Number.NaN;
  // zlib gives its native memory back after the GC, from a callback: let it run before reading.
  const live = async () => {
    gc();
    await new Promise((r) => setTimeout(r, 20));
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const book = await db.selectFrom('books').selectAll().where('id', '=', bookId).executeTakeFirstOrThrow();
  const repo = new ExportRepo(db);
  const storage = new LocalStorage(path.join(work, 'app', 'files'));
  let documents = 0;
  let most = 0;
  const source: EpubSource = {
    book,
    title: book.title,
    author: book.author,
    description: book.description,
    target: 'zh',
    mode,
    modified: book.updated_at,
    chapters: await db.selectFrom('book_chapters').selectAll().where('book_id', '=', bookId).execute(),
    linkEnds: await repo.linkEnds(bookId),
    images: await repo.images(bookId),
    coverKey: book.cover_key,
    blocks: async (from, to) => {
      if (++documents % 50 === 0) most = Math.max(most, await live());
      return repo.blocks(bookId, 'zh', from, to);
    },
    picture: async (key, mediaType) => ({ data: await storage.get(key), mediaType }),
  };
  const before = await live();
  for await (const chunk of writeEpub(source)) void chunk;
  return Math.max(most, await live()) - before;
}

try {
  await healthy();
  // Prices of 0: every page is free, so the export needs no charges (the bench seeds translations directly).
  await sql`INSERT INTO prices (action, points) VALUES ('translation', 0), ('translationCached', 0)
            ON CONFLICT (action) DO UPDATE SET points = 0`.execute(db);
  const { token } = await api('/api/auth/register', {
    method: 'POST',
    body: JSON.stringify({ method: 'email', email: 'bench@example.com', password: 'Reading2026' }),
  });

  const large = await generateLargeBooks(corpus, path.join(os.tmpdir(), 'yidu-bench'));
  const books = [
    { label: 'generated/large.epub', file: large.epub },
    { label: 'epub/en-moby-dick-epub3.epub', file: path.join(corpus, 'epub/en-moby-dick-epub3.epub') },
  ];
  const rows: Row[] = [];
  const uploaded = [];
  for (const { label, file } of books) {
    const size = (await readFile(file)).length;
    const code = await uploadBook(file, token);
    const book = await db
      .selectFrom('books')
      .select(['id', 'page_count'])
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    await sql`
      INSERT INTO book_translations (book_id, target_lang, seq, status, translation, engine, model)
      SELECT book_id, 'zh', seq, 'done',
             '[zh-Hans] ' || coalesce(html, replace(replace(replace(text, '&', '&amp;'), '<', '&lt;'), '>', '&gt;')),
             'bench', 'bench'
        FROM book_blocks
       WHERE book_id = ${book.id} AND type IN ('heading', 'paragraph', 'quote', 'listItem', 'footnote', 'table')
      ON CONFLICT DO NOTHING`.execute(db);
    uploaded.push({ label, size, code, book });
  }
  await sql`ANALYZE book_blocks`.execute(db);
  await sql`ANALYZE book_translations`.execute(db);
  /** A fresh server process: what uploading, parsing or another export left in its heap is not counted. */
  const restart = async () => {
    yidu.kill('SIGTERM');
    await new Promise((resolve) => yidu.once('exit', resolve));
    yidu = startYidu(heapFlags);
    await healthy();
    // Let the start-up settle (the worker's warm-up, the first scheduled jobs).
    await new Promise((r) => setTimeout(r, 3_000));
  };

  for (const { label, size, code, book } of uploaded) {
    // Reference 1: the export's own queries (its documents, in its order) over the whole book, rows read and dropped.
    const repo = new ExportRepo(db);
    const plan = documentPlan(
      await db.selectFrom('book_chapters').selectAll().where('book_id', '=', book.id).execute(),
      book.page_count,
    );
    const dbRead: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      for (const document of plan) await repo.blocks(book.id, 'zh', document.from, document.to);
      dbRead.push(performance.now() - started);
    }

    for (const mode of ['bilingual', 'translated']) {
      const times: number[] = [];
      const peaks: number[] = [];
      let epub = Buffer.alloc(0);
      // Memory: the first export in a fresh process, against that process's RSS just before it.
      await restart();
      const baseline = await rssOf(yidu.pid!);
      for (let i = 0; i < RUNS; i++) {
        let peak = 0;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            peak = Math.max(peak, await rssOf(yidu.pid!));
            await new Promise((r) => setTimeout(r, 20));
          }
        })();
        const started = performance.now();
        const res = await fetch(`${base}/api/book/export?bookCode=${code}&language=zh&mode=${mode}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
        const chunks: Buffer[] = [];
        const reader = res.body!.getReader();
        for (let part = await reader.read(); !part.done; part = await reader.read())
          chunks.push(Buffer.from(part.value));
        times.push(performance.now() - started);
        sampling = false;
        await sampler;
        peaks.push(peak);
        epub = Buffer.concat(chunks);
      }

      // Reference 2: Info-ZIP on the same files (deflate level 6, as the export), one process.
      const unpacked = await mkdtemp(path.join(work, 'unzip-'));
      await writeFile(path.join(unpacked, 'book.epub'), epub);
      await run('unzip', ['-q', 'book.epub', '-d', 'files'], { cwd: unpacked });
      const zips: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        await rm(path.join(unpacked, 'again.zip'), { force: true });
        const started = performance.now();
        await run('zip', ['-q', '-r', '-6', '../again.zip', '.'], { cwd: path.join(unpacked, 'files') });
        zips.push(performance.now() - started);
      }
      if (mode === 'bilingual' && label.startsWith('generated')) {
        await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
        await writeFile(path.join(os.tmpdir(), 'yidu-bench', 'large-bilingual.epub'), epub);
      }
      await rm(unpacked, { recursive: true, force: true });
      rows.push({
        book: label,
        size,
        pages: book.page_count,
        mode,
        epubBytes: epub.length,
        exportMs: median(times),
        baselineRss: baseline,
        peakRss: peaks[0]!,
        dbReadMs: median(dbRead),
        zipMs: median(zips),
        liveGrowth: await liveMemory(book.id, mode as ExportMode),
      });
    }
  }

  console.log(
    '| book | size | pages | mode | EPUB | export | DB read (ref.) | ratio | zip -6 (ref.) | ratio | RSS before (fresh) | peak RSS | growth | kept alive |',
  );
  console.log('| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.book} | ${mb(r.size)} | ${r.pages} | ${r.mode} | ${mb(r.epubBytes)} | ${r.exportMs.toFixed(0)} ms | ${r.dbReadMs.toFixed(0)} ms | ${(r.exportMs / r.dbReadMs).toFixed(2)}x | ${r.zipMs.toFixed(0)} ms | ${(r.exportMs / r.zipMs).toFixed(2)}x | ${mb(r.baselineRss)} | ${mb(r.peakRss)} | ${mb(r.peakRss - r.baselineRss)} | ${mb(r.liveGrowth)} |`,
    );
  }
  await mkdir(path.join(repoRoot, 'bench/results'), { recursive: true });
  await writeFile(path.join(repoRoot, 'bench/results/export.json'), JSON.stringify(rows, null, 2));
} finally {
  yidu.kill('SIGTERM');
  await new Promise((resolve) => yidu.once('exit', resolve));
  await db.destroy();
  await database.stop();
  await rm(work, { recursive: true, force: true });
}
