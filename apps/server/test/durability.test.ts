import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/db/embedded.ts';
import { createLogger } from '../src/lib/logger.ts';
import { CORPUS, createTestDatabase, STRONG_PASSWORD } from './helpers.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Yidu as `npm start` runs it, in its own process, so that the test can kill it with SIGKILL. */
function startYidu(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitHealthy(base: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('Yidu did not come up');
    await new Promise((r) => setTimeout(r, 200));
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the envelope's data is whatever the call answers
async function api(base: string, pathName: string, init: RequestInit = {}, token?: string): Promise<any> {
  const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
  if (typeof init.body === 'string') headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${pathName}`, { ...init, headers });
  return (await res.json()).data;
}

/** Polls the parse stage of an upload until it is no longer running (or a minute has passed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the stage state as the API answers it
async function parsed(base: string, requestId: string, token: string): Promise<any> {
  const deadline = Date.now() + 60_000;
  let state;
  do {
    await new Promise((r) => setTimeout(r, 300));
    state = await api(base, `/api/book/analysis?requestId=${requestId}`, {}, token);
  } while (state.status === 'running' && Date.now() < deadline);
  return state;
}

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
    const env = {
      DATABASE_URL: await createTestDatabase(),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      REQUIRE_INVITE: 'false',
      EMAIL_ACTIVATION: 'false',
      STAGE_STALE_SECONDS: '2',
      WEB_DIST_DIR: dataDir,
      MICROSOFT_TRANSLATOR_ENDPOINT: 'http://127.0.0.1:9',
    };
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
