import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD } from './helpers.ts';
import { api, freePort, startYidu, waitHealthy } from './yidu-process.ts';

const serverDir = path.resolve(import.meta.dirname, '..');

/** Runs `npm run admin -- …` as README gives it: the command line with only the data directory set. */
function admin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/cli/admin.ts', ...args], {
      cwd: serverDir,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** Asks /api/health every 100 ms until stopped; collects every answer that was not 200. */
function watchHealth(base: string) {
  const failures: string[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const status = await fetch(`${base}/api/health`).then(
        (r) => String(r.status),
        (e: Error) => e.message,
      );
      if (status !== '200') failures.push(status);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    failures,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

/**
 * The admin command line beside a running Yidu whose database was started on a port of its own
 * (EMBEDDED_PG_PORT): it finds that database through DATA_DIR alone and never stops it.
 */
describe('the admin command line beside a running server', () => {
  const children: ChildProcess[] = [];
  let dataDir: string | undefined;
  afterAll(async () => {
    for (const child of children.filter((c) => c.exitCode === null && c.signalCode === null)) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('mints codes in the running database with DATA_DIR only, and the server stays up', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'yidu-admin-cli-'));
    await chmod(dataDir, 0o711); // as root, PostgreSQL runs as 'postgres' and passes through it
    const pgPort = await freePort();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      WEB_DIST_DIR: dataDir,
      EMAIL_ACTIVATION: 'false',
      MICROSOFT_TRANSLATOR_ENDPOINT: 'http://127.0.0.1:9',
      ENGINE_PROBE_MINUTES: '0',
      ADMIN_ACCOUNT: 'cli-admin',
      ADMIN_PASSWORD: STRONG_PASSWORD,
    };
    children.push(startYidu({ ...env, EMBEDDED_PG_PORT: String(pgPort) }));
    await waitHealthy(base, 120_000); // a new cluster is made first (initdb)
    // The port is recorded also when it was given: the command line (and pg_dump) find it there.
    expect(Number((await readFile(path.join(dataDir, 'postgres-port'), 'utf8')).trim())).toBe(pgPort);

    const health = watchHealth(base);
    const minted = await admin(['invite', '--count', '2'], { DATA_DIR: dataDir });
    await new Promise((r) => setTimeout(r, 1000));
    await health.stop();
    expect(minted.err).not.toMatch(/stopping a PostgreSQL/);
    expect(minted.code).toBe(0);
    expect(health.failures).toEqual([]);
    const codes = minted.out.trim().split('\n');
    expect(codes).toHaveLength(2);

    // The codes are in the running server's database: registration takes one.
    const registered = await api(base, '/api/auth/register', {
      method: 'POST',
      body: JSON.stringify({
        method: 'email',
        email: 'cli@example.com',
        password: STRONG_PASSWORD,
        inviteCode: codes[0],
      }),
    });
    expect(typeof registered.token).toBe('string');

    // A second Yidu on the same data directory refuses to start; the first keeps its database.
    const secondPort = await freePort();
    const second = startYidu({ ...env, PORT: String(secondPort) });
    children.push(second);
    const exitCode = await new Promise((resolve) => second.once('exit', resolve));
    expect(exitCode).not.toBe(0);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    const again = await admin(['invite'], { DATA_DIR: dataDir });
    expect(again.code).toBe(0);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);

    // Killed outright, Yidu leaves its PostgreSQL running with nobody to own it: the next start stops
    // that one and comes up on the same data.
    const first = children[0]!;
    const killed = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await killed;
    children.push(startYidu({ ...env, EMBEDDED_PG_PORT: String(pgPort) }));
    await waitHealthy(base, 120_000);
    const login = await api(base, '/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ account: 'cli@example.com', password: STRONG_PASSWORD }),
    });
    expect(typeof login.token).toBe('string');
  }, 300_000);
});
