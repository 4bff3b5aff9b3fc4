/**
 * Yidu as `npm start` runs it, in a process of its own, and the few calls tests make on it: for
 * tests that kill it, restart it, or measure it from outside (durability, hostile uploads).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Yidu as `npm start` runs it, in its own process, so that the test can kill it with SIGKILL. */
export function startYidu(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** The environment of a Yidu killed and started again by these tests. */
export function yiduEnv(where: { databaseUrl: string; dataDir: string; port: number }): Record<string, string> {
  return {
    DATABASE_URL: where.databaseUrl,
    DATA_DIR: where.dataDir,
    PORT: String(where.port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    REQUIRE_INVITE: 'false',
    EMAIL_ACTIVATION: 'false',
    STAGE_STALE_SECONDS: '2',
    WEB_DIST_DIR: where.dataDir,
    // Unless a test starts a fake, an unused port refuses at once.
    MICROSOFT_TRANSLATOR_ENDPOINT: 'http://127.0.0.1:9',
  };
}

export async function waitHealthy(base: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
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
export async function api(base: string, pathName: string, init: RequestInit = {}, token?: string): Promise<any> {
  const headers: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}) };
  if (typeof init.body === 'string') headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${pathName}`, { ...init, headers });
  return (await res.json()).data;
}

/** Polls the parse stage of an upload until it is no longer running (or a minute has passed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the stage state as the API answers it
export async function parsed(base: string, requestId: string, token: string): Promise<any> {
  const deadline = Date.now() + 60_000;
  let state;
  do {
    await new Promise((r) => setTimeout(r, 300));
    state = await api(base, `/api/book/analysis?requestId=${requestId}`, {}, token);
  } while (state.status === 'running' && Date.now() < deadline);
  return state;
}
