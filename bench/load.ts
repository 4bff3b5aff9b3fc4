/**
 * Load benchmark (issue 8): reader page data with cached translations, and the public library
 * listing, under 100 concurrent connections on 127.0.0.1, against a minimal Fastify route measured in
 * the same run as the ceiling. Yidu and the ceiling each run in their own process; autocannon here.
 *
 *   node bench/load.ts            (from the repository root; needs ../shared/corpus)
 *   node bench/load.ts --profile  (also writes a CPU profile of the Yidu process to bench/results/)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { api, freePort, stopAll, waitFor } from './yidu-process.ts';
import { startFakeMicrosoft } from '../apps/server/src/engines/translation/testing/fake-servers.ts';

const root = path.resolve(import.meta.dirname, '..');
const corpus = process.env.YIDU_CORPUS_DIR || path.resolve(root, '../shared/corpus');
const CONNECTIONS = 100;
const DURATION = 10;
const PROFILE = process.argv.includes('--profile');

function run(url: string, headers: Record<string, string> = {}) {
  return new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
}

const profileFlags = ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench/results/profile')}`];
const children: ChildProcess[] = [];
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-load-'));
const translator = await startFakeMicrosoft();
try {
  const ceilingPort = await freePort();
  children.push(
    spawn(process.execPath, [path.join(import.meta.dirname, 'ceiling-server.ts'), String(ceilingPort)], {
      stdio: 'ignore',
    }),
  );
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  children.push(
    spawn(process.execPath, [...(PROFILE ? profileFlags : []), 'apps/server/src/main.ts'], {
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
        MICROSOFT_TRANSLATOR_ENDPOINT: translator.url,
      },
    }),
  );
  await waitFor(`http://127.0.0.1:${ceilingPort}/ping`);
  await waitFor(`${base}/api/health`);

  // A reader with a book whose first pages are translated (the cache the load reads).
  const { token } = await api(base, '/api/auth/register', {
    method: 'POST',
    body: JSON.stringify({ method: 'email', email: 'load@example.com', password: 'Load2026pass' }),
  });
  const form = new FormData();
  form.append(
    'file',
    new Blob([await readFile(path.join(corpus, 'txt/en-pride-and-prejudice-cp1252-crlf.txt'))]),
    'pride.txt',
  );
  const { fileId } = await api(base, '/api/book/upload', { method: 'POST', body: form }, token);
  const { requestId } = await api(
    base,
    '/api/book/saveNew',
    {
      method: 'POST',
      body: JSON.stringify({ fileId, bookName: 'Pride and Prejudice', bookStatus: 1, language: 'zh' }),
    },
    token,
  );
  let bookCode = '';
  for (const stage of ['analysis', 'languageDetection', 'translationBookName', 'saveBookById']) {
    for (;;) {
      const state = await api(base, `/api/book/${stage}?requestId=${requestId}`, {}, token);
      if (state.status !== 'running') {
        if (stage === 'saveBookById') bookCode = state.result.bookCode;
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const pageUrl = `${base}/api/reader/getPageData?bookCode=${bookCode}&language=zh&page=3`;
  for (;;) {
    const page = await api(base, `/api/reader/getPageData?bookCode=${bookCode}&language=zh&page=3`, {}, token);
    if (page.blocks.every((b: { status: string }) => b.status === 'done')) break;
    await new Promise((r) => setTimeout(r, 200));
  }

  const ceiling = await run(`http://127.0.0.1:${ceilingPort}/ping`);
  const pageData = await run(pageUrl, { authorization: `Bearer ${token}` });
  const library = await run(`${base}/api/book/library`, { authorization: `Bearer ${token}` });
  // Response size including headers: the ceiling answers a few bytes, a page several kilobytes.
  const size = (r: autocannon.Result) => `${(r.throughput.total / r.requests.total / 1024).toFixed(1)} KB`;
  const row = (name: string, r: autocannon.Result) =>
    `| ${name} | ${r.requests.average.toFixed(0)} | ${((r.requests.average / ceiling.requests.average) * 100).toFixed(1)}% | ${r.latency.p50} ms | ${r.latency.p99} ms | ${size(r)} | ${r.non2xx} |`;
  const table = [
    `| call (${CONNECTIONS} connections, ${DURATION} s) | requests/s | of ceiling | p50 | p99 | response | non-2xx |`,
    '|---|---:|---:|---:|---:|---:|---:|',
    row('ceiling: minimal Fastify route', ceiling),
    row('GET /api/reader/getPageData (cached)', pageData),
    row('GET /api/book/library', library),
  ].join('\n');
  console.log(table);
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(
    path.join(root, 'bench/results/load.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        connections: CONNECTIONS,
        duration: DURATION,
        ceiling: ceiling.requests,
        pageData: { requests: pageData.requests, latency: pageData.latency },
        library: { requests: library.requests, latency: library.latency },
      },
      null,
      2,
    ),
  );
} finally {
  // The server writes its CPU profile when it exits, after its graceful shutdown.
  await stopAll(children);
  await translator.close();
  await rm(dataDir, { recursive: true, force: true });
}
