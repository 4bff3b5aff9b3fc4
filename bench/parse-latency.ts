/**
 * Other users' request latency while the largest books parse (issue 17): Yidu in its own process
 * (embedded PostgreSQL, role all: the API and the worker share one event loop, the parse runs in a
 * parse process), a reader's ordinary calls fired at a steady rate from here, first on the idle
 * server (the reference, same run), then while each generated 30 MB book (EPUB, TXT, DOCX) and the
 * 2,956-page PDF is uploaded and parsed by another user, from the upload until the book is stored.
 *
 *   node bench/parse-latency.ts        (from the repository root; needs ../shared/corpus and pdfunite)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { api, freePort, stopAll, waitFor } from './yidu-process.ts';
import { startFakeMicrosoft } from '../apps/server/src/engines/translation/testing/fake-servers.ts';
import { generateLargeBooks, generateLargePdfs } from './generate-large.ts';

const root = path.resolve(import.meta.dirname, '..');
const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(root, '../shared/corpus');
/** One of the reader's calls every this many ms, whether or not the last one has answered. */
const INTERVAL_MS = 25;
const IDLE_SECONDS = 15;

/** Uploads a book and follows its stages until it is stored; returns the parse stage's own duration. */
async function uploadAndWait(base: string, token: string, file: string, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await readFile(file))]), name);
  const { fileId } = await api(base, '/api/book/upload', { method: 'POST', body: form }, token);
  const { requestId } = await api(
    base,
    '/api/book/saveNew',
    { method: 'POST', body: JSON.stringify({ fileId, bookName: name, bookStatus: 0, language: 'zh' }) },
    token,
  );
  for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
    for (;;) {
      const state = await api(base, `/api/book/${stage}?requestId=${requestId}`, {}, token);
      if (state.status === 'failed') throw new Error(`${name}: ${stage} failed: ${JSON.stringify(state)}`);
      if (state.status !== 'running') {
        if (stage === 'saveBookById') return `${state.result.bookCode}`;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error('unreachable');
}

interface Phase {
  name: string;
  seconds: number;
  latencies: number[];
  failures: number;
}

/** Fires the reader's calls at a steady rate until `until` settles; open loop, so a stall shows. */
async function measure(name: string, calls: (() => Promise<Response>)[], until: Promise<unknown>): Promise<Phase> {
  const latencies: number[] = [];
  let failures = 0;
  const pending: Promise<void>[] = [];
  let n = 0;
  const started = performance.now();
  const timer = setInterval(() => {
    const call = calls[n++ % calls.length]!;
    const asked = performance.now();
    pending.push(
      call().then(
        async (res) => {
          await res.arrayBuffer();
          if (!res.ok) failures++;
          latencies.push(performance.now() - asked);
        },
        () => {
          failures++;
        },
      ),
    );
  }, INTERVAL_MS);
  try {
    await until;
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(pending);
  return { name, seconds, latencies, failures };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

const children: ChildProcess[] = [];
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-parse-latency-'));
const translator = await startFakeMicrosoft();
try {
  const generated = path.join(os.tmpdir(), 'yidu-bench');
  const books = await generateLargeBooks(corpus, generated);
  const pdfs = await generateLargePdfs(corpus, generated);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  children.push(
    spawn(process.execPath, ['apps/server/src/main.ts'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        LOG_LEVEL: 'error',
        REQUIRE_INVITE: 'false',
        EMAIL_ACTIVATION: 'false',
        RATE_LIMIT_PER_MINUTE: '1000000',
        UPLOAD_MAX_MB: '40',
        MICROSOFT_TRANSLATOR_ENDPOINT: translator.url,
      },
    }),
  );
  await waitFor(`${base}/api/health`);

  // The reader: a book whose page 3 is translated, read again and again with the library and profile.
  const register = (email: string) =>
    api(base, '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({ method: 'email', email, password: 'Bench2026pass' }),
    }).then((d: { token: string }) => d.token);
  const reader = await register('reader@example.com');
  const uploader = await register('uploader@example.com');
  const bookCode = await uploadAndWait(
    base,
    reader,
    path.join(corpus, 'txt/en-pride-and-prejudice-cp1252-crlf.txt'),
    'pride.txt',
  );
  const pagePath = `/api/reader/getPageData?bookCode=${bookCode}&language=zh&page=3`;
  for (;;) {
    const page = await api(base, pagePath, {}, reader);
    if (page.blocks.every((b: { status: string }) => b.status === 'done')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const auth = { headers: { authorization: `Bearer ${reader}` } };
  const calls = [
    () => fetch(`${base}${pagePath}`, auth),
    () => fetch(`${base}/api/book/library`, auth),
    () => fetch(`${base}/api/user/getUserinfo`, auth),
    () => fetch(`${base}/api/health`),
  ];

  const phases: Phase[] = [];
  const parseTimes: Record<string, number> = {};
  phases.push(await measure('idle server (reference)', calls, new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000))));
  for (const [name, file] of [
    ['generated/large.epub (30 MB)', books.epub],
    ['generated/large.txt (30 MB)', books.txt],
    ['generated/large.docx (30 MB)', books.docx],
    ['generated/long.pdf (2,956 pages, 30 MB)', pdfs.long],
  ] as const) {
    const started = performance.now();
    const stored = uploadAndWait(base, uploader, file, path.basename(file)).then(() => {
      parseTimes[name] = performance.now() - started;
    });
    phases.push(await measure(`while ${name} is uploaded, parsed and stored`, calls, stored));
  }

  const rows = phases.map((p) => {
    const sorted = [...p.latencies].sort((a, b) => a - b);
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
    const book = Object.entries(parseTimes).find(([name]) => p.name.includes(name));
    return `| ${p.name} | ${book ? `${(book[1] / 1000).toFixed(1)} s` : `${p.seconds.toFixed(0)} s`} | ${sorted.length} | ${fmt(percentile(sorted, 50))} | ${fmt(percentile(sorted, 99))} | ${fmt(sorted.at(-1) ?? 0)} | ${p.failures} |`;
  });
  console.log(
    [
      `| phase (a reader's call every ${INTERVAL_MS} ms) | upload to stored | requests | p50 | p99 | max | failed |`,
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  );
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(
    path.join(root, 'bench/results/parse-latency.json'),
    JSON.stringify({ at: new Date().toISOString(), intervalMs: INTERVAL_MS, phases, parseTimes }, null, 2),
  );
} finally {
  await stopAll(children);
  await translator.close();
  await rm(dataDir, { recursive: true, force: true });
}
