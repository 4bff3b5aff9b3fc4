import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/db/embedded.ts';
import { createLogger } from '../src/lib/logger.ts';

/** Occupies a port on 127.0.0.1, as another program (or another Yidu's database) would. */
async function occupy(port = 0): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { port: (server.address() as { port: number }).port, server };
}

const release = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function answers(db: EmbeddedServer): Promise<boolean> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query('SELECT 1 AS one')).rows[0].one === 1;
  } finally {
    await client.end();
  }
}

const recorded = async (dataDir: string) =>
  Number((await readFile(path.join(dataDir, 'postgres-port'), 'utf8')).trim());

/**
 * Two Yidu on one machine: without EMBEDDED_PG_PORT the embedded PostgreSQL takes a free port when
 * its default is busy, records it in the data directory and finds it again at the next start.
 */
describe('the embedded PostgreSQL port', () => {
  const logger = createLogger('silent');
  const dirs: string[] = [];
  const running: EmbeddedServer[] = [];
  const children: ChildProcess[] = [];
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'yidu-port-'));
    dirs.push(dir);
    return dir;
  };
  const start = async (options: { dataDir: string; port?: number; defaultPort?: number }) => {
    const db = await startEmbeddedPostgres({ ...options, logger });
    running.push(db);
    return db;
  };
  afterAll(async () => {
    // SIGTERM, so that each Yidu stops its PostgreSQL (a SIGKILL would leave it running).
    for (const child of children.filter((c) => c.exitCode === null && c.signalCode === null)) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    }
    for (const db of running) await db.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('takes another port when the default is busy, and the next start finds it again', async () => {
    const busy = await occupy();
    const [dirA, dirB] = [await dataDir(), await dataDir()];
    const [a, b] = await Promise.all([
      start({ dataDir: dirA, defaultPort: busy.port }),
      start({ dataDir: dirB, defaultPort: busy.port }),
    ]);
    expect(a.port).not.toBe(busy.port);
    expect(b.port).not.toBe(busy.port);
    expect(a.port).not.toBe(b.port);
    expect(await answers(a)).toBe(true);
    expect(await answers(b)).toBe(true);
    expect(await recorded(dirA)).toBe(a.port);
    expect(await recorded(dirB)).toBe(b.port);

    // Stopped and started again: the same port, whatever the default.
    await a.stop();
    const again = await start({ dataDir: dirA, defaultPort: busy.port });
    expect(again.port).toBe(a.port);
    expect(await answers(again)).toBe(true);

    // Its port taken meanwhile: another one, recorded for next time.
    await again.stop();
    const thief = await occupy(again.port);
    const moved = await start({ dataDir: dirA, defaultPort: busy.port });
    expect(moved.port).not.toBe(again.port);
    expect(await recorded(dirA)).toBe(moved.port);
    expect(await answers(moved)).toBe(true);
    await release(thief.server);
    await release(busy.server);
  }, 90_000);

  it('uses a free default as it is', async () => {
    const free = await occupy();
    await release(free.server);
    const dir = await dataDir();
    const db = await start({ dataDir: dir, defaultPort: free.port });
    expect(db.port).toBe(free.port);
    expect(await recorded(dir)).toBe(free.port);
  }, 60_000);

  it('keeps EMBEDDED_PG_PORT: that port or a clear failure, never another', async () => {
    const busy = await occupy();
    await expect(startEmbeddedPostgres({ dataDir: await dataDir(), port: busy.port, logger })).rejects.toThrow(
      /Address already in use|could not create any TCP\/IP sockets/,
    );
    await release(busy.server);

    // Free, it is used and recorded like any other (the admin CLI and the docs find it there).
    const fixed = await occupy();
    await release(fixed.server);
    const dir = await dataDir();
    const db = await start({ dataDir: dir, port: fixed.port });
    expect(db.port).toBe(fixed.port);
    expect(await recorded(dir)).toBe(fixed.port);
  }, 60_000);

  it('starts two Yidu with separate data directories on one machine', async () => {
    const free = async () => {
      const { port, server } = await occupy();
      await release(server);
      return port;
    };
    const yidu = async () => {
      const dir = await dataDir();
      const port = await free();
      const child = spawn(process.execPath, ['src/main.ts'], {
        cwd: path.resolve(import.meta.dirname, '..'),
        // No EMBEDDED_PG_PORT: both try the default port 54320 (or whatever they recorded).
        env: {
          PATH: process.env.PATH,
          DATA_DIR: dir,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'error',
          WEB_DIST_DIR: dir,
          MICROSOFT_TRANSLATOR_ENDPOINT: 'http://127.0.0.1:9',
          ENGINE_PROBE_MINUTES: '0',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      return { dir, base: `http://127.0.0.1:${port}`, child };
    };
    const both = [await yidu(), await yidu()];
    const healthy = async (base: string) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const ok = await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return true;
        if (Date.now() > deadline) return false;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    expect(await Promise.all(both.map((y) => healthy(y.base)))).toEqual([true, true]);
    const ports = await Promise.all(both.map((y) => recorded(y.dir)));
    expect(ports[0]).not.toBe(ports[1]);
    for (const y of both) {
      const exited = new Promise((resolve) => y.child.once('exit', resolve));
      y.child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});
